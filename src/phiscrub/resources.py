"""The data files shipped in ``phiscrub/data/``: word lists, patterns, templates.

Every list file has the same layout: one entry per line, blank lines and ``#`` comment
lines (the header saying where the list comes from and why it exists) skipped. Leading
whitespace is kept (template fragments align tables with it); trailing whitespace is not.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def data_lines(*parts: str) -> tuple[str, ...]:
    """The entries of ``phiscrub/data/<parts...>``, read once per process."""
    raw = files("phiscrub").joinpath("data", *parts).read_text(encoding="utf-8")
    return tuple(
        line.rstrip() for line in raw.splitlines() if line.strip() and not line.startswith("#")
    )


def data_table(*parts: str) -> tuple[tuple[str, ...], ...]:
    """A tab-separated data file: the fields of each entry."""
    return tuple(tuple(line.split("\t")) for line in data_lines(*parts))
