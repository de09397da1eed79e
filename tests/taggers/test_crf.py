"""The CRF tagger: it learns, its spans are well formed, its threshold behaves."""

from __future__ import annotations

from itertools import pairwise

import pytest

from phiscrub.errors import UsageError
from phiscrub.evaluate import align, build_report
from phiscrub.span import Document, Span
from phiscrub.taggers import CRFTagger, PersistentTagger, Tagger, phi_mask
from phiscrub.taggers.crf import CRFSettings
from phiscrub.taggers.cv import predict_corpus
from phiscrub.taggers.decode import decode_threshold
from phiscrub.text import Token


def test_crf_learns_synthetic_phi(crf: CRFTagger, synth_test: list[Document]) -> None:
    report = build_report(*align(synth_test, predict_corpus(crf, synth_test)))
    assert report["strict"]["micro"]["f1"] > 0.8
    assert report["binary_token"]["micro"]["recall"] > 0.9


def test_crf_implements_the_tagger_protocols(crf: CRFTagger) -> None:
    assert isinstance(crf, Tagger) and isinstance(crf, PersistentTagger)
    assert "O" in crf.labels and any(label.startswith("B-") for label in crf.labels)


def test_predicted_spans_are_crf_spans_with_scores(
    crf: CRFTagger, synth_test: list[Document]
) -> None:
    doc = synth_test[0]
    spans = crf.predict(doc)
    assert spans
    for span in spans:
        assert span.source == "crf" and 0.0 <= span.score <= 1.0
        assert doc.text[span.start : span.end] == span.text
    doc.with_layer("crf", spans)  # the document accepts them


def test_marginals_are_distributions(crf: CRFTagger, synth_test: list[Document]) -> None:
    marginals = crf.predict_marginals(synth_test[1])
    assert marginals
    for token, probs in marginals:
        assert synth_test[1].text[token.start : token.end] == token.text
        assert set(probs) == set(crf.labels)
        assert sum(probs.values()) == pytest.approx(1.0, abs=1e-6)


def test_raising_the_threshold_never_removes_phi_tokens(
    crf: CRFTagger, synth_test: list[Document]
) -> None:
    """A token is PHI when P(O) < t: a higher t keeps every PHI token of a lower t."""
    probs = [m for doc in synth_test[:5] for _, m in crf.predict_marginals(doc)]
    thresholds = [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0]
    masks = [phi_mask(probs, t) for t in thresholds]
    counts = [sum(m) for m in masks]
    assert counts == sorted(counts) and counts[0] == 0
    for low, high in pairwise(masks):
        assert all(h for lo, h in zip(low, high, strict=True) if lo)


def test_threshold_decoding_through_the_tagger(crf: CRFTagger, synth_test: list[Document]) -> None:
    doc = synth_test[2]

    def covered(t: float | None) -> int:
        return sum(s.end - s.start for s in crf.with_threshold(t).predict(doc))

    assert covered(0.0) == 0
    assert covered(0.2) <= covered(0.5) <= covered(0.9) <= covered(0.999)
    assert covered(0.5) > 0


def test_threshold_decoding_splits_and_labels() -> None:
    text = "Ann Lee Boston x"
    tokens = [Token(0, 3, "Ann"), Token(4, 7, "Lee"), Token(8, 14, "Boston"), Token(15, 16, "x")]
    marginals = [
        {"O": 0.1, "B-PATIENT": 0.8, "I-PATIENT": 0.05, "B-CITY": 0.05},
        {"O": 0.3, "B-PATIENT": 0.1, "I-PATIENT": 0.6},
        {"O": 0.4, "B-CITY": 0.5, "I-PATIENT": 0.1},
        {"O": 0.9, "B-CITY": 0.1},
    ]
    spans = decode_threshold(text, tokens, marginals, 0.5, "crf")
    assert [(s.text, s.label) for s in spans] == [("Ann Lee", "PATIENT"), ("Boston", "CITY")]
    assert spans[0].score == pytest.approx(0.8)
    assert decode_threshold(text, tokens, marginals, 0.95, "crf")[-1].text == "x"


def test_untrained_tagger_and_bad_settings_raise() -> None:
    with pytest.raises(UsageError):
        CRFTagger().predict(Document("d", "text"))
    with pytest.raises(UsageError):
        CRFTagger().fit([])


def test_io_scheme_trains_one_tag_per_subtype(synth_train: list[Document]) -> None:
    io = CRFTagger(settings=CRFSettings(max_iter=30, scheme="io"))
    io.fit(synth_train[:30])
    assert io.labels and all(t == "O" or t.startswith("I-") for t in io.labels)
    restored = CRFTagger.restore(io.export())
    assert restored.settings.scheme == "io"
    doc = synth_train[30]
    assert restored.predict(doc) == io.predict(doc)
    assert any(s.category == "NAME" for s in io.predict(doc))
    with pytest.raises(UsageError):
        CRFSettings(scheme="bilou")


def test_overlapping_gold_spans_are_reduced_for_training() -> None:
    from phiscrub.taggers import non_overlapping

    text = "Mercy Hospital Boston"
    a, b = Span.of(text, 0, 21, "HOSPITAL"), Span.of(text, 15, 21, "CITY")
    assert non_overlapping([a, b]) == [a]
