"""Replacing the PHI spans of a document: surrogate, tag, redact or placeholder.

Overlapping input spans are resolved first: the longer span wins; between spans of
the same length, the earlier start, then the label first in the taxonomy. The output
spans never overlap and each one matches the new text at its new offsets.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal, NamedTuple

from phiscrub.errors import SpanError, UsageError
from phiscrub.span import Document, Span
from phiscrub.surrogate.ages import cap_birth_date
from phiscrub.surrogate.birth import is_birth_date, reference_date
from phiscrub.surrogate.generator import SurrogateOptions, Surrogator
from phiscrub.surrogate.keys import SurrogateKeyError
from phiscrub.taxonomy import CATEGORIES, CATEGORY_OF, SUBTYPES

Mode = Literal["surrogate", "tag", "redact", "placeholder"]
MODES: tuple[str, ...] = ("surrogate", "tag", "redact", "placeholder")
_LABEL_RANK = {label: i for i, label in enumerate(SUBTYPES)}


class AuditRow(NamedTuple):
    """One replaced span: its label, original and replacement text (PHI!), its offsets
    in the original text and in the new text."""

    label: str
    original: str
    surrogate: str
    start: int
    end: int
    new_start: int
    new_end: int


@dataclass(frozen=True, slots=True)
class Replacement:
    """The new text, the carried-over spans (offsets into the new text, same labels),
    how many dates could not be parsed (and got a shape-preserving surrogate), the
    audit rows when asked for, how many dates of birth were capped (they revealed an
    age over 89) and how many could not be checked (no reference date in the note)."""

    text: str
    spans: tuple[Span, ...]
    unparsed_dates: int = 0
    audit: tuple[AuditRow, ...] = ()
    birth_dates_capped: int = 0
    birth_dates_unchecked: int = 0


def _position(span: Span) -> tuple[int, int, int]:
    return (span.start, span.end, _LABEL_RANK.get(span.label, 99))


def resolve_overlaps(spans: Iterable[Span]) -> list[Span]:
    """Non-overlapping spans, in text order: the longer of two overlapping spans is kept."""
    ordered = sorted(set(spans), key=_position)
    if all(a.end <= b.start for a, b in pairwise(ordered)):
        return ordered
    ranked = sorted(ordered, key=lambda s: (s.start - s.end, *_position(s)))
    starts: list[int] = []  # kept spans, sorted by start (they never overlap each other)
    kept: list[Span] = []
    for span in ranked:
        i = bisect_left(starts, span.start)
        if (i < len(kept) and kept[i].start < span.end) or (i > 0 and kept[i - 1].end > span.start):
            continue
        starts.insert(i, span.start)
        kept.insert(i, span)
    return kept


def _check_keep(keep: Iterable[str]) -> frozenset[str]:
    names = frozenset(keep)
    unknown = sorted(n for n in names if n not in CATEGORIES and n not in _LABEL_RANK)
    if unknown:
        raise UsageError(
            f"unknown labels or categories to keep: {', '.join(unknown)}",
            hint="name i2b2 2014 subtypes (PATIENT, DATE...) or categories (NAME, LOCATION...)",
        )
    return names


class Replacer:
    """Replaces spans; ``replace`` is pure (an in-process cache aside).

    ``mode="surrogate"`` needs a key (see ``load_key``; ``random_key()`` only on purpose).
    ``keep`` names labels or categories left as they are (their spans are carried over).
    """

    def __init__(
        self,
        mode: Mode = "surrogate",
        *,
        key: bytes | None = None,
        keep: Iterable[str] = frozenset(),
        options: SurrogateOptions | None = None,
        audit: bool = False,
        placeholder: str = "___",
        mask: str = "*",
    ) -> None:
        if mode not in MODES:
            raise UsageError(f"unknown replacement mode {mode!r}", hint=f"use one of {MODES}")
        if len(mask) != 1 or not placeholder:
            raise UsageError("the mask must be one character and the placeholder non-empty")
        self.mode = mode
        self.keep = _check_keep(keep)
        self._kept_labels = frozenset(
            label for label in SUBTYPES if label in self.keep or CATEGORY_OF[label] in self.keep
        )
        self.audit = audit
        self.placeholder = placeholder
        self.mask = mask
        self._surrogator: Surrogator | None = None
        if mode == "surrogate":
            if key is None:
                raise SurrogateKeyError("surrogate mode needs a secret key")
            self._surrogator = Surrogator(key, options)

    def _new_text(self, span: Span, patient_id: str) -> tuple[str, bool]:
        if span.label in self._kept_labels:
            return span.text, False
        if self.mode == "tag":
            return f"[**{span.label}**]", False
        if self.mode == "redact":
            return "".join(c if c.isspace() else self.mask for c in span.text), False
        if self.mode == "placeholder":
            return self.placeholder, False
        assert self._surrogator is not None
        return self._surrogator.surrogate(span.label, span.text, patient_id)

    def _birth_dates(self, doc: Document, spans: Sequence[Span]) -> tuple[dict[Span, str], int]:
        """Birth dates to cap: {span: the capped original}, and how many birth dates
        had no reference date to be checked against."""
        surrogator = self._surrogator
        if surrogator is None or not surrogator.options.cap_birth_dates or "DATE" in self.keep:
            return {}, 0
        dates = [s for s in spans if s.label == "DATE"]
        births = [s for s in dates if is_birth_date(doc.text, s)]
        if not births:
            return {}, 0
        options = surrogator.options
        others = [s for s in dates if s not in births]
        reference = reference_date(others, options.date_order, options.reference_year)
        if reference is None:
            return {}, len(births)
        capped = {}
        for span in births:
            new = cap_birth_date(span.text, reference, options.date_order)
            if new is not None:
                capped[span] = new
        return capped, 0

    def replace(self, doc: Document, spans: Sequence[Span]) -> Replacement:
        """The document's text with its spans replaced; the inputs are not modified."""
        text = doc.text
        resolved = resolve_overlaps(spans)
        for span in resolved:
            if span.end > len(text) or text[span.start : span.end] != span.text:
                raise SpanError(
                    f"document {doc.id}: span {span.start}-{span.end} ({span.label}) "
                    "does not match the text at its offsets"
                )
        capped, unchecked = self._birth_dates(doc, resolved)
        pieces: list[str] = []
        out_spans: list[Span] = []
        audit: list[AuditRow] = []
        unparsed = 0
        cursor = length = 0
        for span in resolved:
            if capped and span in capped:
                assert self._surrogator is not None
                new, failed = self._surrogator.surrogate("DATE", capped[span], doc.patient_id)
            else:
                new, failed = self._new_text(span, doc.patient_id)
            unparsed += failed
            gap = text[cursor : span.start]
            pieces.append(gap)
            pieces.append(new)
            length += len(gap)
            out_spans.append(
                Span(length, length + len(new), span.label, new, span.source, span.score)
            )
            if self.audit:
                row = (span.label, span.text, new, span.start, span.end, length, length + len(new))
                audit.append(AuditRow(*row))
            length += len(new)
            cursor = span.end
        pieces.append(text[cursor:])
        return Replacement(
            "".join(pieces), tuple(out_spans), unparsed, tuple(audit), len(capped), unchecked
        )
