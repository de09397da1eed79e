"""Plain text: a folder of ``<id>.txt`` files, one note each, no annotation."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from phiscrub.io._common import (
    ReadOptions,
    WriteOptions,
    ids_from_stem,
    new_document,
    read_text,
    write_per_document,
)
from phiscrub.span import Document

NAME = "text"
SUFFIXES = (".txt",)


def read_file(path: Path, opts: ReadOptions) -> Iterator[Document]:
    """The note of one text file, exactly as stored (CR and CRLF kept)."""
    doc_id, patient = ids_from_stem(path.stem)
    yield new_document(doc_id, read_text(path, opts.encoding), patient, [], path)


def write(docs: Iterable[Document], folder: Path, opts: WriteOptions) -> None:
    """Write ``<id>.txt`` for each document into ``folder`` (spans are not written)."""
    write_per_document(docs, folder, lambda doc: {".txt": doc.text}, opts, NAME)
