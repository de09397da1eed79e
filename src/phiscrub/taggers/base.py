"""The interface every trained tagger implements, and what they share.

A tagger is fitted on documents with gold spans and predicts spans on new documents::

    tagger.fit(docs, layer="gold")
    spans = tagger.predict(doc)               # list[Span], source = the tagger's name
    marginals = tagger.predict_marginals(doc) # [(Token, {"O": 0.98, "B-DATE": 0.01, ...})]

A tagger that can be saved in a model archive (``phiscrub.model``) also has a ``kind``
(its registry name), ``export()`` giving a ``TaggerState`` (files as bytes plus JSON
settings; never a pickle) and a class method ``restore(state)``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from phiscrub.errors import SpanError, UsageError
from phiscrub.features import FeatureConfig
from phiscrub.span import Document, Span
from phiscrub.text import Token, spans_to_bio

__all__ = [
    "SCHEMES",
    "Marginals",
    "PersistentTagger",
    "Tagger",
    "TaggerState",
    "bio_sequences",
    "non_overlapping",
    "training_tags",
]

log = logging.getLogger("phiscrub.taggers")

#: per token, the probability of every BIO tag
Marginals = list[tuple[Token, dict[str, float]]]


@runtime_checkable
class Tagger(Protocol):
    """What every trained tagger does (CRF, SVM, boosted trees, hybrid)."""

    def fit(self, docs: Sequence[Document], layer: str = "gold") -> None:
        """Learn from the spans of ``layer`` of ``docs`` (replacing any earlier model)."""
        ...

    def predict(self, doc: Document) -> list[Span]:
        """Spans found in ``doc.text`` (the document is not modified)."""
        ...

    def predict_marginals(self, doc: Document) -> Marginals:
        """Each token of ``doc.text`` with the probability of each BIO tag."""
        ...


@dataclass(frozen=True, slots=True)
class TaggerState:
    """Everything needed to rebuild a fitted tagger: no code, no pickle.

    ``files``: named binary parts (a crfsuite model, JSON statistics...); ``settings``:
    JSON-serialisable hyperparameters; ``labels``: the BIO tags the model predicts.
    """

    kind: str
    features: FeatureConfig
    labels: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)


@runtime_checkable
class PersistentTagger(Tagger, Protocol):
    """A tagger that a model archive can hold."""

    kind: ClassVar[str]

    def export(self) -> TaggerState: ...

    @classmethod
    def restore(cls, state: TaggerState) -> PersistentTagger: ...


def non_overlapping(spans: Sequence[Span]) -> list[Span]:
    """Spans with overlaps removed (the longer span wins; ties: the earlier one), for a
    BIO view. Gold layers of most corpora never overlap; a few merged ones do."""
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: (-(s.end - s.start), s.start)):
        if not any(span.overlaps(k) for k in kept):
            kept.append(span)
    return sorted(kept)


def bio_sequences(
    docs: Sequence[Document], layer: str = "gold"
) -> Iterator[tuple[Document, list[Token], list[str]]]:
    """Each document's tokens (split at gold boundaries) and BIO tags for training.

    Overlapping spans are reduced with ``non_overlapping`` and spans covering only
    whitespace are dropped; both are logged by document id (never by text)."""
    for doc in docs:
        spans = [s for s in doc.layer(layer) if s.text.strip()]
        kept = non_overlapping(spans)
        if len(kept) != len(doc.layer(layer)):
            log.info(
                "document %s: %d span(s) dropped for the BIO view",
                doc.id,
                len(doc.layer(layer)) - len(kept),
            )
        try:
            tokens, tags = spans_to_bio(doc.text, kept)
        except SpanError as exc:
            log.warning("document %s skipped for training: %s", doc.id, exc.code)
            continue
        yield doc, tokens, tags


#: tag schemes of the token taggers: BIO, or IO (one tag per subtype; ``B-X`` becomes ``I-X``)
SCHEMES = ("bio", "io")


def training_tags(
    docs: Sequence[Document], layer: str, scheme: str
) -> Iterator[tuple[Document, list[Token], list[str]]]:
    """``bio_sequences`` with IO tags when ``scheme == "io"`` (``B-X`` becomes ``I-X``)."""
    if scheme not in SCHEMES:
        raise UsageError(f"unknown tag scheme {scheme!r}", hint="use bio or io")
    for doc, tokens, tags in bio_sequences(docs, layer):
        if scheme == "io":
            tags = ["I-" + t[2:] if t.startswith("B-") else t for t in tags]
        yield doc, tokens, tags
