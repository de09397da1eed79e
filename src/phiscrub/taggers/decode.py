"""From per-token tag probabilities to spans, with a recall-bias threshold.

Shared by every tagger that gives token marginals (CRF marginals, SVM or boosted-tree
class probabilities over BIO tags).

Threshold decoding: a token is PHI when ``P(O) < threshold``. Raising the threshold turns
more tokens into PHI (recall up, precision down); ``threshold = 0`` tags nothing and
``threshold > 1`` tags everything. Contiguous PHI tokens form one span, except that a token
whose most probable PHI tag is a ``B-`` tag starts a new span (with IO tags, which have no
``B-``, a token whose most probable PHI tag names another subtype than the previous
token's); a span's label is the category with the highest summed ``B-``/``I-`` probability
over its tokens. A span's score is the mean of ``1 - P(O)`` over its tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy

from phiscrub.span import Span
from phiscrub.text import Token

__all__ = ["OUTSIDE", "ArrayDecoder", "decode_threshold", "phi_mask", "score_spans"]

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


def _best_tag(m: dict[str, float]) -> str:
    tags = [t for t in m if t != OUTSIDE]
    return max(sorted(tags), key=lambda t: m[t]) if tags else ""


def _starts_new(m: dict[str, float], previous: dict[str, float]) -> bool:
    best = _best_tag(m)
    if best.startswith("B-"):
        return True
    io = not any(t.startswith("B-") for t in m)
    return io and best[2:] != _best_tag(previous)[2:]


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
        if run and (not on or _starts_new(marginals[i], marginals[i - 1])):
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


class ArrayDecoder:
    """``decode_threshold`` over a probability matrix (tokens x ``labels``) instead of one
    dict per token: the same spans, several times faster (the hybrid decodes every note
    this way). Ties between tags or labels go to the first in sorted order, as in
    ``decode_threshold``."""

    def __init__(self, labels: Sequence[str]) -> None:
        tags = sorted(t for t in labels if t != OUTSIDE)
        self.outside = list(labels).index(OUTSIDE) if OUTSIDE in labels else -1
        self.columns = numpy.array([list(labels).index(t) for t in tags], dtype=numpy.intp)
        self.begins = numpy.array([t.startswith("B-") for t in tags])
        self.io = not self.begins.any()  # IO tags: a run is cut where the subtype changes
        names = sorted({t[2:] for t in tags})
        self.names = names
        self.kind = numpy.array([names.index(t[2:]) for t in tags], dtype=numpy.intp)
        member = numpy.zeros((len(tags), len(names)))
        for i, t in enumerate(tags):
            member[i, names.index(t[2:])] = 1.0
        self.member = member

    def __call__(
        self, text: str, tokens: Sequence[Token], probs: Any, threshold: float, source: str
    ) -> list[Span]:
        n = len(tokens)
        if not n or not len(self.columns):
            return []
        # Rounded: batched forward-backward gives the same marginals to ~1e-16 whatever
        # notes share a batch, and rounding makes the spans and scores identical too, so a
        # note's output never depends on its batch (local, --jobs, Spark, resumed runs).
        probs = numpy.round(probs, 9)
        p_out = probs[:, self.outside] if self.outside >= 0 else numpy.zeros(n)
        on = numpy.flatnonzero(p_out < threshold)
        if not len(on):
            return []
        tag_probs = probs[:, self.columns]
        best = tag_probs.argmax(axis=1)
        # a run of PHI tokens ends before a gap or before a token whose best tag is a B- tag
        # (IO: whose best tag names another subtype than the previous token's)
        cut = numpy.ones(len(on), dtype=bool)
        if self.io:
            kinds = self.kind[best]
            cut[1:] = (on[1:] != on[:-1] + 1) | (kinds[on[1:]] != kinds[on[1:] - 1])
        else:
            cut[1:] = (on[1:] != on[:-1] + 1) | self.begins[best[on[1:]]]
        firsts = on[cut]
        lasts = numpy.append(on[numpy.flatnonzero(cut)[1:] - 1], on[-1]) + 1
        # each run summed by its own numpy reduction (a cumulative sum or ``reduceat``
        # adds in another order and moves scores in the last bit); labels in one product
        inside = 1.0 - p_out
        bounds = list(zip(firsts.tolist(), lasts.tolist(), strict=True))
        totals = numpy.stack([tag_probs[a:b].sum(axis=0) for a, b in bounds]) @ self.member
        labels = totals.argmax(axis=1).tolist()
        spans: list[Span] = []
        for (a, b), k in zip(bounds, labels, strict=True):
            score = min(max(float(numpy.add.reduce(inside[a:b])) / (b - a), 0.0), 1.0)
            start, end = tokens[a].start, tokens[b - 1].end
            spans.append(Span.of(text, start, end, self.names[k], source, score))
        return spans
