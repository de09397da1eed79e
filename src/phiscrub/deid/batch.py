"""De-identifying many notes: in this process or in worker processes, in input order,
one note's failure never taking the others down and never letting its text through.

``outcomes(settings, key, items, jobs=N)`` yields, for each item, either a ``Result``
or a ``NoteError`` (the note id, an error code and a message that never holds note
text). An item is a ``Job`` (id, text, patient id) or a ``NoteError`` decided before
any work (a note too large, say), which passes through in its place. The API's
``Deidentifier.pipe(jobs=N)`` goes through ``parallel_results``, which raises on the
first failed note instead.

Workers build the ``Deidentifier`` (and load the model) once, in the pool initializer.
At most ``2 * jobs`` batches are in flight, so memory stays flat however many notes
stream through. A batch that raises is retried note by note, so that only the notes
that fail are lost; detection and replacement are told apart in the error.
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from itertools import islice
from multiprocessing.context import BaseContext
from typing import NamedTuple

from phiscrub.api import Deidentifier, Result, Settings
from phiscrub.errors import PhiscrubError
from phiscrub.span import Document

__all__ = [
    "Job",
    "NoteError",
    "NoteFailed",
    "Outcome",
    "WorkerFailed",
    "outcomes",
    "parallel_results",
]

#: the code of a note whose detection or replacement raised
NOTE_FAILED = "E702"


class NoteFailed(PhiscrubError, RuntimeError):
    """A note whose de-identification raised (its text is not in any output)."""

    code = NOTE_FAILED
    hint = (
        "the note was left out; report the error kind and place to the phiscrub "
        "maintainers (never the note), and de-identify that note by hand"
    )


class WorkerFailed(PhiscrubError, RuntimeError):
    """A worker process could not start (the model did not load) or died."""

    code = "E705"
    hint = (
        "check the model and the memory available (each worker loads the model once); "
        "rerun with fewer --jobs, or --jobs 1 to see the error in this process"
    )


class Job(NamedTuple):
    """What a worker needs of a note: no metadata, no gold spans."""

    id: str
    text: str
    patient_id: str


@dataclass(frozen=True, slots=True)
class NoteError:
    """A note, or a file or record, that produced no output; never holds note text."""

    id: str | None
    code: str
    kind: str
    message: str
    stage: str
    file: str | None = None
    where: str | None = None
    hint: str = ""

    @classmethod
    def of(
        cls, note_id: str | None, err: PhiscrubError, stage: str, **where: str | None
    ) -> NoteError:
        """The record of a phiscrub error (its message is text-free by contract)."""
        kind = type(err).__name__
        return cls(note_id, err.code, kind, err.message, stage, hint=err.hint, **where)

    def to_dict(self) -> dict[str, str | None]:
        return {
            "id": self.id,
            "file": self.file,
            "where": self.where,
            "stage": self.stage,
            "code": self.code,
            "error": self.kind,
            "message": self.message,
            "hint": self.hint,
        }


Outcome = Result | NoteError
Item = Job | NoteError


def failure(note_id: str | None, exc: BaseException, stage: str) -> NoteError:
    """A ``NoteError`` for an exception. A phiscrub error's message is text-free by
    contract; any other exception is described by its type and where it was raised
    only, since its message may quote the note."""
    if isinstance(exc, PhiscrubError):
        return NoteError.of(note_id, exc, stage)
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        where = f" at {os.path.basename(last.filename)}:{last.lineno} in {last.name}"
    message = f"{type(exc).__name__} raised during {stage}{where}"
    return NoteError(note_id, NOTE_FAILED, type(exc).__name__, message, stage, hint=NoteFailed.hint)


# -- the work of one batch (in a worker, or in this process for jobs=1) ---------------


def process_batch(deid: Deidentifier, items: Sequence[Item], audit: bool) -> list[Outcome]:
    """The outcome of each item, in order (``NoteError`` items pass through)."""
    jobs = [item for item in items if isinstance(item, Job)]
    done = iter(_deidentify(deid, jobs, audit))
    return [item if isinstance(item, NoteError) else next(done) for item in items]


def _deidentify(deid: Deidentifier, jobs: Sequence[Job], audit: bool) -> list[Outcome]:
    docs = [Document(j.id, j.text, j.patient_id) for j in jobs]
    try:
        found = deid.detect_documents(docs)
    except Exception as exc:
        if len(docs) == 1:
            return [failure(docs[0].id, exc, "detection")]
        # retried one by one: with note-level reconciliation a note's spans do not
        # depend on its batch, so the notes that do not fail get the same result
        return [out for job in jobs for out in _deidentify(deid, [job], audit)]
    results: list[Outcome] = []
    for doc, spans in zip(docs, found, strict=True):
        try:
            result = deid.replace(doc, spans)
        except Exception as exc:
            results.append(failure(doc.id, exc, "replacement"))
            continue
        results.append(result if audit else replace(result, replacements=()))
    return results


_WORKER: Deidentifier | PhiscrubError | str | None = None


def _init_worker(settings: Settings, key: bytes | None) -> None:
    """Pool initializer: build the de-identifier (load the model) once per worker. An
    error is kept (as a text-free description) and reported by the first batch."""
    global _WORKER
    try:
        _WORKER = Deidentifier(settings, key=key)
    except PhiscrubError as exc:
        _WORKER = f"[{exc.code}] {exc.message}"
    except Exception as exc:
        _WORKER = f"{type(exc).__name__} while loading the de-identifier"


def _work(items: list[Item], audit: bool) -> list[Outcome] | str:
    if not isinstance(_WORKER, Deidentifier):
        return str(_WORKER)
    return process_batch(_WORKER, items, audit)


# -- ordering and bounding ------------------------------------------------------------


def _batches(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def mp_context() -> BaseContext:
    """The start method of the workers.

    Not "fork": the parent may hold threads (tqdm's monitor, pyarrow's reader pools,
    a web server or a Spark driver when used as a library), and a forked child of a
    threaded process can deadlock on a lock some other thread held; a fork also copies
    the parent's whole memory and open files. "forkserver" forks each worker from a
    small single-threaded server that has imported phiscrub once (fast and clean);
    "spawn" (a fresh interpreter) where there is no forkserver (Windows).
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["phiscrub.deid.batch"])
        return ctx
    return multiprocessing.get_context("spawn")


def outcomes(
    settings: Settings,
    key: bytes | None,
    items: Iterable[Item],
    *,
    jobs: int = 1,
    batch_size: int = 32,
    audit: bool = False,
    deid: Deidentifier | None = None,
) -> Iterator[Outcome]:
    """The outcome of each item, in input order. ``jobs == 1`` works in this process
    (with ``deid`` if given, else one built here); ``audit`` keeps the replacements
    (original PHI) in the results."""
    if jobs == 1:
        local = deid if deid is not None else Deidentifier(settings, key=key)
        for batch in _batches(items, batch_size):
            yield from process_batch(local, batch, audit)
        return
    pool = ProcessPoolExecutor(
        jobs, mp_context=mp_context(), initializer=_init_worker, initargs=(settings, key)
    )
    pending: deque[Future[list[Outcome] | str]] = deque()
    try:
        for batch in _batches(items, batch_size):
            pending.append(pool.submit(_work, batch, audit))
            if len(pending) >= 2 * jobs:  # bounded: the reader never runs far ahead
                yield from _collect(pending.popleft())
        while pending:
            yield from _collect(pending.popleft())
    except BaseException:  # an error, Ctrl-C, or the consumer stopped: do not wait
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _collect(future: Future[list[Outcome] | str]) -> list[Outcome]:
    try:
        done = future.result()
    except BrokenProcessPool:
        raise WorkerFailed(
            "a worker process died (killed, or out of memory)",
        ) from None
    if isinstance(done, str):
        raise WorkerFailed(f"a worker could not build the de-identifier: {done}")
    return done


def parallel_results(
    settings: Settings,
    key: bytes | None,
    docs: Iterable[Document],
    jobs: int,
    batch_size: int,
) -> Iterator[Result]:
    """``Deidentifier.pipe`` with ``jobs`` worker processes: results in input order;
    a note that fails raises ``NoteFailed`` (E702) naming the note, never its text."""
    items = (Job(d.id, d.text, d.patient_id) for d in docs)
    for out in outcomes(settings, key, items, jobs=jobs, batch_size=batch_size, audit=True):
        if isinstance(out, NoteError):
            raise NoteFailed(f"note {out.id}: {out.message}")
        yield out
