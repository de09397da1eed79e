"""The detector that runs a pattern file (its format: :mod:`phiscrub.detect.pattern_files`).

The patterns of a file behave as ONE alternation (leftmost match first, the earlier pattern
winning a tie; a match that fails validation gives way to the next pattern at the same
position), but each is searched on its own by the fast searchers of ``scan.py``.
"""

from __future__ import annotations

import heapq
import operator
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from phiscrub.detect.anchors import anchor_spans, index_anchor, word_anchor_spans
from phiscrub.detect.digits import LANE_CHARS, DigitLane, after_non_digit, digit_led
from phiscrub.detect.lanes import (
    ANCHOR_SLOT,
    TAIL_SLOT,
    WINDOW_SLOT,
    WORDS,
    note_index,
    word_starts,
)
from phiscrub.detect.pattern_files import (
    Pattern,
    PatternFile,
    Validator,
)
from phiscrub.detect.prefilter import Gate
from phiscrub.detect.regex_shape import WHOLE, char_class
from phiscrub.detect.scan import (
    Searcher,
    WindowCursor,
    first_set,
    matches_at,
    searchers,
    split_top,
)
from phiscrub.detect.tails import TailSearch, TextTail
from phiscrub.errors import UsageError
from phiscrub.span import Document, Span
from phiscrub.taxonomy import CATEGORY_OF

_GROUP = re.compile(r"\(\?P<([A-Za-z_][A-Za-z0-9_]*)>")
_NUMBERED = re.compile(r"_?\d+$")
_DIGITS = frozenset("0123456789")


@dataclass(frozen=True, slots=True)
class _Compiled:
    pattern: Pattern
    alone: re.Pattern[str]
    groups: tuple[tuple[str, str], ...]  # (group name, label)
    hooks: tuple[Validator, ...]
    searchers: tuple[Searcher, ...]
    anchor: re.Pattern[str] | None
    # id(regex) -> (regex, the labelled groups it has), filled as matches come: keyed by id,
    # since a compiled regex hashes its whole code on every lookup (~17,000 instructions)
    present: dict[int, tuple[re.Pattern[str], tuple[tuple[str, str], ...]]] = field(
        default_factory=dict
    )


_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _mixed(alt: str, bits: int) -> bool:
    """Can a match start with an ASCII letter or with a character of a digit lane, and
    with nothing else? (``[NSEW]?\\d{1,6}...``, ``\\b(?:at|@|~)\\s+\\d...``)"""
    first = first_set(alt, bits)
    if first is None or not first & _LETTERS:
        return False
    rest = first - _LETTERS
    return bool(rest) and rest <= LANE_CHARS


def _letter_searcher(alt: str, flags: str) -> Searcher:
    """A searcher of ``alt`` tried only where an ASCII letter it can start with is."""
    first = first_set(alt, _flag_bits(flags))
    assert first is not None
    regex = f"{char_class(first & _LETTERS)}(?<=(?=(?P<{WHOLE}>{_scope(alt, flags)}))(?s:.))"
    return Searcher(re.compile(regex), None, True, None, "first")


def _flag_bits(flags: str) -> int:
    bits = 0
    for f in flags:
        bits |= {"i": re.I, "m": re.M, "x": re.X}[f]
    return bits


def _scope(regex: str, flags: str) -> str:
    return f"(?{flags}:{regex})" if flags else regex


def _label_groups(pattern: Pattern) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name in _GROUP.findall(pattern.regex):
        base = _NUMBERED.sub("", name)  # v2, CITY_2: the same label twice in one regex
        if base == "v":
            out.append((name, pattern.label))
        elif base.replace("_", "-") in CATEGORY_OF:
            out.append((name, base.replace("_", "-")))
    return out


#: one validated match: start, end, label, and the pattern that produced it
Hit = tuple[int, int, str, Pattern]
#: one candidate match: start, slot, end, match, and its lane (to try the lane's next
#: alternative at the same start when this one fails its hooks)
_Cand = tuple[int, int, int, re.Match[str], "DigitLane | None"]


#: the sort key of candidates: (start, slot), read in C
_by_start_slot = operator.itemgetter(0, 1)


def _hits(comp: _Compiled, m: re.Match[str], start: int, end: int, text: str) -> list[Hit] | None:
    pat = comp.pattern
    rx = m.re
    got = comp.present.get(id(rx))
    if got is not None and got[0] is rx:
        groups = got[1]
    else:  # the labelled groups that this regex (alternative) has
        names = rx.groupindex
        groups = tuple(gl for gl in comp.groups if gl[0] in names)
        comp.present[id(rx)] = (rx, groups)
    ranges = []
    for g, label in groups:
        a, b = m.span(g)
        if a >= 0:
            ranges.append((a, b, label))
    if not ranges:  # no labelled group took part in this alternative: the whole match
        ranges = [(start, end, pat.label)]
    ranges = [r for r in ranges if r[0] < r[1]]
    if not ranges:
        return None
    a, b = ranges[0][0], ranges[0][1]
    for hook in comp.hooks:
        if not hook(text, a, b):
            return None
    return [(a, b, label, pat) for a, b, label in ranges]


@dataclass
class PatternDetector:
    """Runs every pattern of one file, leftmost match first: ``detect(doc) -> spans``.

    The result is that of one alternation of all the file's patterns (the regex engine's
    leftmost-first rule, earlier patterns winning ties), with a match that fails its hooks
    giving way to the next pattern at the same position; but each alternative is searched
    by the cheapest exact means: the word lane (:mod:`phiscrub.detect.lanes`) or a digit
    lane (:mod:`phiscrub.detect.digits`), both from shared per-note indexes, else a
    searcher of :mod:`phiscrub.detect.scan` (in windows: :mod:`phiscrub.detect.anchors`,
    :mod:`phiscrub.detect.tails`). Every candidate of every alternative is listed, sorted
    by (start, slot) and swept once, left to right.
    """

    file: PatternFile
    validators: Mapping[str, Validator]
    _order: list[_Compiled] = field(init=False, repr=False)
    _slots: list[tuple[int, Searcher]] = field(init=False, repr=False)
    _word_full: dict[int, re.Pattern[str]] = field(init=False, repr=False)
    _lanes: tuple[DigitLane, ...] = field(init=False, repr=False)
    _lane_slots: frozenset[int] = field(init=False, repr=False)
    _owner: int = field(init=False, repr=False)
    _rest: list[tuple[int, Searcher | TextTail]] = field(init=False, repr=False)
    _rest_unaligned: list[tuple[int, Searcher | TextTail]] = field(init=False, repr=False)
    _anchored: list[tuple[int, re.Pattern[str], int, tuple[tuple[int, Searcher], ...]]] = field(
        init=False, repr=False
    )
    _alts: list[tuple[str, str]] = field(init=False, repr=False)  # slot -> (regex, flags)
    _mixed: dict[int, Searcher] = field(init=False, repr=False)  # slot -> its letter starts
    _tails: dict[int, TailSearch] = field(init=False, repr=False)
    _tail_words: set[int] = field(init=False, repr=False)  # tails found from the word lane
    # slot -> the alternative alone: word-led, searched in windows at its word-lane places
    _window_words: dict[int, re.Pattern[str]] = field(init=False, repr=False)
    # which alternatives may match in a note (one pass in C): the others are not tried
    _gate: Gate = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._order = []
        self._slots = []
        for pat in self.file.patterns:
            try:
                alone = re.compile(pat.scoped())
                found = searchers(pat.regex, pat.flags)
                anchor = re.compile(pat.anchor) if pat.anchor else None
            except re.error as exc:
                raise UsageError(f"patterns/{pat.file}.toml:{pat.name}: {exc}") from exc
            hooks = []
            for hook in pat.validate:
                if hook not in self.validators:
                    raise UsageError(f"patterns/{pat.file}.toml:{pat.name}: no hook {hook}")
                hooks.append(self.validators[hook])
            groups = tuple(_label_groups(pat))
            comp = _Compiled(pat, alone, groups, tuple(hooks), tuple(found), anchor)
            self._slots.extend((len(self._order), s) for s in found)
            self._order.append(comp)
        self._plan_lanes()

    def _plan_lanes(self) -> None:
        words: list[tuple[int, frozenset[str], bool, bool]] = []
        digits: list[tuple[int, str, str]] = []
        self._word_full = {}
        self._alts = []
        self._mixed = {}
        self._tails = {}
        self._tail_words = set()
        self._window_words = {}
        i = 0
        for k, comp in enumerate(self._order):
            pat = comp.pattern
            if comp.anchor is not None and (found := index_anchor(pat.anchor)) is not None:
                words.append((ANCHOR_SLOT + k, *found))  # a word anchor: from the index
            alts = split_top(pat.regex) if "x" not in pat.flags else [pat.regex]
            bits = _flag_bits(pat.flags)
            for alt in alts:
                self._alts.append((alt, pat.flags))
                if comp.anchor is not None and (tail := TailSearch.of(alt, pat.flags)):
                    self._tails[i] = tail  # tried only ahead of its tail (in its windows)
                    if tail.word_tail and (found := word_starts(tail.word_tail, bits, False, True)):
                        words.append((TAIL_SLOT + i, *found))  # the tail from the index
                        self._tail_words.add(i)
                elif (
                    comp.anchor is not None
                    and "x" not in pat.flags
                    and (found := word_starts(alt, bits, checked=True)) is not None
                ):  # word-led, searched in windows: at its words there only
                    words.append((WINDOW_SLOT + i, *found))
                    self._window_words[i] = re.compile(_scope(alt, pat.flags))
                if comp.anchor is None and "x" not in pat.flags:
                    found = word_starts(alt, bits, checked=True)
                    if found is None and (first_set(alt, bits) or {"0"}) <= _LETTERS:
                        found = word_starts(alt, bits, True, True)  # single letters: [A-TV-Z]\d
                    if found is not None:
                        words.append((i, *found))
                        self._word_full[i] = re.compile(_scope(alt, pat.flags))
                    elif digit_led(alt, bits):
                        digits.append((i, alt, pat.flags))
                    elif _mixed(alt, bits) and (found := word_starts(alt, bits, True, True)):
                        # starts with a letter: the word lane; else: the digit lanes
                        words.append((i, *found))
                        self._word_full[i] = re.compile(_scope(alt, pat.flags))
                        digits.append((i, alt, pat.flags))
                        self._mixed[i] = _letter_searcher(alt, pat.flags)
                i += 1
        self._owner = WORDS.register(words)
        # at digits: alternatives no digit precedes get a lane tried only at a run's first
        # digit (the note's digit runs), the others one tried at every digit; at their
        # other first characters ("(", "#", "+"...), a third lane
        firsts = [first_set(alt, _flag_bits(flags)) or frozenset() for _, alt, flags in digits]
        at_digit = [d for d, f in zip(digits, firsts, strict=True) if f & _DIGITS]
        guarded = [d for d in at_digit if after_non_digit(d[1], _flag_bits(d[2]))]
        others = sorted(set().union(*firsts) - _DIGITS - _LETTERS)
        lanes = (
            DigitLane.build(guarded, guard=True),
            DigitLane.build([d for d in at_digit if d not in guarded]),
            # one lane per other character: a regex led by one literal, which the engine
            # skips to (memchr), where a class of several is tested at every character
            *(
                DigitLane.build(
                    [d for d, f in zip(digits, firsts, strict=True) if c in f], digits=False, only=c
                )
                for c in others
            ),
        )
        self._lanes = tuple(lane for lane in lanes if lane is not None)
        self._lane_slots = frozenset(i for i, _, _ in digits)
        self._plan_rest()
        # word-lane and digit-lane alternatives are tried at their words or digit runs only:
        # cheaper than a gate's test; searchers and lanes led by another character ("(",
        # "#": found by a regex) scan the note or their windows
        scanned = {s for lane in self._lanes if lane.regex is not None for s in lane.slots}
        skip = (self._lane_slots - scanned).union(self._word_full)
        self._gate = Gate(
            [(alt, _flag_bits(flags)) for alt, flags in self._alts],
            (i for i in range(len(self._alts)) if i not in skip),
            self.file.name,
        )

    def _plan_rest(self) -> None:
        """The slots searched on their own: per-note work is a loop over these only."""
        self._rest, self._rest_unaligned, self._anchored = [], [], []
        by_pattern: dict[int, list[tuple[int, Searcher]]] = {}
        for i, (k, s) in enumerate(self._slots):
            if i in self._lane_slots:
                continue
            if self._order[k].anchor is not None:
                by_pattern.setdefault(k, []).append((i, s))
                continue
            alt, flags = self._alts[i]
            found: Searcher | TextTail = TextTail.of(alt, flags, s.kind) or s
            self._rest_unaligned.append((i, found))
            if i not in self._word_full:
                self._rest.append((i, found))
        # an alternative split between the word lane and the digit lanes: its letter starts
        # by a regex where the word lane cannot be used
        self._rest_unaligned.extend(self._mixed.items())
        for k, slots in by_pattern.items():
            comp = self._order[k]
            assert comp.anchor is not None
            word_anchor = ANCHOR_SLOT + k if self._word_anchor(k) else -1
            self._anchored.append((word_anchor, comp.anchor, comp.pattern.before, tuple(slots)))

    def _word_anchor(self, k: int) -> bool:
        """Are the anchor windows of pattern ``k`` found from the word lane?"""
        return index_anchor(self._order[k].pattern.anchor) is not None

    @property
    def name(self) -> str:
        return self.file.name

    def detect(self, doc: Document) -> list[Span]:
        return list(self.iter_spans(doc.text))

    def iter_spans(self, text: str) -> Iterator[Span]:
        for start, end, label, pat in self.iter_matches(text):
            yield Span(start, end, label, text[start:end], pat.source, pat.score)

    def _candidates(self, text: str) -> list[_Cand]:
        """Every match of every alternative that can match in ``text`` (a lane gives the
        first of its alternatives at each position), sorted by (start, slot). Alternatives
        that the note's gate rules out (:mod:`phiscrub.detect.prefilter`) are not tried."""
        ix = note_index(text)
        on = self._gate.active(text)
        out: list[_Cand] = []
        cands: dict[int, list[int]] = {}
        if ix.aligned:
            full = self._word_full
            cands = WORDS.candidates(ix, self._owner)
            for i, where in cands.items():
                if i < ANCHOR_SLOT:
                    match = full[i].match
                    out.extend((p, i, m.end(), m, None) for p in where if (m := match(text, p)))
            rest = self._rest
        else:  # lower-casing moved offsets: the word lane cannot be used
            rest = self._rest_unaligned
        low = ix.low
        for i, s in rest:
            if on is None or i in on:
                out.extend((a, i, b, m, None) for a, b, m in s.find_all(text, low))
        for k, anchor, before, slots in self._anchored:
            if on is not None:
                slots = tuple(sl for sl in slots if sl[0] in on)
                if not slots:
                    continue
            if k >= 0 and ix.aligned:  # a word anchor: its matches are in the word index
                spans = word_anchor_spans(anchor, text, cands.get(k, ()))
                windows = WindowCursor.windows_at(text, spans, before)
            else:
                windows = WindowCursor.windows_at(text, anchor_spans(anchor, text), before)
            for i, s in slots if windows else ():
                if ix.aligned and (alone := self._window_words.get(i)) is not None:
                    got = matches_at(alone, text, cands.get(WINDOW_SLOT + i, ()), windows)
                elif (tail := self._tails.get(i)) is None:
                    got = s.find_all(text, low, windows)
                else:  # the tail's places from the word index, when it is registered there
                    word = ix.aligned and i in self._tail_words
                    places = cands.get(TAIL_SLOT + i, []) if word else None
                    got = tail.find_all(text, low, windows, places)
                out.extend((a, i, b, m, None) for a, b, m in got)
        for lane in self._lanes:
            if on is None or lane.regex is None or not on.isdisjoint(lane.slots):
                out.extend(lane.find_all(text))
        out.sort(key=_by_start_slot)
        return out

    def iter_matches(self, text: str) -> Iterator[Hit]:
        """``(start, end, label, pattern)`` for every validated match, left to right."""
        cands = self._candidates(text)
        pending: list[_Cand] = []  # the next alternatives of a lane, after a hook failed
        order, slots = self._order, self._slots
        pos = 0
        i, n = 0, len(cands)
        while i < n or pending:
            if pending and (i >= n or pending[0][:2] < cands[i][:2]):
                start, slot, end, m, lane = heapq.heappop(pending)
            else:
                start, slot, end, m, lane = cands[i]
                i += 1
            if start < pos:
                continue
            hits = _hits(order[slots[slot][0]], m, start, end, text)
            if hits:
                yield from hits
                pos = end if end > start else start + 1
            elif lane is not None and (nxt := lane.next_at(text, start, slot)) is not None:
                heapq.heappush(pending, nxt)

    def pattern(self, name: str) -> Pattern | None:
        for comp in self._order:
            if comp.pattern.name == name:
                return comp.pattern
        return None
