"""i2b2 2014 de-identification XML: one note per file, ``<patient>-<doc>.xml``.

``<deIdi2b2><TEXT><![CDATA[...]]></TEXT><TAGS><DATE id="P0" start="16" end="26"
text="2067-05-03" TYPE="DATE" comment="" />...</TAGS></deIdi2b2>``: the element is the
category, ``TYPE`` the subtype, offsets index the text of ``TEXT`` once parsed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from lxml import etree

from phiscrub.errors import FormatError, LabelError
from phiscrub.io import _xml
from phiscrub.io._common import (
    GOLD,
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
from phiscrub.taxonomy import CATEGORY_OF

NAME = "i2b2-2014"
SUFFIXES = (".xml",)
ROOT = "deIdi2b2"


def is_root(root: etree._Element) -> bool:
    """Whether a parsed root is an i2b2 2014 document: ``deIdi2b2``, or TEXT and TAGS inside."""
    return root.tag == ROOT or {"TEXT", "TAGS"} <= _xml.child_names(root)


def read_file(path: Path, opts: ReadOptions) -> Iterator[Document]:
    """The one document of an i2b2 2014 file, with its tags in the gold layer."""
    root = _xml.parse(read_text(path, opts.encoding), path)
    if not is_root(root):
        raise FormatError(
            f"not an i2b2 2014 file: the root element is <{root.tag}>", path=str(path)
        )
    text = _note_text(root, path)
    spans = [_tag_span(tag, n, text, opts, path) for n, tag in enumerate(_tags(root, path))]
    doc_id, patient = ids_from_stem(path.stem)
    yield new_document(doc_id, text, patient, spans, path)


def _only_child(root: etree._Element, name: str, path: Path) -> etree._Element | None:
    found = [child for child in _xml.elements(root) if child.tag == name]
    if len(found) > 1:
        raise FormatError(f"more than one <{name}> element", path=str(path))
    return found[0] if found else None


def _note_text(root: etree._Element, path: Path) -> str:
    element = _only_child(root, "TEXT", path)
    if element is None:
        raise FormatError("no <TEXT> element", path=str(path))
    return _xml.leaf_text(element, "<TEXT>", path)


def _tags(root: etree._Element, path: Path) -> list[etree._Element]:
    element = _only_child(root, "TAGS", path)
    return [] if element is None else _xml.elements(element)


def _tag_span(
    tag: etree._Element, number: int, text: str, opts: ReadOptions, path: Path
) -> Span | None:
    """Check one tag (offsets, text, TYPE, category) and build its span."""
    where = f"tag {tag.get('id') or f'#{number + 1}'}"
    start = parse_offset(tag.get("start"), "start", where, path)
    end = parse_offset(tag.get("end"), "end", where, path)
    raw = tag.get("TYPE")
    if raw is None:
        raise LabelError(f"{where} (offsets {start}-{end}): no TYPE attribute", path=str(path))
    ctx = SpanContext(path, where, opts.labels, NAME, _xml.same_attr_text)
    span = build_span(text, start, end, raw, tag.get("text"), ctx=ctx)
    if opts.labels == NAME and CATEGORY_OF[raw] != tag.tag:
        raise LabelError(
            f"{where} (offsets {start}-{end}): TYPE {raw} belongs to {CATEGORY_OF[raw]}, "
            f"not to the element <{tag.tag}>",
            path=str(path),
        )
    return span


# -- writing ---------------------------------------------------------------------------


def write(docs: Iterable[Document], folder: Path, opts: WriteOptions) -> None:
    """Write ``<id>.xml`` for each document into ``folder``, tags from ``opts.layer``."""

    def render(doc: Document) -> dict[str, str]:
        _xml.check_chars(doc, folder)
        return {".xml": render_document(doc, opts.layer, opts.encoding)}

    write_per_document(docs, folder, render, opts, NAME)


def render_document(doc: Document, layer: str = GOLD, encoding: str = "utf-8") -> str:
    """The XML of one document (its text must hold XML 1.0 characters only)."""
    tags = "".join(_render_tag(n, span) for n, span in enumerate(doc.layer(layer)))
    return (
        f"{_xml.declaration(encoding)}<{ROOT}>\n<TEXT>{cdata(doc.text)}</TEXT>\n"
        f"<TAGS>\n{tags}</TAGS>\n</{ROOT}>\n"
    )


def _render_tag(number: int, span: Span) -> str:
    return (
        f'<{span.category} id="P{number}" start="{span.start}" end="{span.end}" '
        f'text="{_xml.escape_attr(span.text)}" TYPE="{span.label}" comment="" />\n'
    )


def cdata(text: str) -> str:
    """Text as CDATA sections that a parser gives back exactly.

    A section cannot hold ``]]>`` (it is split between two sections), and a parser turns
    CR into LF even inside CDATA, so each CR is written between sections as ``&#13;``.
    """
    pieces = (piece.replace("]]>", "]]]]><![CDATA[>") for piece in text.split("\r"))
    return "<![CDATA[" + "]]>&#13;<![CDATA[".join(pieces) + "]]>"
