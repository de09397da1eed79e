"""Boosted trees as plain arrays, with our own vectorised evaluator (no pickle).

scikit-learn's ``HistGradientBoostingClassifier`` has no safe export format. After
fitting, its trees (``_predictors``: per boosting iteration, one tree per class, each a
numpy structured array of nodes) are copied into flat arrays over all trees:

    feature (int32), threshold (float64), left / right child (int32, absolute node
    indices; a leaf points to itself), value (float64, leaf values with shrinkage),
    missing_left (uint8), roots (int32, one per tree), tree_class (int32), baseline
    (float64, one per class), depth (the deepest path)

and stored as ``.npy`` members (``allow_pickle=False``). Evaluation walks every tree for
every row at once, ``depth`` steps of fancy indexing; the raw score of class k is
``baseline[k]`` plus the sum of the leaf values of the trees of class k, and
probabilities are its softmax (sigmoid for two classes), as in scikit-learn. A tagger
always predicts through this evaluator, before and after an archive round trip, so a
restored model gives exactly the same scores. Categorical splits are not supported (the
dense features are numeric).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from phiscrub.errors import UsageError
from phiscrub.taggers.dense import Matrix
from phiscrub.taggers.tokenclf import FloatArray, from_npy, softmax, to_npy

__all__ = ["Forest"]

_ARRAYS = ("feature", "threshold", "left", "right", "value", "missing_left", "roots",
           "tree_class", "baseline")  # fmt: skip
IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class Forest:
    """Flat node arrays of an ensemble of regression trees (see the module docstring)."""

    feature: IntArray
    threshold: FloatArray
    left: IntArray
    right: IntArray
    value: FloatArray
    missing_left: npt.NDArray[np.uint8]
    roots: IntArray
    tree_class: IntArray
    baseline: FloatArray
    depth: int

    @classmethod
    def from_hgb(cls, model: Any) -> Forest:
        """Copy the trees of a fitted ``HistGradientBoostingClassifier``."""
        parts: list[npt.NDArray[Any]] = []
        roots: list[int] = []
        tree_class: list[int] = []
        offset = 0
        for iteration in model._predictors:
            for k, predictor in enumerate(iteration):
                nodes = predictor.nodes
                if nodes["is_categorical"].any():
                    raise UsageError("categorical splits are not supported by the evaluator")
                parts.append(nodes)
                roots.append(offset)
                tree_class.append(k)
                offset += len(nodes)
        nodes = np.concatenate(parts)
        starts = np.repeat(np.asarray(roots), [len(p) for p in parts])
        leaf = nodes["is_leaf"].astype(bool)
        own = np.arange(len(nodes))
        left = np.where(leaf, own, nodes["left"].astype(np.int64) + starts)
        right = np.where(leaf, own, nodes["right"].astype(np.int64) + starts)
        return cls(
            feature=np.where(leaf, 0, nodes["feature_idx"]).astype(np.int32),
            threshold=nodes["num_threshold"].astype(np.float64),
            left=left.astype(np.int32),
            right=right.astype(np.int32),
            value=np.where(leaf, nodes["value"], 0.0).astype(np.float64),
            missing_left=nodes["missing_go_to_left"].astype(np.uint8),
            roots=np.asarray(roots, dtype=np.int32),
            tree_class=np.asarray(tree_class, dtype=np.int32),
            baseline=np.asarray(model._baseline_prediction, dtype=np.float64).ravel(),
            depth=int(nodes["depth"].max()) if len(nodes) else 0,
        )

    @property
    def n_classes(self) -> int:
        """Number of classes (one raw score for two classes, as scikit-learn does)."""
        k = len(self.baseline)
        return 2 if k == 1 else k

    def raw(self, X: Matrix) -> FloatArray:
        """Raw scores (rows x trees-per-iteration): baseline plus the trees' leaf values."""
        n, width = X.shape
        k = len(self.baseline)
        if n == 0:
            return np.zeros((0, k))
        flat = np.ascontiguousarray(X, dtype=np.float64).ravel()
        base = (np.arange(n, dtype=np.int64) * width)[:, None]
        node = np.broadcast_to(self.roots, (n, len(self.roots))).astype(np.int64)
        for _ in range(self.depth):
            x = flat[base + self.feature[node]]
            go_left = np.where(np.isnan(x), self.missing_left[node] == 1, x <= self.threshold[node])
            step = np.where(go_left, self.left[node], self.right[node])
            if np.array_equal(step, node):
                break
            node = step
        # trees are stored iteration by iteration, one per class: sum over iterations
        leaves = self.value[node].reshape(n, -1, k)
        out: FloatArray = leaves.sum(axis=1) + self.baseline
        return out

    def proba(self, X: Matrix) -> FloatArray:
        """Class probabilities (rows x classes), as ``predict_proba`` computes them."""
        raw = self.raw(X)
        if raw.shape[1] == 1:
            p = 1.0 / (1.0 + np.exp(-raw[:, 0]))
            return np.column_stack([1.0 - p, p])
        return softmax(raw)

    # -- persistence --------------------------------------------------------------------
    def files(self, prefix: str) -> dict[str, bytes]:
        out = {f"{prefix}{name}.npy": to_npy(getattr(self, name)) for name in _ARRAYS}
        out[f"{prefix}depth.npy"] = to_npy(np.asarray([self.depth], dtype=np.int64))
        return out

    @classmethod
    def from_files(cls, files: dict[str, bytes], prefix: str) -> Forest:
        try:
            arrays = {n: from_npy(files[f"{prefix}{n}.npy"], "tree") for n in _ARRAYS}
            depth = int(from_npy(files[f"{prefix}depth.npy"], "tree")[0])
        except (KeyError, IndexError):
            raise UsageError(f"the tree files {prefix}* of the model are missing") from None
        forest = cls(**arrays, depth=depth)  # type: ignore[arg-type]
        size = len(forest.feature)
        k = len(forest.baseline)
        if (
            not k
            or len(forest.roots) % k
            or not all(len(getattr(forest, a)) == size for a in _ARRAYS[:6])
            or (size and (forest.left.max() >= size or forest.right.max() >= size))
        ):
            raise UsageError(f"the tree arrays {prefix}* of the model are inconsistent")
        return forest
