"""Bad input: every bad file, record or note gives one clear error (never its text),
every other note is processed, and the exit code is 3."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from phiscrub.api import Deidentifier, Result
from phiscrub.io import read_corpus
from phiscrub.span import Document

from .common import NOTES, PHI, deid, documents, write_input

RULES = ("--pipeline", "rules")
SECRET = "Ottoline Vexbridge"  # a name in the bad notes: it must never be shown


def _errors(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _no_text(*texts: str) -> None:
    for text in texts:
        assert SECRET not in text and "Vexbridge" not in text
        assert not any(value in text for value in PHI)


def test_bad_files_in_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_input(tmp_path, "text")
    (source / "400-01.txt").write_bytes(b"")
    (source / "401-01.txt").write_bytes(bytes(range(256)) * 8)  # binary
    (source / "402-01.txt").write_bytes(f"Patient: {SECRET} \xe9t\xe9\n".encode("latin-1"))
    big = (f"Patient: {SECRET}, seen on 03/14/2069.\n" * 1_300_000).encode("ascii")
    assert len(big) > 50_000_000
    (source / "403-01.txt").write_bytes(big)
    locked = source / "404-01.txt"
    locked.write_text(f"Patient: {SECRET}.\n")
    real_read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:  # chmod 000 does not stop root: simulate it
        if self.name == locked.name:
            raise PermissionError(13, "Permission denied")
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    out = tmp_path / "out"
    code, err = deid(capsys, source, "-o", out, "--mode", "tag", *RULES)
    assert code == 3, err
    assert sorted(p.name for p in out.iterdir()) == [f"{n[0]}.txt" for n in NOTES]
    errors = _errors(tmp_path / "out.errors.jsonl")
    by_file = {Path(e["file"]).name: (e["code"], e["stage"]) for e in errors}
    assert by_file == {
        "400-01.txt": ("E203", "read"),  # empty
        "401-01.txt": ("E202", "read"),  # binary: not UTF-8
        "402-01.txt": ("E202", "read"),  # invalid UTF-8
        "403-01.txt": ("E701", "size"),  # 50 MB: over --max-note-chars
        "404-01.txt": ("E201", "read"),  # unreadable
    }
    big_error = next(e for e in errors if e["code"] == "E701")
    assert big_error["id"] == "403-01" and "--max-note-chars" in big_error["hint"]
    assert "FAILURES" in err and "out.errors.jsonl" in err and "exit code 3" in err
    _no_text(err, (tmp_path / "out.errors.jsonl").read_text())


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads chmod 000 files")
def test_unreadable_file_for_real(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_input(tmp_path, "text")
    locked = source / "404-01.txt"
    locked.write_text("Patient: Ottoline Vexbridge.\n")
    locked.chmod(0)
    try:
        code, err = deid(capsys, source, "-o", tmp_path / "out", "--mode", "tag", *RULES)
    finally:
        locked.chmod(0o600)
    assert code == 3 and "Permission denied" not in err  # the report has the details
    assert [e["code"] for e in _errors(tmp_path / "out.errors.jsonl")] == ["E201"]


def test_malformed_csv_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        '"id","patient_id","text"',
        '"1-1","1","Patient: Harlan Winterbourne, MRN 4402-118-7."',
        f'"1-2","1","Patient: {SECRET}","an extra field"',
        f'"","1","Patient: {SECRET}"',  # no id
        '"1-4","1","Seen by Dr. Zorba Quill."',
    ]
    source = tmp_path / "in.csv"
    source.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    code, err = deid(capsys, source, "-o", out, "--mode", "tag", *RULES)
    assert code == 3, err
    assert [d.id for d in read_corpus(out).documents] == ["1-1", "1-4"]
    errors = _errors(tmp_path / "out.csv.errors.jsonl")
    assert [(e["code"], e["where"]) for e in errors] == [
        ("E201", "malformed row 1"),
        ("E201", "row 2"),
    ]
    _no_text(err, str(errors))


def test_bad_jsonl_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.dumps({"id": "1-1", "text": "Seen by Dr. Zorba Quill."}).encode()
    lines = [
        good,
        b'{"id": "1-2", "text": "Patient: ' + SECRET.encode() + b'"',  # cut short
        b'{"id": "1-3", "text": "Jos\xe9 ' + SECRET.encode() + b'"}',  # not UTF-8
        b'{"id": "1-4"}',  # no text
        good,  # the same id again
        json.dumps({"id": "1-5", "text": "Call 617-555-0199."}).encode(),
    ]
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    code, err = deid(capsys, source, "-o", out, "--mode", "tag", *RULES)
    assert code == 3, err
    assert [d.id for d in read_corpus(out).documents] == ["1-1", "1-5"]
    errors = _errors(tmp_path / "out.jsonl.errors.jsonl")
    assert [(e["code"], e["where"]) for e in errors] == [
        ("E201", "line 2"),
        ("E202", "line 3"),
        ("E201", "line 4"),
        ("E201", "id '1-1'"),
    ]
    _no_text(err, str(errors))


def test_note_the_output_format_cannot_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = [*documents(), Document("302-01", f"Form\x0cfeed. Patient: {SECRET}.", "302")]
    source = write_input(tmp_path, "jsonl", docs)
    out = tmp_path / "out"
    code, err = deid(capsys, source, "-o", out, "--out-format", "i2b2-2014", "--mode", "tag",
                     *RULES)  # fmt: skip
    assert code == 3, err
    assert len(list(out.iterdir())) == 3
    (error,) = _errors(tmp_path / "out.errors.jsonl")
    assert (error["id"], error["code"], error["stage"]) == ("302-01", "E201", "write")
    _no_text(err, str(error))


def test_a_note_whose_processing_fails_is_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Deidentifier.replace

    def flaky(self: Deidentifier, doc: Document, spans: object) -> Result:
        if doc.id == "300-02":
            raise RuntimeError(f"replacer failed on {doc.text!r}")
        return real(self, doc, spans)  # type: ignore[arg-type]

    monkeypatch.setattr(Deidentifier, "replace", flaky)
    source = write_input(tmp_path, "jsonl")
    out = tmp_path / "out.jsonl"
    code, err = deid(capsys, source, "-o", out, "--mode", "redact", *RULES)
    assert code == 3
    assert [d.id for d in read_corpus(out).documents] == ["300-01", "301-01"]
    (error,) = _errors(tmp_path / "out.jsonl.errors.jsonl")
    assert error["id"] == "300-02" and error["code"] == "E702" and error["stage"] == "replacement"
    assert "RuntimeError" in error["message"]
    _no_text(err, str(error), out.read_text())


def test_missing_and_empty_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = deid(capsys, tmp_path / "nowhere", "-o", tmp_path / "out", "--mode", "tag")
    assert code == 2 and "[E301]" in err and "does not exist" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    code, err = deid(capsys, empty, "-o", tmp_path / "out.jsonl", "--mode", "tag", *RULES)
    assert code == 2 and "[E203]" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.jsonl"]


def test_a_folder_of_only_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "1-1.txt").write_bytes(b"")
    (source / "1-2.txt").write_bytes(b"\xff\xfe")
    code, err = deid(capsys, source, "-o", tmp_path / "out", "--mode", "tag", *RULES)
    assert code == 2 and "[E203]" in err and "no document" in err
    assert len(_errors(tmp_path / "out.errors.jsonl")) == 2
    assert "2 files or records could not be read: see" in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.phiscrub-work").exists()


def test_max_note_chars_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_input(tmp_path, "jsonl")
    out = tmp_path / "out.jsonl"
    code, _ = deid(capsys, source, "-o", out, "--mode", "tag", *RULES, "--max-note-chars", "130")
    assert code == 3
    assert [d.id for d in read_corpus(out).documents] == ["300-01"]
    code, _ = deid(capsys, source, "-o", out, "--mode", "tag", *RULES, "--max-note-chars", "0",
                   "--overwrite")  # fmt: skip
    assert code == 0 and len(read_corpus(out).documents) == 3
    assert not (tmp_path / "out.jsonl.errors.jsonl").exists()  # the stale report is gone
