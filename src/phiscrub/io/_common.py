"""Helpers shared by every corpus format: options, decoding, ids, spans, folders, output.

Nothing here ever puts note text into an error or a log line: messages name the
file, the line or tag, the offsets and the problem (see ``phiscrub.errors``).
"""

from __future__ import annotations

import codecs
import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from phiscrub.errors import (
    EmptyInput,
    EncodingProblem,
    FormatError,
    LabelError,
    PhiscrubError,
    SpanError,
    UsageError,
)
from phiscrub.span import Document, Span
from phiscrub.taxonomy import map_label

LOG = logging.getLogger("phiscrub.io")

SkipHandler = Callable[[str, PhiscrubError], None]

#: the layer that gold spans read from a file go into
GOLD = "gold"

_STEM_IDS = re.compile(r"^(\d+)-(\d+)")
_BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What a reader needs besides the path (``labels`` is already resolved)."""

    encoding: str = "utf-8"
    labels: str = "i2b2-2014"
    id_column: str = "id"
    text_column: str = "text"
    patient_column: str = "patient_id"
    #: called with (where, error) for a bad record of a multi-record file (a JSONL line,
    #: a table row, a 2006 record, a repeated id), which is then skipped; None: raise
    on_bad_record: SkipHandler | None = None


@dataclass(frozen=True, slots=True)
class WriteOptions:
    """What a writer needs besides the documents and the path."""

    layer: str = GOLD
    encoding: str = "utf-8"


ReadFile = Callable[[Path, ReadOptions], Iterator[Document]]
WriteFn = Callable[[Iterable[Document], Path, WriteOptions], None]


def skip_record(opts: ReadOptions, where: str, path: Path, err: PhiscrubError) -> None:
    """Report a bad record to ``opts.on_bad_record`` (the caller then skips it), or
    raise ``err`` when no handler is set."""
    if opts.on_bad_record is None:
        raise err
    LOG.warning("skipped %s, %s: [%s] %s", path, where, err.code, type(err).__name__)
    opts.on_bad_record(f"{path}: {where}", err)


def check_encoding(encoding: str) -> None:
    """Fail early on an encoding name Python does not know."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise UsageError(
            f"unknown encoding {encoding!r}", hint="use a Python codec name such as cp1252"
        ) from None


# -- reading bytes and text -------------------------------------------------------------


def read_bytes(path: Path, *, allow_empty: bool = False) -> bytes:
    """The bytes of a file; an OS error or (unless allowed) an empty file is an error."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise FormatError(f"cannot read the file: {err.strerror}", path=str(path)) from None
    if not data and not allow_empty:
        raise EmptyInput("the file is empty", path=str(path))
    return data


def decode(data: bytes, encoding: str, path: Path, *, base: int = 0) -> str:
    """Decode bytes exactly (no newline translation); name the bad byte offset on failure."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        raise EncodingProblem(
            f"bytes at offset {base + err.start} do not decode as {encoding}", path=str(path)
        ) from None


def read_text(path: Path, encoding: str, *, allow_empty: bool = False) -> str:
    """A file's text exactly as stored: CR, CRLF and a leading BOM are kept."""
    return decode(read_bytes(path, allow_empty=allow_empty), encoding, path)


def strip_bom(text: str) -> str:
    """Drop a leading byte-order mark (for structured formats, where it is not content)."""
    return text[1:] if text.startswith(_BOM) else text


def encode(text: str, encoding: str, what: str, path: Path) -> bytes:
    """Encode output text; a character the encoding cannot hold is an error."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as err:
        raise EncodingProblem(
            f"{what}: character U+{ord(text[err.start]):04X} at offset {err.start} "
            f"cannot be encoded in {encoding}",
            path=str(path),
            hint="write with --encoding utf-8",
        ) from None


def check_encodable(doc: Document, encoding: str, path: Path) -> None:
    """Check that a document's text can be written in ``encoding`` (error names the offset)."""
    encode(doc.text, encoding, f"document {doc.id}", path)


# -- ids, spans, documents ---------------------------------------------------------------


def ids_from_stem(stem: str) -> tuple[str, str]:
    """(document id, patient id) of a file stem: ``123-04`` is note ``123-04`` of patient ``123``.

    This is the official i2b2 scorer's rule; any other stem is its own patient.
    """
    match = _STEM_IDS.match(stem)
    return stem, match.group(1) if match else stem


def parse_offset(value: object, name: str, where: str, path: Path) -> int:
    """An offset given as an int or a string of digits; anything else is an error."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    raise SpanError(f"{where}: {name} offset is missing or not an integer", path=str(path))


def map_gold_label(raw: str, scheme: str, where: str, path: Path) -> str | None:
    """Our subtype for a file's label (None: not PHI); an unknown label is an error."""
    try:
        return map_label(raw, scheme)
    except LabelError as err:
        raise LabelError(f"{where}: {err.message}", path=str(path)) from None


@dataclass(frozen=True, slots=True)
class SpanContext:
    """Where a span comes from, for checks and error messages."""

    path: Path
    where: str
    labels: str
    source: str
    same: Callable[[str, str], bool] = str.__eq__


def build_span(
    text: str,
    start: int,
    end: int,
    raw_label: str,
    claimed: str | None,
    *,
    ctx: SpanContext,
) -> Span | None:
    """A gold span over ``text[start:end]``, checked; None when the label maps to no PHI.

    ``claimed`` is the span text the file states (None: the file states none); it must
    equal the text at the offsets, as ``ctx.same`` compares them.
    """
    where = f"{ctx.where} (offsets {start}-{end})"
    if not 0 <= start < end <= len(text):
        raise SpanError(
            f"{where}: offsets fall outside the text ({len(text)} characters)", path=str(ctx.path)
        )
    if claimed is not None and not ctx.same(claimed, text[start:end]):
        raise SpanError(
            f"{where}: the annotated text does not match the text at these offsets",
            path=str(ctx.path),
        )
    label = map_gold_label(raw_label, ctx.labels, where, ctx.path)
    return None if label is None else Span(start, end, label, text[start:end], ctx.source)


def new_document(
    doc_id: str, text: str, patient_id: str | None, spans: Iterable[Span | None], path: Path
) -> Document:
    """A document with its gold layer (spans that mapped to None are dropped)."""
    if not doc_id:
        raise FormatError("a document has an empty id", path=str(path))
    doc = Document(doc_id, text, patient_id)
    doc.set_layer(GOLD, [s for s in spans if s is not None])
    return doc


def spans_from_json(items: object, text: str, ctx: SpanContext) -> list[Span | None]:
    """Spans from a JSON list of ``{"start", "end", "label", "text"?}`` objects."""
    if items is None:
        return []
    if not isinstance(items, list):
        raise FormatError(f"{ctx.where}: 'spans' is not a list", path=str(ctx.path))
    spans = []
    for number, item in enumerate(items, 1):
        where = f"{ctx.where}, span {number}"
        if not isinstance(item, dict) or not isinstance(item.get("label"), str):
            raise FormatError(f"{where}: not an object with a string label", path=str(ctx.path))
        claimed = item.get("text")
        if claimed is not None and not isinstance(claimed, str):
            raise FormatError(f"{where}: 'text' is not a string", path=str(ctx.path))
        start = parse_offset(item.get("start"), "start", where, ctx.path)
        end = parse_offset(item.get("end"), "end", where, ctx.path)
        sub = replace(ctx, where=where)
        spans.append(build_span(text, start, end, item["label"], claimed, ctx=sub))
    return spans


def span_dicts(doc: Document, layer: str) -> list[dict[str, object]]:
    """The spans of a layer as JSON-ready dicts (start, end, label, text)."""
    return [span.to_dict() for span in doc.layer(layer)]


def id_value(value: object, name: str, where: str, path: Path) -> str | None:
    """An id field: a string or an integer (stored as text); None when absent."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise FormatError(f"{where}: '{name}' is not a string", path=str(path))


# -- streams of documents ----------------------------------------------------------------


def nonempty(docs: Iterable[Document], path: Path) -> Iterator[Document]:
    """Pass documents through; raise EmptyInput if there were none."""
    found = False
    for doc in docs:
        found = True
        yield doc
    if not found:
        raise EmptyInput("no document found", path=str(path))


def unique(
    docs: Iterable[Document], path: Path, on_repeat: SkipHandler | None = None
) -> Iterator[Document]:
    """Pass documents through; a repeated document id is an error (with ``on_repeat``:
    reported there, and the repeat skipped)."""
    seen: set[str] = set()
    for doc in docs:
        if doc.id in seen:
            err = FormatError(
                f"document id {doc.id!r} occurs twice",
                path=str(path),
                hint="document ids must be unique within a corpus",
            )
            skip_record(ReadOptions(on_bad_record=on_repeat), f"id {doc.id!r}", path, err)
            continue
        seen.add(doc.id)
        yield doc


def folder_files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The visible files of a folder (not recursive) whose suffix is one of ``suffixes``."""
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in suffixes
    )


def iter_folder(
    folder: Path,
    suffixes: tuple[str, ...],
    read_file: ReadFile,
    opts: ReadOptions,
    on_skip: SkipHandler | None,
) -> Iterator[Document]:
    """Read every matching file of a folder; a bad file is logged, reported and skipped.

    Each file is read whole before its documents are yielded, so that a bad file
    contributes nothing rather than the documents before its first error.
    """
    for path in folder_files(folder, suffixes):
        try:
            docs = list(nonempty(read_file(path, opts), path))
        except PhiscrubError as err:
            LOG.warning("skipped %s: [%s] %s", path, err.code, type(err).__name__)
            if on_skip is not None:
                on_skip(str(path), err)
            continue
        yield from docs


# -- writing -------------------------------------------------------------------------------


_UNSAFE_NAME = re.compile(r"[/\\\x00]")


def check_patient_in_id(doc: Document, fmt: str, path: Path) -> None:
    """For formats that hold no patient id: the patient must follow from the document id.

    Reading derives it with ``ids_from_stem``; a patient it cannot give back is an error
    rather than a silent loss.
    """
    if ids_from_stem(doc.id)[1] != doc.patient_id:
        raise FormatError(
            f"document {doc.id}: {fmt} has no place for a patient id, "
            f"and {doc.id!r} does not name patient {doc.patient_id!r}",
            path=str(path),
            hint="name documents <patient>-<n>, or write jsonl, csv or parquet",
        )


def file_stem_for(doc: Document, fmt: str, folder: Path) -> str:
    """The file stem a document is written under: its id, which must be a safe file name."""
    if _UNSAFE_NAME.search(doc.id) or doc.id.startswith("."):
        raise FormatError(f"document id {doc.id!r} cannot be used as a file name", path=str(folder))
    check_patient_in_id(doc, fmt, folder)
    return doc.id


def write_per_document(
    docs: Iterable[Document],
    folder: Path,
    render: Callable[[Document], Mapping[str, str]],
    opts: WriteOptions,
    fmt: str,
) -> None:
    """Write each document as files ``<id><suffix>`` (``render`` gives suffix -> content)."""
    folder.mkdir(parents=True, exist_ok=True)
    for doc in docs:
        stem = file_stem_for(doc, fmt, folder)
        check_encodable(doc, opts.encoding, folder)
        for suffix, content in render(doc).items():
            target = folder / f"{stem}{suffix}"
            data = encode(content, opts.encoding, f"document {doc.id}", target)
            with atomic_output(target) as out:
                out.write(data)


@contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """A binary file that replaces ``path`` only when the block ends without an error."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
