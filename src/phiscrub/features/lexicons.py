"""Word lists of the dictionary features, as sets of lower-case single tokens.

Multi-word entries (``Los Angeles``) become their tokens (``los``, ``angeles``), as seed 003
§2.2 builds its dictionaries. Names, places and the clinical vocabulary come from the
detectors' lexicons (``phiscrub.detect.lexicon``, read-only); hospital, street and date
words and the trigger phrases are this package's own files in ``data/features/``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from phiscrub.detect.lexicon import lexicons
from phiscrub.resources import data_lines
from phiscrub.text import tokenize

__all__ = ["FeatureLexicons", "Trigger", "feature_lexicons", "glove_clusters", "load_triggers"]


def _data_lines(name: str) -> list[str]:
    return list(data_lines("features", name))


def _token_set(entries: Iterable[str]) -> frozenset[str]:
    """Lower-case tokens of the entries that hold a letter (``of`` in a city name counts)."""
    out: set[str] = set()
    for entry in entries:
        for tok in tokenize(entry):
            if any(ch.isalpha() for ch in tok.text):
                out.add(tok.text.lower())
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class FeatureLexicons:
    """Named dictionaries: feature name -> lower-case tokens."""

    dictionaries: dict[str, frozenset[str]]
    medical: frozenset[str]

    def memberships(self, lower: str) -> list[str]:
        """The names of the dictionaries holding ``lower``, in a fixed order."""
        return [name for name, words in self.dictionaries.items() if lower in words]


@functools.cache
def feature_lexicons() -> FeatureLexicons:
    """Load every dictionary once per process (about a tenth of a second)."""
    lex = lexicons()
    states = list(lex.states) + list(lex.states.values())
    dictionaries = {
        "first": frozenset(w.lower() for w in lex.first_names),
        "last": frozenset(w.lower() for w in lex.last_names),
        "city": _token_set(lex.cities),
        "state": _token_set(states),
        "country": _token_set(lex.countries),
        "hospital": frozenset(_data_lines("hospital_words.txt")),
        "street": frozenset(_data_lines("street_words.txt")),
        "date": frozenset(_data_lines("date_words.txt")),
    }
    return FeatureLexicons(dictionaries, frozenset(w.lower() for w in lex.allow))


@functools.cache
def glove_clusters() -> dict[str, tuple[str, str, str]]:
    """lower-case word -> its (coarse, mid, fine) GloVe cluster ids, as strings
    (``data/features/glove_clusters.txt``, built by scripts/build_clusters.py)."""
    out: dict[str, tuple[str, str, str]] = {}
    for line in _data_lines("glove_clusters.txt"):
        word, coarse, mid, fine = line.split("\t")
        out[word] = (coarse, mid, fine)
    return out


@dataclass(frozen=True, slots=True)
class Trigger:
    """A trigger phrase as lower-case tokens, and the group it reports."""

    tokens: tuple[str, ...]
    group: str


@functools.cache
def load_triggers() -> tuple[Trigger, ...]:
    """The trigger phrases of ``data/features/triggers.txt``."""
    out: list[Trigger] = []
    for line in _data_lines("triggers.txt"):
        group, _, phrase = line.partition("\t")
        toks = tuple(t.text.lower() for t in tokenize(phrase))
        if toks and group:
            out.append(Trigger(toks, group))
    return tuple(out)
