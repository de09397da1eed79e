"""The BIO view of a span layer: tokens and ``B-LABEL`` / ``I-LABEL`` / ``O`` tags.

Spans are the truth (DESIGN.md); this view is derived from them for the sequence
taggers, and decoded back into spans with :func:`bio_to_spans`.

Round trip. For a text and non-overlapping spans such that every span's text neither
starts nor ends with whitespace (so it contains at least one token),
``bio_to_spans(text, *spans_to_bio(text, spans))`` returns the same spans: the same
start, end and label. Tokens are first split at every span boundary, so a boundary
inside a token (``[Smith]'s``, ``CABG[6/95]``) stays representable, and two adjacent
spans of the same label stay two spans (``B`` then ``B``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

from phiscrub.errors import SpanError, UsageError
from phiscrub.span import Span
from phiscrub.text.tokenize import Token, split_at, tokenize

__all__ = ["bio_to_spans", "spans_to_bio"]

OUTSIDE = "O"


def _checked(text: str, spans: Iterable[Span]) -> list[Span]:
    """The spans sorted by offsets; raise SpanError if one misfits the text or two overlap."""
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    for span in ordered:
        if span.end > len(text) or text[span.start : span.end] != span.text:
            raise SpanError(
                f"span {span.start}-{span.end} ({span.label}) does not match the text "
                f"at its offsets (text of {len(text)} characters)"
            )
    for before, after in pairwise(ordered):
        if before.end > after.start:
            raise SpanError(
                f"spans {before.start}-{before.end} ({before.label}) and "
                f"{after.start}-{after.end} ({after.label}) overlap; a BIO view needs "
                "non-overlapping spans",
                hint="resolve overlaps first (keep one span per stretch of text)",
            )
    return ordered


def spans_to_bio(
    text: str, spans: Iterable[Span], tokens: Sequence[Token] | None = None
) -> tuple[list[Token], list[str]]:
    """Tokens of ``text`` (split at every span boundary) and one BIO tag per token.

    ``tokens`` defaults to :func:`tokenize`; pass them to reuse a tokenization.
    Raises SpanError when spans overlap, do not match the text, or when a span
    covers no token at all (only whitespace): such a span cannot be tagged.
    """
    ordered = _checked(text, spans)
    base = tokenize(text) if tokens is None else tokens
    cut = split_at(base, (b for s in ordered for b in (s.start, s.end)))
    tags = [OUTSIDE] * len(cut)
    i = 0
    for span in ordered:
        while i < len(cut) and cut[i].start < span.start:
            i += 1
        first = True
        while i < len(cut) and cut[i].end <= span.end:
            tags[i] = ("B-" if first else "I-") + span.label
            first = False
            i += 1
        if first:
            raise SpanError(
                f"span {span.start}-{span.end} ({span.label}) covers no token "
                "(it holds only whitespace)",
                hint="drop or fix the span: a BIO view cannot represent it",
            )
    return cut, tags


def _parse(tag: str, index: int) -> tuple[str, str]:
    """Split a tag into its prefix (``B``, ``I`` or ``O``) and label."""
    if tag == OUTSIDE:
        return OUTSIDE, ""
    prefix, sep, label = tag.partition("-")
    if not sep or prefix not in ("B", "I") or not label:
        raise UsageError(f"tag {index} is not a BIO tag", hint="use O, B-LABEL or I-LABEL")
    return prefix, label


def bio_to_spans(
    text: str, tokens: Sequence[Token], tags: Sequence[str], source: str = "bio"
) -> list[Span]:
    """Decode BIO tags into spans over ``text``.

    A span runs from the start of its ``B`` token (or of a stray ``I`` token: one
    after ``O`` or after a different label, treated as ``B``) to the end of its last
    ``I`` token; it includes the whitespace between its tokens (its text is
    ``text[start:end]``). Labels are checked against the taxonomy (LabelError).
    """
    if len(tokens) != len(tags):
        raise UsageError(f"got {len(tokens)} tokens but {len(tags)} tags")
    spans: list[Span] = []
    open_: tuple[int, int, str] | None = None  # start, end, label of the span being read
    for index, (token, tag) in enumerate(zip(tokens, tags, strict=True)):
        prefix, label = _parse(tag, index)
        if prefix == "I" and open_ is not None and open_[2] == label:
            open_ = (open_[0], token.end, label)
            continue
        if open_ is not None:
            spans.append(Span.of(text, open_[0], open_[1], open_[2], source))
        open_ = None if prefix == OUTSIDE else (token.start, token.end, label)
    if open_ is not None:
        spans.append(Span.of(text, open_[0], open_[1], open_[2], source))
    return spans
