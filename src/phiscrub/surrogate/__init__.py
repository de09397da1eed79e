"""Surrogates: keyed, consistent, format-preserving replacements for PHI (seed 004 §5.2).

``Replacer(mode, key=...).replace(doc, spans) -> Replacement`` is the stage; the
per-type functions are importable from their modules for direct use.
"""

from __future__ import annotations

from phiscrub.surrogate.ages import cap_birth_date
from phiscrub.surrogate.birth import is_birth_date, reference_date
from phiscrub.surrogate.corpus import AuditWriter, RunStats, replace_corpus
from phiscrub.surrogate.dates import DateShift
from phiscrub.surrogate.generator import SurrogateOptions, Surrogator
from phiscrub.surrogate.keys import Chooser, SurrogateKeyError, load_key, random_key
from phiscrub.surrogate.replace import AuditRow, Replacement, Replacer, resolve_overlaps

__all__ = [
    "AuditRow",
    "AuditWriter",
    "Chooser",
    "DateShift",
    "Replacement",
    "Replacer",
    "RunStats",
    "SurrogateKeyError",
    "SurrogateOptions",
    "Surrogator",
    "cap_birth_date",
    "is_birth_date",
    "load_key",
    "random_key",
    "reference_date",
    "replace_corpus",
    "resolve_overlaps",
]
