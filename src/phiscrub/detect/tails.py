"""Tails: a selective part that every match of a regex ends with (speed only, exact).

A pattern searched in windows (``anchor``, :class:`phiscrub.detect.scan.WindowCursor`)
such as ``city_state``, ``(?P<CITY>%CITY%),[ \\t]*(?P<STATE>%USPS%|%STATE_NAME%)\\b``, is
tried at every capital letter of its windows, and a window is wide (80 characters ahead
of a comma to the end of the line). But every match ends with the part from the comma on
(its *tail*): a match can only start on a line (or a few lines before) where the tail
matches, at or before that point. The tail is cheap to find: it starts with a rare
character (``,`` ``@``) or one of a few words. So the pattern is tried only at
the characters it can start with, ahead of a tail, inside its windows.

A tail led by words (``(?:Hospital|Medical Center|...)\\b``, about 50 of them) was found by
one ``str.find`` scan of the note per word. When the head's last character can never be an
ASCII letter (``[ \\t]+`` before the tail; :func:`ends_non_letter`), a tail inside a match
starts where a run of ASCII letters starts: its places come from the note's shared word
index (the detector registers ``(?<![A-Za-z])TAIL`` in the word lane,
:attr:`TailSearch.word_tail`), and the tail is matched there only; such a tail may then
start with words of two letters (``%CRED%``: ``MD``, ``RN``), which the index looks up
exactly. And a match's head consists of characters its items can take: a segment starts
after the last character before the tail that none of them takes (:func:`stop_before`;
``credentials``, whose head takes letters, spaces, ``.,'-``, is tried at about 3,000
capitals of the development corpus instead of 18,000).

:func:`split_tail` reads the regex as a sequence of items (groups without a quantifier or
an alternation are opened: their items are part of the sequence) and cuts it before the
first required item that starts with a rare character or a literal word (or two-letter
words, after a head that ends with a non-letter); the tail is the
rest of the sequence, so every match of the regex contains a match of the tail. The
items before the cut (the head) must match a bounded number of line breaks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from re import _constants as C  # type: ignore[attr-defined]
from typing import Any

from phiscrub.detect.gates import (
    _CHAR_OPS,
    _ascii,
    _non_ascii,
    _Unknown,
    item_source,
    letters_taken,
    max_breaks,
)
from phiscrub.detect.regex_shape import (
    FLAG_BITS,
    _group_end,
    char_class,
    first_set,
    parse,
    split_top,
    start_strings,
)
from phiscrub.detect.scan import Found, searchers

_ESCAPE_LEN = {"x": 4, "u": 6, "U": 10}
_QUANT = re.compile(r"(?:[*+?]|\{\d*(?:,\d*)?\})[?+]?")
_OPEN = re.compile(r"\(\?:|\(\?P<[A-Za-z_][A-Za-z0-9_]*>")
_COMMON = frozenset(" \t\n\r\f\v")
#: a tail whose first item is a literal word: its shortest start string is this long
_MIN_WORD = 3
#: heads may match at most this many line breaks
_MAX_BREAKS = 1


def _atom_end(src: str, i: int) -> int:
    c = src[i]
    if c == "\\":
        return i + _ESCAPE_LEN.get(src[i + 1], 2)
    if c == "[":
        j = i + 1
        if j < len(src) and src[j] == "^":
            j += 1
        if j < len(src) and src[j] == "]":
            j += 1
        while src[j] != "]":
            j += 2 if src[j] == "\\" else 1
        return j + 1
    if c == "(":
        return _group_end(src, i)
    return i + 1


def items(src: str) -> list[str]:
    """The sequence of ``src`` (no top-level ``|``), groups without a quantifier opened."""
    out: list[str] = []
    i = 0
    while i < len(src):
        j = _atom_end(src, i)
        if (q := _QUANT.match(src, j)) is not None:
            j = q.end()
        part = src[i:j]
        opener = _OPEN.match(part)
        inner = part[opener.end() : -1] if opener is not None else ""
        if opener is not None and j == _group_end(src, i) and len(split_top(inner)) == 1:
            out.extend(items(inner))
        else:
            out.append(part)
        i = j
    return out


def _required(item: str) -> bool:
    """Must the item match at least once (no ``?``, ``*``, ``{0,n}`` after it)?"""
    q = _QUANT.match(item, _atom_end(item, 0))
    return q is None or not q.group().startswith(("*", "?", "{0", "{,"))


def _selective(item: str, flags: int) -> bool:
    """Does the item start with a rare character (punctuation) or one of a few words of
    three letters or more? (Digits are everywhere in notes: not selective.)"""
    first = first_set(item, flags)
    if first is not None and not any(c.isalnum() or c in _COMMON for c in first):
        return True
    words = start_strings(item, flags, min_len=_MIN_WORD)
    return words is not None and all(w[:1].isalpha() for w in words)


@dataclass(frozen=True, slots=True)
class Tail:
    """Where a regex must end: ``regex`` matches where its tail starts; a match of the whole
    starts at most ``breaks`` line breaks before such a place, and not after it."""

    regex: str
    breaks: int
    head: str = ""  # the items before the tail


def _word_led(item: str, flags: int) -> bool:
    """Does every match of the item start with one of a few ASCII words of two letters or
    more? (Selective when the word index finds them: ``MD``, ``RN``, ``Hospital``.)"""
    words = start_strings(item, flags, min_len=2)
    return words is not None and all(w[:1].isascii() and w[:1].isalpha() for w in words)


def split_tail(alt: str, flags: int) -> Tail | None:
    """The tail of ``alt`` (flags ``flags``; no top-level ``|``), or None when it has none.
    The cut is before the first required item that is selective, or that is led by words
    after a head whose last character is never an ASCII letter (its places then come
    from the word index)."""
    try:
        seq = items(alt)
    except (IndexError, ValueError):
        return None
    breaks = 0
    for j, item in enumerate(seq):
        if (
            j > 0
            and _required(item)
            and (
                _selective(item, flags)
                or (_word_led(item, flags) and ends_non_letter("".join(seq[:j]), flags))
            )
        ):
            return Tail("".join(seq[j:]), breaks, "".join(seq[:j]))
        n = max_breaks(item, flags)
        if n is None or breaks + n > _MAX_BREAKS:
            return None
        breaks += n
    return None


def _last_seq(items: Sequence[tuple[Any, Any]], flags: int) -> tuple[set[int], bool]:
    """(how many ASCII letters each single-character item that may take the last character
    of a match of the sequence matches, may it match empty?)"""
    acc: set[int] = set()
    for op, av in reversed(items):
        found, empty = _last_item(op, av, flags)
        acc |= found
        if not empty:
            return acc, False
    return acc, True


def _last_item(op: Any, av: Any, flags: int) -> tuple[set[int], bool]:
    if (n := letters_taken(op, av, flags)) is not None:
        return {n}, False
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return set(), True
    if op is C.BRANCH:
        acc: set[int] = set()
        empty = False
        for alt in av[1]:
            found, e = _last_seq(alt.data, flags)
            acc |= found
            empty |= e
        return acc, empty
    if op is C.SUBPATTERN:
        return _last_seq(av[3].data, (flags | av[1]) & ~av[2])
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        found, empty = _last_seq(av[2].data, flags)
        return found, empty or av[0] == 0
    if op is C.ATOMIC_GROUP:
        return _last_seq(av.data, flags)
    raise _Unknown


def ends_non_letter(regex: str, flags: int) -> bool:
    """Is the last character of every match of ``regex`` something other than an ASCII
    letter (and is no match empty)? False when unsure."""
    try:
        parsed = parse(regex, flags)
        found, empty = _last_seq(parsed.data, parsed.state.flags)
    except (_Unknown, re.error):
        return False
    return not empty and not any(found)


def _consumed(items: Sequence[tuple[Any, Any]], flags: int, out: set[tuple[str, bool]]) -> None:
    """Add (source, may it take a non-ASCII character) of every single-character item of the
    sequence that consumes a character (look-arounds consume nothing)."""
    for op, av in items:
        if op in _CHAR_OPS:
            out.add((item_source(op, av, flags), _non_ascii(op, av, flags)))
        elif op is C.BRANCH:
            for alt in av[1]:
                _consumed(alt.data, flags, out)
        elif op is C.SUBPATTERN:
            _consumed(av[3].data, (flags | av[1]) & ~av[2], out)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            _consumed(av[2].data, flags, out)
        elif op is C.ATOMIC_GROUP:
            _consumed(av.data, flags, out)
        elif op not in (C.AT, C.ASSERT, C.ASSERT_NOT):
            raise _Unknown


def stop_before(head: str, flags: int) -> re.Pattern[str] | None:
    """``(?s:.*)STOP``, STOP a class of characters that no match of ``head`` contains (the
    ASCII characters that none of its consuming items takes, and every non-ASCII one when
    none may take one): matched from a line start up to a tail's place, it ends after the
    last such character, where a match of the whole may start at the earliest. None when
    the head may take any ASCII character (or cannot tell)."""
    found: set[tuple[str, bool]] = set()
    try:
        parsed = parse(head, flags)
        _consumed(parsed.data, parsed.state.flags, found)
    except (_Unknown, re.error):
        return None
    taken = frozenset().union(*(_ascii(src, True) for src, _ in found))
    stop = {chr(c) for c in range(128)} - taken
    if not stop:
        return None
    if any(wide for _, wide in found) or not taken:
        return re.compile(f"(?s:.*){char_class(stop)}")
    return re.compile(f"(?s:.*)[^{char_class(taken)[1:-1]}]")


class TailSearch:
    """The matches of one alternative inside windows, tried only at the characters it can
    start with, on the lines that end with a place where its tail matches, after the last
    character that its head never takes (``stop``)."""

    __slots__ = ("alt", "breaks", "first", "stop", "tail", "tail_alone", "word_tail")

    def __init__(self, alt: str, flags: str, tail: Tail, first: frozenset[str]) -> None:
        self.alt = re.compile(f"(?{flags}:{alt})" if flags else alt)
        self.tail = searchers(tail.regex, flags)[0]
        self.tail_alone = re.compile(f"(?{flags}:{tail.regex})" if flags else tail.regex)
        self.breaks = tail.breaks
        self.first = re.compile(char_class(first))
        bits = sum(FLAG_BITS[f] for f in flags)
        #: the tail as found in a match, when that starts a run of ASCII letters: what the
        #: word lane may look up (``places`` of :meth:`find_all`)
        self.word_tail = (
            f"(?<![A-Za-z])(?:{tail.regex})" if ends_non_letter(tail.head, bits) else None
        )
        self.stop = stop_before(tail.head, bits)

    @classmethod
    def of(cls, alt: str, flags: str) -> TailSearch | None:
        """The tail search of ``alt`` (flags ``flags``), or None when it has no tail."""
        bits = sum(FLAG_BITS[f] for f in flags)
        if "x" in flags or (first := first_set(alt, bits)) is None:
            return None
        tail = split_tail(alt, bits)
        if tail is None or len(searchers(tail.regex, flags)) != 1:
            return None
        return cls(alt, flags, tail, first)

    def _segments(
        self, text: str, low: str, places: list[int] | None = None
    ) -> list[tuple[int, int]]:
        """[from, to] (inclusive): where a match may start, from the tail's places (found
        by the tail's searcher, or where the tail matches among ``places``: the letter runs
        of the note where the word lane found ``word_tail``)."""
        out: list[tuple[int, int]] = []
        rfind = text.rfind
        if places is None:
            starts = [c for c, _, _ in self.tail.find_all(text, low)]
        else:
            match = self.tail_alone.match
            starts = [c for c in places if match(text, c)]
        stop = self.stop.match if self.stop is not None else None
        for c in starts:
            lo = rfind("\n", 0, c) + 1
            for _ in range(self.breaks):
                if lo > 0:
                    lo = rfind("\n", 0, lo - 1) + 1
            if stop is not None and (m := stop(text, lo, c)) is not None:
                lo = m.end()  # after the last character that the head never takes
            if out and lo <= out[-1][1] + 1:
                out[-1] = (out[-1][0], c)
            else:
                out.append((lo, c))
        return out

    def find_all(
        self,
        text: str,
        low: str,
        windows: list[tuple[int, int]],
        places: list[int] | None = None,
    ) -> list[Found]:
        """What ``Searcher.find_all(text, low, windows)`` gives for the alternative;
        ``places``: see :meth:`_segments`."""
        segs = self._segments(text, low, places)
        out: list[Found] = []
        if not segs:
            return out
        match, first = self.alt.match, self.first.finditer
        k = 0
        for lo, hi in windows:
            while k < len(segs) and segs[k][1] < lo:
                k += 1
            j = k
            while j < len(segs) and segs[j][0] < hi:
                a, b = max(segs[j][0], lo), min(segs[j][1] + 1, hi)
                for f in first(text, a, b):
                    p = f.start()
                    if (m := match(text, p, hi)) is not None:
                        out.append((p, m.end(), m))
                j += 1
        return out


#: a searcher tried at this many characters or more (its FIRST set) is searched from its
#: tail instead, when the tail is led by punctuation (see :meth:`TextTail.of`)
_BROAD = 10


class TextTail:
    """A pattern alternative searched in the whole text from its tail (``find_all`` as a
    :class:`scan.Searcher`'s): for a ``first`` searcher tried at many characters (every
    capital) whose tail starts with punctuation, ``\\b[A-Z]{2,}\\d/\\d\\b`` from its ``/``:
    the engine skips to the rare character, and the head is tried only on the segment
    before it (:class:`TailSearch`: exact, windows of one whole text)."""

    __slots__ = ("search",)

    def __init__(self, search: TailSearch) -> None:
        self.search = search

    @classmethod
    def of(cls, alt: str, flags: str, kind: str) -> TextTail | None:
        """The tail search of a searcher of ``kind`` for ``alt``, when it is worth it."""
        bits = sum(FLAG_BITS[f] for f in flags)
        first = first_set(alt, bits)
        if kind != "first" or first is None or len(first) < _BROAD:
            return None
        search = TailSearch.of(alt, flags)
        if search is None:
            return None
        lead = first_set(search.tail_alone.pattern, 0)
        if lead is None or any(c.isalnum() or c in _COMMON for c in lead):
            return None
        return cls(search)

    def find_all(self, text: str, low: str, windows: Sequence[tuple[int, int]] = ()) -> list[Found]:
        return self.search.find_all(text, low, list(windows) or [(0, len(text))])
