"""Validation hooks named by pattern files (``validate = ["..."]``).

A hook gets the text and the range a pattern would tag and says whether the match stands.
Check digits (NPI Luhn, DEA, VIN) and calendar sanity live here; context that makes a
number clinical (``BP 120/80``, ``GCS 15``) lives in ``data/patterns/clinical.toml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from phiscrub.detect.handles import (
    NAME_WORD,
    common_words,
    fold_name,
    handle,
    handle_loose,
    handle_of_name,
)

#: a hook: the text and the range a pattern would tag -> does the match stand?
Validator = Callable[[str, int, int], bool]

_SPLIT = re.compile(r"[/.\-]")
_UNIT_AFTER = re.compile(
    r"\s?(?:mg|mcg|g|kg|lbs?|ml|mL|L|cc|units?|u|iu|IU|meq|mEq|mmol|kcal|cal|min|mins|"
    r"sec|hrs?|h|hours?|cells|copies|ms|mmHg|bpm|%|x|ng|pg|ug|\u00b5g|nmol|pmol|umol|mIU|U/L)\b",
)
_TIME_BEFORE = re.compile(r"(?:\bat|@|~|\baround|\bnoon|\d-)\s*$", re.I)


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def handle_in_log(text: str, start: int, end: int) -> bool:
    """``handle``, and not a clinical term (a drug after a log line's date is an entry,
    not its writer: 07/30/2066 metoprolol  started)."""
    from phiscrub.detect import lexicon

    return handle(text, start, end) and not lexicon.lexicons().is_allowed(text[start:end])


def luhn_npi(text: str, start: int, end: int) -> bool:
    """A 10-digit NPI: Luhn check over the number prefixed with 80840 (CMS NPI standard)."""
    d = _digits(text[start:end])
    if len(d) != 10:
        return False
    total = 0
    for i, c in enumerate(reversed("80840" + d)):
        n = int(c)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def dea(text: str, start: int, end: int) -> bool:
    """A DEA registration number: 2 letters, 7 digits, the last a check digit."""
    s = text[start:end].replace(" ", "")
    if len(s) != 9 or not s[:2].isalpha() or not s[2:].isdigit():
        return False
    d = [int(c) for c in s[2:]]
    check = (d[0] + d[2] + d[4]) + 2 * (d[1] + d[3] + d[5])
    return check % 10 == d[6]


_VIN_VALUES = {
    **{str(i): i for i in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
    **dict(zip("JKLMN", range(1, 6), strict=True)),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10), strict=True)),
}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin(text: str, start: int, end: int) -> bool:
    """A 17-character vehicle identification number with its check digit (position 9)."""
    s = text[start:end].upper()
    if len(s) != 17 or any(c not in _VIN_VALUES for c in s):
        return False
    total = sum(_VIN_VALUES[c] * w for c, w in zip(s, _VIN_WEIGHTS, strict=True))
    check = total % 11
    return s[8] == ("X" if check == 10 else str(check))


def _valid_md(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def date_parts(text: str, start: int, end: int) -> bool:
    """A numeric date whose month and day exist (m/d, m/d/y, y-m-d, m/y)."""
    parts = [p for p in _SPLIT.split(text[start:end]) if p]
    if not all(p.isdigit() for p in parts):
        return False
    nums = [int(p) for p in parts]
    if len(parts) == 3:
        if len(parts[0]) == 4:
            return _valid_md(nums[1], nums[2])
        return _valid_md(nums[0], nums[1]) or _valid_md(nums[1], nums[0])
    if len(parts) == 2:
        if len(parts[1]) == 4:  # month/year
            return 1 <= nums[0] <= 12 and 1900 <= nums[1] <= 2100
        return _valid_md(nums[0], nums[1])
    return False


def not_unit(text: str, start: int, end: int) -> bool:
    """The number is not followed by a unit of measure (``2000 mL``, ``1900 kcal``)."""
    return _UNIT_AFTER.match(text, end) is None


#: what makes a clock-time-shaped year a time of day: a numeric date right before it
#: (2/8 2000, 10/21/2085 1900) or an event of a shift (given 2100, went home 2100, VS 2045)
_CLOCK_BEFORE = re.compile(
    r"(?:\b[01]?\d/[0-3]?\d(?:/\d{2,4})?|\b(?:given|administered|gave|"
    r"(?:went|sent|gone)[ ]home|asleep|awake|woke|slept|VS|vitals|rechecked|paged|voided|"
    r"repositioned|turned|changed|hung|flushed|drawn|(?<!since[ ])(?<!in[ ])about)\b)[ \t]+$",
    re.I,
)
#: a shift event after a clock-time-shaped year (1900 hand-off, 0700 report)
_CLOCK_AFTER = re.compile(r"[ \t]+(?:hand-?off|handover|report|med pass|rounds)\b", re.I)
#: a line that opens with a clock time no year can be (0400, 1200 |): a column of times
_TIME_ROW = re.compile(r"[ \t]*(?:[01][0-8]|0\d)[0-5]\d\b[ \t]*[|\t]")


def _clock_shaped(d: str) -> bool:
    return int(d[:2]) <= 23 and int(d[2:]) <= 59


def _in_time_column(text: str, start: int) -> bool:
    """The number opens a table row, and the row above or below opens with a time (1200 |)."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        return False
    prev_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
    next_start = text.find("\n", start) + 1
    rows = [prev_start] if line_start > 0 else []
    if next_start > 0:
        rows.append(next_start)
    return any(_TIME_ROW.match(text, r) is not None for r in rows)


def year(text: str, start: int, end: int) -> bool:
    """A plausible year (1900-2100), neither a quantity nor a clock time."""
    d = _digits(text[start:end])[:4]
    if len(d) != 4 or not 1900 <= int(d) <= 2100:
        return False
    if not not_unit(text, start, end):
        return False
    if _TIME_BEFORE.search(text, max(0, start - 8), start) is not None:
        return False
    if not _clock_shaped(d):
        return True
    clock = _CLOCK_BEFORE.search(text, max(0, start - 20), start) is not None
    clock = clock or _CLOCK_AFTER.match(text, end) is not None
    return not (clock or _in_time_column(text, start))


def age(text: str, start: int, end: int) -> bool:
    """An age a person can have (0 to 125)."""
    d = _digits(text[start:end])
    return bool(d) and int(d) <= 125


def ipv4(text: str, start: int, end: int) -> bool:
    """Four octets, each 0-255."""
    parts = text[start:end].split(".")
    return len(parts) == 4 and all(p.isdigit() and int(p) <= 255 for p in parts)


def nanp(text: str, start: int, end: int) -> bool:
    """A North American number: area code and exchange do not start with 0 or 1."""
    d = _digits(text[start:end])
    if len(d) == 11 and d[0] == "1":
        d = d[1:]
    if len(d) < 10:
        return True  # extensions and pagers: the context pattern decided
    return d[0] not in "01" and d[3] not in "01"


def has_digit(text: str, start: int, end: int) -> bool:
    """An identifier holds at least one digit (``MRN: pending`` is not one)."""
    return any(c.isdigit() for c in text[start:end])


def digits3(text: str, start: int, end: int) -> bool:
    """An identifier holds at least 3 digits (``licence.<newline>4.`` is a list number)."""
    return sum(c.isdigit() for c in text[start:end]) >= 3


def zip5(text: str, start: int, end: int) -> bool:
    """A ZIP code is not 00000."""
    return text[start : start + 5] != "00000"


def month_year2(text: str, start: int, end: int) -> bool:
    """A month and a 2-digit year (``11/44`` after ``exp``): the month is 1-12."""
    parts = [p for p in _SPLIT.split(text[start:end]) if p]
    return len(parts) == 2 and all(p.isdigit() for p in parts) and 1 <= int(parts[0]) <= 12


_CLOCK = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")


def uk_phone(text: str, start: int, end: int) -> bool:
    """A UK national number: 10 or 11 digits with the trunk 0, and not a row of clock times."""
    groups = re.findall(r"\d+", text[start:end])
    d = "".join(groups)
    if len(d) not in (10, 11) or d[0] != "0":
        return False
    return not all(len(g) == 4 and _CLOCK.fullmatch(g) for g in groups)


def national_phone(text: str, start: int, end: int) -> bool:
    """A national number with its trunk 0: 9 to 12 digits, and not a row of clock times
    (0800 1200 1600; 06 1200 1800: the groups after the prefix are all times), unless the
    prefix is a UK 02x area code (020, 029: its two 4-digit groups may read as times)."""
    groups = re.findall(r"\d+", text[start:end])
    d = "".join(groups)
    if not 9 <= len(d) <= 12 or d[0] != "0":
        return False
    if len(groups) == 3 and len(groups[0]) == 3 and groups[0][1] == "2":
        return True  # a UK 02x area code and two 4-digit groups (029 2018 0457) is a number
    rest = groups[1:] if len(groups) > 2 else groups
    return not all(len(g) == 4 and _CLOCK.fullmatch(g) for g in rest)


def intl_phone(text: str, start: int, end: int) -> bool:
    """An international number: 8 to 15 digits in all (ITU E.164)."""
    return 8 <= len(_digits(text[start:end])) <= 15


@functools.cache
def _person_names() -> frozenset[str]:
    from phiscrub.detect import lexicon

    lex = lexicon.lexicons()
    return lex.first_names | lex.last_names


def person_words(text: str, start: int, end: int) -> bool:
    """Could the range be a person's name: some word of it is a census first or last name,
    or no common English word (``Wound RN``, ``Re: Referral``, ``PT AND WIFE AGREE`` are
    not; ``Rose Hill``, ``Okafor`` are)."""
    words = [fold_name(w) for w in NAME_WORD.findall(text[start:end])]
    words = [w for w in words if w]
    names, common = _person_names(), common_words()
    return not words or any(w in names or w not in common for w in words)


@functools.cache
def _acronyms() -> frozenset[str]:
    from phiscrub.resources import data_lines

    return frozenset(data_lines("lexicons", "clinical_acronyms.txt"))


#: lower-case words after a slash that make ``XX/yy`` a clinical shorthand, not initials
_CLINICAL_LOWER_WORDS = (
    "po iv im sq sc pr sl prn hs bid tid qid qd qhs dl ml hr hrs min kg day wk wks mo yr mg "
    "mcg neg pos nl wnl sec abd ext pt pts yo ct us cr lb lbs"
)
_CLINICAL_LOWER = frozenset(_CLINICAL_LOWER_WORDS.split())
_SECOND = re.compile(r"[ ]?[/:][ ]?([A-Za-z]{2,5})")


def initials(text: str, start: int, end: int) -> bool:
    """Capitals that may be a clinician's initials: not a clinical acronym (CBC, ICU, ROS)."""
    return text[start:end].upper() not in _acronyms()


def initials_pair(text: str, start: int, end: int) -> bool:
    """Signature initials ``JKS/rt``, ``AF:lc``, ``IC/HS``: the second part is not a
    clinical word (``IV/po``), and the two are not both clinical acronyms (``CT/MRI``)."""
    m = _SECOND.match(text, end)
    if m is None:
        return initials(text, start, end)
    second = m.group(1)
    if second.islower() and second in _CLINICAL_LOWER:
        return False
    return initials(text, start, end) or second.upper() not in _acronyms()


def _lower_word_initials(word: str) -> bool:
    """Lower-case letters that may be initials: no clinical shorthand (``po``, ``mg``), no
    clinical acronym (``ct``), no common English word (``and``, ``day``)."""
    return (
        word not in _CLINICAL_LOWER
        and word.upper() not in _acronyms()
        and word not in common_words()
    )


def lower_initials(text: str, start: int, end: int) -> bool:
    """Transcription initials in lower case (``/ck``, ``(hob/jc)``, ``fc:jd``, ``by mjp``):
    the group is no clinical word, acronym or common English word, or, in a pair, the other
    group is none and neither is a clinical word (``mg/dl``, ``and/or``: no)."""
    first = text[start:end].lower()
    m = _SECOND.match(text, end)
    if m is None or not m.group(1).islower():  # alone (``DO /ck``): ``ck`` is no lab here
        return first not in _CLINICAL_LOWER and first not in common_words()
    second = m.group(1)
    if first in _CLINICAL_LOWER or second in _CLINICAL_LOWER:
        return False
    return _lower_word_initials(first) or _lower_word_initials(second)


_PERSON = re.compile(
    r"(?<![\w.])([A-Z])[a-z'\u2019\-]+(?:[ ]([A-Z])\.?)?(?:[ ]([A-Z])[a-z'\u2019\-]+){1,2}\b"
)


@functools.lru_cache(maxsize=8)
def _name_initials(text: str) -> frozenset[str]:
    """The initials of the capitalised 2-3 word names of a note (Keisha L. Munroe -> KLM, KM)."""
    out: set[str] = set()
    for m in _PERSON.finditer(text):
        caps = re.findall(r"(?<![\w'\u2019\-])[A-Z]", m.group())
        out.add("".join(caps))
        if len(caps) == 3:
            out.add(caps[0] + caps[2])
    return frozenset(out)


def initials_of_name(text: str, start: int, end: int) -> bool:
    """Initials (not a clinical acronym) of a person the note names in full: a table cell
    ``| KLM |`` in a note that names Keisha L. Munroe."""
    return initials(text, start, end) and text[start:end] in _name_initials(text)


_UK_AFTER = re.compile(
    r",?[ \t]+[A-Z0-9]{2,4}[ ]\d[A-Z]{2},?[ \t]*"
    r"(?:UK|U\.K\.|United Kingdom|England|Scotland|Wales|Northern Ireland|GB|Great Britain)\b"
)


def known_city_or_uk(text: str, start: int, end: int) -> bool:
    """A post town: a gazetteer city, or any town whose postcode is followed by the UK or one
    of its nations (the country vouches for the town: Kirkby Lonsdale LA6 2AB, England)."""
    from phiscrub.detect import lexicon  # the lexicons load lazily, once

    return lexicon.known_city(text, start, end) or _UK_AFTER.match(text, end) is not None


_DAY_FIRST = re.compile(
    r"(?<![\d/.\-])(?:1[3-9]|2\d|3[01])[/.\-](?:0?[1-9]|1[0-2])[/.\-](?:\d{4}|\d{2})(?![\d/])"
    r"|\b[0-3]?\d[ ](?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?[ ](?:19|20|21)\d\d\b"
)


@functools.lru_cache(maxsize=8)
def _writes_day_first(text: str) -> bool:
    return _DAY_FIRST.search(text) is not None


def day_first_note(text: str, start: int, end: int) -> bool:
    """The note writes its dates day-first: a full numeric date whose first field is 13-31
    (27/12/2036, 23.01.2025) or a day-month-year date (23 January 2025) stands in it."""
    return _writes_day_first(text)


#: words that never stand in a person's name (THE PATIENT IS AN ..., RE: LETTER OF ...)
_NOT_NAME_TEXT = (
    "a an and or of the to in on at for with by from as is are was were be been has had "
    "have will would her his their its who which that this these those not no"
)
_NOTNAME_WORDS = frozenset(_NOT_NAME_TEXT.split())
#: the last word of a job title, not of a name (Consultant Rheumatologist, Resident Medical
#: Officer, Psychiatry registrar, Tech)
_ROLE_END = re.compile(
    r"(?:olog(?:ist|y)|ician|iatrist|iatry|ographer|apist|acist|eticist|ologist|ics|"
    r"officer|registrar|consultant|tech|technician|nurse|specialist|midwife|assistant|manager|"
    r"coordinator|worker|reviewer|surgeon|physician|dietitian|dietician|counsel+or|navigator|"
    r"practitioner|fellow|resident|intern|attending|team|service|services|department|unit)$"
)


def person_name(text: str, start: int, end: int) -> bool:
    """A name after a role or patient label, not a phrase: no function word (THE PATIENT IS
    AN, RE: LETTER OF MEDICAL), not upper-case common words only (AND HER DAUGHTER), not a job
    title (Consultant Rheumatologist, Resident Medical Officer)."""
    from phiscrub.detect import lexicon  # the lexicons load lazily, once

    words = NAME_WORD.findall(text, start, end)
    if not words:
        return False
    low = [w.lower() for w in words]
    if any(len(w) > 1 and w in _NOTNAME_WORDS for w in low):  # A is an initial
        return False
    lex = lexicon.lexicons()
    if all(w.isupper() for w in words) and all(lex.is_common(w) for w in words):
        return False
    return _ROLE_END.search(low[-1]) is None


_ADDRESS_BEFORE = re.compile(
    r"\b\d{1,5}[A-Za-z]?,?[ ]+(?:[A-Z][\w'\u2019\-]*[ ]+){1,3}(?:Street|St|Road|Rd|Avenue|Ave|"
    r"Drive|Lane|Ln|Crescent|Cres|Place|Pl|Terrace|Tce|Highway|Hwy|Boulevard|Blvd|Way|Close|"
    r"Parade|Pde|Grove|Court|Ct|Square|Row|Mews|Gardens|Walk|Quay)\b"
    r"|\b(?:P\.?[ ]?O\.?[ ]+Box|Private[ ]Bag|Locked[ ]Bag|PO[ ]Box|Brgy\.?|Barangay|Purok|Blk)\b"
)


def address_line(text: str, start: int, end: int) -> bool:
    """The town ends a postal address: a house number and a street, a box, a bag or a
    barangay stands before it on its line (62 Waterloo Road, Lower Hutt 5010)."""
    line = text.rfind("\n", 0, start) + 1
    return _ADDRESS_BEFORE.search(text, max(line, start - 120), start) is not None


VALIDATORS: Mapping[str, Validator] = MappingProxyType(
    {
        "luhn_npi": luhn_npi,
        "dea": dea,
        "vin": vin,
        "date_parts": date_parts,
        "year": year,
        "not_unit": not_unit,
        "age": age,
        "ipv4": ipv4,
        "nanp": nanp,
        "has_digit": has_digit,
        "zip5": zip5,
        "digits3": digits3,
        "month_year2": month_year2,
        "uk_phone": uk_phone,
        "national_phone": national_phone,
        "intl_phone": intl_phone,
        "handle": handle,
        "handle_in_log": handle_in_log,
        "handle_loose": handle_loose,
        "handle_of_name": handle_of_name,
        "initials": initials,
        "initials_pair": initials_pair,
        "lower_initials": lower_initials,
        "initials_of_name": initials_of_name,
        "known_city_or_uk": known_city_or_uk,
        "person_words": person_words,
        "address_line": address_line,
        "person_name": person_name,
        "day_first_note": day_first_note,
    }
)
