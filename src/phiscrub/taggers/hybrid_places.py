"""Hybrid corrections of an institution's or place's type (seed 001 §3.3.5, error correction).

``hospital_or_organization``: a HOSPITAL or ORGANIZATION span takes its type from its own
words (``data/lexicons/institution_words.txt``), else from the words before it. A care
practice (a clinical field or service with only practice words among its organization
words: ``Kailua Town Medical Group``, ``Back Mountain Counseling Services``, ``Essex Home Care
Partners``) is a HOSPITAL, after GUIDELINES.md "Places" (physician, dental and therapy
practices, home-health agencies are care sites); a veterinary or technical name is an
ORGANIZATION whatever else it holds; ``Merrimack County`` alone is a region, LOCATION-OTHER.

``place_or_organization``: a STREET, CITY, LOCATION-OTHER or COUNTRY span of two words or
more that ends in an organization or care word, or holds a hospital word (``Big Sky Drug``,
``Tollgate Lane Surgery``), is that institution: the city cue of the rules (``from``,
``to``) or the CRF took the name of a shop, a fund or a practice. A CITY that is a name
and a floor number (``Cottonwood 4``) is a named ward, a DEPARTMENT.

``generic_places``: a HOSPITAL of generic words only (``Sickle Cell Clinic``) is dropped
(GUIDELINES.md: generic units are not tagged), as is an institution that is a vehicle's make
and model after its year or a one-word field label.

``place_limits`` and ``place_rest`` (used by ``hybrid_steps.merge``): a rule place grows
over the CRF's place only up to the rules' next place of another type (the CRF often takes
a whole address line, ``12 Main Rd, Hutt 5010``, as one STREET) and up to a lower-case
word; the street part or the capitalized stretch of a CRF place outside the rules' places
is kept.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Sequence
from importlib import resources

from phiscrub.span import Span

__all__ = [
    "ADDRESS_PARTS",
    "ADDRESS_RULES",
    "generic_places",
    "hospital_or_organization",
    "institution_words",
    "place_limits",
    "place_or_organization",
    "place_rest",
]

_HOSPITAL_BEFORE = re.compile(
    r"\b(?:admitted|transferred|discharged|presented|seen|followed|treated|hospitali[sz]ed"
    r"|evaluated|examined|referred|d/c|discharge|follow-up|f/u|delivered|operated)"
    r"\s+(?:to|at|from|in|by|with)\s*(?:the\s+)?$",
    re.IGNORECASE,
)
_ORG_BEFORE = re.compile(
    r"\b(?:works?|worked|working|employed|employee|job|retired|volunteers?|attends?)"
    r"\s+(?:at|for|by|from|with|of)?\s*(?:the\s+)?$"
    r"|\b(?:employer|church|congregation|DME|vendor|supplier)\b(?:\s+(?:is|was|via|from))?"
    r"[\s(:,-]*$",
    re.IGNORECASE,
)
#: a payer label shortly before on the line: the name is an insurer, an ORGANIZATION
_PAYER_BEFORE = re.compile(
    r"\b(?:insurance|insurer|payer|payor|carrier|pbm|coverage)\b[^\n]{0,12}$", re.IGNORECASE
)
#: a word of letters in any script, with inner apostrophes and hyphens
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['-])+")
#: organization words that also end the names of places (``Meade County``, ``Acadia Parish``)
_PLACE_WORDS = frozenset(["county", "district", "parish", "union", "market"])
KINDS = (
    "hospital",
    "weak_hospital",
    "hospital_end",
    "organization",
    "not_care",
    "care",
    "practice",
    "generic",
    "unit_end",
    "head_end",
)


@functools.cache
def institution_words() -> dict[str, frozenset[str]]:
    """Per kind, the words (and a few two-word phrases) of ``institution_words.txt``."""
    path = resources.files("phiscrub").joinpath("data", "lexicons", "institution_words.txt")
    out: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for line in path.read_text(encoding="utf-8").splitlines():
        kind, _, word = line.partition("\t")
        if line.startswith("#") or not word.strip():
            continue
        if kind not in out:
            raise ValueError(f"institution_words.txt: unknown kind {kind!r}")
        out[kind].add(word.strip().lower())
    return {kind: frozenset(words) for kind, words in out.items()}


def _relabel(span: Span, label: str, source: str) -> Span:
    if span.label == label:
        return span
    return Span(span.start, span.end, label, span.text, source, span.score)


def _is_care_practice(name: str, words: set[str], org: set[str]) -> bool:
    """A clinical field or service, and no organization word but practice words."""
    lex = institution_words()
    lowered = " ".join(name.lower().split())
    care = words & lex["care"] or any(
        " " in phrase and re.search(rf"\b{re.escape(phrase)}\b", lowered) for phrase in lex["care"]
    )
    return bool(care) and org <= lex["practice"]


def _organization_words(words: list[str], lowered: str) -> set[str]:
    """The organization words (and phrases) of a name; a place word (``county``) counts
    only at the end (``Chemung County`` is the county, ``Ross County Heart Institute`` a
    care site)."""
    lex = institution_words()
    found = {w for w in words if w in lex["organization"]}
    found -= {w for w in _PLACE_WORDS if words and words[-1] != w}
    found |= {
        phrase
        for phrase in lex["organization"]
        if " " in phrase and re.search(rf"\b{re.escape(phrase)}\b", lowered)
    }
    return found


def _is_region(words: list[str]) -> bool:
    """A county named by one or two words of its own (``Merrimack County``): a region,
    LOCATION-OTHER after GUIDELINES.md, not the county's offices."""
    lex = institution_words()
    kinds = ("hospital", "weak_hospital", "organization", "care", "practice", "not_care")
    own = words[:-1]
    return (
        len(words) in (2, 3)
        and words[-1] == "county"
        and not any(w in lex[kind] for w in own for kind in kinds)
    )


def hospital_or_organization(text: str, spans: Sequence[Span]) -> list[Span]:
    """HOSPITAL or ORGANIZATION by the span's own words, else by the words before it."""
    lex = institution_words()
    out: list[Span] = []
    for s in spans:
        if s.label in ("HOSPITAL", "ORGANIZATION"):
            listed = [w.lower() for w in _WORD.findall(s.text)]
            words = set(listed)
            org = _organization_words(listed, " ".join(listed))
            before = text[max(0, s.start - 40) : s.start]
            payer = _PAYER_BEFORE.search(before)
            strong = words & lex["hospital"] or set(listed[-1:]) & lex["hospital_end"]
            if _is_region(listed):
                s = _relabel(s, "LOCATION-OTHER", "hybrid.correct:region")
            elif words & lex["not_care"]:
                s = _relabel(s, "ORGANIZATION", "hybrid.correct:organization")
            elif strong and not org:
                s = _relabel(s, "HOSPITAL", "hybrid.correct:hospital")
            elif not payer and _is_care_practice(s.text, words, org):
                s = _relabel(s, "HOSPITAL", "hybrid.correct:care_site")
            elif not words & lex["hospital"] and (org or payer):
                s = _relabel(s, "ORGANIZATION", "hybrid.correct:organization")
            elif words & lex["weak_hospital"] or _HOSPITAL_BEFORE.search(before):
                s = _relabel(s, "HOSPITAL", "hybrid.correct:hospital")
            elif _ORG_BEFORE.search(before):
                s = _relabel(s, "ORGANIZATION", "hybrid.correct:organization")
        out.append(s)
    return out


@functools.cache
def generic_words() -> frozenset[str]:
    """The words of a generic unit or service: the generic facility words of the rules
    (``FACILITY_GENERIC`` of ``data/patterns/location.toml``) and the ``generic`` kind of
    ``institution_words.txt`` (conditions a clinic is named after: failure, sickle, cell)."""
    path = resources.files("phiscrub").joinpath("data", "patterns", "location.toml")
    alternation = tomllib.loads(path.read_text(encoding="utf-8"))["defs"]["FACILITY_GENERIC"]
    words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]*", alternation) if w != "i"}
    return frozenset(words | institution_words()["generic"])


#: a capitalized word (or ``of`` and one) right after a span on its line: a longer name
_NAME_GOES_ON = re.compile(r"[ \t]*(?:&[ \t]*|of[ \t]+)?[A-Z]")
#: a capitalized word right before a span on its line: the span ends a longer name
_NAME_BEFORE = re.compile(r"[A-Z][\w'-]*[ \t]+(?:&[ \t]+)?$")


_INSTITUTIONS = frozenset(["HOSPITAL", "ORGANIZATION", "DEPARTMENT", "LOCATION-OTHER"])
_LINKS = frozenset(["of", "and", "the", "for", "at", "on", "in"])


def _plain_english(name: str) -> bool:
    """Every word is common English, none a place, a name written as one, or an
    institution's word of any kind (``HEALTHCARE PLAN UPDATE``, ``Billed``, ``Zoom``; not
    ``Coastal Path Labs``, ``County General``)."""
    from phiscrub.taggers.hybrid_steps import common_words
    from phiscrub.taggers.hybrid_words import person_words

    words = _WORD.findall(name)
    if not words or any(ch.isdigit() for ch in name):
        return False
    lowered = [w for w in words if w[0].islower() and w not in _LINKS]
    if not (lowered or (len(words) > 1 and name.isupper())):
        return False  # one capitalized word, or a name in title case: kept
    common, people, places = common_words(35), person_words(), _place_names()
    inst = _all_institution_words()
    for word in words:
        low = word.lower()
        if low in _LINKS:
            continue  # ``OF`` is no place (the gazetteer has a town called so)
        if low not in common or low in places or low in inst:
            return False
        if low in people and not word.isupper():
            return False
    return True


@functools.cache
def _all_institution_words() -> frozenset[str]:
    return frozenset().union(*institution_words().values())


@functools.cache
def _place_names() -> frozenset[str]:
    from phiscrub.detect.lexicon import lexicons

    lex = lexicons()
    return frozenset(w.lower() for w in (*lex.cities, *lex.states, *lex.countries))


#: a model year (and a colour) right before: a vehicle's make and model follows
_YEAR_BEFORE = re.compile(r"(?<![\d/.-])\b(?:19|20)\d\d[ \t]+$")
#: a field label's colon or number sign right after
_LABEL_AFTER = re.compile(r"[ \t]*(?:#[ \t]*)?:")


def _not_a_place(text: str, s: Span) -> bool:
    """A make and model after a model year (``2037 Toyota RAV4``), or a one-word field
    label (``Insurer:``, ``Callback #:``)."""
    if _YEAR_BEFORE.search(text, max(0, s.start - 6), s.start):
        return True
    return " " not in s.text.strip() and bool(_LABEL_AFTER.match(text, s.end))


def generic_places(text: str, spans: Sequence[Span]) -> list[Span]:
    """A HOSPITAL made only of generic words (``Heart Failure Clinic``,
    ``Geriatric Day Hospital``, ``Public Health Nursing``) is dropped, after GUIDELINES.md
    (generic units are not tagged), unless a capitalized word goes on or comes before it on
    its line (``Women's Clinic of Acadiana``, ``High Desert Heart``: part of a name)."""
    generic, ends = generic_words(), institution_words()["hospital_end"]
    out: list[Span] = []
    for s in spans:
        if s.label in ("HOSPITAL", "ORGANIZATION", "DEPARTMENT") and _not_a_place(text, s):
            continue
        if s.source.startswith("crf") and s.label in _INSTITUTIONS and _plain_english(s.text):
            continue
        if s.label == "HOSPITAL":
            words = [w.lower() for w in _WORD.findall(s.text)]
            line_start = text.rfind("\n", 0, s.start) + 1
            if (
                words
                and all(w in generic for w in words)
                and words[-1] not in ends
                and not _NAME_GOES_ON.match(text, s.end)
                and not _NAME_BEFORE.search(text[max(line_start, s.start - 40) : s.start])
            ):
                continue
        out.append(s)
    return out


#: the place labels a city cue or the CRF gives an institution's name
_PLACES = ("CITY", "LOCATION-OTHER", "STREET", "COUNTRY")
#: a name and a floor number (``Cottonwood 4``): a named ward, never a town, nor a person
#: (``Transferred to floor (Hanna 6)``), nor a date unless a month leads (``Cedar 5``)
_WARD = re.compile(
    r"(?!(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
    r"[a-z]*\.?[ ])[A-Z][\w'-]+(?:[ ][A-Z][\w'-]+)?[ ]\d{1,2}"
)
#: the CRF's labels for a named ward it does not know
_NOT_WARDS = frozenset(["PATIENT", "DOCTOR", "DATE"])


def _clinical(name: str) -> bool:
    """Is the first word on the clinical allow-list (``Tanner 4`` is a Tanner stage)?"""
    from phiscrub.detect.lexicon import lexicons

    return lexicons().is_allowed(name.split()[0])


#: the last word of a landmark, a natural feature or a road without a house number
_LANDMARK_ENDS = frozenset(
    ["lake", "peak", "spit", "harbor", "harbour", "creek", "canyon", "trail", "beach",
     "island", "reservoir", "hwy", "highway", "parkway", "freeway", "turnpike", "airstrip",
     "airport", "landing", "pier", "wharf", "marina"]
)  # fmt: skip


def _natural_place(s: Span, words: list[str]) -> bool:
    """Is ``s`` a landmark taken for an institution or a street (``Burntside Lake``,
    ``KITT PEAK``, ``Great Eastern Hwy``, ``Garden State Parkway``): a CRF institution or
    street, or a street without a number, of two words or more ending in a landmark word,
    with no institution word in it? GUIDELINES.md: highways and landmarks are
    LOCATION-OTHER. Towns (``Elkhart Lake``) stay the city the gazetteer says."""
    if s.label not in ("ORGANIZATION", "HOSPITAL", "STREET") or len(words) < 2:
        return False
    if s.label != "STREET" and not s.source.startswith("crf"):
        return False
    if any(ch.isdigit() for ch in s.text) or words[-1].lower() not in _LANDMARK_ENDS:
        return False
    if not s.text.isupper() and any(w.isupper() and len(w) > 1 for w in words):
        return False  # an agency's acronym leads it (``USCG Station Southwest Harbor``)
    return not {w.lower() for w in words[:-1]} & _all_institution_words()


def place_or_organization(text: str, spans: Sequence[Span]) -> list[Span]:
    """A landmark the CRF took for an institution or street is LOCATION-OTHER
    (``_natural_place``); a CITY or LOCATION-OTHER of two words or more ending in an
    institution word takes that institution's type (the correction above then decides
    which); a CITY, or a CRF
    person or date, that is a name and a floor number (``back to Cottonwood 4``, ``floor
    (Hanna 6)``) is a named ward, a DEPARTMENT; a CRF person that is a clinical word and a
    number (``Tanner 4``) is dropped."""
    lex = institution_words()
    care = lex["hospital"] | lex["weak_hospital"] | lex["care"]
    out: list[Span] = []
    for s in spans:
        words = _WORD.findall(s.text)
        ward = _WARD.fullmatch(s.text)
        if ward and s.category == "NAME" and s.source.startswith("crf") and _clinical(s.text):
            continue  # a clinical word and a number (``Tanner 4``) is no one's name
        if ward and (
            s.label == "CITY"
            or (s.label in _NOT_WARDS and s.source.startswith("crf") and not _clinical(s.text))
        ):
            s = _relabel(s, "DEPARTMENT", "hybrid.correct:ward")
        elif _natural_place(s, words):
            s = _relabel(s, "LOCATION-OTHER", "hybrid.correct:landmark")
        elif s.label in _PLACES and len(words) >= 2:
            last, lowered = words[-1].lower(), {w.lower() for w in words}
            if last in lex["organization"] and last not in _PLACE_WORDS:
                s = _relabel(s, "ORGANIZATION", "hybrid.correct:place_org")
            elif last in care or lowered & lex["hospital"]:
                s = _relabel(s, "HOSPITAL", "hybrid.correct:place_org")
        out.append(s)
    return out


# -- merge: how far a rule place grows over the CRF's (``hybrid_steps.merge``) --------
#: rule places that end an address line: they never grow over a CRF STREET
ADDRESS_PARTS = frozenset({"CITY", "ZIP", "STATE", "COUNTRY"})
#: rules that find a state or region with the postcode after it (not ``city_state_zip``:
#: its upper-case state alternative also takes a city, ``HAYDEN, AMARILLO 79102``)
ADDRESS_RULES = frozenset(
    f"rules.location:{name}"
    for name in (
        "uk_town_postcode",
        "ca_province_postcode",
        "au_state_postcode",
        "eircode",
        "city_province",
        "hl7_address",
    )
)
#: a capitalized word (``Carnaval``, ``O'Hare``, ``Sainte-Marthe``)
_CAPITALIZED = re.compile(r"\b[A-Z][\w'-]*[\w]")
#: a word of two letters or more (a street part left of a cut is more than a house number)
_LETTERS = re.compile(r"[^\W\d_]{2}")
#: a lower-case word a place name does not hold (``Brazil over Carnaval``; not ``of``,
#: ``del``, ``upon``: ``Bay of Islands``, ``Paseo del Norte``)
_LOWER_WORD = re.compile(
    r"\b(?!(?:of|de|del|la|le|du|des|da|do|dos|das|di|y|e|upon|on|the|and|van|von|st)\b)"
    r"[a-z]{2,}\b"
)
#: what separates the parts of an address (``62 Main Rd, Suite 4 - Hutt 5010``, ``Dr^^Elko``)
_SEPARATORS = " \t\n,;:-\u2013\u2014/|^()."


def place_rest(crf: Span, first: Sequence[Span], text: str) -> list[Span]:
    """A CRF place cut around the rules' place spans in it, the parts that hold a name
    kept: a street part with a word (``5611 Paseo del Norte NW`` of a CRF STREET ``5611
    Paseo del Norte NW, Abbotsford 87114`` whose CITY and ZIP the rules found), else the
    stretch from the first to the last capitalized word (``Carnaval`` of ``Brazil over
    Carnaval`` whose country the rules found)."""
    if crf.category != "LOCATION":
        return [crf]
    cuts = sorted(
        f for f in first if f.start < crf.end and crf.start < f.end and f.category == "LOCATION"
    )
    if not cuts:
        return [crf]
    out: list[Span] = []
    lo = crf.start
    for c_start, c_end in [*((c.start, c.end) for c in cuts), (crf.end, crf.end)]:
        a, b = _rest_piece(text, crf.label, lo, min(c_start, crf.end))
        if b > a:
            out.append(Span(a, b, crf.label, text[a:b], crf.source + "+rest", crf.score))
        lo = max(lo, c_end)
    return out


def _rest_piece(text: str, label: str, a: int, b: int) -> tuple[int, int]:
    if label == "STREET":
        while a < b and text[a] in _SEPARATORS:
            a += 1
        while b > a and text[b - 1] in _SEPARATORS:
            b -= 1
        return (a, b) if _LETTERS.search(text, a, b) else (a, a)
    names = list(_CAPITALIZED.finditer(text, a, b))
    return (names[0].start(), names[-1].end()) if names else (a, a)


def place_limits(
    span: Span, start: int, end: int, rules: Sequence[Span], text: str
) -> tuple[int, int]:
    """The grown extent ``start``-``end`` of a place cut short of the rule spans of another
    place type next to it: it grows right up to the next one (``62 Main Rd`` + CRF ``62
    Main Rd, Hutt 5010`` stops before the rules' CITY ``Hutt``; ``1 Elm St`` before ``Suite
    400``, a ROOM, after GUIDELINES.md), less the separators at the cut, and not left of
    its own start when one comes before it (what lies between belongs to that one)."""
    for r in rules:
        if r.end <= start or r.start >= end:  # first: the cheapest test, most rules fail it
            continue
        if r.category != "LOCATION" or r.label == span.label or r.overlaps(span):
            continue
        if span.end <= r.start < end:
            end = r.start
            while text and end > span.end and text[end - 1] in _SEPARATORS:
                end -= 1
        elif start < r.end <= span.start:
            start = span.start
    if text and span.label not in ("STREET", "ROOM"):
        before = list(_LOWER_WORD.finditer(text, start, span.start))
        if before:
            start = before[-1].end()
            while start < span.start and text[start] in _SEPARATORS:
                start += 1
        after = _LOWER_WORD.search(text, span.end, end)
        if after:
            end = after.start()
            while end > span.end and text[end - 1] in _SEPARATORS:
                end -= 1
    return start, end
