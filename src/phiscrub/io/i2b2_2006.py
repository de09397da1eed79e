"""i2b2 2006 de-identification XML: many records per file, PHI marked inline.

``<ROOT><RECORD ID="1"><TEXT>seen by <PHI TYPE="DOCTOR">Dr. Oak</PHI> ...</TEXT></RECORD></ROOT>``.
A span's offsets are where its ``PHI`` element's text falls in the record's text once
the markup is taken out. Labels are the 2006 types (``taxonomy.FROM_I2B2_2006``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from lxml import etree

from phiscrub.errors import FormatError, PhiscrubError
from phiscrub.io import _xml
from phiscrub.io._common import (
    ReadOptions,
    SpanContext,
    WriteOptions,
    atomic_output,
    build_span,
    check_encodable,
    check_patient_in_id,
    encode,
    id_value,
    ids_from_stem,
    new_document,
    read_text,
    skip_record,
)
from phiscrub.span import Document, Span
from phiscrub.taxonomy import TO_I2B2_2006

NAME = "i2b2-2006"
SUFFIXES = (".xml",)
LABELS = "i2b2-2006"


def read_file(path: Path, opts: ReadOptions) -> Iterator[Document]:
    """The records of a 2006 file, in file order."""
    root = _xml.parse(read_text(path, opts.encoding), path)
    if root.tag != "ROOT":
        raise FormatError(
            f"not an i2b2 2006 file: the root element is <{root.tag}>", path=str(path)
        )
    for number, record in enumerate(_xml.elements(root), 1):
        if record.tag != "RECORD":
            raise FormatError(
                f"element {number} under <ROOT> is <{record.tag}>, not <RECORD>", path=str(path)
            )
        try:
            doc = _record(record, number, opts, path)
        except PhiscrubError as err:
            skip_record(opts, f"record {number}", path, err)
            continue
        yield doc


def _record(record: etree._Element, number: int, opts: ReadOptions, path: Path) -> Document:
    where = f"record {number}"
    doc_id = id_value(record.get("ID"), "ID", where, path)
    if not doc_id:
        raise FormatError(f"{where} has no ID attribute", path=str(path))
    texts = [child for child in _xml.elements(record) if child.tag == "TEXT"]
    if len(texts) != 1 or len(_xml.elements(record)) != 1:
        raise FormatError(f"record {doc_id} must hold exactly one <TEXT>", path=str(path))
    text, spans = _inline(texts[0], f"record {doc_id}", opts, path)
    return new_document(doc_id, text, ids_from_stem(doc_id)[1], spans, path)


def _inline(
    element: etree._Element, where: str, opts: ReadOptions, path: Path
) -> tuple[str, list[Span | None]]:
    """The plain text of a ``<TEXT>`` and the spans of the ``<PHI>`` elements inside it."""
    parts = [element.text or ""]
    found: list[tuple[int, int, str]] = []
    for number, phi in enumerate(element, 1):
        if phi.tag != "PHI" or len(phi) or not phi.text:
            raise FormatError(
                f"{where}: node {number} inside <TEXT> is not a <PHI> element holding text only",
                path=str(path),
            )
        start = sum(map(len, parts))
        found.append((start, start + len(phi.text), phi.get("TYPE") or ""))
        parts += [phi.text, phi.tail or ""]
    text = "".join(parts)
    spans = []
    for number, (start, end, raw) in enumerate(found, 1):
        ctx = SpanContext(path, f"{where}, PHI {number}", opts.labels, NAME)
        spans.append(build_span(text, start, end, raw, None, ctx=ctx))
    return text, spans


# -- writing ---------------------------------------------------------------------------


def write(docs: Iterable[Document], path: Path, opts: WriteOptions) -> None:
    """Write every document as a ``<RECORD>`` of one file, PHI inline from ``opts.layer``."""
    with atomic_output(path) as out:
        out.write(
            encode(f"{_xml.declaration(opts.encoding)}<ROOT>\n", opts.encoding, "header", path)
        )
        for doc in docs:
            _xml.check_chars(doc, path)
            check_encodable(doc, opts.encoding, path)
            check_patient_in_id(doc, NAME, path)
            out.write(
                encode(
                    render_record(doc, opts.layer, path), opts.encoding, f"document {doc.id}", path
                )
            )
        out.write(b"</ROOT>\n")


def render_record(doc: Document, layer: str, path: Path) -> str:
    """One ``<RECORD>``; labels without a 2006 type and overlapping spans are errors."""
    spans = doc.layer(layer)
    missing = sorted({s.label for s in spans if s.label not in TO_I2B2_2006})
    if missing:
        raise FormatError(
            f"document {doc.id}: labels without an i2b2 2006 type: {', '.join(missing)}",
            path=str(path),
            hint="map or drop these spans, or write another format",
        )
    parts, at = [], 0
    for span in spans:
        if span.start < at:
            raise FormatError(
                f"document {doc.id}: span {span.start}-{span.end} overlaps another; "
                "inline XML cannot nest spans",
                path=str(path),
            )
        parts += [_xml.escape_text(doc.text[at : span.start]), _phi(span)]
        at = span.end
    parts.append(_xml.escape_text(doc.text[at:]))
    return f'<RECORD ID="{_xml.escape_attr(doc.id)}">\n<TEXT>{"".join(parts)}</TEXT>\n</RECORD>\n'


def _phi(span: Span) -> str:
    return f'<PHI TYPE="{TO_I2B2_2006[span.label]}">{_xml.escape_text(span.text)}</PHI>'
