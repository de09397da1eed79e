"""Corpus-level tools: statistics of an annotated corpus (``phiscrub corpus stats``)."""

from __future__ import annotations

from phiscrub.corpus.stats import corpus_stats, render_stats

__all__ = ["corpus_stats", "render_stats"]
