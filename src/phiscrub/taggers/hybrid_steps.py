"""The span steps of the hybrid tagger (seed 001 §3.3): merge, error correction, reconciliation.

Each step is a small pure function on spans (nothing is mutated; new lists are returned):

- ``merge``: rule spans of the well-formed categories (DATE, AGE, CONTACT, ID) win over any
  CRF span they overlap; CRF spans come next; rule spans of the other categories fill the
  places no CRF span covers (``fill=False`` leaves them out).
- error correction: ``fax_or_phone`` (the nearest context word before the number on its
  line, ``fax`` or a phone word, decides), ``drop_credentials`` (a STATE right after a
  name is a credential: ``Lee, MD``), ``drop_unknown_states`` (a STATE that is not a
  state name or postal code is dropped), ``hospital_or_organization`` and
  ``place_or_organization`` (``taggers/hybrid_places.py``: an institution's type by its
  words and the words before it), ``name_roles`` (``taggers/hybrid_roles.py``: a name's
  type by the role words around it).
- reconciliation over a group of notes (one note, or a patient's notes):
  ``doctor_after_title`` (a name after ``Dr.`` is a DOCTOR wherever it occurs in the note,
  unless a lay role comes before the title: ``principal Dr. Lee``),
  ``type_counting`` (a string tagged with the same type at least twice, more often than any
  other type, takes that type everywhere), ``propagate`` (confident names and IDs, and the
  surname of a confident full name, are tagged at their other, untagged mentions).

The word lists below are short closed-class lists of context words, not note strings.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Collection, Sequence
from importlib import resources

from phiscrub.detect.resolve import Disjoint
from phiscrub.span import Span
from phiscrub.taggers.hybrid_places import (
    ADDRESS_PARTS,
    ADDRESS_RULES,
    hospital_or_organization,
    institution_words,
    place_limits,
    place_or_organization,
    place_rest,
)
from phiscrub.taggers.hybrid_roles import _lay_role_before, _role_patterns, name_roles
from phiscrub.taxonomy import CATEGORY_OF

__all__ = [
    "GROW",
    "RULE_PRIORITY",
    "doctor_after_title",
    "drop_credentials",
    "drop_unknown_states",
    "fax_or_phone",
    "hospital_or_organization",
    "merge",
    "name_roles",
    "place_or_organization",
    "propagate",
    "type_counting",
]

#: categories for which a rule span wins over an overlapping CRF span (seed 001 §3.3.4)
#: NAME and LOCATION were added: a rule's label for them (``Dr.`` -> DOCTOR, a hospital
#: ending) beats the CRF's on DEV and corpora/tune, see ``merge``
RULE_PRIORITY = frozenset({"DATE", "AGE", "CONTACT", "ID", "NAME", "LOCATION"})
#: priority categories whose rule span grows over overlapping CRF spans of its category
#: (a rule finds ``View High School``, the CRF ``Bay View High School``)
GROW = frozenset({"NAME", "LOCATION"})
_PHONE_WORDS = ("phone", "tel", "telephone", "ph", "cell", "mobile", "pager", "beeper", "call")
_TITLE = re.compile(r"\b(?:Dr|DR|Doctor|dr)\.?\s+$")
#: a word of letters in any script (``Lucía``, ``Ngọc``), with inner apostrophes and hyphens
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['-])+")


def _covered(span: Span, kept: Sequence[Span]) -> bool:
    return any(span.overlaps(k) for k in kept)


def _resolve(spans: Sequence[Span]) -> list[Span]:
    """Overlapping spans reduced: higher score first, then the longer, then the earlier."""
    kept: list[Span] = []
    taken = Disjoint()
    for s in sorted(spans, key=lambda s: (-s.score, -(s.end - s.start), s.start)):
        if not taken.overlaps(s):
            kept.append(s)
            taken.add(s)
    return sorted(kept)


def merge(
    rules: Sequence[Span],
    crf: Sequence[Span],
    priority: Collection[str] = RULE_PRIORITY,
    fill: bool = True,
    text: str = "",
) -> list[Span]:
    """Rule spans of ``priority`` categories, then CRF spans, then other rule spans.

    A priority rule span of a ``GROW`` category takes the extent of the CRF spans of its
    category that overlap it (their union), keeping the rule's label: the rules are
    better at the type of a name or place, the CRF at where a long one ends. Measured
    with a model trained on TRAIN only (strict F1 / binary token recall): DEV
    0.889/0.986 -> 0.900/0.986, corpora/tune 0.853/0.972 -> 0.887/0.979 (seed 001 gives
    rules priority for the well-formed categories only: 0.889 and 0.853). The capitalized
    parts of a CRF place outside the rules' places stay (``hybrid_places.place_rest``)."""
    ruled = [s for s in rules if s.category in priority]
    first = _resolve([_grow(s, crf, text, rules) for s in ruled])
    # a rule span whose growth lost to another rule span keeps its own extent when that
    # is free (``OSHP`` grown over the CRF's ``OSHP Trooper Halvorsen`` loses to the
    # name ``Halvorsen``; ``OSHP`` alone stays)
    taken = Disjoint(first)
    first = sorted(first + _resolve([s for s in ruled if not taken.overlaps(s)]))
    if text:
        crf = [part for s in crf for part in place_rest(s, first, text)]
    taken = Disjoint(first)
    second = _resolve([s for s in crf if not taken.overlaps(s)])
    out = first + second
    if fill:
        taken = Disjoint(out)
        rest = [s for s in rules if s.category not in priority]
        out += _resolve([s for s in rest if not taken.overlaps(s)])
    return sorted(out)


def _grow(span: Span, crf: Sequence[Span], text: str = "", rules: Sequence[Span] = ()) -> Span:
    """``span`` over the union of itself and the CRF spans of its category it overlaps.
    A name grows only over more name words (``T. Haskins``, ``VANTERPOOL, Desmond``), not
    over a credential, a title or role, or a lower-case word (``Ann Lee, BSN``, ``Nurse
    Kim Ames``, ``Dr. Ferreira concurs``): on DEV, corpora/tune and corpora/train2 with a
    TRAIN-only model, growth made 48 names exact and broke 16, all of those kinds. A place
    grows only up to the rules' next place of another type (``hybrid_places.place_limits``)."""
    if span.category not in GROW:
        return span
    over = [  # the offsets first: the cheapest test, most spans fail it
        s for s in crf if s.start < span.end and span.start < s.end and s.category == span.category
    ]
    if text and span.category == "NAME":
        over = [s for s in over if _name_growth(text, s, span)]
    if span.label in ADDRESS_PARTS:  # a city does not take the street line before it
        over = [s for s in over if s.label != "STREET"]
    if not over:
        return span
    start = min(s.start for s in [*over, span])
    end = max(s.end for s in [*over, span])
    if span.category == "LOCATION":
        start, end = place_limits(span, start, end, rules, text)
    if (start, end) == (span.start, span.end):
        return span
    chars = [""] * (end - start)  # every span overlaps ``span``: the union is one stretch
    for s in [*over, span]:
        lo, hi = max(s.start, start), min(s.end, end)
        chars[lo - start : hi - start] = s.text[lo - s.start : hi - s.start]
    return Span(start, end, span.label, "".join(chars), f"{span.source}+crf", span.score)


#: lower-case words that belong inside a name (``Rosario Santos dela Cruz``)
_PARTICLES = frozenset(
    ["van", "der", "den", "de", "del", "della", "dela", "di", "da", "dos", "das", "du", "la",
     "le", "von", "bin", "binti", "ibn", "al", "el", "y", "s/o", "d/o", "ap", "ni", "nic"]
)  # fmt: skip
#: honorifics and titles that stay outside a name (role words come from name_roles.txt)
_HONORIFICS = frozenset(
    ["dr", "mr", "mrs", "ms", "miss", "mx", "mdm", "mme", "mlle", "sr", "sra", "srta", "sgt",
     "lt", "capt", "cpl", "det", "rev", "fr", "prof", "hon", "judge", "sister", "brother"]
)  # fmt: skip


def _name_growth(text: str, crf: Span, rule: Span) -> bool:
    """Are the words a CRF name adds on either side of a rule name more name words?"""
    left, right = text[crf.start : rule.start], text[rule.end : crf.end]
    if left and not left[-1].isspace() and left[-1] not in ",":
        left = left.rsplit(None, 1)[0] if len(left.split()) > 1 else ""  # a cut word: fine
    if right and not right[0].isspace() and right[0] not in ",":
        right = right.split(None, 1)[1] if len(right.split()) > 1 else ""
    stop = _name_stop_words()
    for word in re.findall(r"[^\s,;]+", left + " " + right):
        core = word.strip("\"“”'()")
        if not core or core.lower() in _PARTICLES:
            continue
        if not core[0].isupper() or core == "I" or core.rstrip(".").lower() in stop:
            return False
        if _credential().fullmatch(" " + core):
            return False
    return True


@functools.cache
def _name_stop_words() -> frozenset[str]:
    """Words a name never grows over: roles, honorifics, hospital and organization words."""
    lex = institution_words()
    places = lex["hospital"] | lex["weak_hospital"] | lex["organization"]
    return _role_words() | _HONORIFICS | places


@functools.cache
def _role_words() -> frozenset[str]:
    """The one-word roles of ``data/lexicons/name_roles.txt`` (``nurse``, ``paramedic``)."""
    path = resources.files("phiscrub").joinpath("data", "lexicons", "name_roles.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    roles = (
        line.partition("\t")[2].partition("\t")[0].strip().lower()
        for line in lines
        if not line.startswith("#")
    )
    return frozenset(r for r in roles if r and " " not in r)


def _relabel(span: Span, label: str, source: str) -> Span:
    if span.label == label:
        return span
    return Span(span.start, span.end, label, span.text, source, span.score)


# -- error correction ---------------------------------------------------------------
def _line_before(text: str, start: int, reach: int = 40) -> str:
    left = text[max(0, start - reach) : start]
    cut = max(left.rfind("\n"), left.rfind("\r"))
    return left[cut + 1 :].lower()


def fax_or_phone(text: str, spans: Sequence[Span]) -> list[Span]:
    """PHONE or FAX by the nearest context word before the number on its line."""
    out: list[Span] = []
    for s in spans:
        if s.label in ("PHONE", "FAX"):
            before = _line_before(text, s.start)
            fax = max(before.rfind("fax"), before.rfind("facsimile"))
            phone = max(_word_at(before, w) for w in _PHONE_WORDS)
            if fax > phone:
                s = _relabel(s, "FAX", "hybrid.correct:fax")
            elif phone > fax:
                s = _relabel(s, "PHONE", "hybrid.correct:phone")
        out.append(s)
    return out


def _word_at(text: str, word: str) -> int:
    """The last position of ``word`` as a whole word in ``text`` (-1 if absent)."""
    found = [m.start() for m in re.finditer(rf"\b{word}\b", text)]
    return found[-1] if found else -1


@functools.cache
def state_names() -> frozenset[str]:
    """State names and codes, lower case: US states and postal codes
    (``data/lexicons/states.txt``) and first-level regions elsewhere (``regions.txt``:
    provinces, Australian states, counties; an Irish county also as ``co``/``county`` +
    name)."""
    out: set[str] = set()
    for name in ("states.txt", "regions.txt"):
        path = resources.files("phiscrub").joinpath("data", "lexicons", name)
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                parts = [p.strip().lower() for p in line.split("\t") if p.strip()]
                out.update(parts)
                if name == "regions.txt":
                    out.update(f"{pre} {parts[0]}" for pre in ("co", "county"))
    return frozenset(out)


def drop_credentials(text: str, spans: Sequence[Span]) -> list[Span]:
    """A STATE right after a name (``Ann Lee, MD``, ``Lee MD``) is a credential, not a
    state: it is dropped."""
    names = [s for s in spans if s.category == "NAME"]
    return [
        s
        for s in spans
        if s.label != "STATE"
        or not any(
            0 <= s.start - n.end <= 2 and not text[n.end : s.start].strip(", ") for n in names
        )
    ]


def drop_unknown_states(
    text: str, spans: Sequence[Span], states: frozenset[str] | None = None
) -> list[Span]:
    """STATE spans whose text is no state name or postal code are dropped (seed 001's
    correction of the CRF's states; also a rule's state that the CRF grew into a team or
    a lake: ``Arizona Storm VBC``), but not one the address rules found before its
    postcode (``Redcliffe QLD 4020``: ``hybrid_places.ADDRESS_RULES``). The list
    (``states.txt`` + ``regions.txt``) held US states only until round 8."""
    known = state_names() if states is None else states
    return [
        s
        for s in spans
        if s.label != "STATE"
        or s.source.split("+")[0] in ADDRESS_RULES
        or (
            " ".join(s.text.replace(".", "").split()).lower() in known
            and not _code_out_of_place(text, s)
        )
    ]


#: what comes before a state's code in a place: a comma, a place preposition, a town
_PLACE_BEFORE = re.compile(r"(?:,[ ]*|\b(?:in|from|to|of|near|at|In|From|To)[ ]+|[A-Z][a-z]+[ ]+)$")
#: what comes after it: a ZIP code, or a licence (``KS PT lic``, ``NH RN License``)
_PLACE_AFTER = re.compile(r"[ ]+(?:\d{5}|(?:[A-Z]{2,5}[ ]+)?(?:[Ll]ic|LIC|[Ll]icense))")


def _code_out_of_place(text: str, s: Span) -> bool:
    """A two-letter code the CRF called a STATE with no place around it: a clinical or
    form abbreviation (``(MA)`` a medical assistant, ``trace AR``, ``FL 32.8 mm``, HL7's
    ``|NM|``, ``TO OR``). On the five choice sets 11 such CRF states were wrong and 0 right;
    with a place around them 12 right and 8 wrong."""
    if not s.source.startswith("crf") or not re.fullmatch(r"[A-Z]{2}", s.text):
        return False
    before = text[max(0, s.start - 25) : s.start]
    return not (_PLACE_BEFORE.search(before) or _PLACE_AFTER.match(text, s.end))


# -- reconciliation -----------------------------------------------------------------
@functools.cache
def _credential() -> re.Pattern[str]:
    """``, MD`` / `` RN`` right after a name: the credentials of ``data/patterns/_common.toml``."""
    import tomllib

    path = resources.files("phiscrub").joinpath("data", "patterns", "_common.toml")
    cred = tomllib.loads(path.read_text(encoding="utf-8"))["defs"]["CRED"]
    return re.compile(rf",?[ ]{{1,2}}{cred}(?!\w)(?![\-/]\w)")  # ``M.D.`` ends in no \b


def doctor_after_title(text: str, spans: Sequence[Span]) -> list[Span]:
    """Names after ``Dr.`` or followed by a clinical credential (``Ann Lee, RN``) are
    DOCTORs, and so is every other mention of them in the note: the full name, and the
    surname alone. Another full name with the same surname is not (``Dr. Natalia Ruiz`` and
    her father ``Arthur Ruiz``: a family shares its surname)."""
    doctors: set[str] = set()
    credential = _credential()
    patterns = _role_patterns()
    for s in spans:
        if s.category == "NAME" and (
            _TITLE.search(text[max(0, s.start - 10) : s.start]) or credential.match(text, s.end)
        ):
            if not credential.match(text, s.end) and _lay_role_before(text, s, patterns):
                continue  # ``principal Dr. Lee``: a title is no part in the care
            doctors.add(s.text)
            doctors.add(s.text.split()[-1])
    return [
        _relabel(s, "DOCTOR", "hybrid.reconcile:title")
        if s.label == "PATIENT" and s.text in doctors
        else s
        for s in spans
    ]


def type_counting(groups: Sequence[Sequence[Span]], min_count: int = 2) -> list[list[Span]]:
    """Over a group of notes: a string tagged ``min_count`` times or more with one type,
    and more often than with any other, takes that type at every tagged mention."""
    counts: dict[str, Counter[str]] = {}
    for spans in groups:
        for s in spans:
            counts.setdefault(s.text, Counter())[s.label] += 1
    winner: dict[str, str] = {}
    for string, c in counts.items():
        top = c.most_common(2)
        if top[0][1] >= min_count and (len(top) == 1 or top[0][1] > top[1][1]):
            winner[string] = top[0][0]
    return [
        [_relabel(s, winner.get(s.text, s.label), "hybrid.reconcile:count") for s in spans]
        for spans in groups
    ]


@functools.cache
def common_words(max_level: int = 20) -> frozenset[str]:
    path = resources.files("phiscrub").joinpath("data", "lexicons", "common_words.txt")
    out: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        word, _, level = line.partition("\t")
        if word and not word.startswith("#") and level.isdigit() and int(level) <= max_level:
            out.add(word)
    return frozenset(out)


def _seeds(spans: Sequence[Span], min_score: float) -> dict[str, tuple[str, float]]:
    """Strings worth propagating: confident NAME and ID spans, and each distinctive word of
    a full name (a surname, and a first name: messages greet ``Hi Priya``; ``LAST, FIRST``
    headers put it last). A word is distinctive when it is capitalized, 3 letters or
    more, not common English and not a credential (``PhD``)."""
    out: dict[str, tuple[str, float]] = {}
    common = common_words()
    credential = _credential()
    for s in spans:
        if s.score >= min_score and s.label in ("HOSPITAL", "ORGANIZATION"):
            initials = _acronym(s.text)
            if initials:
                out.setdefault(initials, (s.label, s.score))
        if s.score < min_score or s.category not in ("NAME", "ID"):
            continue
        if len(s.text) >= 3 and any(ch.isalnum() for ch in s.text):
            out.setdefault(s.text, (s.label, s.score))
        words = _WORD.findall(s.text)
        if s.label in ("PATIENT", "DOCTOR") and len(words) > 1:
            for word in words:
                if (
                    len(word) >= 3
                    and word[0].isupper()
                    and word.lower() not in common
                    and not credential.fullmatch(" " + word)
                ):
                    out.setdefault(word, (s.label, s.score))
    return out


_INITIAL_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['\u2019])*")
#: small words left out of an institution's initials
_SMALL = frozenset(["of", "the", "and", "for", "at", "de", "la", "du"])


def _acronym(name: str) -> str:
    """The initials an institution goes by (``Tamarack Valley Medical Center`` -> ``TVMC``):
    the first letters of its capitalized words, when there are 3 or more."""
    words = [w for w in _INITIAL_WORD.findall(name) if w.lower() not in _SMALL]
    if len(words) < 3 or not all(w[0].isupper() for w in words):
        return ""
    return "".join(w[0] for w in words)


def _mentions(text: str, strings: Collection[str]) -> list[tuple[int, int, str]]:
    if not strings:
        return []
    alternation = "|".join(re.escape(s) for s in sorted(strings, key=len, reverse=True))
    pattern = re.compile(rf"(?<![^\W_])(?:{alternation})(?![^\W_])")
    return [(m.start(), m.end(), m.group()) for m in pattern.finditer(text)]


def propagate(
    texts: Sequence[str], groups: Sequence[Sequence[Span]], min_score: float = 0.9
) -> list[list[Span]]:
    """Over a group of notes: untagged mentions of confidently tagged names and IDs (and
    surnames of confident full names) are tagged with the same type."""
    seeds: dict[str, tuple[str, float]] = {}
    for spans in groups:
        for string, found in _seeds(spans, min_score).items():
            seeds.setdefault(string, found)
    out: list[list[Span]] = []
    for text, spans in zip(texts, groups, strict=True):
        added = list(spans)
        for start, end, string in _mentions(text, seeds):
            label, score = seeds[string]
            span = Span(start, end, label, string, "hybrid.reconcile:propagate", score)
            if not _covered(span, added):
                added.append(span)
        out.append(sorted(added))
    return out


def category_of(label: str) -> str:
    return CATEGORY_OF[label]
