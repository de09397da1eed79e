"""Assemble every measure into one report: a stable JSON object and a text rendering.

JSON schema (documented in docs/evaluation.md)::

    {"schema": 1,
     "documents": {"scored", "gold_only", "pred_only", "missing_policy"},
     "strict" | "relaxed" | "token" | "binary_strict" | "binary_token"
     | "hipaa_strict" | "hipaa_relaxed" | "hipaa_token" | "hipaa_binary_strict"
     | "hipaa_binary_token":
         {"micro": {"precision", "recall", "f1", "tp", "fp", "fn"},
          "macro": {"precision", "recall", "f1", "precision_sd", "recall_sd"}},
     "per_label": {LABEL: {"gold", "pred", "tp", "precision", "recall", "f1",
                           "relaxed_recall", "token_recall_any_label"}},
     "errors": {"type": {GOLD: {PRED: n}}, "extent": {GOLD: {"short"|"long"|
                "short_and_long": n}}, "missing": {GOLD: n}, "spurious": {PRED: n},
                "totals": {...}},
     "confusion": {GOLD_OR_O: {PRED_OR_O: tokens}},
     "nway": {"8way": {"precision", "recall", "f1"}, "9way": {...}},
     "leak_rate": float, "leak": {"rate", "leaked_chars", "phi_chars"}}
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from phiscrub.errors import UsageError
from phiscrub.evaluate import measures
from phiscrub.evaluate.measures import Pair
from phiscrub.evaluate.scoring import macro, total
from phiscrub.span import Document

log = logging.getLogger("phiscrub.evaluate")

SCHEMA_VERSION = 1
BASE_MEASURES = ("strict", "relaxed", "token", "binary_strict", "binary_token")
MISSING_POLICIES = ("skip", "empty")


def align(
    gold: Iterable[Document],
    pred: Iterable[Document],
    *,
    gold_layer: str = "gold",
    pred_layer: str = "gold",
    missing: str = "skip",
) -> tuple[list[Pair], dict[str, Any]]:
    """Pair documents by id. ``missing="skip"`` leaves out gold documents without a
    prediction, as the official scorer does; ``"empty"`` scores them as predicting nothing."""
    if missing not in MISSING_POLICIES:
        raise UsageError(f"unknown missing-document policy {missing!r}")
    gold_by_id = {d.id: d for d in gold}
    pred_by_id = {d.id: d for d in pred}
    pairs: list[Pair] = []
    for doc_id in sorted(gold_by_id):
        g = gold_by_id[doc_id]
        p = pred_by_id.get(doc_id)
        if p is not None and p.text != g.text:
            raise UsageError(
                f"document {doc_id}: the prediction's text differs from the gold text",
                hint="score predictions made on the same notes; offsets would not line up",
            )
        if p is None and missing == "skip":
            continue
        pred_spans = p.layer(pred_layer) if p is not None else ()
        pairs.append(Pair(doc_id, g.text, g.layer(gold_layer), pred_spans))
    gold_only = sorted(set(gold_by_id) - set(pred_by_id))
    pred_only = sorted(set(pred_by_id) - set(gold_by_id))
    if gold_only:
        log.warning(
            "%d gold document(s) have no prediction and are %s",
            len(gold_only),
            "left out of the scores (as the official scorer does)"
            if missing == "skip"
            else "scored as predicting nothing",
        )
    info = {
        "scored": len(pairs),
        "gold_only": gold_only,
        "pred_only": pred_only,
        "missing_policy": missing,
    }
    return pairs, info


def _measure_block(pairs: Sequence[Pair], measure: str) -> dict[str, Any]:
    per_doc = measures.per_doc_counts(pairs, measure)
    mi = total(per_doc)
    ma = macro(per_doc)
    return {
        "micro": {
            "precision": mi.precision,
            "recall": mi.recall,
            "f1": mi.f1,
            "tp": mi.tp,
            "fp": mi.fp,
            "fn": mi.fn,
        },
        "macro": {
            "precision": ma.precision,
            "recall": ma.recall,
            "f1": ma.f1,
            "precision_sd": ma.precision_sd,
            "recall_sd": ma.recall_sd,
        },
    }


def build_report(pairs: Sequence[Pair], documents: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every measure of DESIGN.md "Metrics" as one JSON-ready object."""
    hipaa = [p.only(measures.is_hipaa_span) for p in pairs]
    report: dict[str, Any] = {"schema": SCHEMA_VERSION, "documents": documents or {}}
    for name in BASE_MEASURES:
        report[name] = _measure_block(pairs, name)
        report[f"hipaa_{name}"] = _measure_block(hipaa, name)
    report["per_label"] = measures.per_label(pairs)
    report["errors"] = measures.errors(pairs)
    matrix = measures.confusion(pairs)
    report["confusion"] = matrix
    report["nway"] = measures.n_way(matrix)
    leak = measures.leak(pairs)
    report["leak"] = leak
    report["leak_rate"] = leak["rate"]
    return report
