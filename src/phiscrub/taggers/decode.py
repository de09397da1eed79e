"""From per-token tag probabilities to spans, with a recall-bias threshold.

Shared by every tagger that gives token marginals (CRF marginals, SVM or boosted-tree
class probabilities over BIO tags).

Threshold decoding: a token is PHI when ``P(O) < threshold``. Raising the threshold turns
more tokens into PHI (recall up, precision down); ``threshold = 0`` tags nothing and
``threshold > 1`` tags everything. Contiguous PHI tokens form one span, except that a token
whose most probable PHI tag is a ``B-`` tag starts a new span; a span's label is the
category with the highest summed ``B-``/``I-`` probability over its tokens. A span's score
is the mean of ``1 - P(O)`` over its tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

from phiscrub.span import Span
from phiscrub.text import Token

__all__ = ["OUTSIDE", "decode_threshold", "phi_mask", "score_spans"]

OUTSIDE = "O"


def phi_mask(marginals: Sequence[dict[str, float]], threshold: float) -> list[bool]:
    """Which tokens are PHI at this threshold (``P(O) < threshold``)."""
    return [m.get(OUTSIDE, 0.0) < threshold for m in marginals]


def _best_label(probs: Sequence[dict[str, float]]) -> str:
    totals: dict[str, float] = {}
    for m in probs:
        for tag, p in m.items():
            if tag != OUTSIDE:
                label = tag[2:]
                totals[label] = totals.get(label, 0.0) + p
    return max(sorted(totals), key=lambda k: totals[k])


def _starts_new(m: dict[str, float]) -> bool:
    tags = [t for t in m if t != OUTSIDE]
    return bool(tags) and max(sorted(tags), key=lambda t: m[t]).startswith("B-")


def _span(
    text: str, tokens: Sequence[Token], probs: Sequence[dict[str, float]], source: str
) -> Span:
    score = sum(1.0 - m.get(OUTSIDE, 0.0) for m in probs) / len(probs)
    score = min(max(score, 0.0), 1.0)
    return Span.of(text, tokens[0].start, tokens[-1].end, _best_label(probs), source, score)


def decode_threshold(
    text: str,
    tokens: Sequence[Token],
    marginals: Sequence[dict[str, float]],
    threshold: float,
    source: str,
) -> list[Span]:
    """Spans from token marginals at a recall-bias threshold (see the module docstring)."""
    mask = phi_mask(marginals, threshold)
    spans: list[Span] = []
    run: list[int] = []
    for i, on in enumerate(mask):
        if run and (not on or _starts_new(marginals[i])):
            spans.append(_span(text, [tokens[k] for k in run], [marginals[k] for k in run], source))
            run = []
        if on:
            run.append(i)
    if run:
        spans.append(_span(text, [tokens[k] for k in run], [marginals[k] for k in run], source))
    return spans


def score_spans(
    spans: Sequence[Span], tokens: Sequence[Token], p_outside: Sequence[float]
) -> list[Span]:
    """Spans (from Viterbi tags) with ``score`` = mean ``1 - P(O)`` over their tokens."""
    out: list[Span] = []
    i = 0
    for span in spans:
        while i < len(tokens) and tokens[i].end <= span.start:
            i += 1
        j = i
        values: list[float] = []
        while j < len(tokens) and tokens[j].start < span.end:
            values.append(1.0 - p_outside[j])
            j += 1
        score = min(max(sum(values) / len(values), 0.0), 1.0) if values else 1.0
        out.append(Span(span.start, span.end, span.label, span.text, span.source, score))
    return out
