"""Where the generator's names and places come from, per mode (seed 000 §5).

- ``random``: the surrogate engine's dictionaries: census first names by sex and
  surnames (``names`` package), cities, street names, organizations, other places.
- ``ambiguous``: person names and place stems drawn from ``data/synth/ambiguous.txt``,
  medical terms and common English words (a patient named Camera, Dr. Test, Mr.
  Huntington); each word comes with a sentence using it as non-PHI, which the notes
  of that patient carry, so that every injected word occurs both as PHI and not.
- ``oov``: random letter strings shaped like names ("O. Ymfgi", "Dr. Znw"), never a
  word of the census lists or of the ambiguous list.

States, countries and professions are closed sets and come from the engine's lists in
every mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from phiscrub import resources
from phiscrub.errors import UsageError
from phiscrub.surrogate.lexicon import lexicon
from phiscrub.surrogate.names import census
from phiscrub.synth.rng import Rng

MODES = ("random", "ambiguous", "oov")
_VOWELS = "aeiouy"
_CONSONANTS = "bcdfghjklmnpqrstvwxz"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def data_lines(filename: str) -> tuple[str, ...]:
    """The entries of a file in ``phiscrub/data/synth`` (see ``phiscrub.resources``)."""
    return resources.data_lines("synth", filename)


def data_table(filename: str) -> tuple[tuple[str, ...], ...]:
    """A tab-separated data file of ``phiscrub/data/synth``."""
    return resources.data_table("synth", filename)


@dataclass(frozen=True, slots=True)
class AmbiguousWord:
    """A word used as a name or place that is also a medical term or a common word:
    ``kinds`` holds ``f`` (first name), ``l`` (surname), ``p`` (place); ``context`` is
    a sentence using it as non-PHI."""

    word: str
    kinds: str
    context: str


@lru_cache(maxsize=1)
def ambiguous_words() -> tuple[AmbiguousWord, ...]:
    return tuple(AmbiguousWord(w, k, c) for w, k, c in data_table("ambiguous.txt"))


@lru_cache(maxsize=4)
def _ambiguous_of(kind: str) -> tuple[AmbiguousWord, ...]:
    return tuple(w for w in ambiguous_words() if kind in w.kinds)


@lru_cache(maxsize=1)
def ambiguous_lexicon() -> frozenset[str]:
    """Every word of the ambiguous list, lowercase."""
    return frozenset(w.word.lower() for w in ambiguous_words())


@lru_cache(maxsize=4)
def _census_pool(kind: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    names: list[str] = []
    totals: list[int] = []
    for name, pct in census().freq[kind].items():
        names.append(name.capitalize())
        totals.append((totals[-1] if totals else 0) + int(pct * 1000) + 1)
    return tuple(names), tuple(totals)


def in_census(word: str) -> bool:
    """Whether ``word`` is in any census name list."""
    upper = word.upper()
    return any(upper in table for table in census().freq.values())


class Vocabulary:
    """Draws names and places for one mode; remembers the ambiguous words it used."""

    def __init__(self, mode: str, rng: Rng) -> None:
        if mode not in MODES:
            raise UsageError(f"unknown mode {mode!r}", hint=f"use one of {', '.join(MODES)}")
        self.mode = mode
        self.rng = rng
        self.used: list[AmbiguousWord] = []

    def _word(self, kind: str) -> str | None:
        """An ambiguous word (ambiguous mode), an OOV string (oov mode), or None."""
        if self.mode == "ambiguous":
            pick = self.rng.choice(_ambiguous_of(kind))
            if pick not in self.used:
                self.used.append(pick)
            return pick.word
        if self.mode == "oov":
            return oov_word(self.rng)
        return None

    def first(self, sex: str) -> str:
        word = self._word("f")
        if word is not None:
            return word
        names, totals = _census_pool("male" if sex == "M" else "female")
        return self.rng.weighted(names, totals)

    def last(self) -> str:
        word = self._word("l")
        if word is not None:
            return word
        names, totals = _census_pool("last")
        if self.rng.chance(50):  # half common surnames, half from the long tail
            return self.rng.weighted(names, totals)
        return self.rng.choice(names)

    def _place(self, filename: str) -> str:
        word = self._word("p")
        return word if word is not None else self.rng.choice(lexicon(filename))

    def city(self) -> str:
        return self._place("cities.txt")

    def street_name(self) -> str:
        return self._place("street_names.txt")

    def stem(self) -> str:
        """The first word of a hospital, department, school or company name."""
        if self.mode != "random":
            return self._place("cities.txt")
        if self.rng.chance(50):
            return self.rng.choice(lexicon("cities.txt"))
        return self.last()

    def organization(self, kind: str) -> str:
        """An employer (``company``) or a school (``school``)."""
        suffix = self.rng.choice([s for k, s in data_table("org_suffixes.txt") if k == kind])
        if self.mode == "random" and kind == "company" and self.rng.chance(50):
            return self.rng.choice(lexicon("organizations.txt"))
        return f"{self.stem()} {suffix}"

    def other_location(self) -> str:
        if self.mode == "random":
            return self.rng.choice(lexicon("location_other.txt"))
        return f"{self.stem()} {self.rng.choice(data_lines('place_words.txt'))}"

    def hospital(self) -> str:
        """``<stem> [Memorial|General|...] <kind>`` from the engine's hospital lists."""
        kind = self.rng.choice(lexicon("hospital_types.txt"))
        word = self.rng.choice(lexicon("hospital_words.txt"))
        middle = f" {word}" if word != "none" and len(kind.split()) < 2 else ""
        return f"{self.stem()}{middle} {kind}"

    def department(self) -> str:
        """A unique (hence PHI) department name: ``Pelican Ward``, ``Bigelow 11``."""
        word = self.rng.choice(data_lines("dept_words.txt"))
        return word.replace("*", self.stem()).replace("#", str(self.rng.between(2, 19)))


def oov_word(rng: Rng) -> str:
    """A random letter string shaped like a name (3-10 letters), in no name list."""
    while True:
        n = rng.between(3, 10)
        if rng.chance(50):
            letters = [rng.choice(_LETTERS) for _ in range(n)]
        else:  # pronounceable: consonants and vowels alternate
            start = rng.below(2)
            pools = (_CONSONANTS, _VOWELS)
            letters = [rng.choice(pools[(i + start) % 2]) for i in range(n)]
        word = "".join(letters).capitalize()
        if not in_census(word) and word.lower() not in ambiguous_lexicon():
            return word
