"""Replacing the annotated spans of a whole corpus, streamed note by note.

``replace_corpus(docs, replacer)`` yields each note's surrogate version: the same id,
patient id and metadata, the new text, and the carried-over spans as its ``gold``
layer, so that the output is an annotated corpus again (seed 000 §5, seed 004 §5.2).
A ``RunStats`` counts what was done; an ``AuditWriter`` writes the mapping from
originals to surrogates (PHI!) when, and only when, it is asked for.
"""

from __future__ import annotations

import csv
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO

from phiscrub.errors import UsageError
from phiscrub.span import Document
from phiscrub.surrogate.replace import Replacement, Replacer

#: the layer name of gold spans read from a corpus (``phiscrub.io.GOLD``; not imported, so
#: that importing ``phiscrub.surrogate`` does not load the readers and pyarrow)
GOLD = "gold"
AUDIT_FIELDS = (
    "doc_id", "patient_id", "label", "original", "surrogate",
    "start", "end", "new_start", "new_end",
)  # fmt: skip


@dataclass
class RunStats:
    """What a run did: notes, spans replaced and kept per category, dates that could
    not be parsed, birth dates capped or not checked, files skipped, time."""

    notes: int = 0
    replaced: Counter[str] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    unparsed_dates: int = 0
    birth_dates_capped: int = 0
    birth_dates_unchecked: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, error code)
    started: float = field(default_factory=time.perf_counter)

    def add(self, result: Replacement, replacer: Replacer) -> None:
        self.notes += 1
        for span in result.spans:
            kept = span.label in replacer.keep or span.category in replacer.keep
            (self.kept if kept else self.replaced)[span.category] += 1
        self.unparsed_dates += result.unparsed_dates
        self.birth_dates_capped += result.birth_dates_capped
        self.birth_dates_unchecked += result.birth_dates_unchecked

    def summary(self) -> list[str]:
        """The lines of the run summary (counts only: never any note text)."""
        seconds = time.perf_counter() - self.started
        rate = self.notes / seconds if seconds > 0 else 0.0
        lines = [
            f"{self.notes} notes in {seconds:.2f} s ({rate:.0f} notes/s); "
            f"{sum(self.replaced.values())} spans replaced, {sum(self.kept.values())} kept"
        ]
        if self.replaced:
            lines.append("  replaced: " + _counts(self.replaced))
        if self.kept:
            lines.append("  kept: " + _counts(self.kept))
        lines.append(
            f"  dates that could not be parsed (given a same-shape surrogate): "
            f"{self.unparsed_dates}"
        )
        lines.append(f"  dates of birth capped to age 90: {self.birth_dates_capped}")
        if self.birth_dates_unchecked:
            lines.append(
                f"  dates of birth NOT checked for an age over 89 (no full date in the note; "
                f"pass --reference-year): {self.birth_dates_unchecked}"
            )
        if self.skipped:
            lines.append(f"  files skipped (could not be read): {len(self.skipped)}")
        return lines


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(counter.items()))


def surrogate_document(doc: Document, result: Replacement, layer: str = GOLD) -> Document:
    """The output note: same id, patient and metadata; new text; carried spans in ``layer``."""
    return Document(doc.id, result.text, doc.patient_id, dict(doc.metadata), {layer: result.spans})


class AuditWriter:
    """Writes audit rows as CSV, or as JSON Lines when the path ends in .jsonl or .json.

    The file holds the ORIGINAL PHI beside its replacement: store it like the notes.
    """

    def __init__(self, path: str | Path, encoding: str = "utf-8") -> None:
        self.path = Path(path)
        self.jsonl = self.path.suffix.lower() in (".jsonl", ".json")
        try:
            self._handle: IO[str] = self.path.open("w", encoding=encoding, newline="")
        except OSError as exc:
            raise UsageError(
                f"cannot write the audit file ({exc.strerror})", path=str(path)
            ) from None
        self._csv = None if self.jsonl else csv.writer(self._handle, quoting=csv.QUOTE_MINIMAL)
        if self._csv is not None:
            self._csv.writerow(AUDIT_FIELDS)

    def write(self, doc: Document, result: Replacement) -> None:
        for row in result.audit:
            values = (doc.id, doc.patient_id, *row)
            if self._csv is not None:
                self._csv.writerow(values)
            else:
                record = dict(zip(AUDIT_FIELDS, values, strict=True))
                self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> AuditWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def replace_corpus(
    docs: Iterable[Document],
    replacer: Replacer,
    *,
    stats: RunStats | None = None,
    audit: AuditWriter | None = None,
    layer: str = GOLD,
    on_note: Callable[[int], None] | None = None,
) -> Iterator[Document]:
    """Yield the surrogate version of each note, replacing the spans of ``layer``
    (lazily: the corpus is streamed). ``on_note(count)`` is called after each note."""
    stats = stats if stats is not None else RunStats()
    for doc in docs:
        result = replacer.replace(doc, doc.layer(layer))
        stats.add(result, replacer)
        if audit is not None:
            audit.write(doc, result)
        if on_note is not None:
            on_note(stats.notes)
        yield surrogate_document(doc, result, layer)
