"""Format detection, by extension and by content.

A file: ``.xml`` is sniffed (root ``deIdi2b2``, or any root holding TEXT and TAGS:
i2b2 2014; ``ROOT`` holding ``RECORD``: i2b2 2006); ``.txt`` is brat when a ``.ann``
lies beside it, plain text otherwise; ``.ann`` is brat; ``.jsonl`` / ``.json`` JSONL;
``.csv`` CSV; ``.parquet`` / ``.pq`` Parquet. A file with another extension is
sniffed by its first bytes. A folder: by the files it holds.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from lxml import etree

from phiscrub.errors import FormatError
from phiscrub.io import brat, i2b2_2006, i2b2_2014, jsonl, table, text
from phiscrub.io._common import folder_files, read_bytes

_BY_SUFFIX = {
    **dict.fromkeys(jsonl.SUFFIXES, jsonl.NAME),
    **dict.fromkeys(table.CSV_SUFFIXES, table.CSV),
    **dict.fromkeys(table.PARQUET_SUFFIXES, table.PARQUET),
}
_KNOWN = (".xml", ".txt", ".ann", *_BY_SUFFIX)
_SNIFF_BYTES = 4096
_XML_SNIFF_LIMIT = 10


def detect_format(path: str | Path) -> str:
    """The format of a corpus file or folder; FormatError when it cannot be decided."""
    path = Path(path)
    if path.is_dir():
        return _detect_folder(path)
    if path.is_file():
        return _detect_file(path)
    raise FormatError("no such file or folder", path=str(path))


def _detect_file(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ".xml":
        return _sniff_xml(path)
    if suffix == ".ann" or (suffix == ".txt" and path.with_suffix(".ann").is_file()):
        return brat.NAME
    if suffix == ".txt":
        return text.NAME
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    return _sniff_content(path)


def _sniff_content(path: Path) -> str:
    """A file without a known extension, by its first bytes."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError as err:
        raise FormatError(f"cannot read the file: {err.strerror}", path=str(path)) from None
    if head.startswith(b"PAR1"):
        return table.PARQUET
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start == b"<":
        return _sniff_xml(path)
    if start == b"{":
        return jsonl.NAME
    raise FormatError(
        "cannot tell the format from the extension or the content",
        path=str(path),
        hint="pass format= (one of the formats in phiscrub.io.FORMATS)",
    )


def xml_kind(path: Path) -> str | None:
    """i2b2-2014, i2b2-2006, or None, from the root and its first children.

    Only the start of the file is parsed (latin-1 forced: tag names are ASCII, and any
    byte decodes), so a file broken further on is still recognized, and read later
    with a precise error.
    """
    data = read_bytes(path, allow_empty=True).removeprefix(b"\xef\xbb\xbf")
    root: str | None = None
    children: set[str] = set()
    depth = 0
    events = etree.iterparse(
        io.BytesIO(data), events=("start", "end"), encoding="ISO-8859-1",
        resolve_entities=False, no_network=True, load_dtd=False,
    )  # fmt: skip
    try:
        for event, element in events:
            depth += 1 if event == "start" else -1
            if event == "start" and depth == 1:
                root = str(element.tag)
            elif event == "start" and depth == 2:
                children.add(str(element.tag))
            if len(children) >= _XML_SNIFF_LIMIT or _decide(root, children):
                break
    except etree.XMLSyntaxError:
        # lxml 6.2 (libxml2 2.14) parses a chunk before it yields the chunk's events, so
        # an error anywhere in a small file comes before its first tag is seen: read the
        # names from a recovering parse instead (they only choose the reader, which
        # parses strictly and reports the error with its line)
        if _decide(root, children) is None:
            root, children = _recovered_names(data)
    return _decide(root, children)


def _recovered_names(data: bytes) -> tuple[str | None, set[str]]:
    """The root's tag and its children's, from libxml2's best-effort parse."""
    parser = etree.XMLParser(
        recover=True, resolve_entities=False, no_network=True, load_dtd=False,
        encoding="ISO-8859-1",
    )  # fmt: skip
    try:
        tree = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return None, set()
    if tree is None:  # nothing recoverable
        return None, set()
    return str(tree.tag), {str(c.tag) for c in tree if isinstance(c.tag, str)}


def _decide(root: str | None, children: set[str]) -> str | None:
    if root == i2b2_2014.ROOT or {"TEXT", "TAGS"} <= children:
        return i2b2_2014.NAME
    if root == "ROOT" and "RECORD" in children:
        return i2b2_2006.NAME
    return None


def _sniff_xml(path: Path) -> str:
    kind = xml_kind(path)
    if kind is None:
        raise FormatError(
            "an XML file that is neither i2b2 2014 (<deIdi2b2>, or TEXT and TAGS) "
            "nor i2b2 2006 (<ROOT><RECORD>)",
            path=str(path),
        )
    return kind


def _detect_folder(folder: Path) -> str:
    files = folder_files(folder, _KNOWN)
    suffixes = Counter(p.suffix.lower() for p in files)
    if suffixes[".ann"]:
        return brat.NAME
    kinds = {_BY_SUFFIX.get(s, s) for s in suffixes}
    if len(kinds) > 1:
        raise FormatError(f"the folder mixes {', '.join(sorted(kinds))} files", path=str(folder))
    if not kinds:
        raise FormatError("the folder holds no corpus file", path=str(folder))
    kind = kinds.pop()
    if kind == ".txt":
        return text.NAME
    if kind == ".xml":
        return _folder_xml_kind(files, folder)
    return kind


def _folder_xml_kind(files: list[Path], folder: Path) -> str:
    """The kind of the first XML files that can be recognized (they must agree)."""
    kinds = {k for p in files[:_XML_SNIFF_LIMIT] if (k := xml_kind(p)) is not None}
    if len(kinds) != 1:
        found = "both i2b2 2014 and 2006" if kinds else "no i2b2 XML file"
        raise FormatError(f"cannot tell the XML format: {found}", path=str(folder))
    return kinds.pop()
