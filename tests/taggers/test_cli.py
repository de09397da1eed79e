"""``phiscrub train``, ``tag`` and ``cv`` end to end on a tiny synthetic corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.cli import main
from phiscrub.io import read_corpus, write_corpus
from phiscrub.model import load_model, read_info
from phiscrub.synth import SynthOptions, documents


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("corpora")
    a, b = root / "a", root / "b"
    write_corpus(documents(SynthOptions(n=16, seed="cli-a")), a, format="i2b2-2014")
    write_corpus(documents(SynthOptions(n=8, seed="cli-b")), b, format="i2b2-2014")
    return a, b


def test_train_then_tag_then_eval(
    corpora: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = corpora
    model = tmp_path / "m.phiscrub"
    assert main(["train", str(a), "-o", str(model), "--max-iter", "15", "--eval", str(b)]) == 0
    meta = read_info(model)
    assert meta["training"]["corpora"][0]["documents"] == 16
    assert "strict" in meta["evaluation"]["b"]
    out = tmp_path / "pred"
    assert main(["tag", str(model), str(b), "-o", str(out)]) == 0
    pred = read_corpus(out).documents
    assert len(pred) == 8 and sum(len(d.gold) for d in pred) > 0
    capsys.readouterr()
    assert main(["eval", str(b), str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["documents"]["scored"] == 8


def test_train_with_easyadapt(corpora: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = corpora
    model = tmp_path / "ea.phiscrub"
    args = ["train", "--source", str(a), "--target", str(b), "-o", str(model), "--max-iter", "5"]
    assert main(args) == 0
    meta = read_info(model)
    assert meta["features"]["easyadapt"] is True
    assert {c["role"] for c in meta["training"]["corpora"]} == {"source", "target"}


def test_train_keeps_only_the_split_patients(corpora: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = corpora
    patients = sorted({d.patient_id for d in read_corpus(a).documents})
    split = tmp_path / "split.json"
    split.write_text(json.dumps({"train": patients[:-1], "test": patients[-1:]}))
    model = tmp_path / "s.phiscrub"
    args = ["train", str(a), "-o", str(model), "--max-iter", "3", "--split", str(split)]
    assert main(args) == 0
    kept = read_info(model)["training"]["corpora"][0]
    assert kept["patients"] == len(patients) - 1


def test_cv_prints_mean_and_sd(
    corpora: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = corpora
    assert main(["cv", str(a), "-k", "2", "--max-iter", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["folds"]) == 2
    assert set(result["summary"]["strict"]["f1"]) == {"mean", "sd"}


def test_tag_with_a_bad_model_is_a_coded_error(
    corpora: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.phiscrub"
    bad.write_bytes(b"not a zip")
    assert main(["tag", str(bad), str(corpora[1]), "-o", str(tmp_path / "o")]) == 2
    assert "[E601]" in capsys.readouterr().err


def test_train_builds_the_tagger_kind_asked_for(corpora: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = corpora
    model = tmp_path / "svm.phiscrub"
    assert main(["train", str(a), "--tagger", "svm", "-o", str(model)]) == 0
    assert read_info(model)["tagger"] == "svm"
    out = tmp_path / "pred"
    assert main(["tag", str(model), str(b), "-o", str(out), "--threshold", "0.8"]) == 0
    assert len(read_corpus(out).documents) == 8


def test_train_with_io_tags(corpora: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = corpora
    model = tmp_path / "io.phiscrub"
    assert main(["train", str(a), "-o", str(model), "--max-iter", "10", "--scheme", "io"]) == 0
    tagger = load_model(model)
    assert all(t == "O" or t.startswith("I-") for t in tagger.labels)
    out = tmp_path / "pred"
    assert main(["tag", str(model), str(b), "-o", str(out), "--threshold", "0.8"]) == 0
    assert len(read_corpus(out).documents) == 8


def test_a_corpus_in_a_format_folder_is_named_by_its_parent(
    corpora: tuple[Path, Path], tmp_path: Path
) -> None:
    """A card listing `xml` seven times says nothing; `tune/xml` says which corpus."""
    a, _ = corpora
    folder = tmp_path / "mine" / "xml"
    write_corpus(read_corpus(a).documents, folder, format="i2b2-2014")
    model = tmp_path / "m.phiscrub"
    assert main(["train", str(folder), "-o", str(model), "--max-iter", "5"]) == 0
    assert read_info(model)["training"]["corpora"][0]["name"] == "mine/xml"
