"""Tables of notes: CSV and Parquet, read and written with pyarrow.

Columns: an id, a text, an optional patient id (names configurable), and an
optional ``spans`` column holding each note's spans as a JSON list. pyarrow's CSV
writer quotes every string and its reader (with ``newlines_in_values``) gives
quoted CR, CRLF and LF back exactly, which the round-trip tests check.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, Literal

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from phiscrub.errors import FormatError, PhiscrubError
from phiscrub.io._common import (
    ReadOptions,
    SpanContext,
    WriteOptions,
    atomic_output,
    check_encodable,
    encode,
    new_document,
    read_text,
    skip_record,
    span_dicts,
    spans_from_json,
    strip_bom,
)
from phiscrub.span import Document

CSV = "csv"
PARQUET = "parquet"
CSV_SUFFIXES = (".csv",)
PARQUET_SUFFIXES = (".parquet", ".pq")
SPANS_COLUMN = "spans"
_BATCH = 1000
_ARROW_ERRORS = (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError, OSError)


# -- reading ---------------------------------------------------------------------------


def read_csv(path: Path, opts: ReadOptions) -> Iterator[Document]:
    """The rows of a CSV file as documents (decoded by us, so ``encoding`` is honoured)."""
    data = strip_bom(read_text(path, opts.encoding)).encode("utf-8")
    every = (opts.id_column, opts.text_column, opts.patient_column, SPANS_COLUMN)
    parse = pacsv.ParseOptions(newlines_in_values=True)
    if opts.on_bad_record is not None:
        parse.invalid_row_handler = _InvalidRows(opts, path)
    try:
        table = pacsv.read_csv(
            io.BytesIO(data),
            read_options=pacsv.ReadOptions(block_size=max(1 << 20, len(data) + 1)),
            parse_options=parse,
            convert_options=pacsv.ConvertOptions(column_types=dict.fromkeys(every, pa.string())),
        )
    except _ARROW_ERRORS as err:
        raise FormatError(
            f"not a readable CSV table: {_arrow_reason(err)}", path=str(path)
        ) from None
    columns = _columns(table.schema, opts, path)
    yield from _rows(table.select(columns).to_batches(), opts, path, CSV)


class _InvalidRows:
    """pyarrow's handler of a CSV row with the wrong number of fields: reported and
    skipped (its text, which may be PHI, is never looked at)."""

    def __init__(self, opts: ReadOptions, path: Path) -> None:
        self.opts, self.path, self.count = opts, path, 0

    def __call__(self, row: pacsv.InvalidRow) -> Literal["skip", "error"]:
        self.count += 1
        err = FormatError(
            f"malformed row: {row.actual_columns} fields where the header has "
            f"{row.expected_columns}",
            path=str(self.path),
            hint="quote fields that hold commas, quotes or line breaks",
        )
        skip_record(self.opts, f"malformed row {self.count}", self.path, err)
        return "skip"


def read_parquet(path: Path, opts: ReadOptions) -> Iterator[Document]:
    """The rows of a Parquet file as documents, read a batch at a time."""
    try:
        parquet = pq.ParquetFile(path)
        columns = _columns(parquet.schema_arrow, opts, path)
        batches = parquet.iter_batches(batch_size=_BATCH, columns=columns)
        yield from _rows(batches, opts, path, PARQUET)
    except _ARROW_ERRORS as err:
        raise FormatError(
            f"not a readable Parquet file: {_arrow_reason(err)}", path=str(path)
        ) from None


def _arrow_reason(err: Exception) -> str:
    """pyarrow's first line, cut before anything it quotes from the file (it may be PHI)."""
    first = str(err).split("\n")[0]
    return ": ".join(first.split(": ")[:2]).split("'")[0].split('"')[0].rstrip(" :")


def _columns(schema: pa.Schema, opts: ReadOptions, path: Path) -> list[str]:
    """The columns to read: id and text (required), patient and spans (if present)."""
    found = list(schema.names)
    missing = [c for c in (opts.id_column, opts.text_column) if c not in found]
    if missing:
        raise FormatError(
            f"missing column(s) {', '.join(missing)}; the columns are {', '.join(found) or 'none'}",
            path=str(path),
            hint="name the id and text columns with id_column= / text_column=",
        )
    optional = [c for c in (opts.patient_column, SPANS_COLUMN) if c in found]
    return [opts.id_column, opts.text_column, *optional]


def _rows(
    batches: Iterable[pa.RecordBatch], opts: ReadOptions, path: Path, source: str
) -> Iterator[Document]:
    number = 0
    for batch in batches:
        cells = {name: _strings(batch.column(name), name, path) for name in batch.schema.names}
        for i in range(batch.num_rows):
            number += 1
            row = {name: column[i] for name, column in cells.items()}
            try:
                doc = _row(row, SpanContext(path, f"row {number}", opts.labels, source), opts)
            except PhiscrubError as err:
                skip_record(opts, f"row {number}", path, err)
                continue
            yield doc


def _strings(column: pa.Array[Any], name: str, path: Path) -> list[str | None]:
    """A column as Python strings (integer ids are accepted and written as text)."""
    if pa.types.is_integer(column.type):
        column = column.cast(pa.string())
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        raise FormatError(f"column {name} holds {column.type}, not text", path=str(path))
    values: list[str | None] = column.to_pylist()
    return values


def _row(row: dict[str, str | None], ctx: SpanContext, opts: ReadOptions) -> Document:
    doc_id, text = row[opts.id_column], row[opts.text_column]
    if not doc_id or text is None:
        raise FormatError(f"{ctx.where}: the id or the text is empty", path=str(ctx.path))
    spans = spans_from_json(_spans_cell(row.get(SPANS_COLUMN), ctx), text, ctx)
    return new_document(doc_id, text, row.get(opts.patient_column), spans, ctx.path)


def _spans_cell(cell: str | None, ctx: SpanContext) -> Any:
    if not cell:
        return None
    try:
        return json.loads(cell)
    except json.JSONDecodeError as err:
        raise FormatError(
            f"{ctx.where}: the spans cell is not JSON (column {err.colno}: {err.msg})",
            path=str(ctx.path),
        ) from None


# -- writing ---------------------------------------------------------------------------

SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("patient_id", pa.string()),
        ("text", pa.string()),
        (SPANS_COLUMN, pa.string()),
    ]
)


def _batches(docs: Iterable[Document], opts: WriteOptions, path: Path) -> Iterator[pa.RecordBatch]:
    it = iter(docs)
    while chunk := list(islice(it, _BATCH)):
        for doc in chunk:
            check_encodable(doc, opts.encoding, path)
        columns = [
            [d.id for d in chunk],
            [d.patient_id for d in chunk],
            [d.text for d in chunk],
            [json.dumps(span_dicts(d, opts.layer), ensure_ascii=False) for d in chunk],
        ]
        yield pa.record_batch([pa.array(c, pa.string()) for c in columns], schema=SCHEMA)


def write_csv(docs: Iterable[Document], path: Path, opts: WriteOptions) -> None:
    """Write a CSV table (header ``id,patient_id,text,spans``) in ``opts.encoding``."""
    with atomic_output(path) as out:
        header = True
        for batch in _batches(docs, opts, path):
            out.write(_csv_bytes(batch, header, opts.encoding, path))
            header = False
        if header:  # no document: still write the header
            out.write(_csv_bytes(SCHEMA.empty_table(), True, opts.encoding, path))


def _csv_bytes(batch: pa.RecordBatch | pa.Table, header: bool, encoding: str, path: Path) -> bytes:
    buffer = io.BytesIO()
    pacsv.write_csv(batch, buffer, pacsv.WriteOptions(include_header=header))
    return encode(buffer.getvalue().decode("utf-8"), encoding, "table", path)


def write_parquet(docs: Iterable[Document], path: Path, opts: WriteOptions) -> None:
    """Write a Parquet table with the columns ``id, patient_id, text, spans`` (UTF-8)."""
    with atomic_output(path) as out, pq.ParquetWriter(out, SCHEMA) as writer:
        for batch in _batches(docs, opts, path):
            writer.write_batch(batch)
