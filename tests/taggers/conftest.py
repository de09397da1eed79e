"""A small CRF trained once on synthetic notes, shared by the tagger tests."""

from __future__ import annotations

import pytest

from phiscrub.span import Document
from phiscrub.synth import SynthOptions, documents
from phiscrub.taggers import CRFSettings, CRFTagger


@pytest.fixture(scope="session")
def synth_train() -> list[Document]:
    return list(documents(SynthOptions(n=60, seed="tagger-train")))


@pytest.fixture(scope="session")
def synth_test() -> list[Document]:
    return list(documents(SynthOptions(n=20, seed="tagger-test")))


@pytest.fixture(scope="session")
def crf(synth_train: list[Document]) -> CRFTagger:
    tagger = CRFTagger(settings=CRFSettings(max_iter=30))
    tagger.fit(synth_train)
    return tagger
