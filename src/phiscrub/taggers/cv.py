"""Cross-validation by patient (never by note) and the figures it reports.

``patient_folds`` deals patients (not notes) into k folds, so that no patient has notes on
both sides of a split; ``cross_validate`` trains a fresh tagger per fold and scores the
held-out fold with ``phiscrub.evaluate``.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from phiscrub.errors import UsageError
from phiscrub.evaluate import align, build_report
from phiscrub.span import Document
from phiscrub.taggers.base import Tagger

__all__ = [
    "CV_MEASURES",
    "FoldResult",
    "cross_validate",
    "patient_folds",
    "predict_corpus",
    "summarize",
]

#: measures whose micro P/R/F cv reports
CV_MEASURES = ("strict", "binary_token")


def patient_folds(
    docs: Sequence[Document], k: int, seed: int = 0
) -> list[tuple[list[Document], list[Document]]]:
    """``k`` (train, test) pairs; each patient's notes are all in one test fold."""
    patients = sorted({d.patient_id for d in docs})
    if k < 2:
        raise UsageError("cross-validation needs k >= 2")
    if len(patients) < k:
        raise UsageError(
            f"{len(patients)} patients cannot fill {k} folds",
            hint="use fewer folds; folds are made of patients, never of single notes",
        )
    random.Random(seed).shuffle(patients)
    fold_of = {p: i % k for i, p in enumerate(patients)}
    out: list[tuple[list[Document], list[Document]]] = []
    for fold in range(k):
        test = [d for d in docs if fold_of[d.patient_id] == fold]
        train = [d for d in docs if fold_of[d.patient_id] != fold]
        out.append((train, test))
    return out


def predict_corpus(tagger: Tagger, docs: Sequence[Document]) -> list[Document]:
    """Copies of ``docs`` whose ``gold`` layer holds the tagger's predictions."""
    return [d.with_layer("gold", tagger.predict(d)) for d in docs]


@dataclass(frozen=True, slots=True)
class FoldResult:
    fold: int
    train_documents: int
    test_documents: int
    report: dict[str, Any]


def cross_validate(
    docs: Sequence[Document],
    k: int,
    make_tagger: Callable[[], Tagger],
    seed: int = 0,
    layer: str = "gold",
) -> list[FoldResult]:
    """Train ``make_tagger()`` on k-1 folds and score the k-th, for every fold."""
    results: list[FoldResult] = []
    for fold, (train, test) in enumerate(patient_folds(docs, k, seed)):
        tagger = make_tagger()
        tagger.fit(train, layer)
        pairs, info = align(test, predict_corpus(tagger, test), gold_layer=layer)
        results.append(FoldResult(fold, len(train), len(test), build_report(pairs, info)))
    return results


def summarize(results: Sequence[FoldResult]) -> dict[str, dict[str, dict[str, float]]]:
    """Mean and SD over folds of micro precision, recall and F1 of ``CV_MEASURES``."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for measure in CV_MEASURES:
        out[measure] = {}
        for metric in ("precision", "recall", "f1"):
            values = [r.report[measure]["micro"][metric] for r in results]
            sd = statistics.stdev(values) if len(values) > 1 else 0.0
            out[measure][metric] = {"mean": statistics.fmean(values), "sd": sd}
    return out
