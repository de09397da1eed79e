"""The Stat De-id SVM tagger: it learns, scores behave, archives hold no pickle."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from phiscrub.errors import UsageError
from phiscrub.evaluate import align, build_report
from phiscrub.model import load_model, save_model
from phiscrub.span import Document
from phiscrub.taggers import PersistentTagger, Tagger, phi_mask
from phiscrub.taggers.cv import predict_corpus
from phiscrub.taggers.svm import SVMSettings, SVMTagger
from phiscrub.taggers.tokenclf import as_marginals, from_npy, to_npy


@pytest.fixture(scope="module")
def svm(synth_train: list[Document]) -> SVMTagger:
    tagger = SVMTagger(settings=SVMSettings(hash_bits=18))
    tagger.fit(synth_train)
    return tagger


def test_svm_learns_synthetic_phi(svm: SVMTagger, synth_test: list[Document]) -> None:
    report = build_report(*align(synth_test, predict_corpus(svm, synth_test)))
    assert report["strict"]["micro"]["f1"] > 0.6
    assert report["binary_token"]["micro"]["recall"] > 0.85


def test_svm_implements_the_protocols(svm: SVMTagger) -> None:
    assert isinstance(svm, Tagger) and isinstance(svm, PersistentTagger)
    assert "O" in svm.labels and any(t.startswith("B-") for t in svm.labels)


def test_scores_are_distributions_and_the_threshold_is_monotone(
    svm: SVMTagger, synth_test: list[Document]
) -> None:
    marginals = [m for doc in synth_test[:3] for _, m in svm.predict_marginals(doc)]
    assert all(sum(m.values()) == pytest.approx(1.0) for m in marginals)
    counts = [sum(phi_mask(marginals, t)) for t in (0.0, 0.3, 0.6, 0.9, 1.0)]
    assert counts == sorted(counts) and counts[0] == 0
    doc = synth_test[0]
    assert svm.with_threshold(0.0).predict(doc) == []
    assert svm.with_threshold(0.5).predict(doc)


def test_archive_round_trip_gives_identical_scores_and_no_pickle(
    svm: SVMTagger, synth_test: list[Document], tmp_path: Path
) -> None:
    path = tmp_path / "svm.phiscrub"
    save_model(svm, path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        assert not [n for n in names if n.endswith((".pkl", ".pickle", ".joblib"))]
        for name in names:
            if name.endswith(".npy"):
                from_npy(zf.read(name))  # loads with allow_pickle=False
        assert b"smith" not in b"".join(zf.read(n).lower() for n in names if "svm_" in n)
    restored = load_model(path)
    assert isinstance(restored, SVMTagger)
    for doc in synth_test[:5]:
        _, a = svm.decision(doc)
        _, b = restored.decision(doc)
        assert np.array_equal(a, b)
        assert restored.predict(doc) == svm.predict(doc)


def test_io_scheme_names_runs_for_threshold_decoding() -> None:
    """IO classes are named B-X where the best PHI label changes, I-X where it goes on."""
    classes = ("I-CITY", "I-PATIENT", "O")
    probs = np.array([[0.1, 0.8, 0.1], [0.1, 0.7, 0.2], [0.6, 0.1, 0.3]])
    marginals = as_marginals(probs, classes, "io")
    assert set(marginals[0]) == {"B-CITY", "B-PATIENT", "O"}
    assert set(marginals[1]) == {"B-CITY", "I-PATIENT", "O"}
    assert set(marginals[2]) == {"B-CITY", "I-PATIENT", "O"}
    assert marginals[1]["I-PATIENT"] == pytest.approx(0.7)


def test_npy_refuses_object_arrays() -> None:
    with pytest.raises(ValueError):
        to_npy(np.array([{"a": 1}], dtype=object))
    with pytest.raises(UsageError):
        from_npy(b"not an array")


def test_untrained_svm_and_bad_settings_raise() -> None:
    with pytest.raises(UsageError):
        SVMTagger().predict(Document("d", "text"))
    with pytest.raises(UsageError):
        SVMSettings(c=0)
    with pytest.raises(UsageError):
        SVMSettings(scheme="bioes")
