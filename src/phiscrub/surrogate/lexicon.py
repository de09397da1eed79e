"""Data files of ``phiscrub/data/surrogate/``: one item per line, ``#`` comment header."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=32)
def lexicon(filename: str) -> tuple[str, ...]:
    """The non-comment, non-blank lines of a data file in ``phiscrub/data/surrogate``."""
    path = resources.files("phiscrub").joinpath("data", "surrogate", filename)
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(line.rstrip() for line in lines if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=32)
def pairs(filename: str) -> tuple[tuple[str, str], ...]:
    """A two-column (tab-separated) data file."""
    out = []
    for line in lexicon(filename):
        first, _, second = line.partition("\t")
        out.append((first, second))
    return tuple(out)
