"""``run_deid_spark`` writes the Parquet file the local engine writes for the same notes."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pandas")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java on PATH", allow_module_level=True)

import pyarrow as pa
import pyarrow.parquet as pq

from phiscrub.api import Settings
from phiscrub.errors import EmptyInput, FormatError, UsageError
from phiscrub.io import read_corpus, write_corpus
from phiscrub.span import Document
from phiscrub.spark import run_deid_spark
from phiscrub.spark._files import HadoopFs
from phiscrub.spark.job import SparkJobFailed
from phiscrub.surrogate import SurrogateKeyError

from .common import KEY, local_deidentifier


def local_engine(source: Path, target: Path, settings: Settings) -> None:
    """What the local engine writes: the notes as read, de-identified, with output spans."""
    docs = read_corpus(source).documents
    results = local_deidentifier(settings).deidentify_documents(docs)
    out = [Document(r.id, r.text, r.patient_id, layers={"gold": r.output_spans}) for r in results]
    write_corpus(out, target, format="parquet")


def read_back(path: Path) -> list[tuple[Any, ...]]:
    """Each document as phiscrub.io reads it: id, patient, text, spans (with their text)."""
    docs = read_corpus(path, format="parquet").documents
    return [(d.id, d.patient_id, d.text, [s.to_dict() for s in d.gold]) for d in docs]


def same_documents(a: Path, b: Path) -> list[str]:
    """The ids of the documents that differ, or ["<order>"] when ids or order differ."""
    x, y = read_back(a), read_back(b)
    if [d[0] for d in x] != [d[0] for d in y]:
        return ["<order>"]
    return [d[0] for d, e in zip(x, y, strict=True) if d != e]


def test_same_file_as_the_local_engine(spark: Any, notes: list[Document], tmp_path: Path):
    source, out, local = tmp_path / "notes.parquet", tmp_path / "out.parquet", tmp_path / "l.pq"
    write_corpus(notes, source, format="parquet")  # with the gold spans column, ignored
    settings = Settings()
    summary = run_deid_spark(str(source), str(out), settings, KEY, master="local[2]")
    local_engine(source, local, settings)
    assert same_documents(local, out) == []
    assert pq.read_table(out).equals(pq.read_table(local))  # same columns, types and cells
    found = local_deidentifier(settings).deidentify_documents(notes)
    phi = Counter(s.label for r in found for s in r.spans)
    assert summary["phi"] == dict(sorted(phi.items()))
    assert summary["phi_total"] == phi.total()
    assert summary | {"seconds": 0} == summary | {
        "notes": len(notes), "written": len(notes), "failures": 0, "errors": {},
        "failed_ids": [], "patients_from": "patient_id", "warnings": [], "engine": "spark",
        "master": "local[2]", "pipeline": "default", "mode": "surrogate", "seconds": 0,
    }  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l.pq", "notes.parquet", "out.parquet"]
    assert out.stat().st_mode & 0o777 == local.stat().st_mode & 0o777 == 0o600


def test_no_patient_column_integer_ids_and_file_uris(spark: Any, notes: list[Document], tmp_path):
    """Integer ids are read as text and each note is its own patient, as phiscrub.io reads
    such a file; file: URIs are local paths; an existing output is replaced."""
    source, out, local = tmp_path / "ints.parquet", tmp_path / "out.parquet", tmp_path / "l.pq"
    table = pa.table({"id": list(range(1, len(notes) + 1)), "text": [d.text for d in notes]})
    pq.write_table(table, source, row_group_size=5)
    out.write_bytes(b"old")
    settings = Settings(pipeline="rules", mode="tag")
    summary = run_deid_spark(source.as_uri(), out.as_uri(), settings, None)
    local_engine(source, local, settings)
    assert same_documents(local, out) == []
    assert summary["patients_from"] == "id"
    assert summary["warnings"] == ["no column patient_id: each note is its own patient"]
    assert read_back(out)[0][:2] == ("1", "1")


def test_failed_notes_are_left_out_and_counted(spark: Any, notes: list[Document], tmp_path):
    source, out = tmp_path / "notes.parquet", tmp_path / "out.parquet"
    ids = [d.id for d in notes[:3]] + ["no-text"]
    texts = [d.text for d in notes[:3]] + [None]
    pq.write_table(
        pa.table(
            {"id": ids, "text": texts}, pa.schema([("id", pa.string()), ("text", pa.string())])
        ),
        source,
    )
    summary = run_deid_spark(str(source), str(out), Settings(pipeline="rules"), KEY)
    assert (summary["notes"], summary["written"], summary["failures"]) == (4, 3, 1)
    assert summary["errors"] == {"E201": 1} and summary["failed_ids"] == ["no-text"]
    assert [d[0] for d in read_back(out)] == ids[:3]


def test_input_errors(spark: Any, notes: list[Document], tmp_path: Path):
    settings = Settings(pipeline="rules")
    with pytest.raises(UsageError, match="no such file"):
        run_deid_spark(str(tmp_path / "none.parquet"), str(tmp_path / "o.parquet"), settings, KEY)
    wrong = tmp_path / "wrong.parquet"
    pq.write_table(pa.table({"id": ["a"], "note": ["x"]}), wrong)
    with pytest.raises(FormatError, match=r"missing column\(s\) text; the columns are id, note"):
        run_deid_spark(str(wrong), str(tmp_path / "o.parquet"), settings, KEY)
    pq.write_table(pa.table({"id": ["a"], "text": [1.5]}), wrong)
    with pytest.raises(FormatError, match="column text holds double, not text"):
        run_deid_spark(str(wrong), str(tmp_path / "o.parquet"), settings, KEY)
    twice = tmp_path / "twice.parquet"
    pq.write_table(pa.table({"id": ["a", "b", "a"], "text": ["x", "y", "z"]}), twice)
    with pytest.raises(FormatError, match="document id 'a' occurs twice"):
        run_deid_spark(str(twice), str(tmp_path / "o.parquet"), settings, KEY)
    empty = tmp_path / "empty.parquet"
    pq.write_table(
        pa.table({"id": pa.array([], pa.string()), "text": pa.array([], pa.string())}), empty
    )
    with pytest.raises(EmptyInput):
        run_deid_spark(str(empty), str(tmp_path / "o.parquet"), settings, KEY)
    with pytest.raises(UsageError, match="is a folder"):
        run_deid_spark(str(twice), str(tmp_path), settings, KEY)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "empty.parquet",
        "twice.parquet",
        "wrong.parquet",
    ]


def test_a_missing_key_fails_before_spark_starts(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)
    with pytest.raises(SurrogateKeyError):
        run_deid_spark(str(tmp_path / "in.parquet"), str(tmp_path / "o.parquet"), Settings(), None)


def test_hadoop_file_operations(spark: Any, tmp_path: Path):
    """The operations used for hdfs://, s3a://... paths, tried on file: URIs."""
    fs = HadoopFs(spark)
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "part-0.parquet").write_bytes(b"new")
    (tmp_path / "out.parquet").write_bytes(b"old")
    assert fs.is_dir(folder.as_uri()) and not fs.is_dir((tmp_path / "out.parquet").as_uri())
    assert fs.names(folder.as_uri()) == ["part-0.parquet"]
    fs.move((folder / "part-0.parquet").as_uri(), (tmp_path / "out.parquet").as_uri())
    assert (tmp_path / "out.parquet").read_bytes() == b"new"
    fs.delete(folder.as_uri())
    assert not folder.exists() and not fs.exists(folder.as_uri())


def test_a_failing_spark_job_is_a_phiscrub_error(spark: Any, notes: list[Document], tmp_path):
    """A model that does not load on the executors fails the job (not every row)."""
    source = tmp_path / "notes.parquet"
    write_corpus(notes[:2], source, format="parquet")
    settings = Settings(model=str(tmp_path / "missing.phiscrub"))
    with pytest.raises(SparkJobFailed, match=r"\[E710\] the Spark job failed"):
        run_deid_spark(str(source), str(tmp_path / "out.parquet"), settings, KEY)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.parquet"]
