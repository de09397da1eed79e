"""The measures of DESIGN.md "Metrics" over aligned (gold, prediction) document pairs.

Entity and token measures follow the official i2b2 2014 scorer (see ``scoring``). The
other measures are ours, defined here:

* error taxonomy (seed 003 §3.4): each distinct gold entity without an exact match is a
  *type* error (a prediction has the same offsets and another label), else an *extent*
  error (an overlapping prediction: ``short`` lies inside the gold entity, ``long``
  contains it, ``short_and_long`` does neither), else *missing*; each prediction that
  overlaps no gold entity is *spurious*.
* token confusion matrix and the 8-way / 9-way token F of seed 002: the document is cut
  into ASCII alphanumeric runs, split again at every gold and predicted span boundary;
  each token takes the label of the span covering it, or ``O``. For the 8-way and 9-way
  figures, labels are first mapped to the 8 i2b2 2006 classes (``TO_I2B2_2006``;
  PROFESSION and OTHER have no 2006 class and count as ``O``). 8-way: micro P/R/F over
  the PHI classes; 9-way: the same with ``O`` as a ninth class (equal to token accuracy).
* leak rate: the share of gold PHI letters and digits (``str.isalnum``) that no
  prediction of any label covers. This is what a patient cares about.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from phiscrub.evaluate.scoring import (
    ALNUM_RUN,
    Counts,
    Key,
    entity_keys,
    relaxed_counts,
    strict_counts,
    token_keys,
)
from phiscrub.span import Span
from phiscrub.taxonomy import HIPAA, TO_I2B2_2006


@dataclass(frozen=True, slots=True)
class Pair:
    """One document's text with its gold and predicted spans."""

    id: str
    text: str
    gold: tuple[Span, ...]
    pred: tuple[Span, ...]

    def only(self, keep: Callable[[Span], bool]) -> Pair:
        return Pair(
            self.id,
            self.text,
            tuple(s for s in self.gold if keep(s)),
            tuple(s for s in self.pred if keep(s)),
        )


KeyFn = Callable[[Pair, Sequence[Span]], list[Key]]
CountFn = Callable[[Iterable[Key], Iterable[Key]], Counts]

MEASURES: dict[str, tuple[KeyFn, CountFn]] = {
    "strict": (lambda p, s: entity_keys(s), strict_counts),
    "relaxed": (lambda p, s: entity_keys(s), relaxed_counts),
    "token": (lambda p, s: token_keys(p.text, s), strict_counts),
    "binary_strict": (lambda p, s: entity_keys(s, typed=False), strict_counts),
    "binary_token": (lambda p, s: token_keys(p.text, s, typed=False), strict_counts),
}


def is_hipaa_span(span: Span) -> bool:
    return span.label in HIPAA


def per_doc_counts(pairs: Sequence[Pair], measure: str) -> list[Counts]:
    key_fn, count_fn = MEASURES[measure]
    return [count_fn(key_fn(p, p.gold), key_fn(p, p.pred)) for p in pairs]


def per_label(pairs: Sequence[Pair]) -> dict[str, dict[str, int | float]]:
    """Strict counts per subtype, with the share of its gold tokens that any label covers."""
    labels = sorted({s.label for p in pairs for s in (*p.gold, *p.pred)})
    table: dict[str, dict[str, int | float]] = {}
    for label in labels:
        sub = [p.only(_has_label(label)) for p in pairs]
        c = _sum(per_doc_counts(sub, "strict"))
        r = _sum(per_doc_counts(sub, "relaxed"))
        covered = _sum(
            strict_counts(token_keys(p.text, g.gold, False), token_keys(p.text, p.pred, False))
            for p, g in zip(pairs, sub, strict=True)
        )
        table[label] = {
            "gold": c.tp + c.fn,
            "pred": c.tp + c.fp,
            "tp": c.tp,
            "precision": c.precision,
            "recall": c.recall,
            "f1": c.f1,
            "relaxed_recall": r.recall,
            "token_recall_any_label": covered.recall,
        }
    return table


def _has_label(label: str) -> Callable[[Span], bool]:
    return lambda s: s.label == label


def _sum(counts: Iterable[Counts]) -> Counts:
    out = Counts()
    for c in counts:
        out = out + c
    return out


# --- error taxonomy ---------------------------------------------------------------------


def _extent_kind(g: Span, p: Span) -> str:
    if g.start <= p.start and p.end <= g.end:
        return "short"
    if p.start <= g.start and g.end <= p.end:
        return "long"
    return "short_and_long"


def _overlap(a: Span, b: Span) -> int:
    return min(a.end, b.end) - max(a.start, b.start)


def errors(pairs: Sequence[Pair]) -> dict[str, object]:
    missing: Counter[str] = Counter()
    spurious: Counter[str] = Counter()
    type_err: dict[str, Counter[str]] = defaultdict(Counter)
    extent: dict[str, Counter[str]] = defaultdict(Counter)
    for pair in pairs:
        exact = {(s.start, s.end, s.label) for s in pair.pred}
        by_offsets = {(s.start, s.end): s.label for s in pair.pred}
        for g in sorted(set(pair.gold)):
            if (g.start, g.end, g.label) in exact:
                continue
            if (g.start, g.end) in by_offsets:
                type_err[g.label][by_offsets[(g.start, g.end)]] += 1
                continue
            hits = [p for p in pair.pred if p.overlaps(g)]
            if hits:
                best = max(hits, key=lambda p: _overlap(g, p))
                extent[g.label][_extent_kind(g, best)] += 1
            else:
                missing[g.label] += 1
        for p in set(pair.pred):
            if not any(p.overlaps(g) for g in pair.gold):
                spurious[p.label] += 1
    return {
        "type": {k: dict(v) for k, v in sorted(type_err.items())},
        "extent": {k: dict(v) for k, v in sorted(extent.items())},
        "missing": dict(sorted(missing.items())),
        "spurious": dict(sorted(spurious.items())),
        "totals": {
            "type": sum(sum(v.values()) for v in type_err.values()),
            "extent": sum(sum(v.values()) for v in extent.values()),
            "missing": sum(missing.values()),
            "spurious": sum(spurious.values()),
        },
    }


# --- token labelling: confusion matrix, n-way F, leak rate --------------------------------


def _char_labels(n: int, spans: Iterable[Span]) -> list[str | None]:
    labels: list[str | None] = [None] * n
    for s in spans:
        for i in range(s.start, s.end):
            if labels[i] is None:
                labels[i] = s.label
    return labels


def labelled_tokens(pair: Pair) -> list[tuple[str, str]]:
    """(gold label, predicted label) per token; ``O`` outside PHI."""
    cuts = sorted({b for s in (*pair.gold, *pair.pred) for b in (s.start, s.end)})
    gold = _char_labels(len(pair.text), pair.gold)
    pred = _char_labels(len(pair.text), pair.pred)
    out: list[tuple[str, str]] = []
    for m in ALNUM_RUN.finditer(pair.text):
        start = m.start()
        for cut in (c for c in cuts if m.start() < c < m.end()):
            out.append((gold[start] or "O", pred[start] or "O"))
            start = cut
        out.append((gold[start] or "O", pred[start] or "O"))
    return out


def confusion(pairs: Sequence[Pair]) -> dict[str, dict[str, int]]:
    matrix: dict[str, Counter[str]] = defaultdict(Counter)
    for pair in pairs:
        for g, p in labelled_tokens(pair):
            matrix[g][p] += 1
    return {g: dict(sorted(row.items())) for g, row in sorted(matrix.items())}


def n_way(matrix: dict[str, dict[str, int]]) -> dict[str, dict[str, float]]:
    """8-way (2006 PHI classes) and 9-way (with non-PHI) token micro P/R/F (seed 002)."""
    cells: Counter[tuple[str, str]] = Counter()
    for g, row in matrix.items():
        for p, n in row.items():
            cells[(TO_I2B2_2006.get(g, "O"), TO_I2B2_2006.get(p, "O"))] += n
    out: dict[str, dict[str, float]] = {}
    for name, with_o in (("8way", False), ("9way", True)):
        tp = sum(n for (g, p), n in cells.items() if g == p and (with_o or g != "O"))
        pred = sum(n for (g, p), n in cells.items() if with_o or p != "O")
        gold = sum(n for (g, p), n in cells.items() if with_o or g != "O")
        c = Counts(tp, pred - tp, gold - tp)
        out[name] = {"precision": c.precision, "recall": c.recall, "f1": c.f1}
    return out


def leak(pairs: Sequence[Pair]) -> dict[str, float | int]:
    """Gold PHI letters and digits that no prediction covers."""
    total = leaked = 0
    for pair in pairs:
        covered = [False] * len(pair.text)
        for s in pair.pred:
            covered[s.start : s.end] = [True] * (s.end - s.start)
        seen: set[int] = set()
        for g in pair.gold:
            for i in range(g.start, g.end):
                if i not in seen and pair.text[i].isalnum():
                    seen.add(i)
                    total += 1
                    leaked += not covered[i]
    return {"rate": leaked / total if total else 0.0, "leaked_chars": leaked, "phi_chars": total}
