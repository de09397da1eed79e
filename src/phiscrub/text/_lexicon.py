"""Read the word lists shipped as data files in ``phiscrub/data/``."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

__all__ = ["load_lines"]


@cache
def load_lines(name: str) -> tuple[str, ...]:
    """The entries of ``phiscrub/data/<name>``: one a line, ``#`` comments and blanks skipped."""
    raw = files("phiscrub").joinpath("data", name).read_text(encoding="utf-8")
    entries = (line.strip() for line in raw.splitlines())
    return tuple(line for line in entries if line and not line.startswith("#"))
