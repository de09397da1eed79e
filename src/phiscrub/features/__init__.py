"""One feature extractor for every trained tagger (DESIGN.md "Training and models").

``FeatureExtractor(FeatureConfig()).sequence(text, tokens)`` gives one dict of
position-prefixed features per token (``0:lower``, ``-1:shape``, ``-1|0:lower``), from the
feature families of seeds 000, 001, 002 and 003; see docs/models.md.
"""

from __future__ import annotations

from phiscrub.features.clusters import WordClusters
from phiscrub.features.config import FEATURE_SCHEMA, FeatureConfig
from phiscrub.features.easyadapt import DOMAINS, augment, domain_of, with_domain
from phiscrub.features.extract import FeatureExtractor
from phiscrub.features.stats import CorpusStats
from phiscrub.features.token import Features, FeatureValue

__all__ = [
    "DOMAINS",
    "FEATURE_SCHEMA",
    "CorpusStats",
    "FeatureConfig",
    "FeatureExtractor",
    "FeatureValue",
    "Features",
    "WordClusters",
    "augment",
    "domain_of",
    "with_domain",
]
