"""JSON Lines: one note per line, ``{"id", "patient_id", "text", "spans": [...]}``.

``patient_id`` and ``spans`` are optional on reading; a span is
``{"start", "end", "label", "text"}`` (``text`` optional, checked when present).
The file is read a line at a time, so a large corpus streams.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from phiscrub.errors import FormatError, PhiscrubError
from phiscrub.io._common import (
    ReadOptions,
    SpanContext,
    WriteOptions,
    atomic_output,
    check_encodable,
    decode,
    encode,
    id_value,
    new_document,
    skip_record,
    span_dicts,
    spans_from_json,
    strip_bom,
)
from phiscrub.span import Document

NAME = "jsonl"
SUFFIXES = (".jsonl", ".json")


def read_file(path: Path, opts: ReadOptions) -> Iterator[Document]:
    """The documents of a JSONL file, one per non-blank line (a bad line raises, or
    goes to ``opts.on_bad_record`` and is skipped)."""
    for number, raw, offset in _lines(path):
        try:
            line = decode(raw, opts.encoding, path, base=offset)
            line = strip_bom(line) if number == 1 else line
            if not line.strip():
                continue
            doc = _document(_parse(line, number, path), number, opts, path)
        except PhiscrubError as err:
            skip_record(opts, f"line {number}", path, err)
            continue
        yield doc


def _lines(path: Path) -> Iterator[tuple[int, bytes, int]]:
    """(line number, raw line, byte offset of the line in the file)."""
    try:
        handle = path.open("rb")
    except OSError as err:
        raise FormatError(f"cannot read the file: {err.strerror}", path=str(path)) from None
    with handle:
        offset = 0
        for number, raw in enumerate(handle, 1):
            yield number, raw, offset
            offset += len(raw)


def _parse(line: str, number: int, path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise FormatError(
            f"line {number}: invalid JSON at column {err.colno}: {err.msg}", path=str(path)
        ) from None
    if not isinstance(obj, dict):
        raise FormatError(f"line {number}: not a JSON object", path=str(path))
    return obj


def _document(obj: dict[str, Any], number: int, opts: ReadOptions, path: Path) -> Document:
    where = f"line {number}"
    doc_id = id_value(obj.get("id"), "id", where, path)
    text = obj.get("text")
    if doc_id is None or not isinstance(text, str):
        raise FormatError(f"{where}: needs a string 'id' and a string 'text'", path=str(path))
    patient = id_value(obj.get("patient_id"), "patient_id", where, path)
    ctx = SpanContext(path, f"{path.name}:{number}", opts.labels, NAME)
    return new_document(doc_id, text, patient, spans_from_json(obj.get("spans"), text, ctx), path)


def write(docs: Iterable[Document], path: Path, opts: WriteOptions) -> None:
    """Write one JSON object per line (non-ASCII characters kept as they are)."""
    with atomic_output(path) as out:
        for doc in docs:
            check_encodable(doc, opts.encoding, path)
            out.write(
                encode(render(doc, opts.layer) + "\n", opts.encoding, f"document {doc.id}", path)
            )


def render(doc: Document, layer: str) -> str:
    record = {
        "id": doc.id,
        "patient_id": doc.patient_id,
        "text": doc.text,
        "spans": span_dicts(doc, layer),
    }
    return json.dumps(record, ensure_ascii=False)
