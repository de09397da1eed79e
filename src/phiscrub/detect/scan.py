"""Fast searchers for pattern regexes: the regex engine tries a pattern only where it can start.

Python's ``re`` scans quickly (in C) for a pattern whose compiled form starts with a literal
prefix or a character set; a pattern that starts with ``\\b``, a look-behind, an optional
part or a case-insensitive word is instead tried at every position of the text, which made
the rules pipeline slow (about 100 patterns times every character). Each pattern is
therefore compiled into :class:`Searcher` objects that find the same matches faster:

1. a top-level alternation ``A|B`` is split into one searcher per alternative (the
   detector keeps their order, so the leftmost-first semantics are unchanged);
2. leading zero-width assertions (``\\b``, ``(?<!...)``, ``(?<=...)``) are moved into a
   post-check that runs only where the rest matched, when what remains gets a prefix;
3. otherwise the set of characters a match can start with (its FIRST set, computed from
   the parse tree) is put in front: ``[FIRST](?<=(?=(?P<_m>REGEX))(?s:.))`` is tried only
   where such a character occurs, and group ``_m`` holds the real match;
4. ``needs``: literal strings of which every match contains one (derived from the parse
   tree, lower case); a note that holds none of them skips the searcher with one ``in``.

Every transformation is exact: the same matches at the same positions (checked by
``tests/detect/test_scan.py`` against the plain regexes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phiscrub.detect.gates import at_word
from phiscrub.detect.regex_shape import (
    AT_WORD,
    FLAG_BITS,
    MAX_STARTS,
    WHOLE,
    char_class,
    first_set,
    folds_case,
    has_prefix,
    needs,
    split_top,
    start_strings,
    strip_lead,
)

__all__ = [
    "MAX_STARTS",
    "WHOLE",
    "Cursor",
    "Found",
    "Searcher",
    "TriggerCursor",
    "WindowCursor",
    "first_set",
    "folds_case",
    "matches_at",
    "needs",
    "searchers",
    "split_top",
    "start_strings",
    "strip_lead",
]

#: one match found by a searcher: (start, end, match); ``end`` is that of the real match
Found = tuple[int, int, re.Match[str]]


@dataclass(frozen=True, slots=True)
class Searcher:
    """Finds, left to right, the matches of one (alternative of a) pattern."""

    regex: re.Pattern[str]  # what is searched
    check: re.Pattern[str] | None  # leading assertions, tried at the start of a match
    wrapped: bool  # the real match is group WHOLE
    needs: frozenset[str] | None  # lower-case strings; the text must hold one
    kind: str  # "trigger", "prefix", "first" or "plain" (for tests and profiling)
    starts: frozenset[str] | None = None  # trigger: strings every match starts with
    full: re.Pattern[str] | None = None  # trigger: the alternative, tried at each start
    at_word: bool = False  # trigger: a match starts where a run of letters starts
    folded: bool = False  # trigger: the start strings are lower case, found in the lower text
    lines: re.Pattern[str] | None = None  # a line-start pattern: "\n" then it (group WHOLE)

    def find(self, text: str, pos: int) -> Found | None:
        """The leftmost match starting at or after ``pos``: (start, end, match)."""
        search, check = self.regex.search, self.check
        while (m := search(text, pos)) is not None:
            start = m.start()
            if check is not None and check.match(text, start) is None:
                pos = start + 1
                continue
            return (start, m.end(WHOLE) if self.wrapped else m.end(), m)
        return None

    def find_all(self, text: str, low: str, windows: Iterable[tuple[int, int]] = ()) -> list[Found]:
        """Every match, left to right, each start once (overlapping ones too): what the
        cursor's ``find`` gives from every position. ``windows``: search only there
        (``WindowCursor``); else the whole text (``low`` is ``text.lower()``)."""
        if not windows:
            if self.starts is not None and self.full is not None:
                if len(low) == len(text):
                    match = self.full.match
                    starts = self._starts_in(text, low)
                    return [(p, m.end(), m) for p in starts if (m := match(text, p))]
            elif self.needs is not None and not any(n in low for n in self.needs):
                return []
            if self.lines is not None:  # line starts: the engine skips to line breaks (memchr)
                at0 = self.regex.match(text, 0)
                found = [] if at0 is None else [(0, at0.end(), at0)]
                found.extend((m.start(WHOLE), m.end(WHOLE), m) for m in self.lines.finditer(text))
                return found
            windows = ((0, len(text)),)
        out: list[Found] = []
        if self.wrapped and self.check is None:  # one-character matches: finditer sees all
            for lo, hi in windows:
                out.extend((m.start(), m.end(WHOLE), m) for m in self.regex.finditer(text, lo, hi))
            return out
        search, check, wrapped = self.regex.search, self.check, self.wrapped
        for lo, hi in windows:
            pos = lo
            while (m := search(text, pos, hi)) is not None:
                start = m.start()
                pos = start + 1
                if check is None or check.match(text, start) is not None:
                    out.append((start, m.end(WHOLE) if wrapped else m.end(), m))
        return out

    def _starts_in(self, text: str, low: str) -> list[int]:
        """Sorted positions where a start string occurs (trigger searchers)."""
        assert self.starts is not None
        where = low if self.folded else text
        cands: list[int] = []
        find = where.find
        for st in self.starts:
            i = find(st)
            while i >= 0:
                cands.append(i)
                i = find(st, i + 1)
        cands.sort()
        return cands

    def cursor(self, text: str, low: str) -> Cursor | None:
        """A cursor over ``text`` (``low`` is ``text.lower()``); None when nothing can match."""
        if self.starts is not None and self.full is not None:
            if len(low) != len(text):  # lower case changed offsets (rare letters)
                return _RegexCursor(self, text)
            cands = self._starts_in(text, low)
            if not cands:
                return None
            return TriggerCursor(self.full, text, cands)
        if self.needs is not None and not any(n in low for n in self.needs):
            return None
        return _RegexCursor(self, text)


class Cursor:
    """The matches of one searcher in one text, asked for left to right."""

    def find(self, pos: int) -> Found | None:
        raise NotImplementedError


class _RegexCursor(Cursor):
    __slots__ = ("searcher", "text")

    def __init__(self, searcher: Searcher, text: str) -> None:
        self.searcher = searcher
        self.text = text

    def find(self, pos: int) -> Found | None:
        return self.searcher.find(self.text, pos)


class WindowCursor(Cursor):
    """Searches only the windows around the matches of an anchor regex (``anchor`` in a
    pattern file): from ``before`` characters ahead of an anchor to the end of its line."""

    __slots__ = ("searcher", "text", "windows")

    def __init__(self, searcher: Searcher, text: str, windows: list[tuple[int, int]]) -> None:
        self.searcher = searcher
        self.text = text
        self.windows = windows

    @staticmethod
    def windows_at(
        text: str, spans: Iterable[tuple[int, int]], before: int
    ) -> list[tuple[int, int]]:
        """Merged windows from ``before`` characters ahead of each (sorted) anchor span to the
        end of the line where the span ends."""
        out: list[tuple[int, int]] = []
        find, size = text.find, len(text)
        for a, b in spans:
            lo = a - before if a > before else 0
            if out and b < out[-1][1]:  # the line end is already inside the last window
                if lo < out[-1][0]:
                    out[-1] = (lo, out[-1][1])
                continue
            nl = find("\n", b)
            hi = size if nl < 0 else nl + 1
            if out and lo <= out[-1][1]:
                out[-1] = (out[-1][0], max(hi, out[-1][1]))
            else:
                out.append((lo, hi))
        return out

    def find(self, pos: int) -> Found | None:
        s = self.searcher
        search, check, text = s.regex.search, s.check, self.text
        for lo, hi in self.windows:
            if hi <= pos:
                continue
            p = max(lo, pos)
            while (m := search(text, p, hi)) is not None:
                start = m.start()
                if check is not None and check.match(text, start) is None:
                    p = start + 1
                    continue
                return (start, m.end(WHOLE) if s.wrapped else m.end(), m)
        return None


class TriggerCursor(Cursor):
    """Tries the regex only where one of its start strings occurs (found with str.find)."""

    __slots__ = ("cands", "i", "match", "text")

    def __init__(self, full: re.Pattern[str], text: str, cands: list[int]) -> None:
        self.match = full.match
        self.text = text
        self.cands = cands
        self.i = 0

    def find(self, pos: int) -> Found | None:
        cands, i, n = self.cands, self.i, len(self.cands)
        while i < n and cands[i] < pos:
            i += 1
        while i < n:
            m = self.match(self.text, cands[i])
            if m is not None:
                self.i = i
                return (m.start(), m.end(), m)
            i += 1
        self.i = i
        return None


def matches_at(
    alone: re.Pattern[str],
    text: str,
    places: Sequence[int],
    windows: list[tuple[int, int]],
) -> list[Found]:
    """What a searcher's ``find_all(text, low, windows)`` gives for a word-led alternative
    (``alone``), from its places in the word lane (sorted, a superset of where its matches
    start): each place inside a window is matched there, the window's end as the end of
    the text (a window ends at a line end: no word crosses it). Windows are a line wide or
    more: tried at the alternative's words there, not at every character of its FIRST set
    (``dept_ward``: 11,000 tries per corpus)."""
    out: list[Found] = []
    match = alone.match
    k, n = 0, len(windows)
    for p in places:
        while k < n and windows[k][1] <= p:
            k += 1
        if k == n:
            break
        lo, hi = windows[k]
        if p >= lo and (m := match(text, p, hi)) is not None:
            out.append((p, m.end(), m))
    return out


#: a lead that only the start of the text or of a line passes (without the "m" flag)
_LINE_START = "(?:^|(?<=\\n))"


def _scope(regex: str, flags: str) -> str:
    return f"(?{flags}:{regex})" if flags else regex


def searchers(regex: str, flags: str = "") -> list[Searcher]:
    """The searchers of one pattern regex (Python syntax; ``flags`` any of "imx")."""
    bits = 0
    for f in flags:
        bits |= FLAG_BITS[f]
    alts = split_top(regex) if "x" not in flags else [regex]
    return [_searcher(alt, flags, bits) for alt in alts]


def _searcher(alt: str, flags: str, bits: int) -> Searcher:
    need = needs(alt, bits)
    lead, rest = strip_lead(alt)
    starts = start_strings(alt, bits)
    if starts is not None:
        fallback = _searcher_regex(alt, flags, bits, need, lead, rest)
        return Searcher(
            fallback.regex,
            fallback.check,
            fallback.wrapped,
            need,
            "trigger",
            starts,
            re.compile(alt, bits),
            AT_WORD.match(lead) is not None,
            any(c.isalpha() and c.islower() for c in "".join(starts))
            and not any(c.isupper() for c in "".join(starts))
            and folds_case(alt, bits),
        )
    return _searcher_regex(alt, flags, bits, need, lead, rest)


def _searcher_regex(
    alt: str, flags: str, bits: int, need: frozenset[str] | None, lead: str, rest: str
) -> Searcher:
    if rest and not bits & re.X and has_prefix(rest, bits):
        check = re.compile(lead, bits) if lead else None
        return Searcher(re.compile(rest, bits), check, False, need, "prefix")
    first = first_set(alt, bits)
    if (alt.startswith("^") and bits & re.M) or alt.startswith(_LINE_START):
        # a line-start pattern: tried at the start of the text and after each line break
        # (a literal the engine skips to), not at every position
        lines = re.compile(f"\\n(?=(?P<{WHOLE}>{_scope(alt, flags)}))")
        return Searcher(re.compile(alt, bits), None, False, need, "plain", lines=lines)
    if first is None:
        return Searcher(re.compile(alt, bits), None, False, need, "plain")
    guard = word_guard(alt, bits, first)
    wrapped = f"{char_class(first)}{guard}(?<=(?=(?P<{WHOLE}>{_scope(alt, flags)}))(?s:.))"
    return Searcher(re.compile(wrapped), None, True, need, "first")


#: after the first character of a candidate: no ASCII letter before it
_NO_LETTER_BEFORE = "(?<![A-Za-z](?s:.))"
#: ASCII word characters: after a \b, one of them has no word character before it
_ASCII_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def word_guard(alt: str, bits: int, first: frozenset[str]) -> str:
    """A cheap test to put after the FIRST class of a wrapped searcher: when every match
    starts with an ASCII word character where a letter run may start (:func:`gates.at_word`:
    after \\b, no word character precedes it), a candidate preceded by a letter is dropped
    before the whole alternative is tried there (``organization_trigger``'s
    ``[a-z]{2,}(?:er|or|...)`` would be tried at every lower-case letter of its windows,
    ``vin_checked``'s ``\\b[A-HJ-NPR-Z0-9]{17}\\b`` at every capital and digit)."""
    return _NO_LETTER_BEFORE if first <= _ASCII_WORD and at_word(alt, bits) else ""
