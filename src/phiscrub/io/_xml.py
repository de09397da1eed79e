"""XML helpers shared by the two i2b2 formats: a safe lxml parser, escaping, checks.

XML cannot carry every string: a parser turns CR and CRLF into LF (even inside
CDATA), normalizes tabs and newlines in attribute values to spaces, and XML 1.0
has no way at all to write most C0 controls (form feed, NUL...). The writers
therefore escape CR (and, in attributes, tab and LF) as character references and
refuse characters XML 1.0 cannot hold.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from phiscrub.errors import FormatError
from phiscrub.io._common import strip_bom
from phiscrub.span import Document

#: characters outside XML 1.0's Char production
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_WHITESPACE = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def parse(text: str, path: Path) -> etree._Element:
    """Parse decoded XML text with lxml: no entities resolved, no DTD, no network.

    The text was decoded by us (honouring ``encoding=``), so the parser is told to read
    UTF-8 whatever the XML declaration says.
    """
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, encoding="utf-8"
    )
    try:
        root = etree.fromstring(strip_bom(text).encode("utf-8"), parser)
    except etree.XMLSyntaxError as err:
        # libxml2 quotes names found in the input (tag and entity names), which may be
        # note text: keep only the kind of problem and its position.
        kind = (err.msg or "syntax error").split(":")[0].split(",")[0]
        line, column = err.position
        raise FormatError(
            f"invalid XML at line {line}, column {column}: {kind}", path=str(path)
        ) from None
    if root.getroottree().docinfo.internalDTD is not None:
        raise FormatError("a DOCTYPE declaration is not supported in corpus files", path=str(path))
    return root


def elements(parent: etree._Element) -> list[etree._Element]:
    """The child elements of ``parent`` (comments and processing instructions left out)."""
    return [child for child in parent if isinstance(child.tag, str)]


def child_names(root: etree._Element) -> set[str]:
    return {str(child.tag) for child in elements(root)}


def leaf_text(element: etree._Element, what: str, path: Path) -> str:
    """The text of an element that must hold text only (no child nodes of any kind)."""
    if len(element):
        raise FormatError(f"{what} must hold text only, not child nodes", path=str(path))
    return element.text or ""


def check_chars(doc: Document, path: Path) -> None:
    """Raise FormatError if the id or the text holds a character XML 1.0 cannot carry."""
    if _NOT_XML.search(doc.id):
        raise FormatError(f"document id {doc.id!r} cannot be written in XML 1.0", path=str(path))
    bad = _NOT_XML.search(doc.text)
    if bad is not None:
        raise FormatError(
            f"document {doc.id}: character U+{ord(bad.group()):04X} at offset {bad.start()} "
            "cannot be written in XML 1.0",
            path=str(path),
            hint="write jsonl, brat, csv or parquet, which keep every character",
        )


def escape_text(text: str) -> str:
    """Escape element content: & < > and CR (which a parser would otherwise turn into LF)."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    )


def escape_attr(text: str) -> str:
    """Escape an attribute value so that a parser gives it back exactly."""
    return escape_text(text).replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;")


def same_attr_text(claimed: str, actual: str) -> bool:
    """Whether an attribute's text matches the note's text.

    Exact, or equal once XML attribute normalization is undone: a file written with a
    literal newline in ``text="..."`` reads back with a space there (a CRLF with one space).
    """
    if claimed == actual:
        return True
    return claimed.translate(_WHITESPACE) == actual.replace("\r\n", "\n").translate(_WHITESPACE)


def declaration(encoding: str) -> str:
    name = "UTF-8" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    return f'<?xml version="1.0" encoding="{name}" ?>\n'
