"""Training the hybrid's CRFs: one shared feature configuration and statistics, one CRF per
group of categories (seed 001: DATE/AGE/CONTACT/ID and NAME/LOCATION/PROFESSION), each on
the gold spans of its own categories. The CRFs can train in parallel processes.

The frequency statistics are learned once from the full gold layer (so that tokens inside
any PHI span are left out of them, whatever CRF they serve) and shared by every CRF, which
is also what lets the tagger compute the features of a note once for all of them.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

import pycrfsuite  # type: ignore[import-untyped]

from phiscrub.errors import UsageError
from phiscrub.features import CorpusStats, FeatureConfig, FeatureExtractor, domain_of
from phiscrub.span import Document
from phiscrub.taggers.base import log, training_tags
from phiscrub.taggers.crf import CRFSettings

__all__ = ["CRF_GROUPS", "only_categories", "train_group", "train_groups"]

#: the CRFs of the hybrid: name -> categories it tags (None: every category)
CRF_GROUPS: Mapping[str, Mapping[str, frozenset[str] | None]] = {
    "two": {
        "quant": frozenset({"DATE", "AGE", "CONTACT", "ID"}),
        "names": frozenset({"NAME", "LOCATION", "PROFESSION"}),
    },
    "one": {"all": None},
}


def only_categories(
    docs: Sequence[Document], categories: Collection[str] | None, layer: str = "gold"
) -> list[Document]:
    """Copies of ``docs`` whose ``layer`` keeps the spans of ``categories`` only."""
    if categories is None:
        return list(docs)
    return [
        d.with_layer(layer, [s for s in d.layer(layer) if s.category in categories]) for d in docs
    ]


def train_group(
    docs: Sequence[Document],
    categories: Collection[str] | None,
    config: FeatureConfig,
    stats: CorpusStats | None,
    settings: CRFSettings,
    layer: str = "gold",
) -> bytes:
    """The crfsuite model (bytes) of one CRF trained on the spans of ``categories``."""
    extractor = FeatureExtractor(config, stats)
    trainer = pycrfsuite.Trainer(verbose=False)
    count = 0
    docs = only_categories(docs, categories, layer)
    for doc, tokens, tags in training_tags(docs, layer, settings.scheme):
        trainer.append(extractor.sequence(doc.text, tokens, domain_of(doc)), tags)
        count += 1
    if not count:
        raise UsageError("no document could be used for training")
    trainer.select("lbfgs")
    trainer.set_params(
        {
            "c1": settings.c1,
            "c2": settings.c2,
            "max_iterations": settings.max_iter,
            "feature.minfreq": settings.min_freq,
            "feature.possible_transitions": settings.possible_transitions,
        }
    )
    with tempfile.TemporaryDirectory(prefix="phiscrub-hybrid-") as tmp:
        path = os.path.join(tmp, "crf.model")
        trainer.train(path)
        with open(path, "rb") as fh:
            return fh.read()


def train_groups(
    docs: Sequence[Document],
    groups: Mapping[str, frozenset[str] | None],
    config: FeatureConfig,
    settings: CRFSettings,
    layer: str = "gold",
    workers: int = 1,
) -> tuple[CorpusStats | None, dict[str, bytes]]:
    """Shared statistics and one model per group; ``workers > 1`` trains in processes."""
    stats = CorpusStats.learn(docs, layer) if config.frequency else None
    names = list(groups)
    if workers <= 1 or len(names) == 1:
        models = [train_group(docs, groups[n], config, stats, settings, layer) for n in names]
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with ProcessPoolExecutor(min(workers, len(names)), mp_context=context) as pool:
            futures = [
                pool.submit(train_group, docs, groups[n], config, stats, settings, layer)
                for n in names
            ]
            models = [f.result() for f in futures]
    log.info("hybrid: trained %d CRF(s) on %d documents", len(names), len(docs))
    return stats, dict(zip(names, models, strict=True))
