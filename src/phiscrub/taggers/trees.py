"""Boosted decision trees (seed 002): a token classifier on dense surface features.

Each token is classified (IO over the subtypes: ``O``, ``I-DOCTOR``...) by scikit-learn's
``HistGradientBoostingClassifier`` on the compact numeric features of ``dense.py`` plus
learned trigger words (``triggers.py``). Seed 002's steps:

* three trigger variants (``token``, ``phrase``, ``trigram``), one model each;
  ``TreesVoting`` keeps a token's label when two of the three models agree (else ``O``);
  ``TreesTagger`` uses one variant (``token`` by default);
* iterative learning (``iterations`` >= 1): a first pass tags the note; phrases tagged
  under unambiguous headings (entropy of the subtypes of the phrases under them < 0.1 on
  the training notes) become trusted phrases, whose occurrences elsewhere in the note are
  features of a second model; the second model's output gives the trusted phrases of the
  next pass, ``iterations`` times. The second model is trained with the trusted phrases of
  the gold spans (a first-pass model tags its own training notes almost perfectly, so this
  is close to seed 002's procedure and half the cost);
* phrase-label standardization (``standardize``) at the end (``iterative.py``).

Probabilities are the trees' class probabilities (the mean over the three models for
``TreesVoting``, where the recall-bias threshold decodes that mean instead of voting).
The fitted trees are kept as plain arrays (``forest.py``) and predicted with our own
evaluator, so a model archive holds ``.npy`` arrays and JSON, never a pickle.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from phiscrub.errors import UsageError
from phiscrub.features import CorpusStats, FeatureConfig, FeatureExtractor
from phiscrub.span import Document, Span
from phiscrub.taggers.base import Marginals, TaggerState, bio_sequences, log
from phiscrub.taggers.decode import score_spans
from phiscrub.taggers.dense import DenseEncoder, Matrix
from phiscrub.taggers.forest import Forest
from phiscrub.taggers.iterative import (
    heading_table,
    standardize,
    trusted_columns,
    trusted_phrases,
    unambiguous_headings,
    vote,
)
from phiscrub.taggers.tokenclf import FloatArray, as_marginals, decode_probs
from phiscrub.taggers.triggers import VARIANTS, TriggerLists, phrases_of
from phiscrub.text import Token, bio_to_spans, tokenize

__all__ = ["TreesSettings", "TreesTagger", "TreesVoting"]

META_FILE = "trees.json"


@dataclass(frozen=True, slots=True)
class TreesSettings:
    """Training and decoding settings (stored in the model archive)."""

    variants: tuple[str, ...] = ("token",)
    iterations: int = 1
    standardize: bool = True
    max_iter: int = 60
    learning_rate: float = 0.2
    max_leaf_nodes: int = 31
    min_samples_leaf: int = 5
    l2: float = 1.0
    o_sample: float = 0.3
    trigger_min_count: int = 3
    trigger_min_precision: float = 0.2
    max_entropy: float = 0.1
    threshold: float | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "variants", tuple(self.variants))
        if not self.variants or any(v not in VARIANTS for v in self.variants):
            raise UsageError(f"trigger variants must be among {', '.join(VARIANTS)}")
        if len(self.variants) not in (1, 3):
            raise UsageError("use one trigger variant, or three for two-of-three voting")
        if not 0.0 < self.o_sample <= 1.0:
            raise UsageError("o_sample must be in (0, 1]")
        if self.iterations < 0 or self.max_iter < 1 or self.min_samples_leaf < 1:
            raise UsageError("iterations must be >= 0, max_iter and min_samples_leaf >= 1")
        if self.threshold is not None and not 0.0 <= self.threshold <= 1.0:
            raise UsageError("the threshold must be between 0 and 1")


@dataclass(slots=True)
class _Member:
    """One trigger variant: its trigger lists, first-pass and iterative models."""

    triggers: TriggerLists
    first: Forest | None = None
    second: Forest | None = None


@dataclass(slots=True)
class _Note:
    text: str
    tokens: list[Token]
    lowers: list[str]
    base: Matrix
    labels: list[str] = field(default_factory=list)  # IO tags (training notes)
    spans: list[Span] = field(default_factory=list)  # gold phrases (training notes)
    phrases: list[tuple[int, int, str]] = field(default_factory=list)  # as token ranges


class TreesTagger:
    """Boosted trees over dense features (see the module docstring)."""

    kind: ClassVar[str] = "trees"
    default_variants: ClassVar[tuple[str, ...]] = ("token",)

    def __init__(
        self,
        features: FeatureConfig | None = None,
        settings: TreesSettings | None = None,
        source: str = "trees",
    ) -> None:
        self.features = features or FeatureConfig()
        self.settings = settings or TreesSettings(variants=self.default_variants)
        self.source = source
        self.stats: CorpusStats | None = None
        self.classes: tuple[str, ...] = ()
        self.unambiguous: dict[str, str] = {}
        self.training_seconds = 0.0
        self._encoder = DenseEncoder(FeatureExtractor(self.features, None))
        self._members: list[_Member] = []

    # -- training -----------------------------------------------------------------
    def _notes(self, docs: Sequence[Document], layer: str) -> list[_Note]:
        out: list[_Note] = []
        for doc, tokens, bio in bio_sequences(docs, layer):
            phrases = phrases_of(bio)
            spans = [
                Span.of(doc.text, tokens[s].start, tokens[e - 1].end, lab) for s, e, lab in phrases
            ]
            labels = ["I-" + t[2:] if t != "O" else t for t in bio]
            lowers = [t.text.lower() for t in tokens]
            empty = np.zeros((0, 0), np.float32)
            out.append(_Note(doc.text, tokens, lowers, empty, labels, spans, phrases))
        if not out:
            raise UsageError("no document could be used for training")
        return out

    def _hgb(self) -> Any:
        # imported here, not at start-up (see svm.py)
        from sklearn.ensemble import HistGradientBoostingClassifier  # type: ignore[import-untyped]

        s = self.settings
        return HistGradientBoostingClassifier(
            max_iter=s.max_iter,
            learning_rate=s.learning_rate,
            max_leaf_nodes=s.max_leaf_nodes,
            min_samples_leaf=s.min_samples_leaf,
            early_stopping=True,
            validation_fraction=0.1,
            n_iter_no_change=10,
            l2_regularization=s.l2,
            random_state=s.seed,
        )

    def _sample(self, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rows to train on and their weights: every PHI token and its +-3 neighbours,
        and a random ``o_sample`` share of the other non-PHI tokens (weighted up)."""
        phi = y != "O"
        near = phi.copy()
        for d in (1, 2, 3):
            near[d:] |= phi[:-d]
            near[:-d] |= phi[d:]
        rng = np.random.default_rng(self.settings.seed)
        keep = near | (rng.random(len(y)) < self.settings.o_sample)
        weight = np.where(near, 1.0, 1.0 / self.settings.o_sample)
        return np.flatnonzero(keep), weight[keep]

    def _fit_forest(self, X: Matrix, y: np.ndarray) -> Forest:
        model = self._hgb()
        rows, weight = self._sample(y)
        # the stratified validation split of early stopping needs a few tokens per class
        _, counts = np.unique(y[rows], return_counts=True)
        model.set_params(early_stopping=bool(counts.min() >= 10))
        model.fit(X[rows], y[rows], sample_weight=weight)
        if not self.classes:
            self.classes = tuple(str(c) for c in model.classes_)
        return Forest.from_hgb(model)

    def fit(self, docs: Sequence[Document], layer: str = "gold") -> None:
        if not docs:
            raise UsageError("no training documents", hint="pass at least one annotated note")
        start = time.perf_counter()
        s = self.settings
        self.stats = CorpusStats.learn(docs, layer) if self.features.frequency else None
        self._encoder = DenseEncoder(FeatureExtractor(self.features, self.stats))
        notes = self._notes(docs, layer)
        self._encoder.learn((n.text, n.tokens) for n in notes)
        for n in notes:
            n.base = self._encoder.encode(n.text, n.tokens)
        y = np.asarray([lab for n in notes for lab in n.labels])
        if len(set(y.tolist())) < 2:
            raise UsageError("training needs at least two tags (PHI and non-PHI tokens)")
        self.classes = ()
        self.unambiguous = unambiguous_headings(
            heading_table((n.text, n.spans) for n in notes), s.max_entropy
        )
        trusted = [self._trusted(n, n.spans) for n in notes] if s.iterations else []
        samples = [(n.lowers, [lab[2:] or "O" for lab in n.labels], n.phrases) for n in notes]
        self._members = []
        for variant in s.variants:
            member = _Member(TriggerLists(variant, reach=4 if variant == "phrase" else 3))
            member.triggers.learn(samples, s.trigger_min_count, s.trigger_min_precision)
            trig = [member.triggers.encode(n.lowers) for n in notes]
            X = np.vstack([np.hstack([n.base, t]) for n, t in zip(notes, trig, strict=True)])
            member.first = self._fit_forest(X, y)
            if s.iterations:
                member.second = self._fit_forest(np.hstack([X, np.vstack(trusted)]), y)
            self._members.append(member)
        self.training_seconds = time.perf_counter() - start
        log.info("%s trained on %d tokens in %.1f s", self.kind, len(y), self.training_seconds)

    def _trusted(self, note: _Note, spans: Sequence[Span]) -> Matrix:
        phrases = trusted_phrases(note.text, note.tokens, spans, self.unambiguous)
        return trusted_columns(note.lowers, phrases)

    # -- tagging ------------------------------------------------------------------
    def _require(self) -> list[_Member]:
        if not self._members:
            raise UsageError(f"the {self.kind} tagger is not trained", hint="call fit() first")
        return self._members

    @property
    def labels(self) -> tuple[str, ...]:
        self._require()
        return self.classes

    def with_threshold(self, threshold: float | None) -> TreesTagger:
        """The same model decoding with another recall-bias threshold (None: argmax)."""
        other = type(self)(self.features, replace(self.settings, threshold=threshold), self.source)
        other.stats, other.classes, other.unambiguous = self.stats, self.classes, self.unambiguous
        other._encoder, other._members = self._encoder, self._members
        return other

    def _note(self, doc: Document) -> _Note:
        tokens = tokenize(doc.text)
        lowers = [t.text.lower() for t in tokens]
        return _Note(doc.text, tokens, lowers, self._encoder.encode(doc.text, tokens))

    def _pass(
        self, note: _Note, trig: list[Matrix], trusted: Matrix | None
    ) -> tuple[list[FloatArray], list[Span]]:
        probs: list[FloatArray] = []
        for member, t in zip(self._require(), trig, strict=True):
            forest = member.first if trusted is None else member.second
            assert forest is not None
            X = np.hstack([note.base, t] if trusted is None else [note.base, t, trusted])
            probs.append(forest.proba(X))
        return probs, self._decode(note, probs)

    def _decode(self, note: _Note, probs: list[FloatArray]) -> list[Span]:
        mean = sum(probs[1:], probs[0]) / len(probs)
        if len(probs) == 1 or self.settings.threshold is not None:
            return decode_probs(
                note.text,
                note.tokens,
                mean,
                self.classes,
                "io",
                self.settings.threshold,
                self.source,
            )
        votes = [[self.classes[k] for k in p.argmax(axis=1)] for p in probs]
        tags = vote(votes)
        spans = bio_to_spans(note.text, note.tokens, tags, self.source)
        return _scored(spans, note.tokens, mean[:, self.classes.index("O")])

    def _run(self, doc: Document) -> tuple[_Note, list[FloatArray], list[Span]]:
        note = self._note(doc)
        if not note.tokens:
            return note, [], []
        trig = [m.triggers.encode(note.lowers) for m in self._require()]
        probs, spans = self._pass(note, trig, None)
        for _ in range(self.settings.iterations):
            probs, spans = self._pass(note, trig, self._trusted(note, spans))
        if self.settings.standardize:
            spans = standardize(note.text, note.tokens, spans)
        return note, probs, spans

    def predict(self, doc: Document) -> list[Span]:
        return self._run(doc)[2]

    def predict_marginals(self, doc: Document) -> Marginals:
        note, probs, _ = self._run(doc)
        if not probs:
            return []
        mean = sum(probs[1:], probs[0]) / len(probs)
        return list(zip(note.tokens, as_marginals(mean, self.classes, "io"), strict=True))

    # -- persistence --------------------------------------------------------------
    def export(self) -> TaggerState:
        files: dict[str, bytes] = {}
        meta: dict[str, Any] = {
            "encoder": self._encoder.to_dict(),
            "unambiguous_headings": self.unambiguous,
            "triggers": [m.triggers.to_dict() for m in self._require()],
            "stats": self.stats.to_dict() if self.stats is not None else None,
        }
        for m in self._members:
            assert m.first is not None
            files.update(m.first.files(f"{m.triggers.variant}.first."))
            if m.second is not None:
                files.update(m.second.files(f"{m.triggers.variant}.second."))
        files[META_FILE] = json.dumps(meta, sort_keys=True).encode()
        settings = {**asdict(self.settings), "source": self.source}
        settings["variants"] = list(self.settings.variants)
        return TaggerState(self.kind, self.features, self.classes, settings, files)

    @classmethod
    def restore(cls, state: TaggerState) -> TreesTagger:
        settings = dict(state.settings)
        source = str(settings.pop("source", cls.kind))
        try:
            tagger = cls(state.features, TreesSettings(**settings), source)
            meta = json.loads(state.files[META_FILE])
            if meta["stats"] is not None:
                tagger.stats = CorpusStats.from_dict(meta["stats"])
            extractor = FeatureExtractor(state.features, tagger.stats)
            tagger._encoder = DenseEncoder.from_dict(extractor, meta["encoder"])
            tagger.unambiguous = {str(k): str(v) for k, v in meta["unambiguous_headings"].items()}
            triggers = [TriggerLists.from_dict(t) for t in meta["triggers"]]
        except (TypeError, KeyError, ValueError):
            raise UsageError("the trees settings or metadata of the model are malformed") from None
        tagger.classes = tuple(state.labels)
        for t in triggers:
            second = None
            if tagger.settings.iterations:
                second = Forest.from_files(state.files, f"{t.variant}.second.")
            first = Forest.from_files(state.files, f"{t.variant}.first.")
            tagger._members.append(_Member(t, first, second))
        return tagger


class TreesVoting(TreesTagger):
    """Three boosted-tree models (token, phrase and trigram triggers), two-of-three voting."""

    kind: ClassVar[str] = "trees-voting"
    default_variants: ClassVar[tuple[str, ...]] = VARIANTS


def _scored(spans: list[Span], tokens: Sequence[Token], p_out: FloatArray) -> list[Span]:
    return score_spans(spans, tokens, p_out.tolist())
