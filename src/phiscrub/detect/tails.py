"""Tails: a selective part that every match of a regex ends with (speed only, exact).

A pattern searched in windows (``anchor``, :class:`phiscrub.detect.scan.WindowCursor`)
such as ``city_state``, ``(?P<CITY>%CITY%),[ \\t]*(?P<STATE>%USPS%|%STATE_NAME%)\\b``, is
tried at every capital letter of its windows, and a window is wide (80 characters ahead
of a comma to the end of the line). But every match ends with the part from the comma on
(its *tail*): a match can only start on a line (or a few lines before) where the tail
matches, at or before that point. The tail is cheap to find: it starts with a rare
character (``,`` ``@``) or one of a few words. So the pattern is tried only at
the characters it can start with, ahead of a tail, inside its windows.

:func:`split_tail` reads the regex as a sequence of items (groups without a quantifier or
an alternation are opened: their items are part of the sequence) and cuts it before the
first required item that starts with a rare character or a literal word; the tail is the
rest of the sequence, so every match of the regex contains a match of the tail. The
items before the cut (the head) must match a bounded number of line breaks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from phiscrub.detect.gates import max_breaks
from phiscrub.detect.regex_shape import (
    FLAG_BITS,
    _group_end,
    char_class,
    first_set,
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


def split_tail(alt: str, flags: int) -> Tail | None:
    """The tail of ``alt`` (flags ``flags``; no top-level ``|``), or None when it has none."""
    try:
        seq = items(alt)
    except (IndexError, ValueError):
        return None
    breaks = 0
    for j, item in enumerate(seq):
        if j > 0 and _required(item) and _selective(item, flags):
            return Tail("".join(seq[j:]), breaks)
        n = max_breaks(item, flags)
        if n is None or breaks + n > _MAX_BREAKS:
            return None
        breaks += n
    return None


class TailSearch:
    """The matches of one alternative inside windows, tried only at the characters it can
    start with, on the lines that end with a place where its tail matches."""

    __slots__ = ("alt", "breaks", "first", "tail")

    def __init__(self, alt: str, flags: str, tail: Tail, first: frozenset[str]) -> None:
        self.alt = re.compile(f"(?{flags}:{alt})" if flags else alt)
        self.tail = searchers(tail.regex, flags)[0]
        self.breaks = tail.breaks
        self.first = re.compile(char_class(first))

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

    def _segments(self, text: str, low: str) -> list[tuple[int, int]]:
        """[from, to] (inclusive): where a match may start, from the tail's places."""
        out: list[tuple[int, int]] = []
        rfind = text.rfind
        for c, _, _ in self.tail.find_all(text, low):
            lo = rfind("\n", 0, c) + 1
            for _ in range(self.breaks):
                if lo > 0:
                    lo = rfind("\n", 0, lo - 1) + 1
            if out and lo <= out[-1][1] + 1:
                out[-1] = (out[-1][0], c)
            else:
                out.append((lo, c))
        return out

    def find_all(self, text: str, low: str, windows: list[tuple[int, int]]) -> list[Found]:
        """What ``Searcher.find_all(text, low, windows)`` gives for the alternative."""
        segs = self._segments(text, low)
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
