"""Dictionary detectors (seed 000 §6.5.2): census names, gazetteer places, country names.

Each is a small class with one pure ``detect(doc) -> list[Span]``. Candidates are found by
one regex over the text (capitalised word sequences), then looked up in frozensets; words on
the clinical allow-list are never tagged by a dictionary alone, and very common English
words are not tagged by a dictionary alone either.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from phiscrub.detect.lanes import WORDS, note_index, word_starts
from phiscrub.detect.lexicon import Lexicons
from phiscrub.detect.scan import Cursor, Searcher, TriggerCursor, searchers
from phiscrub.resources import data_lines
from phiscrub.span import Document, Span

_CAP = r"[A-Z][a-z]+(?:['\u2019-][A-Z]?[a-z]+)*"
#: two or three capitalised words, optional middle initial: a first and last name candidate
_FULL_NAME = re.compile(rf"(?<![\w.])({_CAP})(?:\s+[A-Z]\.)?[ ]({_CAP})(?:[ ]({_CAP}))?\b")
#: a capitalised phrase after a place cue (lives in Dayton, moved to Santa Fe, born in Galway)
_PLACE_CUE = re.compile(
    rf"\b(?:lives|living|lived|moved|moving|born|raised|grew up|from|in|to|near|visiting|"
    rf"returned|relocated|emigrated|immigrated|came)\s+(?:in\s+|to\s+|from\s+)?"
    rf"(?P<the>the\s+)?(?P<place>(?:{_CAP})(?:[ ](?:{_CAP})){{0,2}})"
)
#: a residence said just before the cue (lives in, living alone with her cat in, home in):
#: only then is an unknown place a neighbourhood (GUIDELINES: neighbourhoods are LOCATION-OTHER)
_RESIDENCE = re.compile(
    r"\b(?:[Ll]ives|[Ll]iving|[Ll]ived|[Rr]esides?|[Rr]esiding|[Hh]ome|[Hh]ouse|[Aa]partment|"
    r"[Aa]pt|[Cc]ondo)\b[^.;:!?\n]{0,36}$"
)
#: after a place, a word that makes it an institution or a dwelling, not a neighbourhood
_NOT_AREA_AFTER = re.compile(
    r"\s+(?:Apartments?|Apts?|Manor|Assisted|Living|Senior|Home|Homes|Nursing|Care|Center|"
    r"Centre|Towers?|Residences?|Shelter|House|Hall|Dorm|County|Township|Parish|Borough|"
    r"Hospital|Clinic|Rehab|Village|Estates|Commons|Court|Place|Street|St|Road|Rd|Avenue|Ave|"
    r"Drive|Dr|Lane|Ln|Way|Boulevard|Blvd|Housing|Projects?|Trailer|Mobile|RV|Camp)\b"
)
#: words of a ward, a service or a facility: such a phrase is no neighbourhood (the Intensive
#: Care Step-Down area)
_FACILITY_WORDS = frozenset(
    re.findall(
        r"\S+",
        "care unit intensive department emergency surgical medical step-down stepdown room floor "
        "wing ward program service services hospital clinic center centre hall building tower "
        "pavilion annex suite icu",
    )
)
#: one or two capitalised place names (any script's letters) with their commas right before a
#: country, at the start of a line or after a word that is not part of a name
_PW = (
    r"[^\W\d_a-z][\w'\u2019.\-]*"
    r"(?:[ ](?:(?:de|do|da|dos|das|del|la|el|du|al|an)[ ])?[^\W\d_a-z][\w'\u2019\-]*){0,2}"
)
_PLACES_BEFORE = re.compile(
    rf"(?:^|(?<=[\s(;:]))(?=[^\W\d_a-z])({_PW}),[ ](?:(?=[^\W\d_a-z])({_PW}),[ ])?$"
)
#: ", City" right after a place: the place before it is a part of that city (Remington, Baltimore)
_CITY_AFTER = re.compile(rf",[ ]((?:{_CAP})(?:[ ](?:{_CAP})){{0,2}})")
_FIRST_WORD = re.compile(r"[A-Za-z]+")
_AREA = "dict.places:area_cue"
_CREDENTIAL_AFTER = re.compile(r",?\s+(?:MD|DO|RN|NP|PA|PharmD|PhD|LCSW|DPM|CNM)\b")


@dataclass
class NameDictionaryDetector:
    """First name + last name pairs from the census lists (rules pipeline, lower confidence)."""

    lex: Lexicons
    name: str = "names_dict"
    score: float = 0.6
    _search: list[Searcher] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # what finditer finds, but the engine skips to capitals (the look-behind is a check)
        self._search = searchers(_FULL_NAME.pattern)
        assert len(self._search) == 1 and not self._search[0].wrapped

    def _matches(self, text: str) -> Iterator[re.Match[str]]:
        cur = self._search[0].cursor(text, note_index(text).low)
        pos = 0
        while cur is not None and (found := cur.find(pos)) is not None:
            yield found[2]  # the groups are those of _FULL_NAME (the look-behind has none)
            pos = found[1]

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        out: list[Span] = []
        lex = self.lex
        for m in self._matches(text):
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
    """Countries anywhere (capitalised, exact); cities of the gazetteer after a place cue.

    Countries are looked up from the note's shared word index (:func:`lanes.note_index`):
    a country is tried only where its first word occurs, longest name first, as the one
    alternation ``(?<![\\w-])(?:NAMES)(?![\\w-])`` would; the place cue is tried only where
    the note holds one of its cue words (the word lane of :mod:`phiscrub.detect.lanes`).
    """

    lex: Lexicons
    name: str = "places_dict"
    _by_first: dict[str, list[str]] = field(init=False, repr=False)
    _cue: list[Searcher] = field(init=False, repr=False)
    _cue_owner: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names = sorted((c for c in self.lex.countries if len(c) > 3), key=len, reverse=True)
        self._by_first = {}
        for n in names:  # longest first, as in the alternation
            first = _FIRST_WORD.match(n)
            assert first is not None, n
            self._by_first.setdefault(first.group(), []).append(n)
        self._cue = searchers(_PLACE_CUE.pattern)
        starts = word_starts(_PLACE_CUE.pattern, 0)
        assert starts is not None
        self._cue_owner = WORDS.register([(0, *starts)])

    def _country_spans(self, text: str) -> list[Span]:
        words = note_index(text).words
        found: list[tuple[int, int]] = []
        for first in words.keys() & self._by_first.keys():
            names = self._by_first[first]
            for p in words[first]:
                if p > 0 and _joined(text[p - 1]):
                    continue
                for n in names:
                    end = p + len(n)
                    if text.startswith(n, p) and not (end < len(text) and _joined(text[end])):
                        found.append((p, end))
                        break
        out: list[Span] = []
        last = 0
        for a, b in sorted(found):
            if a >= last:  # non-overlapping, left to right
                out.append(Span.of(text, a, b, "COUNTRY", "dict.places:country", 0.9))
                last = b
        return out

    def _cues(self, text: str) -> Iterator[re.Match[str]]:
        ix = note_index(text)
        cur: Cursor | None
        if ix.aligned:
            cands = WORDS.candidates(ix, self._cue_owner).get(0)
            cur = None if cands is None else TriggerCursor(_PLACE_CUE, text, cands)
        else:
            cur = self._cue[0].cursor(text, ix.low)
        pos = 0
        while cur is not None and (found := cur.find(pos)) is not None:
            yield found[2]
            pos = found[1]

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        out = self._country_spans(text)
        before = self._before_country(text, [s for s in out if s.label == "COUNTRY"])
        out.extend(before)
        for m in self._cues(text):
            if any(b.start <= m.start("place") < b.end for b in before):
                continue  # already a city or state before its country
            words = m.group("place").split(" ")
            if words[0] in _languages() and (
                len(words) == 1 or words[1] in _languages()
            ):
                continue  # speech, not a place: "consent in Creole", "fluent in English"
            home = _RESIDENCE.search(text, max(0, m.start() - 60), m.start("place")) is not None
            if m.group("the"):  # "lives in the South Valley"; "to the Denver clinic" is not taken
                if home and "\n" not in m.group("the"):
                    out.extend(self._area(text, m.start("place"), words, the=True))
                continue
            city = self._city(words)
            start = m.start("place")
            if city is None:
                if home:
                    area = self._area(text, start, words)
                    out.extend(area)
                    if area:
                        out.extend(self._city_after(text, area[0].end))
                continue
            end = start + len(city)
            district = self._city_after(text, end) if home else []
            if district:  # a district of a city: "lives in Remington, Baltimore"
                out.append(Span.of(text, start, end, "LOCATION-OTHER", _AREA, 0.7))
                out.extend(district)
                continue
            out.append(Span.of(text, start, end, "CITY", "dict.places:city_cue", 0.8))
        return out

    def _before_country(self, text: str, countries: list[Span]) -> list[Span]:
        """The place names written before a country (Hermosillo, Sonora, Mexico; Basra, Iraq):
        the last one before the country is a state or province when two stand there, else a
        city; a word, a clinical term or a person's name is not taken."""
        out: list[Span] = []
        for c in countries:
            m = _PLACES_BEFORE.search(text, max(0, c.start - 80), c.start)
            if m is None:
                continue
            parts = [(m.start(1), m.end(1))]
            if m.group(2):
                parts.append((m.start(2), m.end(2)))
            if not all(self._place_like(text[a:b]) for a, b in parts):
                continue
            labels = ["CITY"] if len(parts) == 1 else ["CITY", "STATE"]
            for (a, b), label in zip(parts, labels, strict=True):
                out.append(Span.of(text, a, b, label, "dict.places:before_country", 0.7))
        return out

    def _place_like(self, phrase: str) -> bool:
        lex = self.lex
        words = [w for w in phrase.split(" ") if w[:1].isupper()]  # not de, do, la
        if any(w.isupper() and len(w) <= 4 for w in words):
            return False  # an acronym (PMH: HTN, DM, ...)
        if phrase in lex.cities or phrase in lex.states:
            return True
        if phrase in lex.countries or any(
            w.lower() in _all_common() or lex.is_allowed(w) for w in words
        ):
            return False
        low = [w.lower() for w in words]
        if len(low) == 1:
            return low[0] not in lex.first_names  # "Jordan, Canada" may be a person
        return not (low[0] in lex.first_names and low[-1] in lex.last_names)  # Maria Lopez

    def _city_after(self, text: str, end: int) -> list[Span]:
        """", City" right after a place (a gazetteer city, whole): that city as CITY."""
        after = _CITY_AFTER.match(text, end)
        if after is None or self._city(after.group(1).split(" ")) != after.group(1):
            return []
        a, b = after.span(1)
        return [Span.of(text, a, b, "CITY", "dict.places:city_cue", 0.8)]

    def _city(self, words: list[str]) -> str | None:
        """The longest gazetteer city the words start with (not a country, state, common word)."""
        lex = self.lex
        for k in range(len(words), 0, -1):
            cand = " ".join(words[:k])
            common = k == 1 and (lex.is_common(cand) or lex.is_allowed(cand))
            if cand in lex.cities and not common:
                if cand in lex.countries or cand in lex.states:
                    return None
                return cand
        return None

    def _area(self, text: str, start: int, words: list[str], the: bool = False) -> list[Span]:
        """A place the gazetteer does not know, after a residence: a neighbourhood
        (LOCATION-OTHER), unless it is a word, a clinical term, a state or country, or an
        institution or dwelling ("lives in Sunrise Assisted Living", "in Section 8 housing").
        After "the" a name of two words may be made of common ones (the South Valley)."""
        lex = self.lex
        phrase = " ".join(words)
        end = start + len(phrase)
        if (
            (lex.is_common(words[0]) and not (the and len(words) > 1))
            or any(lex.is_allowed(w) or w.endswith(("'s", "\u2019s")) for w in words)
            or any(w.lower() in _FACILITY_WORDS for w in words)
            or phrase in lex.countries
            or phrase in lex.states
            or (end < len(text) and (text[end].isalnum() or text[end] in "-'\u2019"))
            or _NOT_AREA_AFTER.match(text, end) is not None
            or _NOT_AREA_AFTER.match(" " + words[-1]) is not None
        ):
            return []
        return [Span.of(text, start, end, "LOCATION-OTHER", _AREA, 0.7)]


@functools.cache
def _all_common() -> frozenset[str]:
    """Every common English word of the lexicon (all levels), lower case."""
    from phiscrub.detect.lexicon import lexicons

    return frozenset(lexicons().common_words)


@functools.cache
def _languages() -> frozenset[str]:
    """Language names (``data/lexicons/languages.txt``): speech, never a city after a cue."""
    return frozenset(data_lines("lexicons", "languages.txt"))


def _joined(c: str) -> bool:
    """Is ``c`` part of a word for ``(?<![\\w-])`` / ``(?![\\w-])``?"""
    return c.isalnum() or c in "_-"
