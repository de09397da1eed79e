"""Word clusters learned from unannotated text (seed 001 feature (9), optional).

Seed 001 uses Brown clusters built from MIMIC II. We build a simpler distributional
clustering from whatever unannotated notes the user supplies: each frequent word type is
described by the counts of the frequent words just left and right of it, the vectors are
log-scaled and normalized, and spherical k-means groups them at two granularities (a coarse
and a fine cluster id, like two prefix lengths of a Brown bit string). Deterministic.

Clusters are off by default (``FeatureConfig(clusters=True)`` plus a ``WordClusters``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from phiscrub.errors import UsageError
from phiscrub.text import tokenize

__all__ = ["WordClusters"]

Matrix = npt.NDArray[np.float64]


def _kmeans(x: Matrix, k: int, rounds: int = 15) -> npt.NDArray[np.int64]:
    """Spherical k-means with a deterministic start (every n/k-th row)."""
    k = max(1, min(k, len(x)))
    centers = x[np.linspace(0, len(x) - 1, k).astype(int)].copy()
    labels = np.zeros(len(x), dtype=np.int64)
    for _ in range(rounds):
        labels = np.argmax(x @ centers.T, axis=1)
        for c in range(k):
            members = x[labels == c]
            if len(members):
                mean = members.sum(axis=0)
                centers[c] = mean / (np.linalg.norm(mean) or 1.0)
    return labels


@dataclass(frozen=True, slots=True)
class WordClusters:
    """lower-case word -> (coarse cluster, fine cluster)."""

    clusters: dict[str, tuple[int, int]] = field(default_factory=dict)

    def features(self, lower: str) -> dict[str, str | float]:
        entry = self.clusters.get(lower)
        if entry is None:
            return {}
        return {"clu_c": str(entry[0]), "clu_f": str(entry[1])}

    @classmethod
    def learn(
        cls,
        texts: Iterable[str],
        coarse: int = 16,
        fine: int = 128,
        min_count: int = 5,
        contexts: int = 500,
    ) -> WordClusters:
        """Cluster the word types seen at least ``min_count`` times in ``texts``."""
        seqs = [[t.text.lower() for t in tokenize(text)] for text in texts]
        counts = Counter(w for seq in seqs for w in seq)
        vocab = sorted(w for w, c in counts.items() if c >= min_count and w.isalpha())
        if not vocab:
            raise UsageError("too little text to learn word clusters", hint="supply more notes")
        ctx = [w for w, _ in counts.most_common(contexts)]
        row = {w: i for i, w in enumerate(vocab)}
        col = {w: i for i, w in enumerate(ctx)}
        x = np.zeros((len(vocab), 2 * len(ctx)))
        for seq in seqs:
            for i, w in enumerate(seq):
                r = row.get(w)
                if r is None:
                    continue
                if i and seq[i - 1] in col:
                    x[r, col[seq[i - 1]]] += 1
                if i + 1 < len(seq) and seq[i + 1] in col:
                    x[r, len(ctx) + col[seq[i + 1]]] += 1
        x = np.log1p(x)
        x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
        c1, c2 = _kmeans(x, coarse), _kmeans(x, fine)
        return cls({w: (int(c1[i]), int(c2[i])) for i, w in enumerate(vocab)})

    def to_dict(self) -> dict[str, Any]:
        return {"clusters": {w: list(c) for w, c in sorted(self.clusters.items())}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WordClusters:
        try:
            return cls({str(w): (int(c[0]), int(c[1])) for w, c in data["clusters"].items()})
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise UsageError("word clusters are malformed") from None
