"""``phiscrub deid`` and ``phiscrub detect`` end to end, for every input format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import phiscrub
from phiscrub.api import Deidentifier, Settings
from phiscrub.cli import main
from phiscrub.io import FORMATS, read_corpus
from phiscrub.surrogate.keys import load_key

from .common import NOTES, OUT_TARGET, PHI, all_text, deid, documents, write_input


def _expected(key_file: Path, pipeline: str = "rules") -> dict[str, str]:
    """The API's output for each note: every format must give these very texts."""
    api = Deidentifier(Settings(pipeline=pipeline), key=load_key(key_file))
    return {d.id: api.deidentify(d.text, d.patient_id, id=d.id).text for d in documents()}


@pytest.mark.parametrize("fmt", FORMATS)
def test_deid_every_input_format(
    fmt: str, tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, fmt)
    out = tmp_path / OUT_TARGET[fmt]
    code, err = deid(capsys, source, "-o", out, "--key-file", key_file, "--pipeline", "rules")
    assert code == 0, err
    assert f"wrote 3 notes to {out} ({fmt})" in err
    assert "patient ids: from" in err
    back = read_corpus(out).documents
    assert [d.id for d in back] == [n[0] for n in NOTES]
    assert [d.patient_id for d in back] == [n[1] for n in NOTES]
    assert {d.id: d.text for d in back} == _expected(key_file)
    for doc in back:  # the spans mark the replacements in the new text (text holds none)
        assert bool(doc.gold) == (fmt != "text")
        assert not any(value in doc.text for value in PHI)
    if fmt != "parquet":  # compressed: checked through the texts read back above
        assert not any(value in all_text(out) for value in PHI)
    assert not any(value in err for value in PHI)
    assert not (tmp_path / f"{out.name}.phiscrub-work").exists()
    assert not (tmp_path / f"{out.name}.errors.jsonl").exists()


def test_surrogates_consistent_within_a_patient(
    tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, "jsonl")
    out = tmp_path / "out.jsonl"
    code, err = deid(capsys, source, "-o", out, "--key-file", key_file, "--pipeline", "rules")
    assert code == 0, err
    docs = {d.id: d for d in read_corpus(out).documents}

    def names(doc_id: str) -> set[str]:
        return {s.text for s in docs[doc_id].gold if s.label in ("PATIENT", "DOCTOR")}

    shared = names("300-01") & names("300-02")  # the same patient and doctor names
    assert len(shared) == 2


@pytest.mark.parametrize("fmt", ["text", "i2b2-2006", "csv"])
def test_out_format_differs_from_input(
    fmt: str, tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, "jsonl")
    out = tmp_path / OUT_TARGET[fmt]
    args = ("-o", out, "--out-format", fmt, "--key-file", key_file, "--pipeline", "rules")
    code, err = deid(capsys, source, *args)
    assert code == 0, err
    back = read_corpus(out, format=fmt).documents
    assert {d.id: d.text for d in back} == _expected(key_file)


def test_default_model_tag_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_input(tmp_path, "i2b2-2014")
    out = tmp_path / "out"
    summary = tmp_path / "summary.json"
    code, err = deid(capsys, source, "-o", out, "--mode", "tag", "--summary-json", summary)
    assert code == 0, err
    texts = [d.text for d in read_corpus(out).documents]
    assert all("[**PATIENT**]" in t and "[**DATE**]" in t for t in texts)
    assert not any(value in all_text(out) for value in PHI)
    report = json.loads(summary.read_text())
    assert report["detector"] == "default" and report["mode"] == "tag"
    assert report["notes_written"] == 3 and report["exit_code"] == 0
    assert report["phi_found"]["DATE"] >= 3


@pytest.mark.parametrize("fmt", FORMATS)
def test_detect_every_input_format(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, fmt)
    out_format = "jsonl" if fmt == "text" else fmt  # text files hold no spans
    out = tmp_path / OUT_TARGET[out_format]
    args = ["detect", str(source), "-o", str(out), "--out-format", out_format]
    assert main([*args, "--pipeline", "rules"]) == 0
    back = read_corpus(out).documents
    assert [d.text for d in back] == [n[2] for n in NOTES]  # the notes, with spans found
    assert all(d.gold for d in back)
    assert not any(value in capsys.readouterr().err for value in PHI)


def test_detect_default_model_and_model_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, "jsonl")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["detect", str(source), "-o", str(first)]) == 0
    model = Path(phiscrub.__file__).parent / "data" / "models" / "default.phiscrub"
    assert main(["detect", str(source), "-o", str(second), "--model", str(model)]) == 0
    a, b = read_corpus(first).documents, read_corpus(second).documents
    assert [d.gold for d in a] == [d.gold for d in b]
    assert {s.label for d in a for s in d.gold} >= {"PATIENT", "DATE", "DOCTOR"}
    capsys.readouterr()


def test_detect_refuses_disable_with_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, "jsonl")
    code = main(["detect", str(source), "-o", str(tmp_path / "x.jsonl"), "--disable", "resolve"])
    assert code == 2
    assert "--disable applies to the rule pipelines" in capsys.readouterr().err
