"""Read the word lists shipped as data files in ``phiscrub/data/``."""

from __future__ import annotations

from phiscrub.resources import data_lines

__all__ = ["load_lines"]


def load_lines(name: str) -> tuple[str, ...]:
    """The entries of ``phiscrub/data/<name>`` (see ``phiscrub.resources``)."""
    return data_lines(name)
