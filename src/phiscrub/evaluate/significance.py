"""Is system A better than system B on the same gold notes?

* Approximate randomization (seed 001 §3.4; N = 9999): for each of N rounds, every
  document's outputs of A and B are swapped with probability 1/2 and the micro metric is
  recomputed; the p-value is (r + 1) / (N + 1), r = rounds whose absolute difference is at
  least the observed one. Documents are the unit of exchange (their errors are not
  independent within a note).
* The z-test of two proportions (seed 000 §8.2, equations 6 and 7). Recall is a proportion
  of the gold entities (n = tp + fn), precision of the predictions (n = tp + fp), and F1 of
  tp + (fp + fn) / 2, since F1 = tp / (tp + (fp + fn) / 2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy
import numpy.typing as npt

from phiscrub.evaluate.scoring import Counts, total

CHUNK = 512  # rounds per vectorised block: bounds memory on large corpora


def _metric(c: npt.NDArray[numpy.float64], metric: str) -> npt.NDArray[numpy.float64]:
    tp, fp, fn = c[..., 0], c[..., 1], c[..., 2]
    with numpy.errstate(divide="ignore", invalid="ignore"):
        if metric == "precision":
            out = tp / (tp + fp)
        elif metric == "recall":
            out = tp / (tp + fn)
        else:
            out = tp / (tp + (fp + fn) / 2)
    return numpy.nan_to_num(out, nan=0.0)


def approximate_randomization(
    a: Sequence[Counts], b: Sequence[Counts], metric: str = "f1", n: int = 9999, seed: int = 0
) -> dict[str, float]:
    """Two-sided approximate randomization test on a micro metric of per-document counts."""
    if len(a) != len(b):
        raise ValueError("both systems must be scored on the same documents")
    arr_a = numpy.array([[c.tp, c.fp, c.fn] for c in a], dtype=numpy.float64).reshape(-1, 3)
    arr_b = numpy.array([[c.tp, c.fp, c.fn] for c in b], dtype=numpy.float64).reshape(-1, 3)
    sum_a, sum_b = arr_a.sum(axis=0), arr_b.sum(axis=0)
    observed = float(abs(_metric(sum_a, metric) - _metric(sum_b, metric)))
    delta = arr_b - arr_a
    rng = numpy.random.default_rng(seed)
    hits = 0
    for start in range(0, n, CHUNK):
        rounds = min(CHUNK, n - start)
        swaps = (rng.random((rounds, len(a))) < 0.5).astype(numpy.float64)
        moved = swaps @ delta
        diff = numpy.abs(_metric(sum_a + moved, metric) - _metric(sum_b - moved, metric))
        hits += int(numpy.count_nonzero(diff >= observed - 1e-12))
    return {
        "a": float(_metric(sum_a, metric)),
        "b": float(_metric(sum_b, metric)),
        "difference": float(_metric(sum_a, metric) - _metric(sum_b, metric)),
        "p_value": (hits + 1) / (n + 1),
        "rounds": n,
    }


def z_test(p1: float, n1: float, p2: float, n2: float) -> dict[str, float]:
    """z statistic and two-sided p-value for H0: p1 == p2 (seed 000, eq. 6-7)."""
    if n1 <= 0 or n2 <= 0:
        return {"z": 0.0, "p_value": 1.0}
    pooled = (n1 * p1 + n2 * p2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return {"z": 0.0, "p_value": 1.0}
    z = (p1 - p2) / math.sqrt(var)
    return {"z": z, "p_value": math.erfc(abs(z) / math.sqrt(2))}


def _n(c: Counts, metric: str) -> float:
    if metric == "precision":
        return c.tp + c.fp
    if metric == "recall":
        return c.tp + c.fn
    return c.tp + (c.fp + c.fn) / 2


def compare(
    a: Sequence[Counts], b: Sequence[Counts], n: int = 9999, seed: int = 0
) -> dict[str, Any]:
    """Both tests, for precision, recall and F1 of one measure."""
    ta, tb = total(a), total(b)
    out: dict[str, Any] = {}
    for metric in ("precision", "recall", "f1"):
        ar = approximate_randomization(a, b, metric, n=n, seed=seed)
        pa, pb = getattr(ta, metric), getattr(tb, metric)
        out[metric] = {
            **ar,
            "z_test": z_test(pa, _n(ta, metric), pb, _n(tb, metric)),
        }
    return out
