"""Span processors of the rule pipelines: ``process(doc, spans) -> list[Span]``.

Order in the ``rules`` pipeline (see ``registry.PIPELINES``):

1. ``invalidate``: a rule span that lies inside a clinical match of
   ``data/patterns/clinical.toml`` (``BP 118/76``, ``GCS 15``, ``L4-L5``, ``at 0800``) is
   dropped, unless its pattern's priority is at least ``STRONG`` (an explicit trigger
   such as ``DOB:`` beats a clinical look-alike).
2. ``id_lists``: an identifier followed by ``, `` / `` / `` / ``and`` and another code of
   the same shape gets a sibling span of the same label (``Acc: 771, 772, 773``).
3. ``propagate``: a name tagged by a trigger (``Dr. Quill``) is tagged at every other
   occurrence in the same note (seed 001 global reconciliation, per document).
4. ``resolve``: overlaps. Spans are ranked by the priority of their pattern (higher
   first), then by length (longer first), then by start; a span is kept if it overlaps
   no span kept before it. Identical extents with different labels keep the higher
   priority label. The result never holds two overlapping spans.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from phiscrub.detect.lanes import positions
from phiscrub.detect.lexicon import Lexicons
from phiscrub.detect.patterns import PatternDetector
from phiscrub.span import Document, Span

#: a pattern at or above this priority survives the clinical invalidation
STRONG = 90

PriorityOf = Callable[[Span], int]


@dataclass
class Invalidate:
    """Drop rule spans that sit inside a clinical number or phrase."""

    blocker: PatternDetector
    priority_of: PriorityOf
    name: str = "invalidate"

    def process(self, doc: Document, spans: list[Span]) -> list[Span]:
        if all(self.priority_of(s) >= STRONG for s in spans):
            return list(spans)
        blocks, longest = clinical_blocks(self.blocker, doc.text)
        if not blocks:
            return list(spans)
        out: list[Span] = []
        for s in spans:
            if self.priority_of(s) < STRONG and inside(s, blocks, longest):
                continue
            out.append(s)
        return out

    def blocking(self, doc: Document, span: Span) -> str | None:
        """The clinical pattern that would block ``span`` (for ``--explain``)."""
        for a, b, _, pat in self.blocker.iter_matches(doc.text):
            if a <= span.start and span.end <= b:
                return pat.source
        return None


class Disjoint:
    """Spans no two of which overlap (``resolve``'s and the hybrid ``merge``'s kept spans):
    does a span overlap one of them? Sorted by start, their ends are sorted too, so only the
    last one that starts before the span ends can reach it: a bisection, not a pass."""

    def __init__(self, spans: Iterable[Span] = ()) -> None:
        ordered = sorted(spans, key=_FIELDS)
        self.starts = [s.start for s in ordered]
        self.ends = [s.end for s in ordered]

    def overlaps(self, span: Span) -> bool:
        i = bisect.bisect_left(self.starts, span.end)
        return i > 0 and self.ends[i - 1] > span.start

    def add(self, span: Span) -> None:
        """Add a span that overlaps none of them."""
        i = bisect.bisect_left(self.starts, span.start)
        self.starts.insert(i, span.start)
        self.ends.insert(i, span.end)


Blocks = tuple[list[tuple[int, int]], int]
#: (blocker, text, its blocks) of the last note asked: the hybrid's filter of CRF numbers
#: (``taggers.hybrid_tidy.clinical_filter``) and then ``invalidate`` ask about one note
#: (two detectors of one pattern file and validators find the same)
_last: tuple[object, object, str, Blocks] | None = None


def clinical_blocks(blocker: PatternDetector, text: str) -> Blocks:
    """The matches of ``blocker`` in ``text`` as sorted extents, and the longest one's
    length (0 when there is none); the last note's are kept for the next question."""
    global _last
    last = _last
    if (
        last is not None
        and last[2] is text
        and last[0] is blocker.file
        and last[1] is blocker.validators
    ):
        return last[3]
    blocks = sorted((a, b) for a, b, _, _ in blocker.iter_matches(text))
    found = blocks, max((b - a for a, b in blocks), default=0)
    _last = (blocker.file, blocker.validators, text, found)
    return found


def inside(span: Span, blocks: list[tuple[int, int]], longest: int) -> bool:
    """Is ``span`` inside one of the sorted ``blocks`` (none longer than ``longest``)?"""
    i = bisect.bisect_right(blocks, (span.start, 1 << 62)) - 1
    while i >= 0 and blocks[i][0] >= span.start - longest:
        a, b = blocks[i]
        if a <= span.start and span.end <= b:
            return True
        i -= 1
    return False


_ID_LABELS = {"MEDICALRECORD", "IDNUM", "ACCOUNT", "HEALTHPLAN", "DEVICE", "LICENSE"}
_LETTERS = re.compile(r"[A-Za-z]+")
#: the next code of a list or a range (``KT-55310 to KT-55316``, ``A-1 through A-12``)
_NEXT_ID = re.compile(
    r"\s*(?:,|/|;|and|&|\bto\b|\bthrough\b|\bthru\b|\u2013)\s*([A-Z0-9][A-Z0-9\-]*\d[A-Z0-9\-]*)\b"
)


def _shape(s: str) -> str:
    return re.sub(r"\d+", "9", re.sub(r"[A-Z]+", "A", s))


@dataclass
class IdLists:
    """Extend an identifier to the same-shaped codes listed right after it."""

    name: str = "id_lists"

    def process(self, doc: Document, spans: list[Span]) -> list[Span]:
        out = list(spans)
        taken = {(s.start, s.end, s.label) for s in spans}
        for s in spans:
            if s.label not in _ID_LABELS:
                continue
            end, shape = s.end, _shape(s.text)
            while (m := _NEXT_ID.match(doc.text, end)) is not None:
                a, b = m.span(1)
                if _shape(m.group(1)) != shape:
                    break
                if (a, b, s.label) not in taken:
                    out.append(Span.of(doc.text, a, b, s.label, s.source + "+list", s.score))
                    taken.add((a, b, s.label))
                end = b
        return out


_NAME_LABELS = {"PATIENT", "DOCTOR"}
#: the fields of a Span in order: its order (``order=True``) compares these tuples
_FIELDS = operator.attrgetter("start", "end", "label", "text", "source", "score")


@dataclass
class Propagate:
    """Tag the other occurrences of names found by a trigger in the same note."""

    lex: Lexicons
    name: str = "propagate"
    min_score: float = 0.9

    def process(self, doc: Document, spans: list[Span]) -> list[Span]:
        words: dict[str, str] = {}
        for s in spans:
            if s.label not in _NAME_LABELS or s.score < self.min_score:
                continue
            for w in re.findall(r"[A-Z][A-Za-z'\-]{2,}", s.text):
                if not self.lex.is_allowed(w) and not self.lex.is_common(w):
                    words.setdefault(w, s.label)
        if not words:
            return list(spans)
        covered = _coverage(spans)
        out = list(spans)
        for a, b in _occurrences(doc.text, words):
            if covered(a) or covered(b - 1):
                continue
            label = words[doc.text[a:b]]
            out.append(Span.of(doc.text, a, b, label, "rules.propagate:name", 0.8))
        return out


def _occurrences(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Where the words occur whole (``(?<![\\w\\-])WORD(?![\\w\\-])``), left to right, from the
    note's shared index: a plain word where its letter run is; a word with ``'`` or ``-``
    where its first letter run is, the longest such word that fits at a position (what an
    alternation of them, longest first, would find)."""
    size = len(text)

    def whole(p: int, end: int) -> bool:
        return (p == 0 or not _joined(text[p - 1])) and (end == size or not _joined(text[end]))

    found: list[tuple[int, int]] = []
    odd: dict[int, int] = {}  # start -> the longest odd word's end there
    for w in words:
        if w.isascii() and w.isalpha():
            found.extend((p, p + len(w)) for p in positions(text, w) if whole(p, p + len(w)))
            continue
        run = _LETTERS.match(w)
        assert run is not None  # names start with a capital A-Z
        for p in positions(text, run.group()):
            end = p + len(w)
            if text.startswith(w, p) and whole(p, end) and end > odd.get(p, -1):
                odd[p] = end
    last = 0
    for p in sorted(odd):  # what finditer gives: no overlap, left to right
        if p >= last:
            found.append((p, odd[p]))
            last = odd[p]
    found.sort()
    out: list[tuple[int, int]] = []
    for a, b in found:  # whole words never overlap but for odd words inside odd ones
        if not out or a >= out[-1][1]:
            out.append((a, b))
    return out


def _joined(c: str) -> bool:
    return c.isalnum() or c in "_-"


def _coverage(spans: Iterable[Span]) -> Callable[[int], bool]:
    """Is a character offset inside one of the spans? (merged intervals, bisection)"""
    merged: list[list[int]] = []
    for a, b in sorted((s.start, s.end) for s in spans if s.start < s.end):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    starts = [a for a, _ in merged]
    ends = [b for _, b in merged]

    def covered(pos: int) -> bool:
        i = bisect.bisect_right(starts, pos) - 1
        return i >= 0 and pos < ends[i]

    return covered


@dataclass
class Resolve:
    """Remove overlaps: higher pattern priority, then longer, then earlier wins."""

    priority_of: PriorityOf
    name: str = "resolve"

    def process(self, doc: Document, spans: list[Span]) -> list[Span]:
        prio = self.priority_of
        ranked = sorted(set(spans), key=lambda s: (-prio(s), s.start - s.end, s.start, s.label))
        kept: list[Span] = []
        taken = Disjoint()
        for s in ranked:
            if not taken.overlaps(s):
                kept.append(s)
                taken.add(s)
        kept.sort(key=_FIELDS)  # Span's own order, compared in C
        return kept
