"""Shared per-note indexes, and lanes that find the candidates of many patterns at once.

The searchers of :mod:`phiscrub.detect.scan` made each pattern fast on its own, but a note
was still scanned once per pattern alternative (about 200 scans). Here a note is indexed
ONCE (:func:`note_index`: its letter runs, lower-cased, with their positions) and shared
by every pattern file:

- **word lane**: an alternative whose matches start with one of a few literal words at a
  word start (``Dr``, ``MRN``, ``Attending``, month names...) is tried only where the note's
  index holds such a word. One pass over the distinct words of a note dispatches every
  word-led alternative of every pattern file (``_WordDispatch``; the word -> alternatives
  table is memoised across notes).
- **digit lane**: the alternatives of one file whose matches start with a digit (or rare
  punctuation such as ``(`` or ``#``) are joined into ONE regex tried, in C, only at those
  characters; the alternative that matched is read from ``lastgroup``, so the file's order
  (earlier pattern wins a tie) is kept, and a match that fails its hooks gives way to the
  next alternative of the lane at the same position (:meth:`LaneCursor.retry`).

Both are exact: the same matches at the same positions as the plain regexes (checked by
``tests/detect/test_scan.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from phiscrub.detect.regex_shape import whole_words
from phiscrub.detect.scan import (
    MAX_STARTS,
    Cursor,
    Found,
    first_set,
    folds_case,
    start_strings,
)

_WORD = re.compile(r"[A-Za-z]+")
_LEAD_LETTERS = re.compile(r"[a-z]*")
_GROUP = re.compile(r"\(\?P<")
#: characters a digit-lane alternative may start with (no letters, no white space)
LANE_CHARS = frozenset("0123456789(+#'*$@~[/")
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
    for m in _WORD.finditer(text):
        w = m.group()
        got = get(w)
        if got is None:
            words[w] = [m.start()]
        else:
            got.append(m.start())
    ix = NoteIndex(text, low, len(low) == len(text), words)
    _index_memo[:] = [*_index_memo[-1:], ix]
    return ix


#: one row of the dispatch table: (lane owner, slot, start string, check needed, folded)
_Row = tuple[int, int, str, bool, bool]


@dataclass
class _WordDispatch:
    """Word-led alternatives of every pattern file, looked up by the note's words."""

    exact: dict[str, list[_Row]] = field(default_factory=dict)  # lead letters -> rows
    prefix: dict[str, list[_Row]] = field(default_factory=dict)  # all-letter start -> rows
    memo: dict[str, tuple[_Row, ...]] = field(default_factory=dict)
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

    def rows(self, word: str) -> tuple[_Row, ...]:
        """The rows whose start string can begin at a letter run ``word`` (as written); a
        row's ``check`` says the characters after the letters must still be compared."""
        got = self.memo.get(word)
        if got is None:
            low = word.lower()
            found = [r for r in self.exact.get(low, ()) if (low if r[4] else word) == _letters(r)]
            for k in range(1, len(low) + 1):
                for r in self.prefix.get(low[:k], ()):
                    if (low if r[4] else word).startswith(r[2]):
                        found.append((r[0], r[1], r[2], False, r[4]))
            got = tuple(found)
            if len(self.memo) >= _MEMO_MAX:
                self.memo.clear()
            if len(self.idle) >= _MEMO_MAX:
                self.idle.clear()
            self.memo[word] = got
        return got

    def candidates(self, ix: NoteIndex, owner: int) -> dict[int, list[int]]:
        """slot -> sorted candidate start positions, for one file (all files computed once)."""
        if self.last is None or self.last[0] is not ix.text:
            self.last = (ix.text, self._all(ix))
        return self.last[1].get(owner, {})

    def _all(self, ix: NoteIndex) -> dict[int, dict[int, list[int]]]:
        out: dict[int, dict[int, list[int]]] = {}
        text, low, words = ix.text, ix.low, ix.words
        memo, rows = self.memo, self.rows
        # words known to start no alternative are dropped in one set difference (in C)
        for word in words.keys() - self.idle:
            found = memo.get(word)
            if found is None:
                found = rows(word)
                if not found:
                    self.idle.add(word)
                    continue
            positions = words[word]
            for owner, slot, start, check, folded in found:
                if check:
                    where = low if folded else text
                    ps = [p for p in positions if where.startswith(start, p)]
                    if not ps:
                        continue
                else:
                    ps = positions
                per = out.get(owner)
                if per is None:
                    out[owner] = {slot: list(ps)}
                elif slot in per:
                    per[slot].extend(ps)
                else:
                    per[slot] = list(ps)
        for per in out.values():
            for slot, ps in per.items():
                if len(ps) > 1:
                    per[slot] = sorted(set(ps))
        return out


def _letters(row: _Row) -> str:
    start = row[2]
    n = len(_LEAD_LETTERS.match(start.lower()).group())  # type: ignore[union-attr]
    return start[:n]


#: the one dispatch table shared by every PatternDetector of the process
WORDS = _WordDispatch()


def word_starts(alt: str, bits: int) -> tuple[frozenset[str], bool, bool] | None:
    """(start strings, folded, whole) when the word lane can find the alternative's
    candidates: every match starts at a word start with one of at most ``_MAX_STARTS``
    literal strings (one letter is enough: the lane looks up whole words); folded: they are
    lower case; whole: no ASCII letter follows a start string (``\\b(?:T|HR)\\b``), so a
    note word must equal its letters rather than begin with them (``T`` is not ``Today``)."""
    if not at_word(alt, bits):
        return None
    whole = whole_words(alt, bits)
    if whole is not None and len(whole) <= MAX_STARTS and _lead_ok(whole):
        return whole, folds_case(alt, bits), True
    starts = start_strings(alt, bits, min_len=1, most=MAX_STARTS)
    if starts is None or not _lead_ok(starts):
        return None
    return starts, folds_case(alt, bits), False


def _lead_ok(starts: frozenset[str]) -> bool:
    return all(x[:1].isascii() and x[:1].isalpha() for x in starts)


def at_word(alt: str, bits: int = 0) -> bool:
    """Does every match start where a run of letters starts (``\\b`` or ``(?<![\\w...])``
    first on every path, perhaps inside opening groups: ``(?i:\\b(?:pain|score)...``)?"""
    try:
        return _at_word_seq(sre_parse.parse(alt, bits).data)
    except re.error:
        return False


def _at_word_seq(items: Sequence[tuple[Any, Any]]) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op is C.AT:
        return av is C.AT_BOUNDARY
    if op is C.ASSERT_NOT and av[0] == -1:  # a negative look-behind of one class
        inner = av[1].data
        return (
            len(inner) == 1
            and inner[0][0] is C.IN
            and any(
                (o is C.CATEGORY and a is C.CATEGORY_WORD)
                or (o is C.RANGE and a in ((ord("a"), ord("z")), (ord("A"), ord("Z"))))
                for o, a in inner[0][1]
            )
        )
    if op is C.SUBPATTERN:
        return _at_word_seq(av[3].data)
    if op is C.BRANCH:
        return all(_at_word_seq(alt.data) for alt in av[1])
    return False


def after_non_digit(alt: str, bits: int) -> bool:
    """Does every match start with a digit that no digit precedes (``\\b``, ``(?<!\\d)`` or
    ``(?<![\\w...])`` first on every path)?"""
    first = first_set(alt, bits)
    if first is None or not first <= frozenset("0123456789"):
        return False
    try:
        return _no_digit_before(sre_parse.parse(alt, bits).data)
    except re.error:
        return False


def _no_digit_before(items: Sequence[tuple[Any, Any]]) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op is C.AT:
        return av is C.AT_BOUNDARY  # before a digit (a word character): a non-word one
    if op is C.ASSERT_NOT and av[0] == -1:
        inner = av[1].data
        if len(inner) == 1 and inner[0][0] is C.IN:
            return any(
                (o is C.CATEGORY and a in (C.CATEGORY_WORD, C.CATEGORY_DIGIT))
                or (o is C.RANGE and a[0] <= ord("0") and a[1] >= ord("9"))
                for o, a in inner[0][1]
            )
        if len(inner) == 1 and inner[0][0] is C.CATEGORY:
            return bool(inner[0][1] in (C.CATEGORY_WORD, C.CATEGORY_DIGIT))
        return False
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


@dataclass(frozen=True)
class DigitLane:
    """The digit-led alternatives of one file as one regex, tried only at their first chars."""

    slots: tuple[int, ...]  # the slot of each alternative, in file order
    alones: tuple[re.Pattern[str], ...]  # each alternative compiled alone (its own groups)
    regex: re.Pattern[str]

    @classmethod
    def build(cls, items: Sequence[tuple[int, str, str]], guard: bool = False) -> DigitLane | None:
        """``items``: (slot, alternative regex, flags) in file order; ``guard``: every one
        starts with a digit never preceded by a digit (:func:`after_non_digit`), so the lane
        is tried only at the first digit of a run."""
        if not items:
            return None
        chars: set[str] = set()
        parts: list[str] = []
        for k, (_, alt, flags) in enumerate(items):
            bits = _bits(flags)
            first = first_set(alt, bits)
            assert first is not None
            chars |= first
            renamed = _GROUP.sub(f"(?P<_L{k}_", alt)
            scoped = f"(?{flags}:{renamed})" if flags else f"(?:{renamed})"
            parts.append(f"(?P<_L{k}>{scoped})")
        cls_ = "[" + "".join(f"\\U{ord(c):08x}" for c in sorted(chars)) + "]"
        # after the class, so that the regex keeps its charset prefix (the fast skip in C)
        guard_ = "(?<![0-9][0-9])" if guard else ""
        regex = re.compile(f"{cls_}{guard_}(?<=(?=(?:{'|'.join(parts)}))(?s:.))")
        alones = tuple(re.compile(f"(?{flags}:{alt})" if flags else alt) for _, alt, flags in items)
        return cls(tuple(s for s, _, _ in items), alones, regex)

    def cursor(self, text: str) -> LaneCursor:
        return LaneCursor(self, text)


def _bits(flags: str) -> int:
    bits = 0
    for f in flags:
        bits |= {"i": re.I, "m": re.M, "x": re.X}[f]
    return bits


class LaneCursor(Cursor):
    """Matches of a :class:`DigitLane`, left to right; ``slot`` names the last one's slot."""

    __slots__ = ("lane", "slot", "text")

    def __init__(self, lane: DigitLane, text: str) -> None:
        self.lane = lane
        self.text = text
        self.slot = -1

    def find(self, pos: int) -> Found | None:
        m = self.lane.regex.search(self.text, pos)
        if m is None:
            return None
        name = m.lastgroup
        assert name is not None
        return self._at(int(name[2:]), m.start())

    def _at(self, k: int, start: int) -> Found | None:
        real = self.lane.alones[k].match(self.text, start)
        assert real is not None
        self.slot = self.lane.slots[k]
        return (start, real.end(), real)

    def retry(self, start: int, slot: int) -> Found | None:
        """After the match of ``slot`` at ``start`` failed its hooks: the next alternative
        of the lane that matches at ``start``, else the next match after it."""
        k = self.lane.slots.index(slot)
        for j in range(k + 1, len(self.lane.slots)):
            if self.lane.alones[j].match(self.text, start) is not None:
                return self._at(j, start)
        return self.find(start + 1)
