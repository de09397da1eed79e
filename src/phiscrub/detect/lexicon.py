"""Lexicons (names, places, common words) and the clinical allow-list, loaded once, lazily.

The files are plain text, one entry a line, ``#`` comments: ``data/lexicons/*.txt`` are
built by ``scripts/build_lexicons.py`` from PyPI packages and SCOWL;
``data/allowlist/*.txt`` are the curated clinical terms, the ICD-10-CM eponyms and the
curated medication names (``drug_names.txt``).
Loading reads them into frozensets (about 1 MB, tens of milliseconds; ``load_seconds``
records the time). Nothing is loaded at import time.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

from phiscrub.resources import data_lines

#: common words of SCOWL size level <= this block a name or city match on their own
#: (level 10: the ~1,000 commonest words and inflections; 20: the next frequency classes)
COMMON_NAME_LEVEL = 20


def _lines(*parts: str) -> list[str]:
    return list(data_lines(*parts))


@dataclass(frozen=True, slots=True)
class Lexicons:
    """Every word list the detectors use, lower case unless said otherwise."""

    first_names: frozenset[str]
    last_names: frozenset[str]
    cities: frozenset[str]  # as written (title case), for exact, case-sensitive lookup
    countries: frozenset[str]
    states: dict[str, str]  # name -> USPS code
    common_words: tuple[str, ...]  # SCOWL 10, 20, 35 first; then office_words.txt
    common_top: frozenset[str]  # the common words of level <= COMMON_NAME_LEVEL
    allow: frozenset[str]
    #: ``allow`` and the medication names of ``drug_names.txt``: what the detectors and the
    #: hybrid's filters treat as clinical terms. The CRF's allow-list feature reads
    #: ``allow`` alone, the list its models were trained with (a model trained before the
    #: medication list keeps its features)
    allowed: frozenset[str]
    load_seconds: float

    def is_allowed(self, word: str) -> bool:
        """A clinical term (eponym, scale, drug, abbreviation) that is not PHI by itself."""
        w = word.lower()
        if w.endswith("'s") or w.endswith("\u2019s"):
            w = w[:-2]
        return w in self.allowed

    def is_common(self, word: str) -> bool:
        return word.lower() in self.common_top


@functools.cache
def lexicons() -> Lexicons:
    """Load every lexicon (once per process)."""
    t0 = time.perf_counter()
    rows = [ln.partition("\t") for ln in _lines("lexicons", "common_words.txt")]
    common = tuple(w for w, _, _ in rows) + tuple(_lines("lexicons", "office_words.txt"))
    levels = {str(n) for n in range(COMMON_NAME_LEVEL + 1)}
    top = frozenset(w for w, _, level in rows if level in levels)
    states = dict(ln.split("\t", 1) for ln in _lines("lexicons", "states.txt"))
    allow = frozenset(_lines("allowlist", "clinical_terms.txt")) | frozenset(
        _lines("allowlist", "icd10cm_terms.txt")
    )
    lex = Lexicons(
        first_names=frozenset(_lines("lexicons", "first_names.txt")),
        last_names=frozenset(_lines("lexicons", "last_names.txt")),
        cities=frozenset(_lines("lexicons", "cities.txt")),
        countries=frozenset(_lines("lexicons", "countries.txt")),
        states=states,
        common_words=common,
        common_top=top,
        allow=allow,
        allowed=allow | frozenset(_lines("allowlist", "drug_names.txt")),
        load_seconds=0.0,
    )
    object.__setattr__(lex, "load_seconds", time.perf_counter() - t0)
    return lex


def known_city(text: str, start: int, end: int) -> bool:
    """Validation hook: the range is a city of the gazetteer (or its last 1-2 words are)."""
    cities = lexicons().cities
    words = text[start:end].split()
    for k in range(len(words)):
        name = " ".join(words[k:])
        if name in cities or name.title() in cities:
            return True
    return False
