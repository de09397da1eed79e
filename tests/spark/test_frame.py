"""``phiscrub.spark.deidentify`` on a local[2] session gives what the local API gives."""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pandas")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java on PATH", allow_module_level=True)

from phiscrub.api import Settings
from phiscrub.errors import UsageError
from phiscrub.span import Document
from phiscrub.spark import deidentify
from phiscrub.surrogate import SurrogateKeyError

from .common import KEY, differing, found_spans, local_deidentifier, same_spans

SCHEMA = "id string, patient_id string, text string"


def frame(spark: Any, docs: list[Document], *, patients: bool = True) -> Any:
    rows = [(d.id, d.patient_id if patients else None, d.text) for d in docs]
    return spark.createDataFrame(rows, SCHEMA)


def by_id(df: Any) -> dict[str, Any]:
    return {row["id"]: row for row in df.collect()}


@pytest.mark.parametrize("pipeline", ["default", "rules"])
def test_same_text_and_spans_as_the_local_api(spark: Any, notes: list[Document], pipeline: str):
    settings = Settings(pipeline=pipeline)
    out = deidentify(frame(spark, notes), patient_col="patient_id", settings=settings, key=KEY)
    assert out.columns == ["id", "patient_id", "text", "deid_text", "deid_spans", "deid_error"]
    collected = out.collect()
    assert [r["id"] for r in collected] == [d.id for d in notes]  # order kept
    rows = {r["id"]: r for r in collected}
    local = local_deidentifier(settings).deidentify_documents(notes)
    assert (
        differing({r.id: r.text for r in local}, {k: r["deid_text"] for k, r in rows.items()}) == []
    )
    spans = {k: json.loads(r["deid_spans"]) for k, r in rows.items()}
    assert [r.id for r in local if not same_spans(found_spans(r.spans), spans[r.id])] == []
    assert all(r["deid_error"] is None for r in rows.values())
    assert all("text" not in span for found in spans.values() for span in found)


def test_without_patient_column_each_note_is_its_own_patient(spark: Any, notes: list[Document]):
    settings = Settings(pipeline="rules", mode="surrogate")
    rows = by_id(deidentify(frame(spark, notes, patients=False), settings=settings, key=KEY))
    alone = [Document(d.id, d.text) for d in notes]
    local = local_deidentifier(settings).deidentify_documents(alone)
    assert (
        differing({r.id: r.text for r in local}, {k: r["deid_text"] for k, r in rows.items()}) == []
    )


#: two notes of one patient: the name found in the first is missed in the second unless
#: the patient's notes are reconciled together
RECONCILED = [
    Document("r-1", "Patient: Zelphine Quarrington\nDOB: 04/05/1961\nMRN: 4452817", "rp"),
    Document("r-2", "Pain better. Quarrington happy.", "rp"),
]


def test_patient_reconciliation_groups_a_patients_notes(spark: Any, notes: list[Document]):
    """With reconcile="patient" each patient's notes are processed together, even when
    they come in another order and Arrow batches (3 rows here) split them."""
    docs = [*notes, *RECONCILED]
    settings = Settings(reconcile="patient")
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "3")
    try:
        shuffled = frame(spark, docs[::-1])
        rows = by_id(deidentify(shuffled, patient_col="patient_id", settings=settings, key=KEY))
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    local = local_deidentifier(settings).deidentify_documents(docs)
    assert (
        differing({r.id: r.text for r in local}, {k: r["deid_text"] for k, r in rows.items()}) == []
    )
    alone = local_deidentifier(Settings()).deidentify_documents(RECONCILED)
    assert alone[1].text != rows["r-2"]["deid_text"]  # reconciliation made a difference


def test_detect_only_needs_no_key(spark: Any, notes: list[Document], monkeypatch):
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)
    settings = Settings(pipeline="rules")
    out = deidentify(frame(spark, notes), settings=settings, detect_only=True, prefix="phi_")
    assert out.columns == ["id", "patient_id", "text", "phi_spans", "phi_error"]
    rows = by_id(out)
    local = local_deidentifier(settings).detect_documents(notes)
    found = {k: json.loads(r["phi_spans"]) for k, r in rows.items()}
    assert [d.id for d, s in zip(notes, local, strict=True) if found[d.id] != found_spans(s)] == []


def test_a_failing_note_gets_no_text_and_an_error(spark: Any, notes: list[Document]):
    settings = Settings(pipeline="rules")
    rows = [(d.id, d.patient_id, d.text) for d in notes[:4]]
    rows += [("no-text", "p9", None), ("", "p9", "Seen by Dr. Alice Moreno.")]
    df = spark.createDataFrame(rows, SCHEMA)
    found = by_id(deidentify(df, patient_col="patient_id", settings=settings, key=KEY))
    assert found["no-text"]["deid_text"] is None
    assert found["no-text"]["deid_error"].startswith("[E201] the note has no text")
    assert found[""]["deid_text"] is None and found[""]["deid_error"].startswith("[E201]")
    assert "Moreno" not in found[""]["deid_error"]
    local = local_deidentifier(settings).deidentify_documents(notes[:4])
    assert all(
        found[r.id]["deid_text"] == r.text and found[r.id]["deid_error"] is None for r in local
    )


def test_missing_column(spark: Any, notes: list[Document]):
    df = frame(spark, notes[:2]).drop("text")
    with pytest.raises(UsageError, match=r"no column text; the columns are id, patient_id"):
        deidentify(df, settings=Settings(pipeline="rules"), key=KEY)
    with pytest.raises(UsageError, match="no column patient"):
        deidentify(frame(spark, notes[:2]), patient_col="patient", key=KEY)


def test_wrong_column_type(spark: Any):
    df = spark.createDataFrame([("a", 12)], "id string, text int")
    with pytest.raises(UsageError, match="column text holds int, not strings") as err:
        deidentify(df, settings=Settings(pipeline="rules"), key=KEY)
    assert "cast" in err.value.hint
    df = spark.createDataFrame([(1, "a note")], "id bigint, text string")
    with pytest.raises(UsageError, match="column id holds bigint"):
        deidentify(df, settings=Settings(pipeline="rules"), key=KEY)


def test_output_columns_must_not_replace_input_columns(spark: Any, notes: list[Document]):
    df = frame(spark, notes[:2]).withColumnRenamed("patient_id", "deid_text")
    with pytest.raises(UsageError, match="deid_text would replace") as err:
        deidentify(df, settings=Settings(pipeline="rules"), key=KEY)
    assert "prefix" in err.value.hint


def test_surrogates_need_a_key_on_the_driver(spark: Any, notes: list[Document], monkeypatch):
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)
    with pytest.raises(SurrogateKeyError):
        deidentify(frame(spark, notes[:2]), settings=Settings(pipeline="rules"))
    with pytest.raises(UsageError, match=r"pyspark\.sql\.DataFrame"):
        deidentify([("a", "b")], key=KEY)  # type: ignore[arg-type]


def test_each_python_worker_builds_its_deidentifier_once(spark: Any):
    """Spark reuses its Python workers, and each keeps the de-identifier it built."""
    from phiscrub.spark._partition import Job, deidentifier

    job = Job(Settings(pipeline="rules"), KEY)

    def built(_: Any) -> list[tuple[int, int]]:
        return [(os.getpid(), id(deidentifier(job)))]

    def run() -> set[tuple[int, int]]:
        return set(spark.sparkContext.parallelize(range(4), 4).mapPartitions(built).collect())

    first = run()
    assert len({pid for pid, _ in first}) == len(first)  # one object per worker process
    assert run() == first
