"""Stat De-id (seed 000): a linear SVM classifying each token on its local context.

Each token is classified on its own (no sequence model) from the shared features
(``phiscrub.features``: the target and its ±2 neighbours, lexical bigrams, dictionaries,
medical vocabulary, section headings...). One class per tag: BIO over the subtypes by
default, or IO (``scheme="io"``). scikit-learn's ``LinearSVC`` (liblinear, one-vs-rest;
seed 000 used LIBSVM's linear kernel, one-vs-one) is trained on the features vectorised
with ``FeatureHasher``:

* the archive stores no feature strings: a ``DictVectorizer`` would keep every training
  word, prefix and n-gram (patient names included) in its vocabulary; hashed columns spell
  nothing (a guessed word can still be tested against the weights, so share a model only
  where its training notes could be shared);
* no vocabulary in memory (a DictVectorizer of these features holds ~10^6 Python
  strings), and vectorising is stateless, as fast as the dict features are built.

Columns seen in fewer than ``min_df`` training tokens are dropped before training (they
only memorise single notes) and weights below ``prune`` are zeroed, so the stored model is
a sparse matrix (rows: hashed columns, columns: classes) saved as ``.npy`` arrays
(``allow_pickle=False``) with the hash settings in JSON.

Scores: ``predict_marginals`` gives ``softmax(scale * decision_function)``, a monotone
SCORE in [0, 1] per tag, not a calibrated probability; it is what the recall-bias
threshold (``P(O) < t``) reads. Without a threshold a token takes its highest-scoring tag.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar

import numpy as np
import scipy.sparse as sp  # type: ignore[import-untyped]

from phiscrub.errors import UsageError
from phiscrub.features import CorpusStats, FeatureConfig, FeatureExtractor, Features, domain_of
from phiscrub.span import Document, Span
from phiscrub.taggers.base import Marginals, TaggerState, log
from phiscrub.taggers.tokenclf import (
    SCHEMES,
    FloatArray,
    as_marginals,
    decode_probs,
    from_npy,
    softmax,
    to_npy,
    training_tags,
)
from phiscrub.text import tokenize

__all__ = ["SVMSettings", "SVMTagger"]

ROWS_FILE = "svm_rows.npy"
COLS_FILE = "svm_cols.npy"
VALUES_FILE = "svm_values.npy"
INTERCEPT_FILE = "svm_intercept.npy"
STATS_FILE = "stats.json"


@dataclass(frozen=True, slots=True)
class SVMSettings:
    """Training and decoding settings (stored in the model archive)."""

    c: float = 0.1
    hash_bits: int = 20
    min_df: int = 2
    prune: float = 1e-4
    max_iter: int = 2000
    scheme: str = "bio"
    scale: float = 4.0
    threshold: float | None = None

    def __post_init__(self) -> None:
        if self.c <= 0 or self.scale <= 0:
            raise UsageError("c and scale must be positive")
        if not 10 <= self.hash_bits <= 24:
            raise UsageError("hash_bits must be between 10 and 24")
        if self.min_df < 1 or self.max_iter < 1 or self.prune < 0:
            raise UsageError("min_df and max_iter must be >= 1, prune >= 0")
        if self.scheme not in SCHEMES:
            raise UsageError(f"unknown tag scheme {self.scheme!r}", hint="use bio or io")
        if self.threshold is not None and not 0.0 <= self.threshold <= 1.0:
            raise UsageError("the threshold must be between 0 and 1")


class SVMTagger:
    """A linear SVM token classifier over the shared features (see the module docstring)."""

    kind: ClassVar[str] = "svm"

    def __init__(
        self,
        features: FeatureConfig | None = None,
        settings: SVMSettings | None = None,
        source: str = "svm",
    ) -> None:
        self.features = features or FeatureConfig()
        self.settings = settings or SVMSettings()
        self.source = source
        self.stats: CorpusStats | None = None
        self.training_seconds = 0.0
        self.classes: tuple[str, ...] = ()
        self._weights: sp.csr_matrix | None = None  # (2**hash_bits, n_classes)
        self._intercept: FloatArray = np.zeros(0)
        self._extractor = FeatureExtractor(self.features, None)
        self._hasher = self._make_hasher()

    def _make_hasher(self) -> Any:
        # scikit-learn is imported when an SVM is built, not when phiscrub starts: it costs
        # ~1 s and ~100 MB that every other command would pay.
        from sklearn.feature_extraction import FeatureHasher  # type: ignore[import-untyped]

        return FeatureHasher(
            n_features=2**self.settings.hash_bits, input_type="dict", alternate_sign=False
        )

    def _hash(self, rows: Sequence[Features]) -> sp.csr_matrix:
        X: sp.csr_matrix = self._hasher.transform(rows).tocsr()
        X.data = np.minimum(X.data, 1.0)  # a collision counts once
        return X

    # -- training -----------------------------------------------------------------
    def _matrix(self, docs: Sequence[Document], layer: str) -> tuple[sp.csr_matrix, list[str]]:
        blocks: list[sp.csr_matrix] = []
        labels: list[str] = []
        for doc, tokens, tags in training_tags(docs, layer, self.settings.scheme):
            feats = self._extractor.sequence(doc.text, tokens, domain_of(doc))
            if feats:
                blocks.append(self._hash(feats))
                labels += tags
        if not blocks:
            raise UsageError("no document could be used for training")
        return sp.vstack(blocks, format="csr"), labels

    def fit(self, docs: Sequence[Document], layer: str = "gold") -> None:
        if not docs:
            raise UsageError("no training documents", hint="pass at least one annotated note")
        start = time.perf_counter()
        self.stats = CorpusStats.learn(docs, layer) if self.features.frequency else None
        self._extractor = FeatureExtractor(self.features, self.stats)
        X, labels = self._matrix(docs, layer)
        df = np.bincount(X.indices, minlength=X.shape[1])
        kept = np.flatnonzero(df >= self.settings.min_df)
        y = np.asarray(labels)
        self.classes = tuple(sorted(set(labels)))
        if len(self.classes) < 2:
            raise UsageError("training needs at least two tags (PHI and non-PHI tokens)")
        from sklearn.svm import LinearSVC  # type: ignore[import-untyped]

        svm = LinearSVC(C=self.settings.c, max_iter=self.settings.max_iter, random_state=0)
        svm.fit(X[:, kept], y)
        coef = np.asarray(svm.coef_, dtype=np.float64)
        intercept = np.asarray(svm.intercept_, dtype=np.float64)
        if len(self.classes) == 2:  # liblinear gives one hyperplane for two classes
            coef, intercept = np.vstack([-coef, coef]), np.concatenate([-intercept, intercept])
        self._set_weights(kept, coef, intercept)
        self.training_seconds = time.perf_counter() - start
        log.info(
            "SVM trained on %d tokens, %d columns, in %.1f s",
            X.shape[0],
            kept.size,
            self.training_seconds,
        )

    def _set_weights(self, kept: np.ndarray, coef: FloatArray, intercept: FloatArray) -> None:
        """Keep the weights above ``prune`` as float32 (what the archive stores, so a
        restored model computes exactly the same scores)."""
        rows, cols = np.nonzero(np.abs(coef.T) > self.settings.prune)
        values = coef.T[rows, cols].astype(np.float32)
        self._build(kept[rows].astype(np.int64), cols.astype(np.int64), values, intercept)

    def _build(
        self, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, intercept: np.ndarray
    ) -> None:
        shape = (2**self.settings.hash_bits, len(self.classes))
        self._weights = sp.csr_matrix((values.astype(np.float32), (rows, cols)), shape=shape)
        self._intercept = np.asarray(intercept, dtype=np.float32).astype(np.float64)

    def _require(self) -> sp.csr_matrix:
        if self._weights is None:
            raise UsageError("the SVM tagger is not trained", hint="call fit() or load a model")
        return self._weights

    @property
    def labels(self) -> tuple[str, ...]:
        self._require()
        return self.classes

    def with_threshold(self, threshold: float | None) -> SVMTagger:
        """The same model decoding with another recall-bias threshold (None: argmax)."""
        other = SVMTagger(self.features, replace(self.settings, threshold=threshold), self.source)
        other.stats, other._extractor, other.classes = self.stats, self._extractor, self.classes
        other._weights, other._intercept = self._weights, self._intercept
        return other

    # -- tagging ------------------------------------------------------------------
    def decision(self, doc: Document) -> tuple[list[Any], FloatArray]:
        """Tokens of ``doc`` and their decision scores (tokens x classes)."""
        weights = self._require()
        tokens = tokenize(doc.text)
        if not tokens:
            return tokens, np.zeros((0, len(self.classes)))
        X = self._hash(self._extractor.sequence(doc.text, tokens, None))
        scores = np.asarray((X @ weights).todense(), dtype=np.float64) + self._intercept
        return tokens, scores

    def _probs(self, doc: Document) -> tuple[list[Any], FloatArray]:
        tokens, scores = self.decision(doc)
        return tokens, softmax(scores, self.settings.scale)

    def predict(self, doc: Document) -> list[Span]:
        tokens, probs = self._probs(doc)
        s = self.settings
        return decode_probs(
            doc.text, tokens, probs, self.classes, s.scheme, s.threshold, self.source
        )

    def predict_marginals(self, doc: Document) -> Marginals:
        tokens, probs = self._probs(doc)
        marginals = as_marginals(probs, self.classes, self.settings.scheme)
        return list(zip(tokens, marginals, strict=True))

    # -- persistence --------------------------------------------------------------
    def export(self) -> TaggerState:
        weights = self._require().tocoo()
        files = {
            ROWS_FILE: to_npy(weights.row.astype(np.int32)),
            COLS_FILE: to_npy(weights.col.astype(np.int16)),
            VALUES_FILE: to_npy(weights.data.astype(np.float32)),
            INTERCEPT_FILE: to_npy(self._intercept.astype(np.float32)),
        }
        if self.stats is not None:
            files[STATS_FILE] = json.dumps(self.stats.to_dict()).encode()
        settings = {
            **asdict(self.settings),
            "source": self.source,
            "hashing": "sklearn FeatureHasher, input_type=dict, alternate_sign=False, "
            "values clipped to 1",
        }
        return TaggerState(self.kind, self.features, self.classes, settings, files)

    @classmethod
    def restore(cls, state: TaggerState) -> SVMTagger:
        settings = dict(state.settings)
        source = str(settings.pop("source", "svm"))
        settings.pop("hashing", None)
        try:
            tagger = cls(state.features, SVMSettings(**settings), source)
        except TypeError:
            raise UsageError("the SVM settings of the model are not recognised") from None
        if STATS_FILE in state.files:
            tagger.stats = CorpusStats.from_dict(json.loads(state.files[STATS_FILE]))
        tagger._extractor = FeatureExtractor(state.features, tagger.stats)
        tagger.classes = tuple(state.labels)
        try:
            arrays = [state.files[n] for n in (ROWS_FILE, COLS_FILE, VALUES_FILE, INTERCEPT_FILE)]
        except KeyError:
            raise UsageError("the SVM weight files are missing") from None
        rows, cols, values, intercept = (from_npy(a, "SVM weights") for a in arrays)
        if (
            intercept.shape != (len(tagger.classes),)
            or not rows.shape == cols.shape == values.shape
        ):
            raise UsageError("the SVM weight arrays do not fit the label set")
        tagger._build(rows.astype(np.int64), cols.astype(np.int64), values, intercept)
        return tagger
