"""The ``phiscrub deid`` run: read any format, de-identify in resumable chunks, write
any format, report every failure, never write a note in clear.

Fail-closed: a note whose detection or replacement raises, a note larger than
``max_note_chars``, or a note the output format cannot hold, goes to the error report
(id, file, stage, code, message: never text) and not to the output; so do the files
and records that cannot be read. The run then exits with code 3. See docs/deid.md.
"""

from __future__ import annotations

import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tqdm import tqdm

from phiscrub.api import Result, Settings
from phiscrub.deid.batch import Item, Job, NoteError, Outcome, outcomes
from phiscrub.deid.formats import (
    PER_NOTE_FILES,
    built_path,
    check_writable,
    count_hint,
    output_document,
)
from phiscrub.deid.report import ChunkCounts, ErrorReport, Summary
from phiscrub.deid.work import (
    WorkDir,
    check_distinct,
    check_output_free,
    error_record,
    input_files,
    key_digest,
    note_record,
    put_in_place,
)
from phiscrub.errors import EmptyInput, PhiscrubError
from phiscrub.io import iter_documents, write_corpus
from phiscrub.span import Document

#: notes longer than this (characters) are refused by default: see --max-note-chars
MAX_NOTE_CHARS = 1_000_000


class NoteTooLarge(PhiscrubError, ValueError):
    """A note longer than the size limit (it is left out, not cut)."""

    code = "E701"
    hint = "raise --max-note-chars (0: no limit), or split the note into smaller notes"


@dataclass(frozen=True)
class Plan:
    """Everything one run needs (built by ``phiscrub.deid.cli``)."""

    input: Path
    output: Path
    in_format: str
    out_format: str
    settings: Settings
    key: bytes | None
    key_source: str = "none"
    random_key: bool = False
    encoding: str = "utf-8"
    id_column: str = "id"
    text_column: str = "text"
    patient_column: str = "patient_id"
    patient_from: re.Pattern[str] | None = None
    patient_source: str = "the input format"
    jobs: int = 1
    batch_size: int = 32
    chunk_notes: int = 1000
    max_note_chars: int = MAX_NOTE_CHARS
    errors_path: Path | None = None
    summary_path: Path | None = None
    overwrite: bool = False
    fresh: bool = False
    progress: bool = False

    @property
    def errors_file(self) -> Path:
        return self.errors_path or self.output.with_name(self.output.name + ".errors.jsonl")

    def described(self) -> dict[str, Any]:
        """What the output depends on (the work directory's fingerprint)."""
        return {
            "input": str(self.input.resolve()),
            "files": input_files(self.input),
            "formats": [self.in_format, self.out_format, self.encoding],
            "columns": [self.id_column, self.text_column, self.patient_column],
            "patient_from": self.patient_from.pattern if self.patient_from else None,
            "settings": repr(self.settings),
            "model": input_files(Path(self.settings.model)) if self.settings.model else None,
            "key": key_digest(self.key),
            "max_note_chars": self.max_note_chars,
        }


class _Reader:
    """The input as a stream of ``Job``s (and ``NoteError``s for notes refused before
    any work); read errors are filed under the chunk being read when they happen."""

    def __init__(self, plan: Plan, first_chunk: int) -> None:
        self.plan = plan
        self.first_chunk = first_chunk
        self.count = 0  # documents read, including those of chunks already done
        self.errors: defaultdict[int, list[NoteError]] = defaultdict(list)
        self.fatal: PhiscrubError | None = None
        self.docs = iter_documents(  # checks its arguments now; reads when iterated
            plan.input, format=plan.in_format, encoding=plan.encoding,
            id_column=plan.id_column, text_column=plan.text_column,
            patient_column=plan.patient_column,
            on_skip=lambda where, err: self._file(where, err),
            on_bad_record=lambda where, err: self._file(where, err),
        )  # fmt: skip

    def _file(self, where: str | None, err: PhiscrubError) -> None:
        chunk = self.count // self.plan.chunk_notes
        if chunk >= self.first_chunk:  # else already in a chunk file of the earlier run
            file = err.path or where or str(self.plan.input)
            place = where.removeprefix(f"{file}: ") if where and where != file else None
            self.errors[chunk].append(NoteError.of(None, err, "read", file=file, where=place))

    def items(self) -> Iterator[Item]:
        skip = self.first_chunk * self.plan.chunk_notes
        while True:
            try:
                doc = next(self.docs)
            except StopIteration:
                return
            except PhiscrubError as err:  # the rest of the input cannot be read
                self.fatal = err
                self._file(None, err)
                return
            self.count += 1
            if self.count > skip:
                yield self._item(doc)

    def _item(self, doc: Document) -> Item:
        limit = self.plan.max_note_chars
        if limit and len(doc.text) > limit:
            err = NoteTooLarge(f"the note has {len(doc.text)} characters, over the limit {limit}")
            return NoteError.of(doc.id, err, "size", file=self.file_of(doc.id))
        return Job(doc.id, doc.text, self._patient(doc))

    def _patient(self, doc: Document) -> str:
        if self.plan.patient_from is None:
            return doc.patient_id
        match = self.plan.patient_from.search(doc.id)
        return match.group(1) if match and match.group(1) else doc.id

    def file_of(self, note_id: str) -> str:
        fmt, path = self.plan.in_format, self.plan.input
        if path.is_dir() and fmt in PER_NOTE_FILES:
            suffix = {"brat": ".txt", "i2b2-2014": ".xml"}.get(fmt, ".txt")
            return str(path / f"{note_id}{suffix}")
        return str(path)


class _Chunks:
    """Gathers outcomes in input order and writes each full chunk."""

    def __init__(self, plan: Plan, work: WorkDir, reader: _Reader) -> None:
        self.plan, self.work, self.reader = plan, work, reader
        self.number = work.resumed_chunks
        self.counts = ChunkCounts()
        self.lines: list[str] = []
        self.target = built_path(work.path, plan.out_format)

    def add(self, out: Outcome) -> None:
        self.counts.notes += 1
        if isinstance(out, Result):
            self._result(out)
        else:
            self._error(out)
        if self.counts.notes >= self.plan.chunk_notes:
            self.flush()

    def _result(self, result: Result) -> None:
        doc, dropped = output_document(result, self.plan.out_format)
        try:
            check_writable(doc, self.plan.out_format, self.plan.encoding, self.target)
        except PhiscrubError as err:
            self._error(NoteError.of(result.id, err, "write"))
            return
        c = self.counts
        c.written += 1
        c.with_patient += result.patient_id != result.id
        c.patient_not_kept += dropped
        c.unparsed_dates += result.unparsed_dates
        c.phi.update(s.label for s in result.spans)
        self.lines.append(note_record(doc))

    def _error(self, error: NoteError) -> None:
        self.counts.failed += 1
        self.counts.codes[error.code] += 1
        if error.file is None:
            error = replace(error, file=self.reader.file_of(error.id or ""))
        self.lines.append(_error_line(error))

    def flush(self) -> None:
        unread = self.reader.errors.pop(self.number, [])
        self.counts.unreadable += len(unread)
        self.counts.codes.update(e.code for e in unread)
        lines = [_error_line(e) for e in unread] + self.lines
        self.work.write_chunk(self.number, self.counts.to_dict(), lines)
        self.number += 1
        self.counts = ChunkCounts()
        self.lines = []

    def finish(self) -> None:
        """Write the last partial chunk, and the read errors found after the last note."""
        if self.counts.notes:
            self.flush()
        while any(n >= self.number for n in self.reader.errors):
            self.flush()


def _error_line(error: NoteError) -> str:
    return error_record(error.to_dict())


def run(plan: Plan) -> Summary:
    """Carry out a run; see the module docstring and docs/deid.md."""
    check_distinct(plan.input, plan.output, [plan.errors_file])
    work = WorkDir(plan.output, plan.described(), plan.chunk_notes)
    work.open(fresh=plan.fresh, random_key=plan.random_key)
    check_output_free(plan.output, overwrite=plan.overwrite, ours=work.finishing)
    reader = _Reader(plan, work.resumed_chunks)
    work.create()
    summary = Summary(
        str(plan.input), plan.in_format, str(plan.output), plan.out_format,
        plan.settings.mode, plan.settings.detector_name, plan.key_source, plan.jobs,
        plan.patient_source, resumed_chunks=work.resumed_chunks,
    )  # fmt: skip
    chunks = _Chunks(plan, work, reader)
    started = time.perf_counter()
    try:
        _process(plan, reader, chunks)
    except (KeyboardInterrupt, PhiscrubError) as exc:
        if chunks.number == 0:  # nothing worth keeping
            work.remove()
            raise
        stopped = "interrupted" if isinstance(exc, KeyboardInterrupt) else "stopped"
        say(
            f"{stopped}; {chunks.number} finished chunk(s) are kept in {work.path}: run the "
            "same command again to resume"
        )
        raise
    summary.seconds = round(time.perf_counter() - started, 3)
    summary.notes_read = reader.count
    summary.notes_this_run = max(0, reader.count - work.resumed_chunks * plan.chunk_notes)
    summary.notes_per_second = round(summary.notes_this_run / max(summary.seconds, 1e-9), 2)
    _finish(plan, work, reader, summary)
    return summary


def _process(plan: Plan, reader: _Reader, chunks: _Chunks) -> None:
    done = reader.first_chunk * plan.chunk_notes
    total = count_hint(plan.input, plan.in_format) if plan.progress else None
    bar = tqdm(
        total=total, initial=min(done, total or done), unit=" notes", disable=not plan.progress,
        dynamic_ncols=True, smoothing=0.1, desc="phiscrub deid",
    )  # fmt: skip
    with bar:
        for out in outcomes(
            plan.settings, plan.key, reader.items(), jobs=plan.jobs, batch_size=plan.batch_size
        ):
            chunks.add(out)
            bar.update(1)
    chunks.finish()


def _finish(plan: Plan, work: WorkDir, reader: _Reader, summary: Summary) -> None:
    """Assemble the output and the error report from the chunks (one pass), put them
    in place, remove the work directory."""
    totals = ChunkCounts()
    for header in work.headers():
        totals.add(header)
    summary.count(totals)
    summary.errors_file = str(plan.errors_file) if summary.exit_code else None
    report = ErrorReport(plan.errors_file)
    if reader.count == 0:  # nothing to write: the input itself is the problem
        errors: list[str] = []
        for _ in work.documents(errors.append):  # there is no document, only errors
            pass
        for line in errors[:-1]:  # the last one is the error raised below
            report.add(line)
        report.close()
        if report.count:
            say(f"{report.count} files or records could not be read: see {plan.errors_file}")
        work.remove()
        raise reader.fatal or EmptyInput("no document found", path=str(plan.input))
    work.mark_finishing()
    built = built_path(work.path, plan.out_format)
    try:
        docs = work.documents(report.add)
        write_corpus(docs, built, format=plan.out_format, encoding=plan.encoding)
    except BaseException:
        report.discard()
        raise
    report.close()
    put_in_place(built, plan.output, work.path)
    if plan.summary_path is not None:
        summary.write_json(plan.summary_path)
    work.remove()


def say(line: str) -> None:
    print(f"phiscrub: deid: {line}", file=sys.stderr)
