"""Trained taggers behind one interface (DESIGN.md "Training and models").

``Tagger`` (fit / predict / predict_marginals), ``CRFTagger`` (python-crfsuite, BIO),
threshold decoding shared by every probabilistic tagger, cross-validation by patient, and
the registry of tagger kinds that model archives (``phiscrub.model``) can hold.
"""

from __future__ import annotations

from phiscrub.taggers.base import (
    Marginals,
    PersistentTagger,
    Tagger,
    TaggerState,
    bio_sequences,
    non_overlapping,
)
from phiscrub.taggers.crf import CRFSettings, CRFTagger
from phiscrub.taggers.decode import decode_threshold, phi_mask
from phiscrub.taggers.registry import TAGGER_KINDS, tagger_class


def load_default() -> PersistentTagger:
    """The default model shipped in the package (the ``default`` pipeline; see
    ``phiscrub.taggers.default``), loaded once per process."""
    from phiscrub.taggers.default import load_default as _load

    return _load()


__all__ = [
    "TAGGER_KINDS",
    "CRFSettings",
    "CRFTagger",
    "Marginals",
    "PersistentTagger",
    "Tagger",
    "TaggerState",
    "bio_sequences",
    "decode_threshold",
    "load_default",
    "non_overlapping",
    "phi_mask",
    "tagger_class",
]
