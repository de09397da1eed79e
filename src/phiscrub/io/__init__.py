"""Corpus input and output: read notes and their gold spans, write them back exactly.

Formats (``FORMATS``): i2b2 2014 XML, i2b2 2006 XML, BRAT standoff, JSON Lines,
folders of plain text, CSV and Parquet tables; see ``docs/formats.md``. Offsets
count Python code points of the original text. Gold spans read from a file go
into the document layer ``gold``; writers write the spans of one layer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from phiscrub.errors import PhiscrubError, UsageError
from phiscrub.io import brat, i2b2_2006, i2b2_2014, jsonl, table, text
from phiscrub.io._common import (
    GOLD,
    ReadFile,
    ReadOptions,
    SkipHandler,
    WriteFn,
    WriteOptions,
    check_encoding,
    iter_folder,
    nonempty,
    unique,
)
from phiscrub.io.detect import detect_format
from phiscrub.span import Document
from phiscrub.taxonomy import SCHEMES

__all__ = [
    "FORMATS",
    "GOLD",
    "Corpus",
    "detect_format",
    "iter_documents",
    "read_corpus",
    "write_corpus",
]

FORMATS = ("i2b2-2014", "i2b2-2006", "brat", "jsonl", "text", "csv", "parquet")


@dataclass(frozen=True, slots=True)
class _Codec:
    """How one format is read and written."""

    read_file: ReadFile
    write: WriteFn
    suffixes: tuple[str, ...]
    labels: str = "i2b2-2014"


_CODECS: dict[str, _Codec] = {
    i2b2_2014.NAME: _Codec(i2b2_2014.read_file, i2b2_2014.write, i2b2_2014.SUFFIXES),
    i2b2_2006.NAME: _Codec(
        i2b2_2006.read_file, i2b2_2006.write, i2b2_2006.SUFFIXES, i2b2_2006.LABELS
    ),
    brat.NAME: _Codec(brat.read_file, brat.write, brat.SUFFIXES),
    jsonl.NAME: _Codec(jsonl.read_file, jsonl.write, jsonl.SUFFIXES),
    text.NAME: _Codec(text.read_file, text.write, text.SUFFIXES),
    table.CSV: _Codec(table.read_csv, table.write_csv, table.CSV_SUFFIXES),
    table.PARQUET: _Codec(table.read_parquet, table.write_parquet, table.PARQUET_SUFFIXES),
}
assert tuple(_CODECS) == FORMATS


@dataclass
class Corpus:
    """The documents read from a path, and the files of a folder that could not be read."""

    documents: list[Document]
    skipped: list[tuple[str, PhiscrubError]] = field(default_factory=list)


def read_corpus(
    path: str | Path,
    *,
    format: str | None = None,
    encoding: str = "utf-8",
    labels: str | None = None,
    id_column: str = "id",
    text_column: str = "text",
    patient_column: str = "patient_id",
) -> Corpus:
    """Read every document of a file or folder (see ``iter_documents``)."""
    skipped: list[tuple[str, PhiscrubError]] = []
    documents = list(
        iter_documents(
            path,
            format=format,
            encoding=encoding,
            labels=labels,
            id_column=id_column,
            text_column=text_column,
            patient_column=patient_column,
            on_skip=lambda where, err: skipped.append((where, err)),
        )
    )
    return Corpus(documents, skipped)


def iter_documents(
    path: str | Path,
    *,
    format: str | None = None,
    encoding: str = "utf-8",
    labels: str | None = None,
    id_column: str = "id",
    text_column: str = "text",
    patient_column: str = "patient_id",
    on_skip: SkipHandler | None = None,
    on_bad_record: SkipHandler | None = None,
) -> Iterator[Document]:
    """Stream the documents of a file or folder, gold spans in the layer ``gold``.

    ``format`` defaults to ``detect_format(path)``; ``labels`` names the label scheme of
    the file (default: i2b2-2006 for that format, i2b2-2014 otherwise). A single bad file
    raises; in a folder a bad file is logged, passed to ``on_skip(path, error)`` and
    skipped. With ``on_bad_record(where, error)``, a bad record of a multi-record file (a
    JSONL line, a CSV or Parquet row, an i2b2 2006 record, a repeated document id) is
    reported there and skipped instead of raising. Arguments are checked at once; the
    files are read as the result is consumed.
    """
    path = Path(path)
    codec = _codec(format or detect_format(path))
    check_encoding(encoding)
    scheme = labels or codec.labels
    if scheme not in SCHEMES:
        raise UsageError(
            f"unknown label scheme {scheme!r}", hint=f"use one of {', '.join(SCHEMES)}"
        )
    opts = ReadOptions(encoding, scheme, id_column, text_column, patient_column, on_bad_record)
    if path.is_dir():
        docs = iter_folder(path, codec.suffixes, codec.read_file, opts, on_skip)
    else:
        docs = codec.read_file(path, opts)
    return unique(nonempty(docs, path), path, on_bad_record)


def write_corpus(
    docs: Iterable[Document],
    path: str | Path,
    *,
    format: str,
    layer: str = GOLD,
    encoding: str = "utf-8",
) -> None:
    """Write documents with the spans of ``layer``.

    i2b2-2014, brat and text write one file per document into the folder ``path``;
    the other formats write the single file ``path``. Reading the result back gives the
    same ids, patient ids, texts and spans, or the writer raises.
    """
    codec = _codec(format)
    check_encoding(encoding)
    path = Path(path)
    codec.write(unique(docs, path), path, WriteOptions(layer, encoding))


def _codec(format: str) -> _Codec:
    try:
        return _CODECS[format]
    except KeyError:
        raise UsageError(
            f"unknown format {format!r}", hint=f"use one of {', '.join(FORMATS)}"
        ) from None
