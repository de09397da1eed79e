"""The CRF tagger (seed 003; seed 001's CRFs): python-crfsuite, BIO tags over every subtype.

Training: L-BFGS with L1 (``c1``) and L2 (``c2``) regularization. Tagging: the Viterbi
path by default; with ``threshold`` set, the recall-bias decoding of ``decode.py`` (a token
is PHI when its marginal ``P(O) < threshold``). Spans have ``source="crf"`` and a score
from the marginals.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar

import pycrfsuite  # type: ignore[import-untyped]

from phiscrub.errors import UsageError
from phiscrub.features import CorpusStats, FeatureConfig, FeatureExtractor, domain_of
from phiscrub.features.clusters import WordClusters
from phiscrub.span import Document, Span
from phiscrub.taggers.base import SCHEMES, Marginals, TaggerState, log, training_tags
from phiscrub.taggers.decode import OUTSIDE, decode_threshold, score_spans
from phiscrub.text import Token, bio_to_spans, tokenize

__all__ = ["CRFSettings", "CRFTagger"]

MODEL_FILE = "crf.model"
STATS_FILE = "stats.json"
CLUSTERS_FILE = "clusters.json"


@dataclass(frozen=True, slots=True)
class CRFSettings:
    """Training and decoding settings (stored in the model archive)."""

    c1: float = 0.05
    c2: float = 0.01
    max_iter: int = 150
    min_freq: int = 1
    possible_transitions: bool = True
    threshold: float | None = None
    #: "bio" or "io" (one tag per subtype: half of BIO's labels, a quarter of the label
    #: pairs; measured: 0.69 of BIO's training time, 0.007 less strict F1 on the choice
    #: sets, so BIO stays the default; docs/models.md, fifteenth round)
    scheme: str = "bio"

    def __post_init__(self) -> None:
        if self.c1 < 0 or self.c2 < 0:
            raise UsageError("c1 and c2 must not be negative")
        if self.max_iter < 1:
            raise UsageError("max_iter must be at least 1")
        if self.threshold is not None and not 0.0 <= self.threshold <= 1.0:
            raise UsageError("the threshold must be between 0 and 1")
        if self.scheme not in SCHEMES:
            raise UsageError(f"unknown tag scheme {self.scheme!r}", hint="use bio or io")


class CRFTagger:
    """A linear-chain CRF over the shared features (see the module docstring)."""

    kind: ClassVar[str] = "crf"

    def __init__(
        self,
        features: FeatureConfig | None = None,
        settings: CRFSettings | None = None,
        clusters: WordClusters | None = None,
        source: str = "crf",
    ) -> None:
        self.features = features or FeatureConfig()
        self.settings = settings or CRFSettings()
        self.clusters = clusters
        self.source = source
        self.stats: CorpusStats | None = None
        self.training_seconds = 0.0
        self._model: bytes | None = None
        self._tagger: Any = None
        self._extractor = FeatureExtractor(self.features, None, clusters)

    # -- training -----------------------------------------------------------------
    def fit(self, docs: Sequence[Document], layer: str = "gold") -> None:
        if not docs:
            raise UsageError("no training documents", hint="pass at least one annotated note")
        start = time.perf_counter()
        self.stats = CorpusStats.learn(docs, layer) if self.features.frequency else None
        self._extractor = FeatureExtractor(self.features, self.stats, self.clusters)
        trainer = pycrfsuite.Trainer(verbose=False)
        count = 0
        for doc, tokens, tags in training_tags(docs, layer, self.settings.scheme):
            trainer.append(self._extractor.sequence(doc.text, tokens, domain_of(doc)), tags)
            count += 1
        if not count:
            raise UsageError("no document could be used for training")
        trainer.select("lbfgs")
        trainer.set_params(
            {
                "c1": self.settings.c1,
                "c2": self.settings.c2,
                "max_iterations": self.settings.max_iter,
                "feature.minfreq": self.settings.min_freq,
                "feature.possible_transitions": self.settings.possible_transitions,
            }
        )
        with tempfile.TemporaryDirectory(prefix="phiscrub-crf-") as tmp:
            path = os.path.join(tmp, MODEL_FILE)
            trainer.train(path)
            with open(path, "rb") as fh:
                self._open(fh.read())
        self.training_seconds = time.perf_counter() - start
        log.info("CRF trained on %d documents in %.1f s", count, self.training_seconds)

    def _open(self, model: bytes) -> None:
        tagger = pycrfsuite.Tagger()
        tagger.open_inmemory(model)
        self._model, self._tagger = model, tagger

    def _require(self) -> Any:
        if self._tagger is None:
            raise UsageError("the CRF tagger is not trained", hint="call fit() or load a model")
        return self._tagger

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(sorted(self._require().labels()))

    def with_threshold(self, threshold: float | None) -> CRFTagger:
        """The same model decoding with another recall-bias threshold (None: Viterbi)."""
        other = CRFTagger(
            self.features, replace(self.settings, threshold=threshold), self.clusters, self.source
        )
        other.stats, other._extractor = self.stats, self._extractor
        if self._model is not None:
            other._open(self._model)
        return other

    # -- tagging ------------------------------------------------------------------
    def _set(self, doc: Document) -> tuple[Any, list[Token]]:
        tagger = self._require()
        tokens = tokenize(doc.text)
        tagger.set(self._extractor.sequence(doc.text, tokens, None))
        return tagger, tokens

    def predict(self, doc: Document) -> list[Span]:
        tagger, tokens = self._set(doc)
        if not tokens:
            return []
        if self.settings.threshold is not None:
            marginals = self._marginals(tagger, len(tokens))
            return decode_threshold(
                doc.text, tokens, marginals, self.settings.threshold, self.source
            )
        tags = tagger.tag()
        p_out = [tagger.marginal(OUTSIDE, i) for i in range(len(tokens))]
        spans = bio_to_spans(doc.text, tokens, tags, self.source)
        return score_spans(spans, tokens, p_out)

    def _marginals(self, tagger: Any, n: int) -> list[dict[str, float]]:
        labels = tagger.labels()
        return [{lab: tagger.marginal(lab, i) for lab in labels} for i in range(n)]

    def predict_marginals(self, doc: Document) -> Marginals:
        tagger, tokens = self._set(doc)
        return list(zip(tokens, self._marginals(tagger, len(tokens)), strict=True))

    # -- persistence --------------------------------------------------------------
    def export(self) -> TaggerState:
        self._require()
        assert self._model is not None
        files = {MODEL_FILE: self._model}
        if self.stats is not None:
            files[STATS_FILE] = json.dumps(self.stats.to_dict()).encode()
        if self.clusters is not None:
            files[CLUSTERS_FILE] = json.dumps(self.clusters.to_dict()).encode()
        settings = {**asdict(self.settings), "source": self.source}
        return TaggerState(self.kind, self.features, self.labels, settings, files)

    @classmethod
    def restore(cls, state: TaggerState) -> CRFTagger:
        settings = dict(state.settings)
        source = str(settings.pop("source", "crf"))
        try:
            crf_settings = CRFSettings(**settings)
        except TypeError:
            raise UsageError("the CRF settings of the model are not recognised") from None
        clusters = None
        if CLUSTERS_FILE in state.files:
            clusters = WordClusters.from_dict(json.loads(state.files[CLUSTERS_FILE]))
        tagger = cls(state.features, crf_settings, clusters, source)
        if STATS_FILE in state.files:
            tagger.stats = CorpusStats.from_dict(json.loads(state.files[STATS_FILE]))
        tagger._extractor = FeatureExtractor(state.features, tagger.stats, clusters)
        try:
            tagger._open(state.files[MODEL_FILE])
        except (KeyError, ValueError, OSError):
            raise UsageError("the CRF model file is missing or unreadable") from None
        return tagger
