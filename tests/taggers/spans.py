"""A span over the n-th occurrence of a string in a made-up note, for the hybrid step tests."""

from __future__ import annotations

from phiscrub.span import Span


def at(
    text: str, needle: str, label: str, source: str = "crf.all", score: float = 1.0, nth: int = 0
) -> Span:
    """``label`` over the ``nth`` occurrence of ``needle`` in ``text`` (0: the first)."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Span.of(text, start, start + len(needle), label, source, score)
