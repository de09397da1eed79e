"""Run tests: which digit-led alternatives can match at a run of digits (speed only).

A digit lane (:mod:`phiscrub.detect.digits`) used to try every one of its alternatives at
every run of digits in a note; most fail a few characters later, where the run ends
(``12/03``: a ``/`` after one or two digits; ``2071-05-03``: a ``-`` after four). Each try
costs the engine a few hundred instructions, and a note's digits times a lane's
alternatives added up. Here each alternative that starts with an ASCII digit is read once
(its parse tree) into *run tests*: for each length of the run of ASCII digits where a
match starts, which characters may end that run and which may follow that one. The lane
is tried only at the runs whose length and two next characters its tests admit
(:func:`phiscrub.detect.digits.admits`), and there only the alternatives they admit.
This module also reads other facts off parse trees: :func:`no_line_break`,
:func:`max_breaks`.

Soundness: wherever an alternative matches at an ASCII digit, its tests admit the run
there (a test is never stricter than the regex). The walk follows every path of the
regex while it consumes ASCII digits; zero-width assertions are taken as passing (an
over-approximation); a path stops at its first character that may be something other
than an ASCII digit, which can only be the character that ends the run; a path that may
end after ``n`` digits admits every run of ``n`` digits or more, whatever follows.
``tests/detect/test_scan.py`` checks the lanes against one plain alternation.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from re import _constants as C  # type: ignore[attr-defined]
from typing import Any

from phiscrub.detect.regex_shape import parse

#: run lengths tracked exactly; longer runs are "at least KMAX + 1"
KMAX = 12
_MANY = KMAX + 1
_ASCII_DIGITS = "0123456789"
_WIDE = "\\U00000080-\\U0010ffff"
_CHAR_OPS = (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN)
_CATEGORIES = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_NOT_SPACE: r"\S",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\W",
}
#: a repeat with a larger minimum is not followed (no gate)
_MAX_MIN_REPEAT = 64


class _Unknown(Exception):
    """The walk cannot follow this regex (a back-reference, a conditional...)."""


#: what ``item_source`` raises, for other modules
UnknownItem = _Unknown


def _char(c: int) -> str:
    return f"\\U{c:08x}"


def item_source(op: Any, av: Any, flags: int) -> str:
    """The source of one single-character item, its flags scoped to it (also used by the
    note gate, ``prefilter.py``); raises :class:`UnknownItem` for an item it cannot write."""
    if op is C.LITERAL:
        src = _char(av)
    elif op is C.NOT_LITERAL:
        src = f"[^{_char(av)}]"
    elif op is C.ANY:
        return "(?s:.)" if flags & re.S else "[^\\n]"
    else:
        parts: list[str] = []
        for o, a in av:
            if o is C.NEGATE:
                parts.insert(0, "^")
            elif o is C.LITERAL:
                parts.append(_char(a))
            elif o is C.RANGE:
                parts.append(f"{_char(a[0])}-{_char(a[1])}")
            elif o is C.CATEGORY and a in _CATEGORIES:
                parts.append(_CATEGORIES[a])
            else:
                raise _Unknown
        src = "[" + "".join(parts) + "]"
    return f"(?i:{src})" if flags & re.I else src


@functools.cache
def _takes_digit(src: str) -> bool:
    """Can the item match an ASCII digit?"""
    rx = re.compile(src)
    return any(rx.match(d) for d in _ASCII_DIGITS)


def digit_item(op: Any, av: Any, flags: int = 0) -> bool:
    """Can the single-character item match an ASCII digit?"""
    return _takes_digit(item_source(op, av, flags))


_ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@functools.cache
def _letters_of(src: str) -> int:
    rx = re.compile(src)
    return sum(1 for c in _ASCII_LETTERS if rx.match(c))


def letters_taken(op: Any, av: Any, flags: int = 0) -> int | None:
    """How many of the 52 ASCII letters the single-character item matches (the engine
    says); None when it is not a single-character item (or cannot tell)."""
    if op not in _CHAR_OPS:
        return None
    try:
        return _letters_of(item_source(op, av, flags))
    except _Unknown:
        return None


def _takes_other(op: Any, av: Any) -> bool:
    """Can the item match a character that is not an ASCII digit? (True when unsure)"""
    if op is C.LITERAL:
        return chr(av) not in _ASCII_DIGITS
    if op is not C.IN:
        return True
    for o, a in av:
        if o is C.LITERAL and chr(a) in _ASCII_DIGITS:
            continue
        if o is C.RANGE and ord("0") <= a[0] and a[1] <= ord("9"):
            continue
        return True  # a negation, a category (\d takes other decimal digits), a wider range
    return False


#: a walk state: the digits consumed (still in the run), or (the run's length, the item that
#: took the character ending it, or _END)
_State = int | tuple[int, str]
#: the "item" that \Z puts after the run or after the character that ends it: the end of
#: the text (the character "" of :func:`phiscrub.detect.digits.admits`)
_END = "\\Z"


class _Walk:
    """Follows a regex over a run of ASCII digits and the two characters after it; records
    where a path may end or leave the run."""

    def __init__(self) -> None:
        self.ends: set[int] = set()  # digits consumed when a path may end in the run
        # (run length, item taking the character after it) -> items that may take the
        # next one (None: a path may end there: anything may follow)
        self.pairs: dict[tuple[int, str], set[str] | None] = {}
        self.wide: dict[str, bool] = {_END: False}  # item -> may it take a non-ASCII character

    def seq(
        self, items: Sequence[tuple[Any, Any]], states: frozenset[_State], flags: int
    ) -> frozenset[_State]:
        for op, av in items:
            if not states:
                break
            states = self.item(op, av, states, flags)
        return states

    def finish(self, states: frozenset[_State]) -> None:
        """The regex ends: record where."""
        for st in states:
            if isinstance(st, int):
                self.ends.add(st)
            else:
                self.pairs[st] = None

    def at_end(self, states: frozenset[_State]) -> frozenset[_State]:
        """``\\Z``: the text ends here: right after the run (the run's end is _END), or after
        the character that ends it (then the path stops: the record says the end follows).
        No character can follow _END."""
        out: set[_State] = set()
        for st in states:
            if isinstance(st, int):
                if st > 0:
                    out.add((st, _END))
            elif st[1] == _END:
                out.add(st)
            elif (got := self.pairs.setdefault(st, set())) is not None:
                got.add(_END)
        return frozenset(out)

    def char(self, op: Any, av: Any, states: frozenset[_State], flags: int) -> frozenset[_State]:
        src = item_source(op, av, flags)
        self.wide.setdefault(src, _non_ascii(op, av, flags))
        digit, other = _takes_digit(src), _takes_other(op, av)
        out: set[_State] = set()
        for st in states:
            if isinstance(st, int):
                if digit:
                    out.add(min(st + 1, _MANY))
                if other and st > 0:  # the character after the run (the run is not empty)
                    out.add((st, src))
            elif st[1] != _END and (got := self.pairs.setdefault(st, set())) is not None:
                got.add(src)  # the second character after the run: the walk stops here
        return frozenset(out)

    def item(self, op: Any, av: Any, states: frozenset[_State], flags: int) -> frozenset[_State]:
        if op is C.AT and av is C.AT_END_STRING:
            return self.at_end(states)
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            return states  # zero width: taken as passing
        if op in _CHAR_OPS:
            return self.char(op, av, states, flags)
        if op is C.BRANCH:
            out: frozenset[_State] = frozenset()
            for alt in av[1]:
                out |= self.seq(alt.data, states, flags)
            return out
        if op is C.SUBPATTERN:
            _, add, delete, sub = av
            return self.seq(sub.data, states, (flags | add) & ~delete)
        if op is C.ATOMIC_GROUP:
            return self.seq(av.data, states, flags)
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            return self.repeat(av, states, flags)
        raise _Unknown

    def repeat(self, av: Any, states: frozenset[_State], flags: int) -> frozenset[_State]:
        lo, hi, sub = av
        if lo > _MAX_MIN_REPEAT:
            raise _Unknown
        cur = states
        for _ in range(lo):  # exactly ``lo`` repetitions
            nxt = self.seq(sub.data, cur, flags)
            if nxt == cur:
                break  # a fixed point: more repetitions reach the same states
            cur = nxt
        # then up to hi - lo more: every state reachable in that many steps (breadth first)
        reached, frontier = set(cur), cur
        steps = 0
        while frontier and (hi is C.MAXREPEAT or steps < hi - lo):
            steps += 1
            nxt = self.seq(sub.data, frontier, flags)
            frontier = frozenset(nxt - reached)
            reached |= nxt
        return frozenset(reached)


#: the characters a test admits: (ASCII ones and "" for the end of the text, may it be a
#: non-ASCII one)
Chars = tuple[frozenset[str], bool]
#: one way a run of some length may end: (the character after it, the one after that:
#: None when anything may follow, the end of the text too)
Record = tuple[Chars, Chars | None]
#: what may end a run of one length: None (no match), "" (anything, more digits too), or
#: the records of the ways it may end
Test = tuple[Record, ...] | str | None


@functools.cache
def _ascii(src: str, digits: bool) -> frozenset[str]:
    """The ASCII characters (digits too or not) that the single-character item matches."""
    rx = re.compile(src)
    return frozenset(
        ch for ch in map(chr, range(128)) if (digits or ch not in _ASCII_DIGITS) and rx.match(ch)
    )


def _chars(src: str, digits: bool) -> frozenset[str]:
    """What a record admits for an item: its ASCII characters, or "" (the end of the text)
    for _END."""
    return frozenset({""}) if src == _END else _ascii(src, digits)


def _non_ascii(op: Any, av: Any, flags: int) -> bool:
    """Can the item match a character beyond ASCII? (True when unsure)"""
    if flags & re.I:
        return True  # case folding: k matches the Kelvin sign
    if op is C.LITERAL:
        return bool(av >= 128)
    if op is C.IN:
        return any(
            o is C.NEGATE
            or o is C.CATEGORY
            or (o is C.LITERAL and a >= 128)
            or (o is C.RANGE and a[1] >= 128)
            for o, a in av
        )
    return True


@functools.cache
def run_tests(alt: str, bits: int) -> tuple[Test, ...] | None:
    """For each run length L = 1 .. KMAX + 1 (the last: KMAX + 1 or more) of the ASCII digits
    where a match of ``alt`` (flags ``bits``) starts, how the run may end (:data:`Test`);
    None when the walk cannot follow ``alt``."""
    walk = _Walk()
    try:
        parsed = parse(alt, bits)
        walk.finish(walk.seq(parsed.data, frozenset({0}), parsed.state.flags))
    except (_Unknown, re.error):
        return None
    if 0 in walk.ends:
        return None  # a match may consume no digit
    least = min(walk.ends, default=_MANY + 1)
    out: list[Test] = []
    for n in range(1, _MANY + 1):
        if n >= least:
            out.append("")
            continue
        records: list[Record] = []
        for (k, first), after in walk.pairs.items():
            if k != n:
                continue
            then: Chars | None = None
            if after is not None:
                chars = frozenset().union(*(_chars(a, True) for a in after))
                then = (chars, any(walk.wide[a] for a in after))
            records.append(((_chars(first, False), walk.wide[first]), then))
        out.append(tuple(records) if records else None)
    return tuple(out)


def no_line_break(regex: str, bits: int = 0) -> bool:
    """Is every match of ``regex`` (flags ``bits``) non-empty and free of line breaks?
    (False when unsure; look-arounds may look past a line end: they consume nothing.)"""
    try:
        parsed = parse(regex, bits)
        return bool(parsed.getwidth()[0] > 0) and _breaks(parsed.data, parsed.state.flags) == 0
    except (_Unknown, re.error):
        return False


def max_breaks(regex: str, bits: int = 0) -> int | None:
    """How many line breaks a match of ``regex`` may hold at most (None: unbounded or
    unsure; look-arounds consume nothing)."""
    try:
        parsed = parse(regex, bits)
        return _breaks(parsed.data, parsed.state.flags)
    except (_Unknown, re.error):
        return None


def _breaks(items: Sequence[tuple[Any, Any]], flags: int) -> int | None:
    total = 0
    for op, av in items:
        n: int | None
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            n = 0
        elif op in _CHAR_OPS:
            n = 1 if re.match(item_source(op, av, flags), "\n") else 0
        elif op is C.BRANCH:
            counts = [_breaks(alt.data, flags) for alt in av[1]]
            n = None if None in counts else max(c for c in counts if c is not None)
        elif op is C.SUBPATTERN:
            n = _breaks(av[3].data, (flags | av[1]) & ~av[2])
        elif op is C.ATOMIC_GROUP:
            n = _breaks(av.data, flags)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            inner = _breaks(av[2].data, flags)
            if inner == 0:
                n = 0
            else:
                n = None if inner is None or av[1] is C.MAXREPEAT else inner * av[1]
        else:
            return None
        if n is None:
            return None
        total += n
    return total


#: every ASCII letter (what letters_taken counts)
_ALL_LETTERS = 52


def at_word(alt: str, bits: int = 0) -> bool:
    """Does every match start where a run of ASCII letters may start: after ``\\b``, after
    ``(?<![\\w...])`` (a negative look-behind of one class that takes every ASCII letter) or
    after a look-behind whose last item takes no ASCII letter (``(?<=Fri/)``), first on every
    path, perhaps inside opening groups: ``(?i:\\b(?:pain|score)...``, or optional ones:
    ``(?:\\b(?:Trauma|ED)[ ])?\\b(?:Room|Bed)...``?"""
    try:
        parsed = parse(alt, bits)
        return _at_word_seq(parsed.data, parsed.state.flags)
    except re.error:
        return False


_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)


def _at_word_seq(items: Sequence[tuple[Any, Any]], flags: int) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op is C.AT:
        return av is C.AT_BOUNDARY
    if op is C.ASSERT_NOT and av[0] == -1:  # a negative look-behind of one class
        inner = av[1].data
        return len(inner) == 1 and letters_taken(inner[0][0], inner[0][1], flags) == _ALL_LETTERS
    if op is C.ASSERT and av[0] == -1:  # a look-behind whose last character is no letter
        inner = av[1].data
        return bool(inner) and letters_taken(inner[-1][0], inner[-1][1], flags) == 0
    if op is C.SUBPATTERN:
        return _at_word_seq(av[3].data, (flags | av[1]) & ~av[2])
    if op is C.BRANCH:
        return all(_at_word_seq(alt.data, flags) for alt in av[1])
    if op in _REPEATS:  # (?:X)?Y...: X at a word; and Y... too when X may be absent
        lo, _, inner = av
        return _at_word_seq(inner.data, flags) and (lo > 0 or _at_word_seq(items[1:], flags))
    return False
