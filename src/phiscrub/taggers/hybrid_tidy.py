"""Tidying the CRF spans of the hybrid before they are merged with the rule spans.

A token-level CRF knows nothing of layout or of the clinical invalidation the rules apply,
so two of its error patterns are systematic (both follow from the annotation guidelines,
not from any note's strings):

- ``tidy``: a PHI mention never runs across a line break, a tab, a run of spaces (the
  column gap of a table or form) or a sentence end (``Freight. Attends``); it never ends
  or starts inside a word (the tokenizer splits ``McCall`` into ``Mc`` + ``Call``, and the
  CRF may tag only ``Mc``). Spans are cut at those breaks, snapped to whole words, and
  stripped of outer punctuation.
- ``clinical_filter``: a CRF span of a number-like category (DATE, AGE, CONTACT, ID)
  inside a clinical number or phrase that the rules invalidate (``BP 120/80``, ``pain
  8/10``, ``GCS 15``, ``#150``) is dropped, as is a slashed DATE with a non-date word
  (``SOX10/Melan``, ``Kleinert/Duran``) or numbers that can be no month and day; a CRF
  name or place right before an eponym's head word (``Allen test``, ``McBurney's point``,
  ``Clark level``; ``data/allowlist/eponym_heads.txt``) is dropped unless a title comes
  before it, and so is one that is a language, a faith or a people (``Speaks Russian``,
  ``Religion: Roman Catholic``; ``hybrid_words.speech_or_faith``), or no person at all: a
  title, role or closed-class word alone (``Mr``, ``Mdm``, ``Nurse``), a genus abbreviated
  before its species (``E. coli``) or the letters of a degree (``M.D``).
- ``trim_names`` (after the merge, on rule and CRF names alike): a name span loses a first
  word that is a role or an English word no one is named (``WITNESS CARMEN ESTRADA``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

from phiscrub.detect.resolve import clinical_blocks, inside
from phiscrub.span import Span
from phiscrub.taggers.hybrid_words import (
    first_names,
    no_person,
    not_a_crf_name,
    not_a_name_word,
    person_words,
    speech_or_faith,
    trim_name_tail,
)

__all__ = ["clinical_filter", "join_nicknames", "tidy", "trim_names"]

#: where a mention cannot continue: line breaks, tabs, column gaps, a sentence end
_BREAK = re.compile(r"[\n\r\t\f\v]|  +|(?<=[a-z]{3})[.;:!?] +(?=[A-Z])|[.;:!?] +(?=[A-Z][a-z]+ )")
#: abbreviations that end with a period inside names (``St. Agnes``, ``Mt. Auburn``)
_ABBREV = frozenset(
    [
        "st",
        "mt",
        "ft",
        "dr",
        "mr",
        "mrs",
        "ms",
        "jr",
        "sr",
        "inc",
        "co",
        "corp",
        "ltd",
        "univ",
        "hosp",
        "ctr",
        "med",
        "gen",
        "ave",
        "blvd",
        "rd",
    ]
)
#: a form field's label at the end of a span: a capitalized word and ``#`` or ``:``
_FIELD_LABEL = re.compile(r"\s+[A-Z][A-Za-z]*\.?\s*[#:]$")
_OUTER = " ,;:.()[]{}\"'-/&"
_NUMBERLIKE = frozenset({"DATE", "AGE", "CONTACT", "ID"})
#: a month's abbreviation alone (a full name alone, ``since March``, stays the CRF's)
_LONE_MONTH = re.compile(r"(?i)(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?")
_WORDLIKE = frozenset({"NAME", "LOCATION", "PROFESSION"})
_MONTHS = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)
_ALPHA = re.compile(r"[A-Za-z]{2,}")
#: the only CRF spans a clinical pattern can block: short numbers (``8/10``, ``15``, ``1300``)
_SHORT_NUMBER = re.compile(r"^[#(]?\d[\d/.:+\-x ]{0,6}\)?$")
#: words of holiday names too ambiguous for the CRF's date dictionary (Labor Day, the day)
_DATE_NAME_WORDS = frozenset(
    ["day", "days", "eve", "new", "year", "year's", "weekend", "holiday", "holidays", "labor",
     "labour", "memorial", "independence", "veterans", "mother's", "father's", "boxing"]
)  # fmt: skip
_NUMBERS = re.compile(r"\d+")
_LETTER = re.compile(r"[A-Za-z]")


#: the word after a mention (an optional possessive first)
_NEXT_WORD = re.compile(r"(?:['\u2019]s?)?[ \t]+([A-Za-z]+)")
_TITLE_BEFORE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Miss|Prof|Professor|Doctor)\.?[ \t]+$", re.I)


def _is_crf(span: Span) -> bool:
    return span.source.startswith("crf")


def _pieces(text: str, span: Span) -> list[tuple[int, int]]:
    """The parts of ``span`` between breaks (offsets into ``text``)."""
    cuts: list[tuple[int, int]] = []
    for m in _BREAK.finditer(span.text):
        before = span.text[: m.start()].split()
        if m.group()[0] == "." and before and before[-1].lower().rstrip(".") in _ABBREV:
            continue
        if m.group()[0] == "." and before and len(before[-1]) == 1:  # an initial: T. McCall
            continue
        cuts.append((span.start + m.start(), span.start + m.end()))
    if not cuts:
        return [(span.start, span.end)]
    out, cursor = [], span.start
    for a, b in cuts:
        out.append((cursor, a))
        cursor = b
    out.append((cursor, span.end))
    return out


def _snap(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen to whole words, then strip outer punctuation and spaces."""
    while start > 0 and text[start - 1].isalpha() and text[start].isalpha():
        start -= 1
    while end < len(text) and text[end - 1].isalpha() and text[end].isalpha():
        end += 1
    while start < end and text[start] in _OUTER:
        start += 1
    while end > start and text[end - 1] in _OUTER and not text[start:end].endswith("."):
        end -= 1
    if end > start and text[end - 1] == "." and not _keeps_period(text[start:end]):
        end -= 1
    return start, end


def _keeps_period(mention: str) -> bool:
    words = mention.split()
    last = words[-1].rstrip(".").lower() if words else ""
    return len(last) == 1 or last in _ABBREV


def tidy(text: str, spans: Sequence[Span]) -> list[Span]:
    """CRF spans cut at layout and sentence breaks, and (for names, places and
    professions) snapped to whole words; other spans are returned unchanged."""
    out: list[Span] = []
    for s in spans:
        if not _is_crf(s):
            out.append(s)
            continue
        pieces = _pieces(text, s)
        for a, b in pieces:
            b = _before_field_label(text, a, b)
            if len(pieces) > 1 and not _worth_keeping(text[a:b], s.category):
                continue
            if s.category in _WORDLIKE:
                a, b = _snap(text, a, b)
            else:
                while a < b and text[a].isspace():
                    a += 1
                while b > a and text[b - 1].isspace():
                    b -= 1
            if b > a and any(ch.isalnum() for ch in text[a:b]):
                if (a, b) == (s.start, s.end):
                    out.append(s)
                else:
                    out.append(Span(a, b, s.label, text[a:b], s.source + "+tidy", s.score))
    return sorted(set(out))


def _worth_keeping(piece: str, category: str) -> bool:
    """A piece cut from a longer CRF span is kept when it still looks like PHI: a
    name-like piece needs a word that is not common English; other pieces a digit."""
    if category not in _WORDLIKE:
        return any(ch.isdigit() for ch in piece)
    from phiscrub.taggers.hybrid_steps import common_words

    common = common_words()
    return any(w.lower() not in common for w in _ALPHA.findall(piece))


def _before_field_label(text: str, a: int, b: int) -> int:
    """Where a span ends once the label of the next form field is cut off its end
    (``12 Wharf St. Account #``, ``Main St Phone:``); a name before a colon stays."""
    label = _FIELD_LABEL.search(text, a, b)
    if label is None or label.end() != b or label.start() <= a:
        return b
    from phiscrub.taggers.hybrid_steps import common_words

    word = label.group().strip(" \t.#:").lower()
    return label.start() if label.group().endswith("#") or word in common_words() else b


def _blocker() -> Any:
    """The clinical patterns of the rules' ``invalidate`` stage (one detector, built once:
    a second one would redo its analyses)."""
    from phiscrub.detect.registry import stage

    return stage("invalidate").blocker  # type: ignore[union-attr]


def _bad_date(mention: str) -> bool:
    """Can this CRF DATE mention be no date? Judged on its shape only (a CRF tags numbers
    by their neighbours, so blood pressures, scores, ranges, codes and clock times slip in).
    """
    if "/" in mention:
        words = [w.lower() for w in _ALPHA.findall(mention)]
        if any(w not in _date_words() for w in words):
            return True
    if not any(ch.isdigit() for ch in mention):
        # words only: common English words and no month, weekday, season or holiday word
        # (``Job``, ``cutoff``); an unknown word may be a holiday or PHI of another type
        from phiscrub.taggers.hybrid_steps import common_words

        words = [w.lower() for w in _ALPHA.findall(mention)]
        return all(w in common_words() and w not in _date_words() for w in words)
    if _LETTER.search(mention):
        return False  # 3rd, '90s, Q3, 12-Mar
    numbers = _NUMBERS.findall(mention)
    parts = [int(x) for x in numbers]
    sizes = [len(x) for x in numbers]
    if len(parts) == 1:
        return not _compact_date(mention.strip(_OUTER))
    if len(parts) == 2:
        if 3 in sizes or sizes.count(4) == 2:
            return True  # 104/66, 2000-2015
        if 4 in sizes:
            return not 1 <= parts[1 - sizes.index(4)] <= 12  # month and year
        return min(parts) > 12  # 24/31; but 8/47 is August 1947
    if len(parts) == 3:
        return not _three_part_date(parts, sizes)
    return True


def _month_day(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def _three_part_date(parts: list[int], sizes: list[int]) -> bool:
    """m d y, d m y or y m d, with a year of 2 or 4 digits where it stands."""
    a, b, c = parts
    if sizes[2] in (2, 4) and sizes[0] <= 2 and sizes[1] <= 2:
        return _month_day(a, b) or _month_day(b, a)
    if sizes[0] == 4 and sizes[1] <= 2 and sizes[2] <= 2:
        return _month_day(b, c)
    return False


def _compact_date(digits: str) -> bool:
    """A run of digits that is a date: a year (1900-2100), or mmddyy / ddmmyy / yymmdd,
    or yyyymmdd / mmddyyyy / ddmmyyyy. Clock times (``0659``) and codes are not."""
    if not digits.isdigit():
        return False
    n = len(digits)
    if n == 4:
        return digits[0] != "0" and 1900 <= int(digits) <= 2100
    if n == 6:
        x, y, z = int(digits[:2]), int(digits[2:4]), int(digits[4:])
        return _month_day(x, y) or _month_day(y, x) or _month_day(y, z)
    if n == 8:
        year_first = 1900 <= int(digits[:4]) <= 2100 and _month_day(
            int(digits[4:6]), int(digits[6:])
        )
        x, y = int(digits[:2]), int(digits[2:4])
        year_last = 1900 <= int(digits[4:]) <= 2100 and (_month_day(x, y) or _month_day(y, x))
        return year_first or year_last
    return n <= 2  # a day of the month ("the 3rd" is tokenized apart)


@functools.cache
def _date_words() -> frozenset[str]:
    from phiscrub.features.lexicons import feature_lexicons

    return feature_lexicons().dictionaries["date"] | _MONTHS | _DATE_NAME_WORDS


@functools.cache
def _eponym_heads() -> frozenset[str]:
    path = resources.files("phiscrub").joinpath("data", "allowlist", "eponym_heads.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip() for w in lines if w.strip() and not w.startswith("#"))


def _eponym(text: str, span: Span) -> bool:
    """Is ``span`` the name in an eponym (``Allen test``), with no title before it?"""
    m = _NEXT_WORD.match(text, span.end)
    if not m or m.group(1).lower() not in _eponym_heads():
        return False
    return not _TITLE_BEFORE.search(text, max(0, span.start - 12), span.start)


_TERM_WORDS = re.compile(r"[^\W\d_]+")


def _allowed(text: str, span: Span) -> bool:
    """Is ``span`` a clinical term of the allow-list, with no title before it: one of its
    words is on the list and the others too, or common English that is nobody's name, and
    none is a first name (``Kocher-Langenbeck``, ``Mohs coordinator``, ``(Westergren)``;
    not ``Bruce`` nor ``Bruce Kocher``: the allow-list serves the dictionaries, and a first
    name the CRF found in context is kept)?"""
    from phiscrub.detect.lexicon import lexicons
    from phiscrub.taggers.hybrid_steps import common_words

    allow, common, people = lexicons().allowed, common_words(35), person_words()
    words = [w.lower() for w in _TERM_WORDS.findall(span.text.replace("'s", ""))]
    if not any(w in allow for w in words) or any(w in first_names() for w in words):
        return False
    if any(w not in allow and (w not in common or w in people) for w in words):
        return False
    return not _TITLE_BEFORE.search(text, max(0, span.start - 12), span.start)


def _acronym(span: Span) -> bool:
    """Is ``span`` one clinical acronym alone (``MICU``, ``OSH``, ``LDH``)? A state's code
    is left to ``drop_unknown_states`` (``ID`` and ``SC`` are on the list)."""
    from phiscrub.detect.validators import _acronyms

    if span.label in ("STATE", "COUNTRY"):
        return False
    return span.text.isupper() and span.text.isalpha() and span.text in _acronyms()


def clinical_filter(text: str, spans: Sequence[Span]) -> list[Span]:
    """CRF spans of number-like categories that the rules' clinical invalidation would
    block, or DATEs that can be no date, are dropped; a long number the CRF called a DATE
    (7 digits or more, no date) is kept as an IDNUM: it is PHI of some kind far more often
    than not, and dropping it would leak it."""
    out: list[Span] = []
    blocks: tuple[list[tuple[int, int]], int] | None = None
    for s in spans:
        if _is_crf(s) and s.category in _NUMBERLIKE:
            if s.label == "DATE" and _LONE_MONTH.fullmatch(s.text):
                continue  # the rules' month patterns decide these (``MAR`` is a record)
            if s.label == "DATE" and _bad_date(s.text):
                if sum(ch.isdigit() for ch in s.text) >= 7:
                    out.append(
                        Span(s.start, s.end, "IDNUM", s.text, s.source + "+notdate", s.score)
                    )
                continue
            if _SHORT_NUMBER.match(s.text):
                if blocks is None:
                    blocks = clinical_blocks(_blocker(), text)
                if inside(s, *blocks):
                    continue
        elif _is_crf(s) and (
            (s.category in ("NAME", "LOCATION") and (_eponym(text, s) or _acronym(s)))
            or (s.category == "NAME" and (_allowed(text, s) or no_person(text, s)))
            or speech_or_faith(s)
        ):
            continue
        out.append(s)
    return out


#: the first word of a name span and the white space after it
_LEAD = re.compile(r"([^\W\d_][\w'.-]*)[ \t]+(?=[^\W\d_])")


#: the CRF labels a titled name it does not know as a place (``Prof Ng Siew Ling``)
_PLACE_LABELS = frozenset(["ORGANIZATION", "HOSPITAL", "LOCATION-OTHER", "DEPARTMENT", "STREET"])
_CLINICAL_TITLES = frozenset(["dr", "dre", "doctor", "prof"])
#: the rest of a titled span: capitalized name words only
_NAME_REST = re.compile(r"[A-Z][\w'\u2019-]*\.?(?:[ ][A-Z][\w'\u2019.-]*){0,3}")


def _titled_person(text: str, s: Span) -> Span:
    """A CRF place or organization that is a title or role and a name (``Prof Ng Siew
    Ling``, ``PC Adeyemi``, ``nurse Pita Herewini``) is the name, typed by the title: a
    clinician's title or role makes a DOCTOR, any other a PATIENT."""
    from phiscrub.taggers.hybrid_roles import _role_of_word
    from phiscrub.taggers.hybrid_steps import _HONORIFICS

    m = _LEAD.match(s.text)
    if s.label not in _PLACE_LABELS or not _is_crf(s) or not m:
        return s
    lead = m.group(1).lower().rstrip(".:")
    rest = s.text[m.end() :]
    if lead in person_words() or not _NAME_REST.fullmatch(rest):
        return s
    label = "DOCTOR" if lead in _CLINICAL_TITLES else _role_of_word(lead)
    if label is None and lead in _HONORIFICS:
        label = "PATIENT"
    if label is None or lead == "sr":
        return s
    return Span.of(text, s.start + m.end(), s.end, label, s.source + "+title", s.score)


def trim_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """A PATIENT or DOCTOR span loses a first word that is a role or an English word no
    one is named (``WITNESS CARMEN ESTRADA``, ``Doula Simone Carriere``, ``BY JUNE
    PAKKALA``): in capitals, and after role words, the name rules and the CRF take it in.
    Then the pieces of a name around a quoted nickname become one name
    (``join_nicknames``), and a CRF name that is one acronym or English word in running
    text is dropped (``hybrid_words.not_a_crf_name``)."""
    out: list[Span] = []
    for s in spans:
        s = _titled_person(text, s)
        if s.category == "NAME":
            m = _LEAD.match(s.text)
            if m and not_a_name_word(m.group(1)):
                s = Span.of(text, s.start + m.end(), s.end, s.label, s.source + "+trim", s.score)
            s = trim_name_tail(text, s)
        out.append(s)
    out = join_nicknames(text, out)
    return [s for s in out if not not_a_crf_name(text, s)]


#: a nickname in quotes between two words of a name: ``Tyrone "Ty" Mercer``, ``Hyun-woo
#: ("Henry") BAEK``, ``ABELLANA, John Paul "JP" V.``
_NICKNAME = re.compile(
    r"([^\W\d_][\w'\u2019-]*) \(?[\"\u201c]"
    r"[^\W\d_][\w'\u2019.-]*(?: [^\W\d_][\w'\u2019.-]*)?"
    r"[\"\u201d]\)? ([^\W\d_][\w'\u2019-]*\.?)"
)


def join_nicknames(text: str, spans: Sequence[Span]) -> list[Span]:
    """The pieces of a name around a quoted nickname become one span (the guidelines tag
    the whole name: ``Tyrone "Ty" Mercer``), not ``Tyrone`` + ``Ty" Mercer``. A side with
    no name span must be an initial or a capitalized first or last name of the lexicons; the
    parts are one space apart. A nickname after the name (``Lee, Ann "Nan"``, ``Ann Lee
    ("Nan")   MRN``) is left apart."""
    out = list(spans)
    if '"' not in text and "\u201c" not in text:  # no opening quote: no nickname (speed)
        return sorted(out)
    for m in _NICKNAME.finditer(text):
        names = [s for s in out if s.category == "NAME" and m.start() < s.end and s.start < m.end()]
        left = [s for s in names if s.start <= m.start(1) < s.end]
        right = [s for s in names if s.start < m.end(2) <= s.end]
        if not names or not (left or _bare_name_word(m.group(1))):
            continue
        if not (right or _bare_name_word(m.group(2))):
            continue
        word_end = m.end(2) - (len(m.group(2)) > 2 and m.group(2).endswith("."))
        start = min([m.start(1), *(s.start for s in left)])
        end = max([word_end, *(s.end for s in right)])
        first = min(names)
        merged = Span.of(text, start, end, first.label, first.source + "+nickname", first.score)
        out = [s for s in out if not (s.start < end and start < s.end)] + [merged]
    return sorted(out)


def _bare_name_word(word: str) -> bool:
    """An initial, or a first or last name of the lexicons not written as an acronym."""
    core = word.rstrip(".")
    if len(core) == 1:
        return core.isupper()
    return core[0].isupper() and not core.isupper() and core.lower() in person_words()
