"""The shared note index and the word lane: the candidates of many patterns at once.

The searchers of :mod:`phiscrub.detect.scan` made each pattern fast on its own, but a note
was still scanned once per pattern alternative (about 200 scans). Here a note is indexed
ONCE (:func:`note_index`: its letter runs, with their positions, and its lower-cased
text) and shared by every pattern file and dictionary:

- **word lane**: an alternative whose matches start with one of a few literal words at a
  word start (``Dr``, ``MRN``, ``Attending``, month names...) is tried only where the note's
  index holds such a word. One pass over the distinct words of a note dispatches every
  word-led alternative of every pattern file (``_WordDispatch``; the word -> alternatives
  table is memoised across notes). An alternative that may also start with a digit or a
  rare character (``[NSEW]?\\d{1,6}...``) takes its letter starts from here, the others
  from a digit lane (:mod:`phiscrub.detect.digits`).
- **word anchors and word tails**: a pattern's anchor led by words, and the tail of an
  alternative searched in windows when it starts a letter run (:mod:`phiscrub.detect.tails`),
  are rows of the same table (slots ``ANCHOR_SLOT + pattern``, ``TAIL_SLOT + slot``) whose
  places are exact; so is a word-led alternative of an anchored pattern (``WINDOW_SLOT +
  slot``), tried only at its places inside the pattern's windows.

Exact: the same matches at the same positions as the plain regexes (checked by
``tests/detect/test_scan.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate
from operator import add

from phiscrub.detect.gates import at_word
from phiscrub.detect.regex_shape import whole_words
from phiscrub.detect.scan import (
    MAX_STARTS,
    folds_case,
    start_strings,
)


class ByteClass:
    """An ASCII character class whose runs in a note are read by passes in C: the note
    encoded one byte per character ("?" for each non-ASCII one: offsets are kept), a byte
    map keeping the class and blanking the rest (the runs) or the reverse (the gaps),
    ``split``, and sums of lengths. The regex engine tested a class at every character
    and each match was an object read from Python (instructions per corpus pass: the
    letter runs of the note index 201 M -> 154 M, the digit runs 99 M -> 85 M)."""

    __slots__ = ("gaps", "member", "runs")

    def __init__(self, chars: str) -> None:
        codes = {ord(c) for c in chars}
        assert all(c < 128 and not chr(c).isspace() for c in codes)  # split() cuts at those
        self.member = [c in codes for c in range(256)]
        self.runs = bytes(c if c in codes else 32 for c in range(256))
        self.gaps = bytes(32 if c in codes else 120 for c in range(256))

    def find(self, text: str) -> tuple[list[str], list[int]]:
        """The runs of the class in ``text`` and where each starts, left to right: what
        ``re.finditer("[CLASS]+", text)`` gives."""
        raw = text.encode("ascii", "replace")
        runs = raw.translate(self.runs).decode("ascii").split()
        if not runs:
            return runs, []
        gaps = list(map(len, raw.translate(self.gaps).split()))  # before and between runs
        first = 0 if self.member[raw[0]] else gaps.pop(0)
        # a run starts where the one before it started, plus its length and the gap after it
        starts = list(accumulate(map(add, map(len, runs), gaps), initial=first))
        del starts[len(runs) :]  # a gap after the last run adds one start past the end
        return runs, starts


#: ASCII letters: the words of the note index
LETTERS = ByteClass("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_LEAD_LETTERS = re.compile(r"[a-z]*")
#: memoised word -> alternatives rows kept at most (clinical vocabularies are bounded)
_MEMO_MAX = 200_000


@dataclass(frozen=True, slots=True)
class NoteIndex:
    """What every pattern file needs of one note, computed once."""

    text: str
    low: str
    aligned: bool  # lower-casing kept every offset (no rare letters)
    words: dict[str, list[int]]  # ASCII letter run (as written) -> its start positions


_index_memo: list[NoteIndex] = []


def note_index(text: str) -> NoteIndex:
    """The index of ``text`` (the last two notes' indexes are kept)."""
    for ix in _index_memo:
        if ix.text is text:
            return ix
    low = text.lower()
    words: dict[str, list[int]] = {}
    get = words.get
    for w, p in zip(*LETTERS.find(text), strict=True):
        got = get(w)
        if got is None:
            words[w] = [p]
        else:
            got.append(p)
    ix = NoteIndex(text, low, len(low) == len(text), words)
    _index_memo[:] = [*_index_memo[-1:], ix]
    return ix


def positions(text: str, word: str) -> list[int]:
    """Where the letter run ``word`` occurs in ``text``, whole (from the note's index)."""
    return note_index(text).words.get(word, [])


#: one row of the dispatch table: (lane owner, slot, start string, check needed, folded)
_Row = tuple[int, int, str, bool, bool]
#: what a note word starts: (owner, slot, None or the start strings to compare, folded)
_Action = tuple[int, int, tuple[tuple[str, bool], ...] | None]
#: word-lane slots of anchors are ``ANCHOR_SLOT + pattern index``; alternatives use lower ones
ANCHOR_SLOT = 1 << 20
#: word-lane slots of the word-led tails of alternatives (:mod:`phiscrub.detect.tails`) are
#: ``TAIL_SLOT + alternative slot``
TAIL_SLOT = 2 << 20
#: word-lane slots of word-led alternatives searched in windows (an anchored pattern's,
#: without a tail) are ``WINDOW_SLOT + alternative slot``
WINDOW_SLOT = 3 << 20


@dataclass
class _WordDispatch:
    """Word-led alternatives of every pattern file, looked up by the note's words."""

    exact: dict[str, list[_Row]] = field(default_factory=dict)  # lead letters -> rows
    prefix: dict[str, list[_Row]] = field(default_factory=dict)  # all-letter start -> rows
    memo: dict[str, tuple[_Action, ...]] = field(default_factory=dict)
    idle: set[str] = field(default_factory=set)  # words that start no alternative
    owners: int = 0
    last: tuple[str, dict[int, dict[int, list[int]]]] | None = None

    def register(self, slots: Iterable[tuple[int, frozenset[str], bool, bool]]) -> int:
        """Add one file's word-led alternatives (slot, start strings, folded, whole: no letter
        follows a start string); returns the owner id of that file."""
        owner = self.owners
        self.owners += 1
        for slot, starts, folded, whole in slots:
            for start in starts:
                low = start.lower()
                lead = _LEAD_LETTERS.match(low)
                assert lead is not None and lead.group()
                if lead.group() == low and whole:  # the note's word IS the start string
                    row = (owner, slot, start, False, folded)
                    self.exact.setdefault(low, []).append(row)
                elif lead.group() == low:  # the note's word begins with the start string
                    row = (owner, slot, start, False, folded)
                    self.prefix.setdefault(low, []).append(row)
                else:  # the start string continues after its letters: the word is exact
                    row = (owner, slot, start, True, folded)
                    self.exact.setdefault(lead.group(), []).append(row)
        self.memo.clear()
        self.idle.clear()
        self.last = None
        return owner

    def rows(self, word: str) -> tuple[_Action, ...]:
        """What a letter run ``word`` (as written) starts: one action per (owner, slot)."""
        got = self.memo.get(word)
        if got is None:
            low = word.lower()
            found = [r for r in self.exact.get(low, ()) if (low if r[4] else word) == _letters(r)]
            for k in range(1, len(low) + 1):
                for r in self.prefix.get(low[:k], ()):
                    if (low if r[4] else word).startswith(r[2]):
                        found.append((r[0], r[1], r[2], False, r[4]))
            got = _actions(found)
            if len(self.memo) >= _MEMO_MAX:
                self.memo.clear()
            if len(self.idle) >= _MEMO_MAX:
                self.idle.clear()
            self.memo[word] = got
        return got

    def candidates(self, ix: NoteIndex, owner: int) -> dict[int, list[int]]:
        """slot -> sorted candidate start positions, for one file (all files computed once).
        Positions of an alternative may include some where its start string does not
        continue as the word does (its regex is tried there and fails); those of an anchor
        (``slot >= ANCHOR_SLOT``) are exact. The lists may be the note index's own: read
        only."""
        if self.last is None or self.last[0] is not ix.text:
            self.last = (ix.text, self._all(ix))
        return self.last[1].get(owner, {})

    def _all(self, ix: NoteIndex) -> dict[int, dict[int, list[int]]]:
        out: dict[int, dict[int, list[int]]] = {}
        merged: list[list[int]] = []
        text, low, words = ix.text, ix.low, ix.words
        memo, rows = self.memo, self.rows
        # words known to start no alternative are dropped in one set difference (in C; a
        # set's difference, not a dict view's: that one walks the whole, large, idle set)
        for word in set(words).difference(self.idle):
            found = memo.get(word)
            if found is None:
                found = rows(word)
                if not found:
                    self.idle.add(word)
                    continue
            positions = words[word]
            for owner, slot, checks in found:
                if checks is None:
                    ps = positions
                else:
                    ps = [
                        p
                        for p in positions
                        if any((low if f else text).startswith(s, p) for s, f in checks)
                    ]
                    if not ps:
                        continue
                # the index's own lists are shared (read only); a slot that several words
                # start gets a new list
                per = out.get(owner)
                if per is None:
                    out[owner] = {slot: ps}
                elif (got := per.get(slot)) is None:
                    per[slot] = ps
                else:
                    per[slot] = got = got + ps
                    merged.append(got)
        for got in merged:  # each word's positions are sorted and no two words share one
            got.sort()
        return out


def _actions(rows: Iterable[_Row]) -> tuple[_Action, ...]:
    """One action per (owner, slot) of ``rows``: an alternative is tried at every position of
    the word (its regex checks the rest of its start string); an anchor keeps the start
    strings to compare, since its positions must be exact."""
    checks: dict[tuple[int, int], list[tuple[str, bool]] | None] = {}
    for owner, slot, start, check, folded in rows:
        key = (owner, slot)
        if not check or slot < ANCHOR_SLOT:
            checks[key] = None
        elif key not in checks:
            checks[key] = [(start, folded)]
        elif (got := checks[key]) is not None:
            got.append((start, folded))
    return tuple((o, s, None if c is None else tuple(c)) for (o, s), c in checks.items())


def _letters(row: _Row) -> str:
    start = row[2]
    n = len(_LEAD_LETTERS.match(start.lower()).group())  # type: ignore[union-attr]
    return start[:n]


#: the one dispatch table shared by every PatternDetector of the process
WORDS = _WordDispatch()


def word_starts(
    alt: str, bits: int, letters: bool = False, checked: bool = False
) -> tuple[frozenset[str], bool, bool] | None:
    """(start strings, folded, whole) when the word lane can find the alternative's
    candidates: every match starts at a word start with one of at most ``_MAX_STARTS``
    literal strings (one letter is enough: the lane looks up whole words); folded: they are
    lower case; whole: no ASCII letter follows a start string (``\\b(?:T|HR)\\b``), so a
    note word must equal its letters rather than begin with them (``T`` is not ``Today``).
    ``letters``: only the matches that start with a letter (the others are found by the
    digit lanes: ``[NSEW]?\\d{1,6}...``, ``\\b(?:at|@)...``). ``checked``: the caller
    matches the alternative at each place (a superset of its matches' starts will do), so
    the whole words may be cut where the letter runs end (:func:`regex_shape.whole_words`,
    ``cut``) when the strings in full are too many: ``M/T/W`` is then tried at the words
    ``M``, ``T``, ``W``, not at every word that starts with one of those letters."""
    if not at_word(alt, bits):
        return None
    whole = whole_words(alt, bits, letters=letters)
    if checked and (whole is None or not whole or len(whole) > MAX_STARTS or not _lead_ok(whole)):
        whole = whole_words(alt, bits, letters=letters, cut=True)
    if whole is not None and whole and len(whole) <= MAX_STARTS and _lead_ok(whole):
        return whole, folds_case(alt, bits), True
    starts = start_strings(alt, bits, min_len=1, most=MAX_STARTS)
    if starts is not None and letters:
        starts = frozenset(x for x in starts if _lead_ok(frozenset({x}))) or None
    if starts is None or not _lead_ok(starts):
        return None
    return starts, folds_case(alt, bits), False


def _lead_ok(starts: frozenset[str]) -> bool:
    return all(x[:1].isascii() and x[:1].isalpha() for x in starts)
