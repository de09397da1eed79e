"""Dictionary detectors (seed 000 §6.5.2): census names, gazetteer places, country names.

Each is a small class with one pure ``detect(doc) -> list[Span]``. Candidates are found by
one regex over the text (capitalised word sequences), then looked up in frozensets; words on
the clinical allow-list are never tagged by a dictionary alone, and very common English
words are not tagged by a dictionary alone either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from phiscrub.detect.lexicon import Lexicons
from phiscrub.span import Document, Span

_CAP = r"[A-Z][a-z]+(?:['\u2019-][A-Z]?[a-z]+)*"
#: two or three capitalised words, optional middle initial: a first and last name candidate
_FULL_NAME = re.compile(rf"(?<![\w.])({_CAP})(?:\s+[A-Z]\.)?[ ]({_CAP})(?:[ ]({_CAP}))?\b")
#: a capitalised phrase after a place cue (lives in Dayton, moved to Santa Fe, born in Galway)
_PLACE_CUE = re.compile(
    rf"\b(?:lives|living|lived|moved|moving|born|raised|grew up|from|in|to|near|visiting|"
    rf"returned|relocated|emigrated|immigrated|came)\s+(?:in\s+|to\s+|from\s+)?"
    rf"((?:{_CAP})(?:[ ](?:{_CAP})){{0,2}})"
)
_CREDENTIAL_AFTER = re.compile(r",?\s+(?:MD|DO|RN|NP|PA|PharmD|PhD|LCSW|DPM|CNM)\b")


@dataclass
class NameDictionaryDetector:
    """First name + last name pairs from the census lists (rules pipeline, lower confidence)."""

    lex: Lexicons
    name: str = "names_dict"
    score: float = 0.6

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        out: list[Span] = []
        lex = self.lex
        for m in _FULL_NAME.finditer(text):
            first, last = m.group(1), m.group(3) or m.group(2)
            if first.lower() not in lex.first_names or last.lower() not in lex.last_names:
                continue
            words = [w for w in m.groups() if w]
            if any(lex.is_allowed(w) for w in words):
                continue
            if all(lex.is_common(w) for w in words):
                continue
            end = m.end(3) if m.group(3) and m.group(3).lower() in lex.last_names else m.end(2)
            label = "DOCTOR" if _CREDENTIAL_AFTER.match(text, end) else "PATIENT"
            out.append(Span.of(text, m.start(), end, label, "dict.names:first_last", self.score))
        return out


@dataclass
class PlaceDictionaryDetector:
    """Countries anywhere (capitalised, exact); cities of the gazetteer after a place cue."""

    lex: Lexicons
    name: str = "places_dict"
    _countries: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names = sorted((c for c in self.lex.countries if len(c) > 3), key=len, reverse=True)
        alt = "|".join(re.escape(n) for n in names)
        self._countries = re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])")

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        out = [
            Span.of(text, m.start(), m.end(), "COUNTRY", "dict.places:country", 0.9)
            for m in self._countries.finditer(text)
        ]
        for m in _PLACE_CUE.finditer(text):
            words = m.group(1).split(" ")
            for k in range(len(words), 0, -1):  # longest gazetteer prefix
                cand = " ".join(words[:k])
                if cand in self.lex.cities and not (
                    k == 1 and (self.lex.is_common(cand) or self.lex.is_allowed(cand))
                ):
                    start = m.start(1)
                    if cand in self.lex.countries or cand in self.lex.states:
                        break
                    out.append(
                        Span.of(text, start, start + len(cand), "CITY", "dict.places:city_cue", 0.8)
                    )
                    break
        return out
