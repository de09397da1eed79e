"""What runs in the executors' Python workers: the body of the pandas UDF.

Nothing here imports pyspark: ``process`` takes an iterator of pandas batches and yields
pandas frames, so it can be tested in-process. The ``Deidentifier`` (and its model) is
built once per Python worker process and kept in ``_CACHE``, keyed by the settings and a
hash of the key; Spark reuses its Python workers between tasks
(``spark.python.worker.reuse``, on by default), so the model is loaded once per worker,
not once per task or batch.

A note that fails gets a null text and an error string (``[Exxx] message (hint)``; an
unexpected exception is ``NoteFailed``, E702, as in ``phiscrub deid``), never its text in
clear; the other notes of its batch are processed on their own.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import traceback
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from phiscrub.api import Deidentifier, Settings
from phiscrub.deid.batch import NoteFailed
from phiscrub.errors import FormatError, PhiscrubError
from phiscrub.span import Document, Span

LOG = logging.getLogger("phiscrub.spark")

#: notes given to ``detect_documents`` at once (the model decodes them in batches)
CHUNK = 64

#: one row of input: (id, text, patient id); a missing cell is None (or NaN from pandas)
Row = tuple[object, object, object]
#: the outcome of one row, by output field name
Outcome = dict[str, str | None]

_CACHE: dict[tuple[Settings, str], Deidentifier] = {}
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Job:
    """What every executor needs: picklable, sent to the executors with the UDF.

    ``key`` is the resolved surrogate key (None outside surrogate mode and when
    ``detect_only``); ``output_spans``: also give the spans at their offsets in the new
    text, as JSON in the format of ``phiscrub.io``'s table writers.
    """

    settings: Settings
    key: bytes | None
    detect_only: bool = False
    output_spans: bool = False

    def __repr__(self) -> str:  # never show the key (logs, tracebacks, Spark plans)
        return f"Job(settings={self.settings!r}, detect_only={self.detect_only})"

    @property
    def fields(self) -> tuple[str, ...]:
        """The fields of each outcome, in order (the UDF's struct fields)."""
        if self.detect_only:
            return ("spans", "error")
        return ("text", "spans", "error", *(("output_spans",) if self.output_spans else ()))

    @property
    def by_patient(self) -> bool:
        return self.settings.reconcile == "patient"


def deidentifier(job: Job) -> Deidentifier:
    """The worker's ``Deidentifier`` for ``job``, built on first use."""
    settings = replace(job.settings, mode="tag") if job.detect_only else job.settings
    key = None if job.detect_only else job.key
    cache_key = (settings, hashlib.sha256(key).hexdigest() if key is not None else "")
    with _LOCK:
        found = _CACHE.get(cache_key)
        if found is None:
            LOG.info("loading the %s detector in this worker", settings.detector_name)
            found = _CACHE[cache_key] = Deidentifier(settings, key=key)
        return found


def process(job: Job, batches: Iterable[Sequence[Any]]) -> Iterator[Any]:
    """The UDF body: for each batch ``(texts, ids, patients)`` of pandas Series, a pandas
    DataFrame with one row per note and the columns ``job.fields``.

    With ``reconcile="patient"`` the rows must come grouped by patient (``frame.py``
    sorts them); a patient's notes are processed together, so a patient whose notes
    span two batches is answered with the later batch (Spark only asks that the
    total number of rows matches).
    """
    deid = deidentifier(job)
    pending: list[Row] = []
    for texts, ids, patients in batches:
        rows = list(zip(ids.tolist(), texts.tolist(), patients.tolist(), strict=True))
        if not job.by_patient:
            yield frame(job, run_rows(deid, job, rows))
            continue
        pending.extend(rows)
        last = _last_group_start(pending)
        ready, pending = pending[:last], pending[last:]
        yield frame(job, run_rows(deid, job, ready))
    if pending:
        yield frame(job, run_rows(deid, job, pending))


def _last_group_start(rows: Sequence[Row]) -> int:
    """Where the run of rows of the last patient begins."""
    last = _patient(rows[-1])
    i = len(rows)
    while i > 0 and _patient(rows[i - 1]) == last:
        i -= 1
    return i


def frame(job: Job, outcomes: Sequence[Outcome]) -> Any:
    """The outcomes as a pandas DataFrame of Python objects (None is null)."""
    import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs in the dev tools

    data = {name: [o.get(name) for o in outcomes] for name in job.fields}
    return pd.DataFrame(data, columns=list(job.fields), dtype=object)


def run_rows(deid: Deidentifier, job: Job, rows: Sequence[Row]) -> list[Outcome]:
    """The outcome of each row, in order: bad rows fail alone, the rest go in chunks
    (note mode) or in patient groups (patient mode)."""
    out: dict[int, Outcome] = {}
    docs: list[tuple[int, Document]] = []
    for i, row in enumerate(rows):
        try:
            docs.append((i, _document(row)))
        except PhiscrubError as err:
            out[i] = failure(err, "read", row[0])
    for group in _groups(docs, job.by_patient):
        found = _run_group(deid, job, [d for _, d in group])
        for (i, _), outcome in zip(group, found, strict=True):
            out[i] = outcome
    return [out[i] for i in range(len(rows))]


def _groups(
    docs: Sequence[tuple[int, Document]], by_patient: bool
) -> Iterator[Sequence[tuple[int, Document]]]:
    if not by_patient:
        for start in range(0, len(docs), CHUNK):
            yield docs[start : start + CHUNK]
        return
    group: list[tuple[int, Document]] = []
    for item in docs:
        if group and item[1].patient_id != group[-1][1].patient_id:
            yield group
            group = []
        group.append(item)
    if group:
        yield group


def _run_group(deid: Deidentifier, job: Job, docs: Sequence[Document]) -> list[Outcome]:
    """Outcomes of notes detected together. When detection fails: in note mode each
    note is retried alone (its output does not depend on the others); in patient mode
    the whole patient fails, since its notes' outputs depend on each other. Replacement
    is per note, so a note that fails there fails alone."""
    try:
        found = deid.detect_documents(docs)
    except Exception as err:
        if len(docs) == 1 or job.by_patient:
            return [failure(err, "detect", doc.id) for doc in docs]
        return [o for doc in docs for o in _run_group(deid, job, [doc])]
    return [_replace(deid, job, d, s) for d, s in zip(docs, found, strict=True)]


def _replace(deid: Deidentifier, job: Job, doc: Document, spans: list[Span]) -> Outcome:
    if job.detect_only:
        return {"spans": spans_json(spans)}
    try:
        result = deid.replace(doc, spans)
    except Exception as err:
        return failure(err, "replace", doc.id)
    outcome: Outcome = {"text": result.text, "spans": spans_json(result.spans)}
    if job.output_spans:
        outcome["output_spans"] = table_spans_json(result.output_spans)
    return outcome


def spans_json(spans: Iterable[Span]) -> str:
    """Spans as JSON: start, end, label, source, score (offsets into the original text;
    no text, since that is the PHI)."""
    return json.dumps(
        [
            {"start": s.start, "end": s.end, "label": s.label, "source": s.source, "score": s.score}
            for s in sorted(spans)
        ]
    )


def table_spans_json(spans: Iterable[Span]) -> str:
    """Spans as ``phiscrub.io`` writes them in a table's ``spans`` column."""
    return json.dumps([s.to_dict() for s in sorted(spans)], ensure_ascii=False)


def failure(err: BaseException, stage: str = "read", note_id: object = None) -> Outcome:
    """The outcome of a failed note: no text, only an error without note text."""
    LOG.warning("note %s failed during %s: %s", note_id, stage, _code(err))
    return {"error": error_message(err, stage)}


def error_message(err: BaseException, stage: str) -> str:
    """``[code] message (hint)``. An unexpected exception is named by its type and the
    place it was raised, as ``phiscrub deid`` reports it (``NoteFailed``): its message may
    quote the note, so it is never shown."""
    if isinstance(err, PhiscrubError):
        return str(err)
    frames = traceback.extract_tb(err.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return str(NoteFailed(f"{type(err).__name__} raised during {stage}{where}"))


def _code(err: BaseException) -> str:
    return err.code if isinstance(err, PhiscrubError) else NoteFailed.code


def _document(row: Row) -> Document:
    doc_id, text, patient = row
    if not isinstance(doc_id, str) or not doc_id:
        raise FormatError("the row has no id (null or empty)", hint="give every note an id")
    if not isinstance(text, str):
        raise FormatError("the note has no text (null)", hint="drop or fill rows without text")
    return Document(doc_id, text, patient if isinstance(patient, str) else None)


def _patient(row: Row) -> object:
    """The patient a row's note belongs to (as ``Document`` decides it)."""
    doc_id, _, patient = row
    return patient if isinstance(patient, str) and patient else doc_id
