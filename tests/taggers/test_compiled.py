"""The compiled CRF's emission scores: the summed weights of exactly the attributes the
feature extractor gives each token (the extractor is what training uses), whatever the
feature families, window and cache state."""

from __future__ import annotations

import numpy
import pytest

from phiscrub.features import FeatureConfig, FeatureExtractor
from phiscrub.span import Document
from phiscrub.taggers import compiled as compiled_module
from phiscrub.taggers.compiled import CompiledCRF, ModelWeights, attribute_strings
from phiscrub.text import Token, tokenize

HAND_MADE = [
    "HISTORY OF PRESENT ILLNESS:\nSeen by Dr. Adams on 03/04/2069.\r\nCall 555-123-4567.",
    "Name: Jane Roe\n\nAllergies: none\nPLAN:\n  1. follow up w/ Mr. Li, MD",
    "alone",
    "x\ny",
    "",
]
CONFIGS = [
    FeatureConfig(),
    FeatureConfig.fast(),
    FeatureConfig(window=1, trigger_offsets=1, ngrams=False),
    FeatureConfig(window=0, layout=False, section=False, chunk_shapes=False, triggers=False),
    FeatureConfig(sentence=False, section=False, attribute=True, trigger_offsets=0),
]
LABELS = ("O", "B-X", "I-X")


def _expected(
    extractor: FeatureExtractor, state: dict[tuple[str, str], float], text: str, tokens: list[Token]
) -> numpy.ndarray:
    rows = [
        [
            sum(v * state.get((a, lab), 0.0) for a, v in attribute_strings(f).items())
            for lab in LABELS
        ]
        for f in extractor.sequence(text, tokens)
    ]
    return numpy.array(rows).reshape(len(tokens), len(LABELS))


@pytest.mark.parametrize("config", CONFIGS)
def test_emissions_are_the_summed_weights_of_the_extractor_attributes(
    config: FeatureConfig, synth_test: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    extractor = FeatureExtractor(config)
    notes = [(t, tokenize(t)) for t in HAND_MADE + [d.text for d in synth_test[:6]]]
    attrs = sorted(
        {
            a
            for text, toks in notes
            for f in extractor.sequence(text, toks)
            for a in attribute_strings(f)
        }
    )
    rng = numpy.random.default_rng(7)
    # two attributes in three carry weights: the others stand for features never seen in training
    state = {(a, lab): float(rng.normal()) for a in attrs[::3] + attrs[1::3] for lab in LABELS}
    compiled = CompiledCRF(extractor, [ModelWeights(LABELS, state, {})])
    monkeypatch.setattr(compiled_module, "CACHE_LIMIT", 40)  # caches emptied and regrown
    for _ in range(2):  # cold, then warm caches
        for text, toks in notes:
            got = compiled.emissions(text, toks)
            assert got.shape == (len(toks), len(LABELS))
            assert numpy.allclose(got, _expected(extractor, state, text, toks), atol=1e-9)


def test_emissions_from_several_threads_match_one_thread(
    synth_test: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    extractor = FeatureExtractor(FeatureConfig.fast())
    notes = [(d.text, tokenize(d.text)) for d in synth_test]
    attrs = sorted(
        {
            a
            for text, toks in notes
            for f in extractor.sequence(text, toks)
            for a in attribute_strings(f)
        }
    )
    rng = numpy.random.default_rng(3)
    state = {(a, lab): float(rng.normal()) for a in attrs for lab in LABELS}
    expected = [_expected(extractor, state, text, toks) for text, toks in notes]
    compiled = CompiledCRF(extractor, [ModelWeights(LABELS, state, {})])
    monkeypatch.setattr(compiled_module, "CACHE_LIMIT", 50)  # tables emptied while in use
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda note: compiled.emissions(*note), notes * 3))
    for emit, want in zip(got, expected * 3, strict=True):
        assert numpy.allclose(emit, want, atol=1e-9)
