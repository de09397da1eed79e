"""Data files of ``phiscrub/data/surrogate/``: one item per line, ``#`` comment header."""

from __future__ import annotations

from phiscrub.resources import data_lines


def lexicon(filename: str) -> tuple[str, ...]:
    """The entries of a data file in ``phiscrub/data/surrogate`` (see ``phiscrub.resources``)."""
    return data_lines("surrogate", filename)


def pairs(filename: str) -> tuple[tuple[str, str], ...]:
    """A two-column (tab-separated) data file."""
    return tuple(
        (first, second) for first, _, second in (line.partition("\t") for line in lexicon(filename))
    )
