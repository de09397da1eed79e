"""Hybrid split of a hospital's unit off its name (``hospital_units``, after the place steps),
and the edges of institution names and streets (``institution_edges``, after it).

A HOSPITAL span that is a hospital's name and then one of its units, the unit ending in a
unit word (``institution_words.txt``, kind ``unit_end``: center, institute, clinic, suite,
program...), is two things: the hospital (HOSPITAL) and its unit (DEPARTMENT, GUIDELINES.md:
"Named wards and units are DEPARTMENT"). The hospital's name is

- an acronym of 2-6 capitals (``SARMC Pinecrest Child Development Center``,
  ``FRHMC Aspen Grove Wound Center``, ``LLMC Main OR``), or
- a name ending in a hospital word (kind ``head_end``: ``North Shore Lutheran Hospital
  Birthing Center``, ``Ironbound University Hospital Kessler-Amado Transplant Institute``).

A DEPARTMENT or ROOM span that is a named ward and then a room or bed number
(``Menominee 9 914``, ``Larimer 6 6-33``, ``Roadrunner 3 - Rm 3117``) is the ward
(DEPARTMENT) and the room (ROOM), as GUIDELINES.md tags them; a ward named by a room word
(``Ward 64 / Bed 12``, ``Bay 3 Bed 4``) is left alone, since the writers disagree there.

The unit keeps its tag even when its words are generic (``Lymphoma Center``): some writers
tag those too, and a generic unit after a hospital's name tagged DEPARTMENT costs one false
positive where the joined span cost a false positive and a miss; binary coverage is the same.

``institution_edges``: an institution or place span loses a leading lower-case article
(``the Teche Sugar Cooperative``; the corpora tag ``the`` outside the name 82 times, inside
2; ``at The Anthracite Grille`` keeps its capital ``The``), a leading verb or preposition
the rules or the CRF took in (``Attends``, ``Parishioner of``, ``OF``) and a trailing plan
type (``Heartland Mutual Health PPO``: outside 7 times, inside 1); a name ending in ``Co``
before ``-op`` takes it in (``Bluestem Grain Co-op``). A company or care site takes in its
legal form (``Halvorsen Therapeutics, Inc.``: inside 17 times of 18 in the choice sets'
gold), a facility's name ending in a head word its ``of`` / ``for`` tail in the same case
(``Children's Hospital of the Ozarks``, ``Spokane Eye Institute for Children``: 8 names
made exact, none broken), and a name with ``&`` inside is taken whole (``Speedway Hardware
& Feed``, ``FURNESS & LUNE VALLEY GENERAL HOSPITAL``, ``Pemberton, Oyelowo & Marsh LLP``:
7 made exact, none broken). The places, and the bits of the name the CRF took for another
institution, that the longer name covers are dropped; a person's name stops it.

A STREET ends at its first line break and at its last street word: what the CRF took in
after it (``Grand Ave yesterday``, ``Hebert Cemetery Rd *``, ``Shaw Ave | 22``) and the
period of a sentence that ends there (``212 S. Main St. My``) stay out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from phiscrub.span import Span
from phiscrub.taggers.hybrid_places import institution_words

__all__ = ["hospital_units", "institution_edges"]

#: words with their offsets inside a span (letters, digits, ``&``, inner ``'`` and ``-``)
_WORDS = re.compile(r"[\w&][\w'&.-]*")
_ACRONYM = re.compile(r"[A-Z]{2,6}")


def _split_at(text: str, words: list[re.Match[str]]) -> int | None:
    """The index of the unit's first word, or None when the span is one name."""
    lex = institution_words()
    units, heads = lex["unit_end"], lex["head_end"]
    if len(words) < 2 or words[-1].group().lower() not in units:
        return None
    if _ACRONYM.fullmatch(words[0].group()) and not text.isupper():
        return 1
    lowered = [w.group().lower().rstrip(".") for w in words]
    for k in range(len(words) - 1, 0, -1):  # the last head word that leaves a unit after it
        one, two = lowered[k - 1], " ".join(lowered[max(0, k - 2) : k])
        if one in heads or two in heads:
            return k
    return None


#: a named ward (capitalized words and a floor number), then its room or bed number
_WARD_ROOM = re.compile(
    r"(?P<ward>[A-Z][A-Za-z'\u2019-]+(?:[ ][A-Z][A-Za-z'\u2019-]+){0,2}[ ]\d{1,2}[A-Z]?)"
    r"(?:[ ]*[-/,][ ]*|[ ]+)"
    r"(?P<room>(?:(?:Rm|RM|Room|ROOM|Bed|BED|rm|room|bed)\.?[ ]?)?\d[\dA-Z-]*)"
)
#: words that make a ward's name a room's or a generic unit's (left alone)
_ROOM_WORDS = frozenset(
    ["ward", "bay", "room", "rm", "bed", "cell", "suite", "floor", "unit", "pod", "pavilion",
     "wing", "level", "station", "tower", "building", "bldg", "or", "icu", "er", "ed"]
)  # fmt: skip


def _ward_room(text: str, s: Span) -> list[Span] | None:
    """A named ward and its room, as DEPARTMENT + ROOM; None when the span is not one."""
    m = _WARD_ROOM.fullmatch(s.text)
    if m is None or any(w.lower() in _ROOM_WORDS for w in m.group("ward").split()[:-1]):
        return None
    source = f"{s.source}+room"
    (a, b), (c, d) = (s.start + i for i in m.span("ward")), (s.start + i for i in m.span("room"))
    return [
        Span(a, b, "DEPARTMENT", text[a:b], source, s.score),
        Span(c, d, "ROOM", text[c:d], source, s.score),
    ]


def hospital_units(text: str, spans: Sequence[Span]) -> list[Span]:
    """HOSPITAL spans of a hospital's name and a unit split in HOSPITAL + DEPARTMENT; a
    named ward and its room split in DEPARTMENT + ROOM."""
    out: list[Span] = []
    for s in spans:
        if s.label in ("DEPARTMENT", "ROOM") and (parts := _ward_room(text, s)) is not None:
            out.extend(parts)
            continue
        if s.label != "HOSPITAL":
            out.append(s)
            continue
        words = list(_WORDS.finditer(s.text))
        k = _split_at(s.text, words)
        if k is None:
            out.append(s)
            continue
        head_end = s.start + words[k - 1].end()
        unit_start = s.start + words[k].start()
        source = f"{s.source}+unit"
        out.append(Span(s.start, head_end, "HOSPITAL", text[s.start : head_end], source, s.score))
        out.append(Span(unit_start, s.end, "DEPARTMENT", text[unit_start : s.end], source, s.score))
    return out


_EDGED = frozenset(["HOSPITAL", "ORGANIZATION", "DEPARTMENT", "LOCATION-OTHER"])
#: what leads no institution's name: an article, a verb or a preposition taken in
_LEAD = re.compile(
    r"(?:the|[Aa]ttends|ATTENDS|[Pp]arishioner of|[Mm]ember of|of|OF)[ ]+(?=[A-Za-z])"
)
#: a plan type after an insurer's name
_PLAN_TAIL = re.compile(r"[ ]+(?:PPO|HMO|EPO|POS)$")


#: a company's legal form after its name (``Halvorsen Therapeutics, Inc.``)
_LEGAL = re.compile(
    r",?[ ](?:Inc|INC|LLC|PLLC|LLP|Ltd|LTD|Corp|Co)\.?(?![\w-])"
    r"|\.(?:(?<=Inc\.)|(?<=Co\.)|(?<=Corp\.)|(?<=Ltd\.))"
)
#: ``of`` / ``for`` and up to three capitalized words after a facility's head word
_OF_TAIL = re.compile(
    r"[ ](?:of|for|OF|FOR)[ ](?:(?:the|THE)[ ])?([A-Z][\w'\u2019-]*(?:[ ][A-Z][\w'\u2019-]*){0,2})"
)
#: the head words a name of the form ``X Hospital of the Ozarks`` ends in before its tail
_OF_HEADS = frozenset(
    ["hospital", "clinic", "center", "centre", "infirmary", "institute", "home", "network",
     "society", "council", "hospice", "services"]
)  # fmt: skip
#: capitalized words that start no name after ``of`` / ``for``
_NOT_NAMES = frozenset(
    ["we", "our", "this", "that", "these", "your", "his", "her", "their", "its", "my", "all",
     "any", "each", "further", "follow", "dr", "mr", "mrs", "ms", "patient", "patients",
     "evaluation", "eval", "follow-up", "surgery", "consult", "consultation", "review"]
)  # fmt: skip
_INSTITUTIONS = frozenset(["HOSPITAL", "ORGANIZATION"])


def _same_case(span_text: str, words: str) -> bool:
    if span_text.isupper():
        return words.isupper()
    return not words.isupper() or len(words) <= 4


def _tail(text: str, s: Span, others: Sequence[Span]) -> int:
    """Where an institution's name really ends: after its legal form, or after ``of the
    Ozarks`` when it ends in a facility's head word (the extension overlaps no span of
    another kind than a place)."""
    end = s.end
    legal = _LEGAL.match(text, end)
    if legal:
        end = legal.end()
    else:
        last = s.text.rsplit(None, 1)[-1].lower()
        tail = _OF_TAIL.match(text, end) if last in _OF_HEADS else None
        if tail and _same_case(s.text, tail.group(1)):
            first = tail.group(1).split()[0].lower()
            if first not in _NOT_NAMES and first not in _OF_HEADS:
                end = tail.end()
    if end > s.end and any(
        o.start < end and s.end < o.end and o.category != "LOCATION" for o in others
    ):
        return s.end
    return end


#: the words that end a street's name (``data/features/street_words.txt``), then what the
#: CRF took in after it: a word in lower case, a column mark or bullet and what follows, or
#: a new sentence (``Grand Ave yesterday``, ``Hebert Cemetery Rd *``, ``Shaw Ave | 22``,
#: ``Hanson St. Don't drive``); ``.`` ends the street when a sentence starts after it
_STREET_TAIL = re.compile(
    r"(?<=[A-Za-z])(?:\.?(?:[ ]+[a-z]+)+|[ ]+[*\u00b7|\u2022].*|\.[ ]+[A-Z][\w']*.*)$"
)


@functools.cache
def _street_words() -> frozenset[str]:
    from phiscrub.resources import data_lines

    return frozenset(data_lines("features", "street_words.txt"))


def _street_end(text: str, s: Span) -> int:
    """Where a STREET really ends: at its first line break, and before what the CRF took
    in after the street's last word (``_STREET_TAIL``); a sentence's period stays out
    (``212 S. Main St. My X-waiver``: the corpora leave it out)."""
    end = s.end
    cut = s.text.find("\n")
    if cut > 0:
        end = s.start + len(s.text[:cut].rstrip())
    body = text[s.start : end]
    tail = _STREET_TAIL.search(body)
    if tail:
        before = body[: tail.start()].split()
        rest = {w.lower() for w in _WORDS.findall(tail.group())}
        if len(before) > 1 and _street_type(before[-1].lower()) and not rest & _street_words():
            end = s.start + tail.start()
    sentence = text.endswith(".", s.start, s.end) and _SENTENCE.match(text, s.end)
    if end == s.end and sentence and _street_type(text[s.start : s.end - 1].split()[-1].lower()):
        end -= 1
    return end


_SENTENCE = re.compile(r"[ ]+[A-Z]")


#: the directions among the street words: ``S.`` in ``1120 S. Utica Ave`` ends nothing
_DIRECTIONS = frozenset(
    ["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west"]
)


def _street_type(word: str) -> bool:
    return word in _street_words() and word not in _DIRECTIONS


def institution_edges(text: str, spans: Sequence[Span]) -> list[Span]:
    """Institutions and places without a leading article, verb or preposition or a
    trailing plan type, with their legal form and their ``of the ...`` tail; ``Co`` +
    ``-op`` joined (see the module docstring)."""
    out: list[Span] = []
    for s in spans:
        start, end = s.start, s.end
        if s.label in _EDGED:
            lead = _LEAD.match(s.text)
            if lead and lead.end() < len(s.text):
                start += lead.end()
            tail = _PLAN_TAIL.search(text, start, end)
            if tail and s.label == "ORGANIZATION" and tail.start() > start:
                end = tail.start()
            if text.endswith("Co", start, end) and text.startswith("-op", end):
                end += 3
            if end == s.end and s.label in _INSTITUTIONS:
                end = _tail(text, s, spans)
        elif s.label == "STREET":
            end = _street_end(text, s)
        if (start, end) != (s.start, s.end):
            s = Span.of(text, start, end, s.label, s.source + "+edge", s.score)
        out.append(s)
    grown = [s for s, o in zip(out, spans, strict=True) if s.end > o.end]
    return _ampersands(text, _without_covered(out, grown))


def _without_covered(spans: list[Span], grown: list[Span]) -> list[Span]:
    """``spans`` without those inside a grown span (the grown spans themselves stay)."""
    return [
        s
        for s in spans
        if not any(g is not s and g.start <= s.start and s.end <= g.end for g in grown)
    ]


#: ``& Word`` after an institution's name, then the name's end
_AMP_AFTER = re.compile(r"[ ]&[ ]([A-Za-z][\w'-]*)(?=[ \t]*(?:[,.;:()\n]|$)|[ ][a-z])")
#: capitalized words (partners' names in a list) and `` & `` right before an institution's name
_AMP_BEFORE = re.compile(r"(?<![\w.])((?:[A-Z][\w'-]*,?[ ]){0,2}[A-Z][\w'-]*)[ ]&[ ]$")


def _ampersands(text: str, spans: list[Span]) -> list[Span]:
    """An institution's name with ``&`` inside it taken whole: ``Speedway Hardware &
    Feed``, ``FURNESS & LUNE VALLEY GENERAL HOSPITAL``, ``Naidoo & Mthembu Attorneys``."""
    out: list[Span] = []
    for s in spans:
        if s.label not in _INSTITUTIONS:
            out.append(s)
            continue
        start, end = s.start, s.end
        after = _AMP_AFTER.match(text, end)
        word = after.group(1) if after else ""
        if after and _same_case(s.text, word) and word.lower() not in _NOT_NAMES:
            end = after.end()
        line_start = text.rfind("\n", 0, start) + 1
        before = _AMP_BEFORE.search(text[line_start:start])
        if before and _same_case(s.text, before.group(1)):
            start = line_start + before.start(1)
        crossed = any(
            o is not s and o.start < end and start < o.end and (o.start < start or end < o.end)
            for o in spans
        )
        if (start, end) != (s.start, s.end) and not crossed:
            s = Span.of(text, start, end, s.label, s.source + "+edge", s.score)
        out.append(s)
    return sorted(_without_covered(out, [s for s in out if s.source.endswith("+edge")]))
