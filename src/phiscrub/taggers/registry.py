"""Tagger kinds a model archive may hold, by name.

A new tagger (``svm``, ``trees``, ``hybrid``) that implements ``PersistentTagger`` is added
here with one line; archives name their kind and ``phiscrub.model.load_model`` looks it up.
"""

from __future__ import annotations

from phiscrub.errors import UsageError
from phiscrub.taggers.base import PersistentTagger
from phiscrub.taggers.crf import CRFTagger
from phiscrub.taggers.hybrid import HybridTagger
from phiscrub.taggers.svm import SVMTagger
from phiscrub.taggers.trees import TreesTagger, TreesVoting

__all__ = ["TAGGER_KINDS", "tagger_class"]

TAGGER_KINDS: dict[str, type[PersistentTagger]] = {
    CRFTagger.kind: CRFTagger,
    HybridTagger.kind: HybridTagger,
    SVMTagger.kind: SVMTagger,
    TreesTagger.kind: TreesTagger,
    TreesVoting.kind: TreesVoting,
}


def tagger_class(kind: str) -> type[PersistentTagger]:
    """The class of a tagger kind (UsageError naming the known kinds otherwise)."""
    try:
        return TAGGER_KINDS[kind]
    except KeyError:
        raise UsageError(
            f"unknown tagger kind {kind!r}", hint=f"use one of {', '.join(sorted(TAGGER_KINDS))}"
        ) from None
