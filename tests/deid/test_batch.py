"""The Python API and the batch engine: doctests, worker processes, fail-closed."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import phiscrub.api
from phiscrub.api import Deidentifier, Result, Settings
from phiscrub.deid import batch
from phiscrub.deid.batch import Job, NoteError, NoteFailed, WorkerFailed, outcomes, process_batch
from phiscrub.span import Document
from phiscrub.synth import SynthOptions, documents

from .common import HEX_KEY, PHI
from .common import documents as notes


def test_api_doctests() -> None:
    result = doctest.testmod(phiscrub.api, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_pipe_with_workers_equals_one_process() -> None:
    docs = list(documents(SynthOptions(n=24, seed="pipe")))
    deid = Deidentifier.default(key=HEX_KEY)
    one = list(deid.pipe(docs, batch_size=5))
    two = list(deid.pipe(docs, jobs=2, batch_size=5))
    assert [r.id for r in two] == [d.id for d in docs]  # input order
    assert [(r.text, r.spans, r.output_spans, r.replacements) for r in one] == [
        (r.text, r.spans, r.output_spans, r.replacements) for r in two
    ]


def test_pipe_texts_are_their_own_patients() -> None:
    deid = Deidentifier.default(mode="tag", pipeline="rules")
    (result,) = deid.pipe(["Seen by Dr. Zorba Quill."])
    assert result.patient_id == result.id == "note-1"
    assert result.text == "Seen by Dr. [**DOCTOR**]."


def test_a_failing_note_is_isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    deid = Deidentifier.default(key=HEX_KEY, pipeline="rules")
    real = Deidentifier.replace

    def flaky(self: Deidentifier, doc: Document, spans: object) -> Result:
        if doc.id == "300-02":
            raise ValueError(f"cannot replace in {doc.text}")  # quotes the note
        return real(self, doc, spans)  # type: ignore[arg-type]

    monkeypatch.setattr(Deidentifier, "replace", flaky)
    items = [Job(d.id, d.text, d.patient_id) for d in notes()]
    out = process_batch(deid, items, audit=False)
    assert [type(o).__name__ for o in out] == ["Result", "NoteError", "Result"]
    error = out[1]
    assert isinstance(error, NoteError)
    assert (error.id, error.code, error.stage, error.kind) == (
        "300-02", "E702", "replacement", "ValueError",
    )  # fmt: skip
    assert "test_batch.py" in error.message
    assert not any(value in str(error.to_dict()) for value in PHI)


def test_a_failing_batch_is_retried_note_by_note(monkeypatch: pytest.MonkeyPatch) -> None:
    deid = Deidentifier.default(mode="redact", pipeline="rules")
    real = Deidentifier.detect_documents

    def flaky(self: Deidentifier, docs: list[Document]) -> list[list[object]]:
        if any(d.id == "301-01" for d in docs):
            raise RuntimeError("detector crashed")
        return real(self, docs)  # type: ignore[return-value]

    monkeypatch.setattr(Deidentifier, "detect_documents", flaky)
    items = [Job(d.id, d.text, d.patient_id) for d in notes()]
    out = list(outcomes(deid.settings, None, items, batch_size=3, deid=deid))
    assert [o.id for o in out] == ["300-01", "300-02", "301-01"]
    assert isinstance(out[2], NoteError) and out[2].stage == "detection"
    assert all(isinstance(o, Result) for o in out[:2])


def test_parallel_results_raises_on_a_failed_note(monkeypatch: pytest.MonkeyPatch) -> None:
    failed = NoteError("300-01", "E702", "ValueError", "ValueError raised during detection", "x")
    monkeypatch.setattr(batch, "outcomes", lambda *a, **k: iter([failed]))
    with pytest.raises(NoteFailed, match=r"\[E702\] note 300-01: ValueError raised") as info:
        list(batch.parallel_results(Settings(), None, notes(), 2, 8))
    assert not any(value in str(info.value) for value in PHI)


def test_worker_that_cannot_load_the_model(tmp_path: Path) -> None:
    broken = tmp_path / "broken.phiscrub"
    broken.write_bytes(b"not a model")
    deid_settings = Settings(model=str(broken), mode="tag")
    with pytest.raises(WorkerFailed, match=r"E705.*E601"):
        list(outcomes(deid_settings, None, [Job("1-1", "text", "1")] * 3, jobs=2, batch_size=1))


def test_the_detector_settles_the_heap_once_after_its_first_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``settle_heap``: after the first batch everything loaded is out of the collector's
    full passes (gc.freeze), once per process; ``PHISCRUB_GC_FREEZE=0`` leaves it."""
    calls: list[str] = []
    monkeypatch.setattr(phiscrub.api.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(phiscrub.api.gc, "collect", lambda: calls.append("collect") or 0)
    monkeypatch.setattr(phiscrub.api, "_SETTLED", False)
    monkeypatch.setenv("PHISCRUB_GC_FREEZE", "0")
    deid = Deidentifier.default(mode="tag", pipeline="rules")
    deid.detect("Seen by Dr. Zorba Quill.")
    assert calls == []
    monkeypatch.delenv("PHISCRUB_GC_FREEZE")
    assert deid.detect("Seen by Dr. Zorba Quill.") == deid.detect("Seen by Dr. Zorba Quill.")
    assert calls == ["collect", "freeze"]
