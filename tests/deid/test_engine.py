"""Runs of ``phiscrub deid``: resuming, refusing, overwriting, workers, patients."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.deid.work import WorkDir
from phiscrub.io import read_corpus, write_corpus
from phiscrub.span import Document
from phiscrub.synth import SynthOptions, documents

from .common import HEX_KEY, deid, write_input

RULES = ("--pipeline", "rules")


def _tree(path: Path) -> dict[str, bytes]:
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def _synth(tmp_path: Path, n: int, fmt: str = "i2b2-2014") -> Path:
    path = tmp_path / ("notes" if fmt == "i2b2-2014" else "notes.jsonl")
    write_corpus(documents(SynthOptions(n=n, seed="engine")), path, format=fmt)
    return path


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, chunks: int) -> None:
    real = WorkDir.write_chunk
    calls = []

    def write_then_stop(self: WorkDir, *args: object) -> None:
        if len(calls) == chunks:
            raise KeyboardInterrupt
        calls.append(1)
        real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(WorkDir, "write_chunk", write_then_stop)


def test_resume_after_interruption_gives_the_same_bytes(
    tmp_path: Path,
    key_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = _synth(tmp_path, 40)
    args = ("--key-file", key_file, "--chunk-notes", "7", *RULES)
    code, _ = deid(capsys, source, "-o", tmp_path / "whole", *args)
    assert code == 0
    with monkeypatch.context() as m:
        _interrupt_after(m, 3)
        code, err = deid(capsys, source, "-o", tmp_path / "out", *args)
    assert code == 130 and "run the same command again to resume" in err
    assert not (tmp_path / "out").exists()  # no partial output
    assert len(list((tmp_path / "out.phiscrub-work").glob("chunk-*.jsonl"))) == 3
    code, err = deid(capsys, source, "-o", tmp_path / "out", *args)
    assert code == 0, err
    assert "resumed an interrupted run: 3 chunk(s)" in err
    assert "40 notes read, 40 written" in err
    assert _tree(tmp_path / "out") == _tree(tmp_path / "whole")
    assert not (tmp_path / "out.phiscrub-work").exists()


def test_resume_with_other_settings_is_refused(
    tmp_path: Path,
    key_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = _synth(tmp_path, 20, "jsonl")
    out = tmp_path / "out.jsonl"
    args = ("-o", out, "--chunk-notes", "5", *RULES)
    with monkeypatch.context() as m:
        _interrupt_after(m, 2)
        assert deid(capsys, source, *args, "--key-file", key_file)[0] == 130
    code, err = deid(capsys, source, *args, "--mode", "tag")
    assert code == 2
    assert "[E703]" in err and "settings or key differ" in err and "--fresh" in err
    code, err = deid(capsys, source, *args, "--mode", "tag", "--fresh")
    assert code == 0, err
    assert "[**" in out.read_text(encoding="utf-8")


def test_random_key_run_cannot_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _synth(tmp_path, 12, "jsonl")
    args = (source, "-o", tmp_path / "out.jsonl", "--chunk-notes", "4", "--random-key", *RULES)
    with monkeypatch.context() as m:
        _interrupt_after(m, 1)
        assert deid(capsys, *args)[0] == 130
    code, err = deid(capsys, *args)
    assert code == 2 and "--random-key, which is gone" in err


def test_existing_output_needs_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, "text")
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("an old file")
    code, err = deid(capsys, source, "-o", out, "--mode", "redact", *RULES)
    assert code == 2 and "[E704]" in err and "--overwrite" in err
    assert not (tmp_path / "out.phiscrub-work").exists()
    code, err = deid(capsys, source, "-o", tmp_path / "new", "--mode", "tag", "--encoding", "x")
    assert code == 2 and "[E301]" in err and not (tmp_path / "new.phiscrub-work").exists()
    code, err = deid(capsys, source, "-o", out, "--mode", "redact", *RULES, "--overwrite")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["300-01.txt", "300-02.txt", "301-01.txt"]
    single = tmp_path / "out.csv"
    single.write_text("x")
    code, err = deid(capsys, source, "-o", single, "--out-format", "csv", "--mode", "tag", *RULES)
    assert code == 2 and "[E704]" in err


def test_output_inside_the_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_input(tmp_path, "text")
    code, err = deid(capsys, source, "-o", source / "out", "--mode", "tag", *RULES)
    assert code == 2 and "outside the input" in err


def test_two_jobs_write_the_same_bytes_as_one(
    tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _synth(tmp_path, 30, "jsonl")
    base = ("--key-file", key_file, "--chunk-notes", "8", "--batch-size", "4")
    code, err = deid(capsys, source, "-o", tmp_path / "one.jsonl", *base)
    assert code == 0, err
    code, err = deid(capsys, source, "-o", tmp_path / "two.jsonl", *base, "--jobs", "2")
    assert code == 0, err
    assert "2 job(s)" in err
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_patient_from_regex_and_patient_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = [
        Document("visit-A17-1", "Seen by Dr. Zorba Quill on 03/14/2069.", None),
        Document("visit-A17-2", "Dr. Zorba Quill called on 03/20/2069.", None),
        Document("visit-B02-1", "Seen by Dr. Zorba Quill on 03/14/2069.", None),
    ]
    source = tmp_path / "in.jsonl"
    write_corpus(docs, source, format="jsonl")
    out = tmp_path / "out.jsonl"
    args = ("-o", out, "--key-file", str(tmp_path / "k"), *RULES)
    (tmp_path / "k").write_text(HEX_KEY)
    code, err = deid(capsys, source, *args)
    assert code == 0 and "patient ids: none (the patient_id field): each note is its own" in err
    code, err = deid(capsys, source, *args, "--patient-from", r"^visit-(\w+)-", "--overwrite")
    assert code == 0 and "patient ids: from --patient-from" in err and ": 3 notes" in err
    back = read_corpus(out).documents
    assert [d.patient_id for d in back] == ["A17", "A17", "B02"]
    doctor = [next(s.text for s in d.gold if s.label == "DOCTOR") for d in back]
    assert doctor[0] == doctor[1]  # one patient: one surrogate
    table = tmp_path / "in.csv"
    table.write_text('"id","who","text"\n"n1","p9","Seen by Dr. Zorba Quill."\n')
    code, err = deid(capsys, table, "-o", tmp_path / "o.csv", "--patient-column", "who",
                     "--mode", "tag", *RULES)  # fmt: skip
    assert code == 0 and "patient ids: from the who column: 1 notes" in err
    assert read_corpus(tmp_path / "o.csv").documents[0].patient_id == "p9"


def test_patient_ids_a_format_cannot_hold_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus([Document("n1", "Seen by Dr. Zorba Quill.", "p1")], source, format="jsonl")
    out = tmp_path / "out"
    code, err = deid(capsys, source, "-o", out, "--out-format", "text", "--mode", "tag", *RULES)
    assert code == 0, err
    assert "1 notes' patient ids cannot be stored in text" in err


def test_keep_and_modes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_input(tmp_path, "jsonl")
    out = tmp_path / "out.jsonl"
    code, err = deid(capsys, source, "-o", out, "--mode", "placeholder", "--keep", "DATE", *RULES)
    assert code == 0, err
    text = read_corpus(out).documents[0].text
    assert "2069-04-07" in text and "___" in text and "Winterbourne" not in text
    code, err = deid(capsys, source, "-o", out, "--mode", "tag", "--keep", "NOPE", *RULES)
    assert code == 2 and "[E301]" in err


def test_surrogate_mode_needs_a_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_input(tmp_path, "jsonl")
    code, err = deid(capsys, source, "-o", tmp_path / "out.jsonl", *RULES)
    assert code == 2 and "[E401]" in err and "--random-key" in err
    assert not (tmp_path / "out.jsonl").exists()
    assert not (tmp_path / "out.jsonl.phiscrub-work").exists()


def test_summary_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_input(tmp_path, "jsonl")
    summary = tmp_path / "s.json"
    code, _ = deid(capsys, source, "-o", tmp_path / "o.jsonl", "--mode", "tag", *RULES,
                   "--summary-json", summary)  # fmt: skip
    assert code == 0
    data = json.loads(summary.read_text())
    assert data["notes_read"] == data["notes_written"] == 3
    assert data["patient_source"] == "the patient_id field"
    assert data["notes_with_patient"] == 3 and data["phi_found"]["DOCTOR"] >= 3
