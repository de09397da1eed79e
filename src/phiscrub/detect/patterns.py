"""Pattern files (data) and the detector that runs them.

A pattern file ``phiscrub/data/patterns/<category>.toml`` holds named patterns::

    [[pattern]]
    name = "numeric_mdy"          # unique in the file; the span source is "rules.<file>:<name>"
    label = "DATE"                # the subtype of the whole match (or of group ``v``)
    reason = "why it exists"      # printed by ``phiscrub detect --explain``
    regex = '''...'''             # Python ``re`` syntax; ``%NAME%`` expands a shared definition
    flags = "i"                   # optional: any of "i", "m", "x" (scoped to this pattern)
    validate = ["date_parts"]     # optional: hooks of ``validators.VALIDATORS``
    priority = 50                 # optional: overlap resolution order (higher wins)
    score = 1.0                   # optional: confidence of the span
    anchor = '...'                # optional: a fast regex every match contains; the pattern
    before = 80                   #   is searched only from ``before`` chars ahead of an
                                  #   anchor match to the end of its line (speed only)

A pattern marks what it tags with named groups: ``(?P<v>...)`` for its own label, or a
group named after a label (``(?P<CITY>...)``, ``(?P<LOCATION_OTHER>...)``) so that one
address line yields STREET, CITY, STATE and ZIP spans. Without such a group the whole match
is tagged. Definitions shared by every file live in ``_common.toml`` under ``[defs]``; a file
may add its own ``[defs]``.

The patterns of a file behave as ONE alternation (leftmost match first, the earlier pattern
winning a tie; a match that fails validation gives way to the next pattern at the same
position), but each is searched on its own by the fast searchers of ``scan.py``.
"""

from __future__ import annotations

import heapq
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from phiscrub.detect.lanes import (
    WORDS,
    DigitLane,
    LaneCursor,
    after_non_digit,
    digit_led,
    note_index,
    word_starts,
)
from phiscrub.detect.scan import (
    Cursor,
    Searcher,
    TriggerCursor,
    WindowCursor,
    searchers,
    split_top,
)
from phiscrub.errors import UsageError
from phiscrub.span import Document, Span
from phiscrub.taxonomy import CATEGORY_OF

_DEF = re.compile(r"%([A-Z][A-Z0-9_]*)%")
_GROUP = re.compile(r"\(\?P<([A-Za-z_][A-Za-z0-9_]*)>")
_BACKREF = re.compile(r"\\[1-9]")
_NUMBERED = re.compile(r"_?\d+$")
_FLAGS = {"i", "m", "x"}
#: the label of invalidation patterns (clinical numbers and phrases): they block, never tag
NOT_PHI = "NOT-PHI"

#: word-lane slots of anchors (``_ANCHOR_SLOT + pattern index``); alternatives use lower slots
_ANCHOR_SLOT = 1 << 20
#: a hook gets the text and the range it would tag (the first labelled group, or the match)
Validator = Callable[[str, int, int], bool]


@dataclass(frozen=True, slots=True)
class Pattern:
    """One named pattern of a pattern file, with the reason it exists."""

    file: str
    name: str
    label: str
    reason: str
    regex: str
    flags: str = ""
    validate: tuple[str, ...] = ()
    priority: int = 50
    score: float = 1.0
    anchor: str = ""
    before: int = 80

    @property
    def source(self) -> str:
        return f"rules.{self.file}:{self.name}"

    def scoped(self) -> str:
        """The regex with its flags scoped to it, so that it can join an alternation."""
        return f"(?{self.flags}:{self.regex})" if self.flags else f"(?:{self.regex})"


@dataclass(frozen=True, slots=True)
class PatternFile:
    """The parsed content of one pattern file."""

    name: str
    about: str
    patterns: tuple[Pattern, ...]


def _expand(regex: str, defs: Mapping[str, str], where: str) -> str:
    for _ in range(8):  # definitions may use definitions
        if "%" not in regex:
            return regex

        def sub(m: re.Match[str]) -> str:
            if m.group(1) not in defs:
                raise UsageError(f"{where}: unknown definition %{m.group(1)}%")
            return defs[m.group(1)]

        regex = _DEF.sub(sub, regex)
    return regex


def _read_toml(name: str) -> dict[str, Any]:
    data = resources.files("phiscrub").joinpath("data", "patterns", f"{name}.toml").read_bytes()
    try:
        return tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"patterns/{name}.toml: {exc}") from exc


def load_pattern_file(name: str, common: Mapping[str, str] | None = None) -> PatternFile:
    """Parse ``data/patterns/<name>.toml``, expanding shared definitions."""
    raw = _read_toml(name)
    defs = dict(common if common is not None else _read_toml("_common").get("defs", {}))
    defs.update(raw.get("defs", {}))
    patterns: list[Pattern] = []
    seen: set[str] = set()
    for entry in raw.get("pattern", []):
        where = f"patterns/{name}.toml:{entry.get('name', '?')}"
        if entry["name"] in seen:
            raise UsageError(f"{where}: duplicate pattern name")
        seen.add(entry["name"])
        if entry["label"] not in CATEGORY_OF and entry["label"] != NOT_PHI:
            raise UsageError(f"{where}: unknown label {entry['label']}")
        if not entry.get("reason"):
            raise UsageError(f"{where}: every pattern needs a reason")
        if _BACKREF.search(entry["regex"]):
            raise UsageError(f"{where}: numbered groups and back-references break the alternation")
        flags = entry.get("flags", "")
        if set(flags) - _FLAGS:
            raise UsageError(f"{where}: unsupported flags {flags!r}")
        patterns.append(
            Pattern(
                file=name,
                name=entry["name"],
                label=entry["label"],
                reason=entry["reason"],
                regex=_expand(entry["regex"], defs, where),
                flags=flags,
                validate=tuple(entry.get("validate", ())),
                priority=int(entry.get("priority", raw.get("priority", 50))),
                score=float(entry.get("score", 1.0)),
                anchor=_expand(entry.get("anchor", ""), defs, where),
                before=int(entry.get("before", 80)),
            )
        )
    return PatternFile(name, raw.get("about", ""), tuple(patterns))


@dataclass(frozen=True, slots=True)
class _Compiled:
    pattern: Pattern
    alone: re.Pattern[str]
    groups: tuple[tuple[str, str], ...]  # (group name, label)
    hooks: tuple[Validator, ...]
    searchers: tuple[Searcher, ...]
    anchor: re.Pattern[str] | None


def _flag_bits(flags: str) -> int:
    bits = 0
    for f in flags:
        bits |= {"i": re.I, "m": re.M, "x": re.X}[f]
    return bits


def _scope(regex: str, flags: str) -> str:
    return f"(?{flags}:{regex})" if flags else regex


def _slot(slot: int, cur: Cursor) -> int:
    """The slot of a cursor's current match (a lane cursor says which alternative)."""
    return cur.slot if isinstance(cur, LaneCursor) else slot


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


def _hits(comp: _Compiled, m: re.Match[str], start: int, end: int, text: str) -> list[Hit] | None:
    pat = comp.pattern
    names = m.re.groupindex
    ranges = [
        (m.start(g), m.end(g), label) for g, label in comp.groups if g in names and m.start(g) >= 0
    ]
    if not ranges:  # no labelled group took part in this alternative: the whole match
        ranges = [(start, end, pat.label)]
    ranges = [r for r in ranges if r[0] < r[1]]
    if not ranges:
        return None
    if not all(hook(text, ranges[0][0], ranges[0][1]) for hook in comp.hooks):
        return None
    return [(a, b, label, pat) for a, b, label in ranges]


@dataclass
class PatternDetector:
    """Runs every pattern of one file, leftmost match first: ``detect(doc) -> spans``.

    The result is that of one alternation of all the file's patterns (the regex engine's
    leftmost-first rule, earlier patterns winning ties), with a match that fails its hooks
    giving way to the next pattern at the same position; but each alternative is searched
    by the cheapest exact means: the word lane or the digit lane of
    :mod:`phiscrub.detect.lanes` (shared per-note indexes), else a searcher of
    :mod:`phiscrub.detect.scan`; a heap merges them in order.
    """

    file: PatternFile
    validators: Mapping[str, Validator]
    _order: list[_Compiled] = field(init=False, repr=False)
    _slots: list[tuple[int, Searcher]] = field(init=False, repr=False)
    _word_full: dict[int, re.Pattern[str]] = field(init=False, repr=False)
    _lanes: tuple[DigitLane, ...] = field(init=False, repr=False)
    _lane_slots: frozenset[int] = field(init=False, repr=False)
    _owner: int = field(init=False, repr=False)
    _rest: list[tuple[int, Searcher]] = field(init=False, repr=False)
    _rest_unaligned: list[tuple[int, Searcher]] = field(init=False, repr=False)
    _anchored: list[tuple[int, re.Pattern[str], int, tuple[tuple[int, Searcher], ...]]] = field(
        init=False, repr=False
    )

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
        i = 0
        for k, comp in enumerate(self._order):
            pat = comp.pattern
            if comp.anchor is not None and (found := word_starts(pat.anchor, 0)) is not None:
                words.append((_ANCHOR_SLOT + k, *found))  # a word anchor: from the index
            alts = split_top(pat.regex) if "x" not in pat.flags else [pat.regex]
            bits = _flag_bits(pat.flags)
            for alt in alts:
                if comp.anchor is None and "x" not in pat.flags:
                    if (found := word_starts(alt, bits)) is not None:
                        words.append((i, *found))
                        self._word_full[i] = re.compile(_scope(alt, pat.flags))
                    elif digit_led(alt, bits):
                        digits.append((i, alt, pat.flags))
                i += 1
        self._owner = WORDS.register(words)
        # alternatives that start a run of digits get a lane tried only at a run's first digit
        guarded = [d for d in digits if after_non_digit(d[1], _flag_bits(d[2]))]
        rest = [d for d in digits if d not in guarded]
        lanes = (DigitLane.build(guarded, guard=True), DigitLane.build(rest))
        self._lanes = tuple(lane for lane in lanes if lane is not None)
        self._lane_slots = frozenset(i for i, _, _ in digits)
        self._plan_rest()

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
            self._rest_unaligned.append((i, s))
            if i not in self._word_full:
                self._rest.append((i, s))
        for k, slots in by_pattern.items():
            comp = self._order[k]
            assert comp.anchor is not None
            word_anchor = _ANCHOR_SLOT + k if self._word_anchor(k) else -1
            self._anchored.append((word_anchor, comp.anchor, comp.pattern.before, tuple(slots)))

    def _word_anchor(self, k: int) -> bool:
        """Are the anchor windows of pattern ``k`` found from the word lane?"""
        return word_starts(self._order[k].pattern.anchor, 0) is not None

    @property
    def name(self) -> str:
        return self.file.name

    def detect(self, doc: Document) -> list[Span]:
        return list(self.iter_spans(doc.text))

    def iter_spans(self, text: str) -> Iterator[Span]:
        for start, end, label, pat in self.iter_matches(text):
            yield Span(start, end, label, text[start:end], pat.source, pat.score)

    def _cursors(self, text: str) -> list[tuple[int, Cursor]]:
        """(slot, cursor) of every alternative that can match in ``text`` (lane: slot -1)."""
        ix = note_index(text)
        out: list[tuple[int, Cursor]] = []
        cands: dict[int, list[int]] = {}
        if ix.aligned:
            full = self._word_full
            cands = WORDS.candidates(ix, self._owner)
            for i, where in cands.items():
                if i < _ANCHOR_SLOT:
                    out.append((i, TriggerCursor(full[i], text, where)))
            rest = self._rest
        else:  # lower-casing moved offsets: the word lane cannot be used
            rest = self._rest_unaligned
        for i, s in rest:
            cur = s.cursor(text, ix.low)
            if cur is not None:
                out.append((i, cur))
        for k, anchor, before, slots in self._anchored:
            if k in cands:
                windows = WindowCursor.windows_at(text, [(p, p) for p in cands[k]], before)
            else:
                windows = WindowCursor.windows_of(anchor, text, before)
            if windows:
                out.extend((i, WindowCursor(s, text, windows)) for i, s in slots)
        out.extend((-1, lane.cursor(text)) for lane in self._lanes)
        return out

    def iter_matches(self, text: str) -> Iterator[Hit]:
        """``(start, end, label, pattern)`` for every validated match, left to right."""
        cursors = self._cursors(text)
        # heap of (start, slot, end, match, cursor): the next candidate of every cursor
        heap: list[tuple[int, int, int, re.Match[str], int]] = []
        for c, (slot, cur) in enumerate(cursors):
            found = cur.find(0)
            if found is not None:
                heap.append((found[0], _slot(slot, cur), found[1], found[2], c))
        heapq.heapify(heap)
        pos = 0
        while heap:
            start, i, end, m, c = heap[0]
            slot, cur = cursors[c]
            if start < pos:  # overtaken by an earlier hit: search again from there
                found = cur.find(pos)
            else:
                hits = _hits(self._order[self._slots[i][0]], m, start, end, text)
                if hits:
                    yield from hits
                    pos = max(end, start + 1)
                    found = cur.find(pos)
                elif isinstance(cur, LaneCursor):
                    found = cur.retry(start, i)
                else:
                    found = cur.find(start + 1)
            if found is None:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, (found[0], _slot(slot, cur), found[1], found[2], c))

    def pattern(self, name: str) -> Pattern | None:
        for comp in self._order:
            if comp.pattern.name == name:
                return comp.pattern
        return None
