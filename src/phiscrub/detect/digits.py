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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from re import _constants as C  # type: ignore[attr-defined]
from typing import Any, Generic, TypeVar

from phiscrub.detect.gates import KMAX, Test, digit_item, run_tests
from phiscrub.detect.lanes import ByteClass
from phiscrub.detect.regex_shape import parse, strip_lead
from phiscrub.detect.scan import first_set
from phiscrub.detect.tails import items as seq_items

V = TypeVar("V")
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
#: the shared digit index of a note: run key number (:class:`RunKeys`) -> the runs' starts
Runs = dict[int, list[int]]
_runs_memo: list[tuple[str, Runs]] = []
#: the runs of the shared digit index, read by byte maps (:class:`lanes.ByteClass`)
_ASCII_DIGITS = ByteClass("0123456789")
#: run keys numbered at most (then the numbering starts again: memos are rebuilt)
_KEYS_MAX = 100_000


class RunKeys:
    """Every run key met so far, numbered in order of first sight, for the whole process.
    A lane or anchor reads the keys of a note as small ints, and the keys it admits as a
    dict of those (:class:`KeyMemo`): the test of a note's keys is then an intersection
    of int sets, where sets of tuples were built and hashed for every lane and anchor of
    every note (about 30 per note)."""

    __slots__ = ("ids", "keys")

    def __init__(self) -> None:
        self.ids: dict[RunKey, int] = {}
        self.keys: list[RunKey] = []

    def number(self, key: RunKey) -> int:
        got = self.ids.get(key)
        if got is None:
            got = self.ids[key] = len(self.keys)
            self.keys.append(key)
        return got


_keys = RunKeys()


class KeyMemo(Generic[V]):
    """What one lane or anchor makes of each run key (``judge``), for the keys where that
    is not None: learnt once per key, in order of numbering, whatever note met it first."""

    __slots__ = ("judge", "of", "seen", "table")

    def __init__(self, judge: Callable[[RunKey], V | None]) -> None:
        self.judge = judge
        self.table = _keys
        self.seen = 0  # keys of ``table`` judged so far
        self.of: dict[int, V] = {}

    def admitted(self) -> dict[int, V]:
        """key number -> what ``judge`` gave, for every numbered key where it is not None."""
        table = _keys
        if self.table is not table:  # the numbering started again
            self.table, self.seen, self.of = table, 0, {}
        keys = table.keys
        if self.seen < len(keys):
            judge, of = self.judge, self.of
            for k in range(self.seen, len(keys)):
                if (got := judge(keys[k])) is not None:
                    of[k] = got
            self.seen = len(keys)
        return self.of


def run_key(number: int) -> RunKey:
    """The run key of a number that :func:`digit_runs` gave."""
    return _keys.keys[number]


def digit_runs(text: str) -> Runs:
    """The start of every run of ASCII digits in ``text``, grouped by :data:`RunKey`, each
    key given by its number (:func:`run_key`); the last two notes' indexes are kept."""
    global _keys
    for t, found in _runs_memo:
        if t is text:
            return found
    runs: dict[RunKey, list[int]] = {}
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
    if len(_keys.keys) > _KEYS_MAX:
        _keys = RunKeys()
        _runs_memo.clear()
    number = _keys.number
    out = {number(key): starts for key, starts in runs.items()}
    _runs_memo[:] = [*_runs_memo[-1:], (text, out)]
    return out


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


#: parse codes of an item that takes exactly one character
_ONE_CHAR = (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY, C.CATEGORY)


def before_test(alt: str, bits: int) -> re.Pattern[str] | None:
    """The leading assertions of ``alt`` that read only the character before a match (``\\b``
    and look-behinds of one character: ``(?<![\\d/.\\-])``), as one regex to match at 1 in
    that character + "0" (at 0 in "0" at the start of the text), or None. At an ASCII
    digit, where a digit lane tries ``alt``, they hold exactly when this test does; the
    others (``(?<!T )``, look-aheads) are left to the alternative."""
    keep: list[str] = []
    for item in seq_items(strip_lead(alt)[0]):
        try:
            data = parse(item, bits).data
        except re.error:
            continue
        if len(data) != 1:
            continue
        op, av = data[0]
        boundary = op is C.AT and av in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY)
        behind = (
            op in (C.ASSERT, C.ASSERT_NOT)
            and av[0] == -1
            and len(av[1].data) == 1
            and av[1].data[0][0] in _ONE_CHAR
        )
        if boundary or behind:
            keep.append(item)
    return re.compile("".join(keep), bits) if keep else None


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
    # guarded: each alternative's test of the character before a run (:func:`before_test`)
    before: tuple[re.Pattern[str] | None, ...] = ()
    # run key -> the alternatives (numbers, file order) whose tests admit a run of this key
    orders: dict[RunKey, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    # guarded: key number -> (the alternatives to try at a run's first digit, non-empty;
    # the character before the run -> those of them whose before_test it passes);
    # unguarded: key number -> (offset in the run, alternatives) for each digit where the
    # tests admit the rest of the run (a long run: ``((-1, ()),)``, read per run: _long)
    memo: KeyMemo[Any] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        judge = self._first if self.guard else self._offsets
        object.__setattr__(self, "memo", KeyMemo(judge))

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
        guard = guard and digits
        before = tuple(before_test(alt, _bits(flags)) for _, alt, flags in items) if guard else ()
        return cls(slots, alones, regex, guard, tuple(all_tests), before)

    def order(self, key: RunKey) -> tuple[int, ...]:
        """The alternatives whose run tests admit a run of this key, in file order
        (memoised)."""
        got = self.orders.get(key)
        if got is None:
            got = tuple(k for k, t in enumerate(self.tests) if admits(t, key))
            self.orders[key] = got
        return got

    def _first(self, key: RunKey) -> tuple[tuple[int, ...], dict[str, tuple[int, ...]]] | None:
        """Guarded: the alternatives to try at the first digit of a run of this key, and an
        empty memo of them by the character before the run (:meth:`_after`)."""
        order = self.order(key)
        return (order, {}) if order else None

    def _after(self, order: tuple[int, ...], prev: str) -> tuple[int, ...]:
        """The alternatives of ``order`` whose leading assertions may hold at a digit after
        ``prev`` ("" at the start of the text): most of a lane's tries failed there
        (``(?<![\\d/.\\-])`` after "/" or "."), each a call of the engine."""
        before = self.before
        return tuple(k for k in order if (t := before[k]) is None or t.match(prev + "0", len(prev)))

    def _offsets(self, key: RunKey) -> tuple[tuple[int, tuple[int, ...]], ...] | None:
        """Unguarded: (offset, alternatives) for each digit of a run of this key where the
        tests admit the rest of the run, None if at none. A long run's rests are as long
        as the run's length says: ``((-1, ()),)`` if any may be."""
        n, c1, c2 = key
        if n == _MANY:
            admitted = any(self.order((k, c1, c2)) for k in range(1, _MANY + 1))
            return ((-1, ()),) if admitted else None
        got = tuple((n - k, o) for k in range(n, 0, -1) if (o := self.order((k, c1, c2))))
        return got or None

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
        memo = self.memo.admitted()
        if self.guard:
            for key in runs.keys() & memo.keys():
                order, after = memo[key]
                for p in runs[key]:
                    prev = text[p - 1] if p else ""
                    if (got := after.get(prev)) is None:
                        got = after[prev] = self._after(order, prev)
                    for k in got:
                        if (m := alones[k].match(text, p)) is not None:
                            out.append((p, slots[k], m.end(), m, self))
                            break
            return out
        for key in runs.keys() & memo.keys():
            starts = runs[key]
            offsets = memo[key]
            if offsets[0][0] < 0:  # a long run: every digit, the rest's length read off it
                _, c1, c2 = run_key(key)
                found = [(p, o) for s in starts for p, o in self._long(text, s, c1, c2)]
            else:
                found = [(s + j, o) for j, o in offsets for s in starts]
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
