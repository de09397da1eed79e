"""BRAT standoff: ``name.txt`` holds the note, ``name.ann`` its text-bound annotations.

Each annotation is a line ``T1<TAB>LABEL START END<TAB>TEXT``. Discontinuous spans
(``START END;START END``) are not supported; other kinds of line (relations ``R``,
events ``E``, attributes ``A``, notes ``#``, normalizations ``N``...) are ignored.
A line cannot hold a line break, so in the TEXT field CR and LF are written as spaces.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from phiscrub.errors import FormatError
from phiscrub.io._common import (
    ReadOptions,
    SpanContext,
    WriteOptions,
    build_span,
    ids_from_stem,
    new_document,
    parse_offset,
    read_text,
    write_per_document,
)
from phiscrub.span import Document, Span

NAME = "brat"
SUFFIXES = (".txt",)
_LINE_BREAKS = str.maketrans({"\r": " ", "\n": " "})


def pair(path: Path) -> tuple[Path, Path]:
    """The ``.txt`` and ``.ann`` files of a document, given either of them."""
    return path.with_suffix(".txt"), path.with_suffix(".ann")


def read_file(path: Path, opts: ReadOptions) -> Iterator[Document]:
    """The document of a ``.txt`` / ``.ann`` pair (``path`` may name either file)."""
    txt, ann = pair(path)
    if not ann.is_file():
        raise FormatError(f"no annotation file {ann.name} beside the text", path=str(txt))
    text = read_text(txt, opts.encoding)
    spans = list(_annotations(read_text(ann, opts.encoding, allow_empty=True), text, opts, ann))
    doc_id, patient = ids_from_stem(txt.stem)
    yield new_document(doc_id, text, patient, spans, txt)


def _annotations(content: str, text: str, opts: ReadOptions, path: Path) -> Iterator[Span | None]:
    for number, line in enumerate(content.split("\n"), 1):
        line = line.removesuffix("\r")
        if line.startswith("T"):
            yield _text_bound(line, number, text, opts, path)


def _text_bound(line: str, number: int, text: str, opts: ReadOptions, path: Path) -> Span | None:
    """One ``T`` line: ``ID<TAB>LABEL START END<TAB>TEXT``."""
    where = f"line {number}"
    fields = line.split("\t", 2)
    if len(fields) != 3:
        raise FormatError(
            f"{where}: a T annotation needs three tab-separated fields", path=str(path)
        )
    if ";" in fields[1]:
        raise FormatError(
            f"{where}: discontinuous spans (START END;START END) are not supported",
            path=str(path),
            hint="split the annotation into one annotation per fragment",
        )
    head = fields[1].split(" ")
    if len(head) != 3:
        raise FormatError(
            f"{where}: expected 'LABEL START END' in the second field", path=str(path)
        )
    start = parse_offset(head[1], "start", where, path)
    end = parse_offset(head[2], "end", where, path)
    ctx = SpanContext(path, f"{where} ({fields[0]})", opts.labels, NAME, _same_flat)
    return build_span(text, start, end, head[0], fields[2], ctx=ctx)


def _same_flat(claimed: str, actual: str) -> bool:
    """The TEXT field equals the note's text with its line breaks written as spaces."""
    return claimed == actual.translate(_LINE_BREAKS)


def write(docs: Iterable[Document], folder: Path, opts: WriteOptions) -> None:
    """Write ``<id>.txt`` and ``<id>.ann`` for each document into ``folder``."""

    def render(doc: Document) -> dict[str, str]:
        return {".txt": doc.text, ".ann": render_ann(doc.layer(opts.layer))}

    write_per_document(docs, folder, render, opts, NAME)


def render_ann(spans: Iterable[Span]) -> str:
    return "".join(
        f"T{n}\t{s.label} {s.start} {s.end}\t{s.text.translate(_LINE_BREAKS)}\n"
        for n, s in enumerate(spans, 1)
    )
