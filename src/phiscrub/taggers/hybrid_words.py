"""Words that are not PHI: the checks that read lexicons of English, roles, credentials,
languages, faiths and peoples (used by ``hybrid_tidy``; ``person_words`` by the role
steps too).

- ``not_a_name_word`` and ``no_person``: a role, title or closed-class word that is
  nobody's name; a CRF name that is no person at all (``Mr`` alone, ``E. coli``, ``M.D``).
- ``not_a_crf_name``: a CRF name that is one acronym in running text, one English word or
  role nobody is named (``Reply``, ``Niece``, ``COMMENTS``), or several words that are all
  common English and nobody's name (``Dog owner``, ``Immunization Reactions``).
- ``speech_or_faith``: a CRF name, place or organization that is exactly a language, a
  faith or a people (``data/lexicons/languages.txt``, ``peoples_faiths.txt``): ``Speaks
  Russian``, ``Religion: Roman Catholic``, ``Ethnicity: Samoan``. Neither is PHI.
- ``trim_name_tail``: a name without the credential it ends with or, in capitals, a
  closed-class word after it (``Mei-Lin Harrow, Ph``, ``DR VANMETER AT 0150``).
"""

from __future__ import annotations

import functools
import re

from phiscrub.resources import data_lines
from phiscrub.span import Span

__all__ = [
    "first_names",
    "no_person",
    "not_a_crf_name",
    "not_a_name_word",
    "not_a_title_or_role",
    "person_words",
    "speech_or_faith",
    "trim_name_tail",
]


def first_names() -> frozenset[str]:
    """Every first name of the lexicons, lower case."""
    from phiscrub.detect import lexicon

    return lexicon.lexicons().first_names


@functools.cache
def person_words() -> frozenset[str]:
    """Every first and last name of the lexicons, lower case."""
    from phiscrub.detect import lexicon

    return first_names() | lexicon.lexicons().last_names


#: closed-class words that end no name in capitals (``DR. WHITEHORSE TO BE NOTIFIED``,
#: ``DR VANMETER AT 0150``, ``DR. PATEL PGY-2``)
_NOT_NAME_TAILS = frozenset(["AT", "TO", "ON", "IN", "FOR", "BY", "OF", "AND", "RE", "PGY"])


def trim_name_tail(text: str, span: Span) -> Span:
    """A name span loses a credential it ends with (``Mei-Lin Harrow, Ph`` of ``Ph.D.``,
    ``C.R. SLONE MD``, ``lindsey vue, lcsw``; GUIDELINES.md leaves credentials out) and, in
    capitals, a closed-class word after the name (``WHITEHORSE TO``)."""
    from phiscrub.taggers.hybrid_steps import _credential

    words = span.text.split()
    if len(words) > 1 and words[-1] in _NOT_NAME_TAILS and span.text.isupper():
        end = span.start + span.text.rstrip().rfind(" ")
        return Span.of(text, span.start, end, span.label, span.source + "+trim", span.score)
    cred = _credential() if not span.text.islower() else _credential_lower()
    # a credential is one of the last two words (``Ph`` of ``Ph.D.``, ``M.D``, ``R.N``)
    for m in list(re.finditer(r",?[ ]", span.text))[-2:]:
        hit = cred.match(text, span.start + m.start())
        if hit and hit.end() >= span.end and m.start() > 0:
            end = span.start + m.start()
            return Span.of(text, span.start, end, span.label, span.source + "+trim", span.score)
    return span


@functools.cache
def _credential_lower() -> re.Pattern[str]:
    from phiscrub.taggers.hybrid_steps import _credential

    return re.compile(_credential().pattern, re.IGNORECASE)


@functools.cache
def _common() -> frozenset[str]:
    from phiscrub.taggers.hybrid_steps import common_words

    return common_words(35)


@functools.cache
def _speech_or_faith_words() -> frozenset[str]:
    words = data_lines("lexicons", "languages.txt") + data_lines("lexicons", "peoples_faiths.txt")
    return frozenset(w.lower() for w in words)


#: a verb of speech before a language inside the span (``Speaks Russian``)
_SPEAKS = re.compile(r"(?i)(?:speaks|speak|language:?)\s+")


def speech_or_faith(span: Span) -> bool:
    """Is the span (a name, a place other than a hospital, or an organization) exactly a
    language, a faith or a people?"""
    if span.category not in ("NAME", "LOCATION") or span.label == "HOSPITAL":
        return False
    text = _SPEAKS.sub("", span.text, count=1) if _SPEAKS.match(span.text) else span.text
    return text.lower() in _speech_or_faith_words()


def not_a_crf_name(text: str, span: Span) -> bool:
    """A one-word CRF name that is an acronym inside running text (``labs/LP/EEG``, ``by
    ASCO/CAP``, ``referred to HV``; initials stand at a line's start or end: ``KMW``,
    ``FQ/bc``; a lexicon name of four letters or more is a name in capitals), a role
    (``Niece states``, ``Coach Tanner Boyle``: the CRF took the role, the rules the name)
    or an English word that is nobody's name (``Reply``, ``COMMENTS``; in capitals from
    five letters, below that an acronym), or several words all common English and nobody's
    name; unless it is quoted (a nickname: ``"KJ"``, dog ``"Biscuit"``)."""
    from phiscrub.taggers.hybrid_steps import _role_words

    if span.category != "NAME" or not span.source.startswith("crf"):
        return False
    before, after = text[span.start - 1 : span.start], text[span.end : span.end + 1]
    if (before and before in "\"“'^") or (after and after in "\"”'^"):
        return False
    if " " in span.text:
        return _english_words(span.text)
    if re.fullmatch(r"[A-Z]{2,6}", span.text):
        if len(span.text) > 3 and span.text.lower() in person_words():
            return False  # a name in capitals (``W/ SON CURTIS;``)
        line_start = text.rfind("\n", 0, span.start) + 1
        line_end = text.find("\n", span.end)
        rest = text[span.end : len(text) if line_end < 0 else line_end]
        return bool(text[line_start : span.start].strip() and rest.strip(" \t).:,"))
    word = span.text.lower()
    if word in _role_words():
        return True
    if span.text.isupper() and len(word) < 5:
        return False
    return word in _common() and word not in person_words()


def _english_words(phrase: str) -> bool:
    """Every word of a several-word name is common English and nobody's name (``Dog
    owner``, ``Clinical Geneticist``, ``Appeals Reviewer``)."""
    words = phrase.lower().split()
    common, people = _common(), person_words()
    return all(w.isalpha() and w in common and w not in people for w in words)


def not_a_title_or_role(phrase: str) -> bool:
    """Is ``phrase`` more than titles and roles (``Mrs``, ``DR.``, ``Nurse``, ``Outreach
    worker``: no; ``Cathal``, ``Ó Súilleabháin``, ``O``: yes)?"""
    from phiscrub.taggers.hybrid_steps import _HONORIFICS, _PARTICLES, _role_words, common_words

    roles, common, people = _role_words() | _HONORIFICS, common_words(60), person_words()
    named = False
    for word in phrase.split():
        core = word.strip(".,:;()")
        low = core.lower()
        if low in _PARTICLES:
            continue
        if core.islower() and low in common:
            return False  # an English word in lower case is in no name (``worker``)
        if not (low in roles or (low in common and low not in people)):
            named = True
    return named


#: closed-class words that never start a name (``BY JUNE PAKKALA``, ``WITNESS ANN LEE``)
_NOT_NAME_LEADS = frozenset(
    ["by", "per", "from", "with", "via", "and", "for", "at", "to", "witness", "witnessed",
     "signed", "reviewed", "called", "paged", "seen", "bypassed", "rooming"]
)  # fmt: skip


def not_a_name_word(word: str) -> bool:
    """A role (``Doula``, ``OT``), a title (``Prof``, ``Rev``) or a closed-class word
    (``BY``, ``WITNESS``) that is nobody's first or last name; ``Grace`` and ``Young`` are
    names, ``A.`` an initial."""
    from phiscrub.taggers.hybrid_steps import _HONORIFICS, _role_words

    low = word.lower().rstrip(".:")
    if len(low) < 2 or low in first_names():
        return False
    if low in _role_words():
        return True  # a role that is a surname too leads no name (``Coach``, ``Deacon``)
    return low not in person_words() and (low in _NOT_NAME_LEADS or low in _HONORIFICS)


#: a genus abbreviated before its species (``E. coli``, ``H. influenzae``): no person's
#: name has a lower-case word after an initial in a note written in mixed case
_ORGANISM = re.compile(r"[A-Z]\. ?[a-z]{3,}")
#: the letters of a degree after a name (``M.D.``, ``D.O.``) that the CRF split off
_DEGREES = ("M.D", "D.O")
_DEGREE = re.compile(r"(?:M\.D|D\.O)\.?")


def no_person(text: str, span: Span) -> bool:
    """Is a CRF name no person at all: one title, role or closed-class word alone
    (``Mr``, ``Mdm``, ``Nurse``), a genus abbreviation with its species, or the letters of a
    degree (``M.D``, or the ``D.`` of ``M.D.`` tagged alone)?"""
    mention = span.text
    if " " not in mention and not_a_name_word(mention):
        return True
    if _ORGANISM.fullmatch(mention) or _DEGREE.fullmatch(mention):
        return True
    before = text[max(0, span.start - 2) : span.start]
    return mention.rstrip(".") in ("D", "O") and before + mention[0] in _DEGREES
