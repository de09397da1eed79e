"""The UDF body, in-process (no Spark, no Java): batching, failures, the model cache."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pandas")

import pandas as pd

from phiscrub.api import Deidentifier, Settings
from phiscrub.span import Document
from phiscrub.spark import _partition
from phiscrub.spark._partition import Job, deidentifier, process

from .common import KEY, corpus, local_deidentifier

SETTINGS = Settings(pipeline="rules")
SECRET = "Zelphine Quarrington"


def batch(docs: list[Document], patients: bool = True) -> tuple[Any, Any, Any]:
    """(texts, ids, patients) as Spark hands them over (pandas' default string dtype)."""
    return (
        pd.Series([d.text for d in docs]),
        pd.Series([d.id for d in docs]),
        pd.Series([d.patient_id if patients else None for d in docs]),
    )


def run(job: Job, *batches: tuple[Any, Any, Any]) -> list[dict[str, Any]]:
    frames = list(process(job, iter(batches)))
    return [row for f in frames for row in f.to_dict("records")]


def test_outcomes_equal_the_local_api_whatever_the_batches():
    docs = corpus()
    job = Job(SETTINGS, KEY)
    rows = run(job, batch(docs[:5]), batch(docs[5:6]), batch(docs[6:]))
    local = local_deidentifier(SETTINGS).deidentify_documents(docs)
    assert [r["text"] == x.text for r, x in zip(rows, local, strict=True)] == [True] * len(docs)
    assert all(r["error"] is None for r in rows)
    assert list(rows[0]) == ["text", "spans", "error"]


def test_a_failing_note_fails_alone_and_its_text_is_not_shown(monkeypatch):
    docs = [*corpus()[:4], Document("boom", f"Seen with {SECRET}.", "0001")]
    docs.insert(2, Document("short", "x"))
    original = Deidentifier.detect_documents

    def explode(self: Deidentifier, batch: list[Document]) -> Any:
        if any(d.id == "boom" for d in batch):
            raise ValueError(f"cannot handle {SECRET}")  # a message quoting the note
        return original(self, batch)

    monkeypatch.setattr(Deidentifier, "detect_documents", explode)
    rows = run(Job(SETTINGS, KEY), batch(docs))
    failed = rows[-1]
    assert failed["text"] is None and failed["spans"] is None
    assert failed["error"].startswith(
        "[E702] ValueError raised during detect at test_partition.py:"
    )
    assert SECRET not in failed["error"] and "Quarrington" not in failed["error"]
    monkeypatch.setattr(Deidentifier, "detect_documents", original)
    local = local_deidentifier(SETTINGS).deidentify_documents(docs[:-1])
    assert [r["text"] for r in rows[:-1]] == [x.text for x in local]


def test_rows_without_id_or_text():
    texts = pd.Series(["Seen by Dr. Alice Moreno.", None, "Dr. Moreno"])
    ids = pd.Series(["a", "b", None])
    rows = run(Job(SETTINGS, KEY), (texts, ids, pd.Series([None, None, None])))
    assert rows[0]["error"] is None and "Moreno" not in rows[0]["text"]
    assert rows[1]["text"] is None and rows[1]["error"].startswith("[E201] the note has no text")
    assert rows[2]["text"] is None and rows[2]["error"].startswith("[E201] the row has no id")


def test_patient_mode_answers_a_patient_once_all_its_notes_are_in(monkeypatch):
    """A patient whose notes straddle two batches is answered with the later batch; when
    one of its notes fails, all fail (their outputs depend on each other)."""
    texts = [d.text for d in corpus()[:4]]
    docs = [Document(f"a{i}", t, "A") for i, t in enumerate(texts[:3])]
    docs.append(Document("b0", texts[3], "B"))
    job = Job(Settings(pipeline="rules", reconcile="patient"), KEY)
    frames = list(process(job, iter([batch(docs[:2]), batch(docs[2:])])))
    assert [len(f) for f in frames] == [0, 3, 1]
    local = local_deidentifier(job.settings).deidentify_documents(docs)
    assert [r["text"] for f in frames for r in f.to_dict("records")] == [r.text for r in local]
    original = Deidentifier.detect_documents

    def explode(self: Deidentifier, batch: list[Document]) -> Any:
        if any(d.id == docs[0].id for d in batch):
            raise ValueError("no")
        return original(self, batch)

    monkeypatch.setattr(Deidentifier, "detect_documents", explode)
    rows = run(job, batch(docs))
    assert [r["error"] is not None for r in rows] == [True, True, True, False]


def test_detect_only_and_output_spans_fields():
    doc = Document("a", "Seen by Dr. Alice Moreno on 03/14/2021.")
    (row,) = run(Job(SETTINGS, None, detect_only=True), batch([doc]))
    assert list(row) == ["spans", "error"]
    spans = json.loads(row["spans"])
    assert {s["label"] for s in spans} == {"DOCTOR", "DATE"}
    assert all(set(s) == {"start", "end", "label", "source", "score"} for s in spans)
    (row,) = run(Job(SETTINGS, KEY, output_spans=True), batch([doc]))
    moved = json.loads(row["output_spans"])
    assert [row["text"][s["start"] : s["end"]] for s in moved] == [s["text"] for s in moved]


def test_the_deidentifier_is_built_once_per_settings_and_key():
    _partition._CACHE.clear()
    one = deidentifier(Job(SETTINGS, KEY))
    assert deidentifier(pickle.loads(pickle.dumps(Job(SETTINGS, KEY)))) is one
    assert deidentifier(Job(SETTINGS, KEY + b"!")) is not one
    assert deidentifier(Job(SETTINGS, None, detect_only=True)) is not one
    assert len(_partition._CACHE) == 3
    assert "key" not in repr(Job(SETTINGS, KEY)).replace("settings", "")
    assert KEY.decode() not in repr(Job(SETTINGS, KEY))


def test_a_note_that_fails_in_replacement_fails_alone(monkeypatch):
    docs = corpus()[:3]
    original = Deidentifier.replace

    def explode(self: Deidentifier, doc: Document, spans: Any) -> Any:
        if doc.id == docs[1].id:
            raise KeyError(doc.text[:20])
        return original(self, doc, spans)

    monkeypatch.setattr(Deidentifier, "replace", explode)
    rows = run(Job(SETTINGS, KEY), batch(docs))
    assert [r["error"] is None for r in rows] == [True, False, True]
    assert rows[1]["error"].startswith("[E702] KeyError raised during replace at ")
    assert docs[1].text[:20] not in rows[1]["error"]
