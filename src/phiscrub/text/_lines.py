"""Lines of a text with their offsets (line boundaries as ``str.splitlines`` has them)."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LINE_BREAKS", "Line", "lines"]

#: the characters at which ``str.splitlines`` ends a line (``\r\n`` counts as one break)
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


class Line(NamedTuple):
    """A line: ``text[start:end]`` without its line break; the next line starts at ``next``."""

    start: int
    end: int
    next: int


def lines(text: str) -> list[Line]:
    """Every line of ``text`` (none for an empty text), with offsets."""
    out: list[Line] = []
    pos = 0
    for chunk in text.splitlines(keepends=True):
        out.append(Line(pos, pos + len(chunk.rstrip(LINE_BREAKS)), pos + len(chunk)))
        pos += len(chunk)
    return out
