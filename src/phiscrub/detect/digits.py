"""Digit lanes: the digit-led alternatives of a pattern file, found together (speed only).

The alternatives of one file whose matches start with a digit (or rare punctuation such
as ``(`` or ``#``) form a lane: at a place where one may start, they are tried in file
order and the first that matches is the candidate there (so the earlier pattern wins a
tie); a match that fails its hooks gives way to the next alternative of the lane at the
same position (:meth:`DigitLane.next_at`).

Alternatives that start with an ASCII digit are tried only at the runs of the note's
shared digit index (:func:`digit_runs`: every run, grouped by its length and the two
characters after it, computed once per note for every file and the digit-led anchors),
and at a run only those whose run tests admit it (its length and the two characters after
it, :mod:`phiscrub.detect.gates`): most runs (``5 mg``, ``120/80`` for an age) are never
tried, and at the others one or two alternatives are. A lane whose alternatives no digit
precedes (``\\b``, ``(?<!\\d)``, a look-behind ending in a non-digit, first) is tried at a
run's first digit only, the others at each digit of a run where the tests admit the rest
of the run. The non-digit first characters (``(``, ``#``, ``+``...) get one lane each,
led by that literal: the engine skips to it (memchr) where it tests a class at every
character. Exact (``tests/detect/test_scan.py``, ``test_speed.py``).

Each alternative is matched alone (``re.match`` at the place): a joined regex with one
named group per alternative, to read which one matched, cost three times as much per try
(the engine saves and restores the marks of a hundred groups at every branch), and its
compilation took 0.4 s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from re import _constants as C  # type: ignore[attr-defined]
from typing import Any

from phiscrub.detect.gates import KMAX, Test, digit_item, run_tests
from phiscrub.detect.lanes import ByteClass
from phiscrub.detect.regex_shape import parse
from phiscrub.detect.scan import first_set

_NAMED = re.compile(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>")
#: characters a digit-lane alternative may start with (no letters, no white space)
LANE_CHARS = frozenset("0123456789(+#'*$@~[/")
_DIGITS = frozenset("0123456789")
#: ASCII letters: an alternative that can also start with one is found there by the word lane
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def after_non_digit(alt: str, bits: int) -> bool:
    """Does no digit precede a match (``\\b``, ``(?<!\\d)``, ``(?<![\\w...])`` or a
    look-behind that ends with a non-digit, first on every path)? A lane of such
    alternatives is tried at a run's first digit only."""
    try:
        return _no_digit_before(parse(alt, bits).data)
    except re.error:
        return False


def _no_digit_before(items: Sequence[tuple[Any, Any]]) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op is C.AT:
        if av is C.AT_BOUNDARY:  # before a digit (a word character): a non-word one
            return True
        return _no_digit_before(items[1:])
    if op is C.ASSERT_NOT and av[0] == -1:
        inner = av[1].data
        if (
            len(inner) == 1
            and inner[0][0] is C.IN
            and any(
                (o is C.CATEGORY and a in (C.CATEGORY_WORD, C.CATEGORY_DIGIT))
                or (o is C.RANGE and a[0] <= ord("0") and a[1] >= ord("9"))
                for o, a in inner[0][1]
            )
        ):
            return True
        if (
            len(inner) == 1
            and inner[0][0] is C.CATEGORY
            and inner[0][1] in (C.CATEGORY_WORD, C.CATEGORY_DIGIT)
        ):
            return True
        return _no_digit_before(items[1:])  # all leading assertions hold: another may prove it
    if op is C.ASSERT and av[0] == -1:
        last = av[1].data[-1] if av[1].data else None
        if last is not None and last[0] in (C.LITERAL, C.IN) and not digit_item(*last):
            return True  # the character before is one that is not a digit
        return _no_digit_before(items[1:])
    if op in (C.ASSERT, C.ASSERT_NOT):  # another assertion first: look at what follows
        return _no_digit_before(items[1:])
    if op is C.SUBPATTERN:
        return _no_digit_before([*av[3].data, *items[1:]])
    if op is C.BRANCH:
        return all(_no_digit_before([*alt.data, *items[1:]]) for alt in av[1])
    return False


def digit_led(alt: str, bits: int) -> bool:
    """Does every match of the alternative start with a character of ``LANE_CHARS``?"""
    first = first_set(alt, bits)
    return first is not None and first <= LANE_CHARS


#: a run of ASCII digits: (its length, KMAX + 1 for longer ones; the character after it;
#: the one after that), "" for the end of the text
RunKey = tuple[int, str, str]
#: a run of ASCII digits (matched at a long run's start), its first digit apart
_RUN = re.compile(r"[0-9][0-9]*")
_MANY = KMAX + 1
_runs_memo: list[tuple[str, dict[RunKey, list[int]]]] = []
#: the runs of the shared digit index, read by byte maps (:class:`lanes.ByteClass`)
_ASCII_DIGITS = ByteClass("0123456789")


def digit_runs(text: str) -> dict[RunKey, list[int]]:
    """The start of every run of ASCII digits in ``text``, grouped by :data:`RunKey` (the
    last two notes' indexes are kept)."""
    for t, runs in _runs_memo:
        if t is text:
            return runs
    runs = {}
    get = runs.get
    for digits, s in zip(*_ASCII_DIGITS.find(text), strict=True):
        n = len(digits)
        e = s + n
        key = (n if n < _MANY else _MANY, text[e : e + 1], text[e + 1 : e + 2])
        got = get(key)
        if got is None:
            runs[key] = [s]
        else:
            got.append(s)
    _runs_memo[:] = [*_runs_memo[-1:], (text, runs)]
    return runs


def admits(tests: tuple[Test, ...] | None, key: RunKey) -> bool:
    """May an alternative with these run tests match at a run of this key?"""
    if tests is None:
        return True
    n, c1, c2 = key
    test = tests[n - 1]
    if test is None:
        return False
    if isinstance(test, str) or n == _MANY:
        return True
    # c1 or c2 "" (the end of the text) is among a record's characters where \Z may be
    for (chars, wide), after in test:
        if not (c1 in chars or (wide and c1 > "\x7f")):
            continue
        if after is None or c2 in after[0] or (after[1] and c2 > "\x7f"):
            return True
    return False


#: one candidate of a lane: (start, slot, end, match, the lane)
LaneHit = tuple[int, int, int, re.Match[str], "DigitLane"]


@dataclass(frozen=True)
class DigitLane:
    """The digit-led alternatives of one file, tried in file order at their first chars.

    A lane of alternatives that start with an ASCII digit (``digits``) is tried at the
    runs of :func:`digit_runs`: at a run's first digit only when guarded, else at each
    digit of the run; at each place, only the alternatives whose run tests admit the
    (rest of the) run, in file order. A lane led by another character (``(``, ``#``...)
    finds its places with one regex led by that literal (the alternatives joined, without
    groups), then tries the alternatives there in file order.
    """

    slots: tuple[int, ...]  # the slot of each alternative, in file order
    alones: tuple[re.Pattern[str], ...]  # each alternative compiled alone (its own groups)
    regex: re.Pattern[str] | None  # a lane led by another character: where one may match
    guard: bool = False
    tests: tuple[tuple[Test, ...] | None, ...] = ()
    # run key -> the alternatives (numbers, file order) whose tests admit a run of this key
    orders: dict[RunKey, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    yes: set[RunKey] = field(default_factory=set, compare=False, repr=False)  # admitted keys
    # unguarded: run key -> (offset in the run, alternatives to try) for each digit where
    # the tests admit the rest of the run (a long run: read per run, see _long)
    places: dict[RunKey, tuple[tuple[int, tuple[int, ...]], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    some: set[RunKey] = field(default_factory=set, compare=False, repr=False)  # places there

    @classmethod
    def build(
        cls,
        items: Sequence[tuple[int, str, str]],
        guard: bool = False,
        digits: bool = True,
        only: str = "",
    ) -> DigitLane | None:
        """``items``: (slot, alternative regex, flags) in file order. ``digits``: the lane is
        tried at the ASCII digits an alternative can start with, else at its other first
        characters (``only``: at this one); ``guard``: no digit precedes a match
        (:func:`after_non_digit`), so the lane is tried only at the first digit of a run."""
        chars: set[str] = set()
        bare: list[str] = []
        all_tests: list[tuple[Test, ...] | None] = []
        for _, alt, flags in items:
            bits = _bits(flags)
            first = first_set(alt, bits)
            assert first is not None
            chars |= first & _DIGITS if digits else first - _DIGITS - _LETTERS
            if only:
                chars &= {only}
            plain = _NAMED.sub("(?:", alt)  # the joined regex only finds places: no groups
            bare.append(f"(?{flags}:{plain})" if flags else f"(?:{plain})")
            all_tests.append(run_tests(alt, bits) if digits else None)
        if not chars:
            return None
        regex = None
        if not digits:  # after the class, so that the regex keeps its charset prefix
            regex = re.compile(f"{_class(chars)}(?<=(?=(?:{'|'.join(bare)}))(?s:.))")
        alones = tuple(re.compile(f"(?{flags}:{alt})" if flags else alt) for _, alt, flags in items)
        slots = tuple(s for s, _, _ in items)
        return cls(slots, alones, regex, guard and digits, tuple(all_tests))

    def order(self, key: RunKey) -> tuple[int, ...]:
        """The alternatives whose run tests admit a run of this key, in file order
        (memoised; a key that admits one is in ``yes``)."""
        got = self.orders.get(key)
        if got is None:
            got = tuple(k for k, t in enumerate(self.tests) if admits(t, key))
            self.orders[key] = got
            if got:
                self.yes.add(key)
        return got

    def admitted_keys(self, runs: dict[RunKey, list[int]]) -> set[RunKey]:
        """The keys of ``runs`` that the lane admits (set operations in C: a note's keys are
        met once each, and most were seen in earlier notes)."""
        keys = runs.keys()
        # a set's difference with a dict walks the set (a view's would walk the dict)
        for key in set(keys).difference(self.orders):
            self.order(key)
        return keys & self.yes

    def _offsets(self, key: RunKey) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Unguarded: (offset, alternatives) for each digit of a run of this key where the
        tests admit the rest of the run (memoised; a key with some is in ``some``). A long
        run's rests are as long as the run's length says: ``((-1, ()),)`` if any may be."""
        got = self.places.get(key)
        if got is None:
            n, c1, c2 = key
            if n == _MANY:
                admitted = any(self.order((k, c1, c2)) for k in range(1, _MANY + 1))
                got = ((-1, ()),) if admitted else ()
            else:
                got = tuple((n - k, o) for k in range(n, 0, -1) if (o := self.order((k, c1, c2))))
            self.places[key] = got
            if got:
                self.some.add(key)
        return got

    def find_all(self, text: str) -> list[LaneHit]:
        """(start, slot, end, match, lane) of the first alternative (file order) that matches
        at each position where one does."""
        out: list[LaneHit] = []
        alones, slots = self.alones, self.slots
        if self.regex is not None:  # led by another character
            for hit in self.regex.finditer(text):
                p = hit.start()
                for k in range(len(alones)):
                    if (m := alones[k].match(text, p)) is not None:
                        out.append((p, slots[k], m.end(), m, self))
                        break
            return out
        runs = digit_runs(text)
        if self.guard:
            orders = self.orders
            for key in self.admitted_keys(runs):
                order = orders[key]
                for p in runs[key]:
                    for k in order:
                        if (m := alones[k].match(text, p)) is not None:
                            out.append((p, slots[k], m.end(), m, self))
                            break
            return out
        keys = runs.keys()
        for key in set(keys).difference(self.places):  # keys not met before
            self._offsets(key)
        for key in keys & self.some:
            starts = runs[key]
            if key[0] == _MANY:  # a long run: every digit, the rest's length read off it
                found = [(p, o) for s in starts for p, o in self._long(text, s, key[1], key[2])]
            else:
                found = [(s + j, o) for j, o in self.places[key] for s in starts]
            for p, order in found:
                for k in order:
                    if (m := alones[k].match(text, p)) is not None:
                        out.append((p, slots[k], m.end(), m, self))
                        break
        return out

    def _long(self, text: str, s: int, c1: str, c2: str) -> list[tuple[int, tuple[int, ...]]]:
        run = _RUN.match(text, s)
        assert run is not None
        e = run.end()
        out = []
        for p in range(s, e):
            o = self.order((min(e - p, _MANY), c1, c2))
            if o:
                out.append((p, o))
        return out

    def next_at(self, text: str, start: int, slot: int) -> LaneHit | None:
        """The next alternative after ``slot`` (file order) that matches at ``start``."""
        for j in range(self.slots.index(slot) + 1, len(self.slots)):
            m = self.alones[j].match(text, start)
            if m is not None:
                return (start, self.slots[j], m.end(), m, self)
        return None


def _class(chars: set[str] | frozenset[str]) -> str:
    return "[" + "".join(f"\\U{ord(c):08x}" for c in sorted(chars)) + "]"


def _bits(flags: str) -> int:
    bits = 0
    for f in flags:
        bits |= {"i": re.I, "m": re.M, "x": re.X}[f]
    return bits
