"""Boosted trees (seed 002): learning, voting, heading entropy, standardization, archives."""

from __future__ import annotations

import math
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

from phiscrub.errors import UsageError
from phiscrub.evaluate import align, build_report
from phiscrub.model import load_model, save_model
from phiscrub.span import Document, Span
from phiscrub.taggers import PersistentTagger, Tagger
from phiscrub.taggers.cv import predict_corpus
from phiscrub.taggers.iterative import (
    entropy,
    heading_table,
    standardize,
    trusted_columns,
    trusted_phrases,
    unambiguous_headings,
    vote,
)
from phiscrub.taggers.tokenclf import from_npy
from phiscrub.taggers.trees import TreesSettings, TreesTagger, TreesVoting
from phiscrub.taggers.triggers import VARIANTS, TriggerLists, phrases_of
from phiscrub.text import tokenize

SMALL = {"max_iter": 10, "learning_rate": 0.3, "max_leaf_nodes": 15}


@pytest.fixture(scope="module", autouse=True)
def _one_thread() -> Iterator[None]:
    """OpenMP threads of scikit-learn's trees spin badly when the cores are busy."""
    with threadpool_limits(1):
        yield


@pytest.fixture(scope="module")
def trees(_one_thread: None, synth_train: list[Document]) -> TreesTagger:
    tagger = TreesTagger(settings=TreesSettings(**SMALL))  # type: ignore[arg-type]
    tagger.fit(synth_train[:25])
    return tagger


def test_trees_learn_synthetic_phi(trees: TreesTagger, synth_test: list[Document]) -> None:
    report = build_report(*align(synth_test, predict_corpus(trees, synth_test)))
    assert report["strict"]["micro"]["f1"] > 0.4
    assert report["binary_token"]["micro"]["recall"] > 0.7
    assert isinstance(trees, Tagger) and isinstance(trees, PersistentTagger)


def test_marginals_are_distributions(trees: TreesTagger, synth_test: list[Document]) -> None:
    marginals = trees.predict_marginals(synth_test[0])
    assert marginals and all(sum(m.values()) == pytest.approx(1.0) for _, m in marginals)
    assert trees.with_threshold(0.0).predict(synth_test[0]) == []


def test_archive_round_trip_identical_and_without_pickle(
    trees: TreesTagger, synth_test: list[Document], tmp_path: Path
) -> None:
    path = tmp_path / "trees.phiscrub"
    save_model(trees, path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        assert not [n for n in names if n.endswith((".pkl", ".pickle", ".joblib"))]
        arrays = [n for n in names if n.endswith(".npy")]
        assert arrays
        for name in arrays:
            from_npy(zf.read(name))  # allow_pickle=False
    restored = load_model(path)
    assert isinstance(restored, TreesTagger)
    for doc in synth_test[:5]:
        a = [m for _, m in trees.predict_marginals(doc)]
        b = [m for _, m in restored.predict_marginals(doc)]
        assert a == b
        assert restored.predict(doc) == trees.predict(doc)


def test_evaluator_matches_scikit_learn() -> None:
    from sklearn.ensemble import HistGradientBoostingClassifier  # type: ignore[import-untyped]

    from phiscrub.taggers.forest import Forest

    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 6)).astype(np.float32)
    y = np.where(X[:, 0] + X[:, 1] > 0.5, "a", np.where(X[:, 2] > 0, "b", "c"))
    model = HistGradientBoostingClassifier(max_iter=15, random_state=0).fit(X, y)
    assert np.allclose(Forest.from_hgb(model).proba(X), model.predict_proba(X), atol=1e-12)
    binary = HistGradientBoostingClassifier(max_iter=5).fit(X, y == "a")
    assert np.allclose(Forest.from_hgb(binary).proba(X), binary.predict_proba(X), atol=1e-12)


def test_two_of_three_voting() -> None:
    votes = [
        ["O", "I-DATE", "I-DOCTOR", "I-CITY", "O"],
        ["O", "I-DATE", "I-PATIENT", "I-STATE", "I-AGE"],
        ["I-AGE", "O", "I-DOCTOR", "I-ZIP", "I-AGE"],
    ]
    assert vote(votes) == ["O", "I-DATE", "I-DOCTOR", "O", "I-AGE"]


def test_heading_entropy_by_hand() -> None:
    assert entropy([5]) == 0.0
    assert entropy([1, 1]) == pytest.approx(1.0)
    p = 19 / 20
    assert entropy([19, 1]) == pytest.approx(-(p * math.log2(p) + (1 - p) * math.log2(1 - p)))
    table = {
        "attr:attending": Counter({"DOCTOR": 40}),
        "attr:contact": Counter({"PHONE": 30, "EMAIL": 1}),  # entropy ~0.2: ambiguous
        "attr:pcp": Counter({"DOCTOR": 2}),  # too few phrases
    }
    assert unambiguous_headings(table) == {"attr:attending": "DOCTOR"}
    text = "Attending: Ann Lee\nContact: 555-1234\n"
    spans = [Span.of(text, 11, 18, "DOCTOR"), Span.of(text, 28, 36, "PHONE")]
    assert heading_table([(text, spans)]) == {
        "attr:attending": Counter({"DOCTOR": 1}),
        "attr:contact": Counter({"PHONE": 1}),
    }


def test_trusted_phrases_mark_other_mentions() -> None:
    text = "Attending: Ann Lee\nSeen by ann lee today. Mercy General Hospital, MGH."
    tokens = tokenize(text)
    spans = [Span.of(text, 11, 18, "DOCTOR")]
    trusted = trusted_phrases(text, tokens, spans, {"attr:attending": "DOCTOR"})
    assert trusted == {("ann", "lee"): "DOCTOR", ("al",): "DOCTOR"}
    cols = trusted_columns([t.text.lower() for t in tokens], trusted)
    marked = [t.text for t, row in zip(tokens, cols, strict=True) if row.any()]
    assert marked == ["Ann", "Lee", "ann", "lee"]


def test_standardization_on_a_hand_made_note() -> None:
    text = "Mercy Hospital called. Mercy Hospital again. mercy hospital! Boston and Boston."
    s = [
        Span.of(text, 0, 14, "HOSPITAL", "trees", 0.9),
        Span.of(text, 23, 37, "ORGANIZATION", "trees", 0.6),
        Span.of(text, 61, 67, "CITY", "trees", 0.8),
        Span.of(text, 72, 78, "STATE", "trees", 0.7),
    ]
    out = standardize(text, tokenize(text), s)
    # a tie between HOSPITAL and ORGANIZATION goes to the higher summed score; the third,
    # untagged occurrence (two tokens) is tagged; a one-token phrase is only relabelled
    assert [(x.text, x.label) for x in out] == [
        ("Mercy Hospital", "HOSPITAL"),
        ("Mercy Hospital", "HOSPITAL"),
        ("mercy hospital", "HOSPITAL"),
        ("Boston", "CITY"),
        ("Boston", "CITY"),
    ]


def test_trigger_variants_by_hand() -> None:
    lowers = ["seen", "by", "john", "smith", ",", "m.d", "."]
    labels = ["O", "O", "DOCTOR", "DOCTOR", "O", "O", "O"]
    phrases = phrases_of(["O", "O", "B-DOCTOR", "I-DOCTOR", "O", "O", "O"])
    assert phrases == [(2, 4, "DOCTOR")]
    samples = [(lowers, labels, phrases)] * 3
    phrase = TriggerLists("phrase", reach=4)
    phrase.learn(samples, min_count=3, min_precision=0.5)
    assert phrase.triggers[("m.d", "+2")] == {"NAME"}
    cols = phrase.columns()
    enc = phrase.encode(lowers)
    assert enc[3, cols.index("phrase:NAME@+2")] == 1 and enc[2, cols.index("phrase:NAME@+2")] == 0
    tri = TriggerLists("trigram")
    tri.learn(samples, min_count=3, min_precision=0.5)
    assert tri.triggers[(", m.d", "a2")] == {"NAME"}
    assert tri.encode(lowers)[3, tri.columns().index("trigram:NAME@a2")] == 1
    token = TriggerLists("token")
    token.learn(samples, min_count=3, min_precision=0.5)
    assert token.triggers[("m.d", "+2")] == {"NAME"} and token.triggers[("m.d", "+3")] == {"NAME"}


def test_voting_tagger_runs(synth_train: list[Document], synth_test: list[Document]) -> None:
    settings = TreesSettings(VARIANTS, iterations=0, max_iter=3, max_leaf_nodes=7)
    tagger = TreesVoting(settings=settings)
    tagger.fit(synth_train[:10])
    assert tagger.kind == "trees-voting" and len(tagger._members) == 3
    spans = tagger.predict(synth_test[0])
    assert all(s.source == "trees" for s in spans)


def test_bad_settings_and_untrained_raise() -> None:
    with pytest.raises(UsageError):
        TreesSettings(variants=("token", "phrase"))
    with pytest.raises(UsageError):
        TreesSettings(variants=("words",))
    with pytest.raises(UsageError):
        TreesTagger().predict(Document("d", "text"))
