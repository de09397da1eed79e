"""The run summary (stderr and ``--summary-json``) and the error report: counts, ids,
codes and places, never note text."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from phiscrub.deid.work import write_atomic

#: the exit code of a run in which some notes, files or records produced no output
EXIT_SOME_FAILED = 3


@dataclass
class ChunkCounts:
    """The counts line at the top of each chunk file."""

    notes: int = 0
    written: int = 0
    failed: int = 0
    unreadable: int = 0
    with_patient: int = 0
    patient_not_kept: int = 0
    unparsed_dates: int = 0
    phi: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "phi": dict(sorted(self.phi.items())),
            "codes": dict(sorted(self.codes.items())),
        }

    def add(self, other: dict[str, Any]) -> None:
        for name in _NUMBERS:
            setattr(self, name, getattr(self, name) + int(other[name]))
        self.phi.update(other["phi"])
        self.codes.update(other["codes"])


_NUMBERS = (
    "notes", "written", "failed", "unreadable", "with_patient", "patient_not_kept",
    "unparsed_dates",
)  # fmt: skip


@dataclass
class Summary:
    """What a ``phiscrub deid`` run did."""

    input: str
    input_format: str
    output: str
    output_format: str
    mode: str
    detector: str
    key: str
    jobs: int
    patient_source: str
    notes_read: int = 0
    notes_written: int = 0
    notes_failed: int = 0
    unreadable: int = 0
    failures_by_code: dict[str, int] = field(default_factory=dict)
    phi_found: dict[str, int] = field(default_factory=dict)
    unparsed_dates: int = 0
    notes_with_patient: int = 0
    patient_ids_not_kept: int = 0
    resumed_chunks: int = 0
    notes_this_run: int = 0
    seconds: float = 0.0
    notes_per_second: float = 0.0
    errors_file: str | None = None
    exit_code: int = 0

    def count(self, totals: ChunkCounts) -> None:
        self.notes_written = totals.written
        self.notes_failed = totals.failed
        self.unreadable = totals.unreadable
        self.notes_with_patient = totals.with_patient
        self.patient_ids_not_kept = totals.patient_not_kept
        self.unparsed_dates = totals.unparsed_dates
        self.phi_found = dict(sorted(totals.phi.items()))
        self.failures_by_code = dict(sorted(totals.codes.items()))
        self.exit_code = EXIT_SOME_FAILED if totals.codes else 0

    def lines(self) -> list[str]:
        processed = self.notes_written + self.notes_failed
        out = [
            f"wrote {self.notes_written} notes to {self.output} ({self.output_format})",
            f"{self.notes_read} notes read, {self.notes_written} written, {self.notes_failed} "
            f"failed; {self.unreadable} files or records could not be read",
            f"{self.notes_this_run} notes de-identified in this run in {self.seconds:.1f} s "
            f"({self.notes_per_second:.1f} notes/s, {self.jobs} job(s)); mode {self.mode}, "
            f"key {self.key}, detector {self.detector}",
        ]
        if self.resumed_chunks:
            out.append(f"resumed an interrupted run: {self.resumed_chunks} chunk(s) were done")
        total = sum(self.phi_found.values())
        found = ", ".join(f"{k} {v}" for k, v in self.phi_found.items())
        out.append(f"PHI found: {total}" + (f" ({found})" if found else ""))
        out.append(self._patients(processed))
        if self.patient_ids_not_kept:
            out.append(
                f"{self.patient_ids_not_kept} notes' patient ids cannot be stored in "
                f"{self.output_format} (only <patient>-<n> note ids carry one): they made "
                "the surrogates consistent but are not in the output; write jsonl, csv or "
                "parquet to keep them"
            )
        if self.unparsed_dates:
            out.append(
                f"{self.unparsed_dates} dates could not be parsed (given a same-shape surrogate)"
            )
        if self.exit_code:
            codes = ", ".join(f"{k} {v}" for k, v in self.failures_by_code.items())
            out.append(
                f"FAILURES ({codes}): {self.notes_failed} notes and {self.unreadable} files or "
                f"records are NOT in the output; see {self.errors_file} (exit code "
                f"{self.exit_code})"
            )
        return out

    def _patients(self, processed: int) -> str:
        if processed and self.notes_with_patient == 0:
            return (
                f"patient ids: none ({self.patient_source}): each note is its own patient, so "
                "surrogates are consistent within a note only; give --patient-from REGEX or "
                "--patient-column NAME to link a patient's notes"
            )
        alone = processed - self.notes_with_patient
        tail = f"; {alone} notes without one are each their own patient" if alone else ""
        return f"patient ids: from {self.patient_source}: {self.notes_with_patient} notes{tail}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def write_json(self, path: Path) -> None:
        write_atomic(path, (json.dumps(self.to_dict(), indent=1) + "\n").encode("utf-8"))


class ErrorReport:
    """The error report, JSON Lines, written whole at ``close`` (a temporary file, then a
    rename) when there was any error; with none, a stale report at the path is removed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(f".{path.name}.tmp")
        self.count = 0
        self._out: IO[str] | None = None

    def add(self, line: str) -> None:
        """One error, as the JSON object of its chunk line."""
        if self._out is None:
            self._out = self.tmp.open("w", encoding="utf-8")
        self._out.write(line + "\n")
        self.count += 1

    def close(self) -> None:
        if self._out is None:
            self.path.unlink(missing_ok=True)
            return
        self._out.flush()
        os.fsync(self._out.fileno())
        self._out.close()
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        if self._out is not None:
            self._out.close()
            self.tmp.unlink(missing_ok=True)
