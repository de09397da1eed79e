"""What the output format asks of each note, checked note by note before it is kept,
so that a note the format cannot hold becomes one error instead of a failed run."""

from __future__ import annotations

from pathlib import Path

from phiscrub.api import Result
from phiscrub.io import _xml, i2b2_2006
from phiscrub.io._common import check_encodable, file_stem_for, ids_from_stem
from phiscrub.span import Document

#: formats that hold no patient id: it is derived from the note id (``<patient>-<n>``)
NO_PATIENT_FIELD = frozenset({"i2b2-2014", "i2b2-2006", "brat", "text"})
#: formats written as a folder of files, one (or two) per note
PER_NOTE_FILES = frozenset({"i2b2-2014", "brat", "text"})
#: formats whose id, patient id and text are in a table or a record
TABLES = frozenset({"csv", "parquet"})
SUFFIX = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet", "i2b2-2006": ".xml"}


def output_document(result: Result, fmt: str) -> tuple[Document, bool]:
    """The note to write, and whether its patient id could not be kept: a format with
    no patient field keeps only what its note id says (the patient id still made the
    surrogates consistent)."""
    patient = result.patient_id
    dropped = False
    if fmt in NO_PATIENT_FIELD:
        derived = ids_from_stem(result.id)[1]
        dropped = derived != patient
        patient = derived
    doc = Document(result.id, result.text, patient, layers={"gold": result.output_spans})
    return doc, dropped


def check_writable(doc: Document, fmt: str, encoding: str, target: Path) -> None:
    """Raise the error the writer of ``fmt`` would raise for this note."""
    if fmt in PER_NOTE_FILES:
        file_stem_for(doc, fmt, target)
    if fmt in ("i2b2-2014", "i2b2-2006"):
        _xml.check_chars(doc, target)
    if fmt == "i2b2-2006":
        i2b2_2006.render_record(doc, "gold", target)
    if fmt != "parquet":
        check_encodable(doc, encoding, target)


def built_path(work: Path, fmt: str) -> Path:
    """Where the output is assembled inside the work directory."""
    return work / f"output{SUFFIX.get(fmt, '')}"


def count_hint(path: Path, fmt: str) -> int | None:
    """How many notes the input holds, when that is cheap to know (for the ETA)."""
    try:
        if path.is_dir():
            if fmt in PER_NOTE_FILES:
                suffix = ".ann" if fmt == "brat" else (".xml" if fmt == "i2b2-2014" else ".txt")
                return sum(1 for p in path.iterdir() if p.suffix.lower() == suffix)
            return None
        if fmt in PER_NOTE_FILES:
            return 1
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return int(pq.ParquetFile(path).metadata.num_rows)
        if fmt == "jsonl":
            with path.open("rb") as handle:
                return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except Exception:  # only a hint: the reader reports the real problem
        return None
    return None
