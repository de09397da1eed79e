"""Name roles: a person's type (PATIENT or DOCTOR) by the role words around the name.

``name_roles`` (a step of the hybrid, re-exported by ``hybrid_steps``) types a name by a
role word before it on its line (``RN: Kim Ames``, ``Subscriber Mark Lee``, ``principal
Dr. Lee``) or right after it (``Ann Lee, clinical pharmacist``, ``Mr Lee, consultant
orthopaedic surgeon)``), and types a CRF place, organization or date shaped like a name
right after a role word (``nurse Pita Herewini``). The roles are the data file
``data/lexicons/name_roles.txt``. The helpers of ``hybrid_steps`` (credentials, common
words) are imported where they are used: ``hybrid_steps`` imports this module.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources

from phiscrub.span import Span
from phiscrub.taggers.hybrid_words import person_words

__all__ = ["name_roles"]


@functools.cache
def _role_of_word(word: str) -> str | None:
    """The type of the one-word role ``word`` in ``data/lexicons/name_roles.txt``."""
    path = resources.files("phiscrub").joinpath("data", "lexicons", "name_roles.txt")
    for line in path.read_text(encoding="utf-8").splitlines():
        label, _, rest = line.partition("\t")
        if not line.startswith("#") and rest.partition("\t")[0].strip().lower() == word:
            return label
    return None


@functools.cache
def _role_patterns() -> dict[str, re.Pattern[str]]:
    """Per type, the role words of ``data/lexicons/name_roles.txt`` as one pattern that
    must end right before a name: ``RN: ``, ``(attorney ``, ``Subscriber - ``, past an
    honorific (``SLP Ms. ``) unless the role is marked ``bare`` (``referring Mr. X`` is the
    verb and its object, the patient). Roles marked ``kin`` (relatives) are also gathered
    under the key ``kin``."""
    path = resources.files("phiscrub").joinpath("data", "lexicons", "name_roles.txt")
    roles: dict[str, tuple[list[str], list[str], list[str]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        label, _, rest = line.partition("\t")
        role, _, flag = rest.partition("\t")
        if role.strip() and not line.startswith("#"):
            flags = {f.strip() for f in flag.split(",")}
            kind = 1 if "bare" in flags else 2 if "rank" in flags else 0
            roles.setdefault(label, ([], [], []))[kind].append(re.escape(role.strip()))
            if "kin" in flags:
                roles.setdefault("kin", ([], [], []))[0].append(re.escape(role.strip()))

    def alternation(words: list[str]) -> str:
        return "|".join(sorted(words, key=len, reverse=True)) or "(?!)"

    sep = r"[ \t]*(?:[:#-][ \t]*|\([ \t]*|,[ \t]+)?"
    honorific = "Mrs?|Ms|Miss|Mx|Rev|Fr|Pastor|Brother|Sister"
    return {
        label: re.compile(
            rf"(?<![^\W_])(?:(?:{alternation(titled)}){sep}"
            rf"(?:(?:{honorific}{'|Dr|Dre|Doctor|Prof' * (label != 'DOCTOR')})\.?[ \t]+)?"
            rf"|(?:{alternation(rank)}){sep}(?:(?:{honorific})\.?[ \t]+)?"
            rf"|(?:{alternation(bare)}){sep})$",
            re.IGNORECASE,
        )
        for label, (titled, bare, rank) in roles.items()
    }


#: a role right after a name: ``Ann Lee, clinical pharmacist``, ``R. Szabo (employer)``
_ROLE_AFTER = re.compile(
    r"(?:,[ \t]*|[ \t]*\()((?:[A-Za-z/-]+[ \t]){0,3}[A-Za-z/-]+)(?=[ \t]*[),;.\n]|$)"
)
#: a letter's greeting by first name alone (``Dear Howard,``) ...
_DEAR = re.compile(r"(?:^|\n)[ \t]*Dear[ \t]+$")
#: ... in a letter about a patient is addressed to a clinician (``I saw Mr. Lee``)
_CLINICIAN_LETTER = re.compile(
    r"\b(?:your patient|I saw|thank you for (?:asking|referring|the referral)|referr)",
    re.IGNORECASE,
)


def _lay_role_before(text: str, s: Span, patterns: dict[str, re.Pattern[str]]) -> bool:
    """Is a PATIENT role right before the name on its line (``wife Dr. Ann Cole``)?"""
    before = text[max(0, s.start - 40) : s.start]
    before = before[max(before.rfind("\n"), before.rfind("\r")) + 1 :]
    return "PATIENT" in patterns and bool(patterns["PATIENT"].search(before))


def _role_of(text: str, s: Span, patterns: dict[str, re.Pattern[str]]) -> str | None:
    """The type a role word gives the name ``s``: a role before it on its line first, then a
    role right after it. A clinical credential after the name outranks a PATIENT role
    before it, unless that role is a relative (``daughter Kim Hart, LPN`` is family)."""
    before = text[max(0, s.start - 40) : s.start]
    before = before[max(before.rfind("\n"), before.rfind("\r")) + 1 :]
    from phiscrub.taggers.hybrid_steps import _credential

    credential = bool(_credential().match(text, s.end))
    kin = "kin" in patterns and patterns["kin"].search(before)
    for label, pattern in patterns.items():
        if label == "kin" or (label == "PATIENT" and credential and not kin):
            continue
        if pattern.search(before):
            return label
    after = _ROLE_AFTER.match(text, s.end)
    words = after.group(1).split() if after else []
    # the role ends the words after the name (``clinical pharmacist``) or starts them
    # (``consultant upper limb surgeon``)
    heads = [" ".join(words)] + [" ".join(words[:k]) for k in range(1, len(words))]
    for label, pattern in patterns.items():
        if label == "kin" or (label == "PATIENT" and credential):
            continue
        if any(pattern.search(head) for head in heads):
            return label
    if (
        s.label == "PATIENT"
        and " " not in s.text
        and _DEAR.search(text, max(0, s.start - 80), s.start)
        and _CLINICIAN_LETTER.search(text, s.end, s.end + 600)
    ):
        return "DOCTOR"
    return None


def name_roles(text: str, spans: Sequence[Span]) -> list[Span]:
    """A PATIENT or DOCTOR right after a role word on its line (``RN: Kim Ames``,
    ``Subscriber Mark Lee``, ``(attorney Gerald Foss)``, also past an honorific: ``SLP Ms.
    Greer``) or right after it (``Rhona Kerr, clinical pharmacist``, ``R. Szabo
    (employer)``) takes the role's type, and so do the other mentions of the same string in
    the note. A clinical credential right after the name outranks a PATIENT role: in a
    long-term-care note ``Resident: Lee, Ann`` is the patient, ``Resident: Ann Lee, MD`` a
    physician; a relative before the name outranks both (``daughter Kim Hart (LPN)``).
    ``Dear Howard,`` opening a letter about a patient greets a clinician."""
    patterns = _role_patterns()
    spans = [_person_after_role(text, s, patterns) for s in spans]
    decided: dict[str, str] = {}
    for s in spans:
        if s.label in ("PATIENT", "DOCTOR"):
            label = _role_of(text, s, patterns)
            if label:
                decided.setdefault(s.text, label)
    spans = [
        _relabel(s, decided[s.text], "hybrid.correct:role")
        if s.label in ("PATIENT", "DOCTOR") and s.text in decided
        else s
        for s in spans
    ]
    return _copied_patient(text, spans)


#: a copy line (``cc: Ann Lee, 12 Elm St``)
_CC = re.compile(r"(?im)^[ \t]*(?:cc|c\.c\.|copy to|copies to)[ \t]*:?[ \t]*")


def _copied_patient(text: str, spans: list[Span]) -> list[Span]:
    """The first name copied on a ``cc:`` line is the patient when it shares a surname or
    first name with a PATIENT elsewhere in the note (a letter copied to the patient: ``cc:
    Ann Lee, 12 Elm St``); the clinicians copied share none. Over the four TRAIN-only
    choice sets' gold: 7 of 7 such names are the patient, and 40 of 41 others clinicians."""
    patients = [s for s in spans if s.label == "PATIENT"]
    out = list(spans)
    for m in _CC.finditer(text):
        for i, s in enumerate(out):
            if (
                s.category != "NAME"
                or s.label == "PATIENT"
                or not m.end() <= s.start <= m.end() + 2
            ):
                continue
            words = {w for w in re.findall(r"[^\W\d_]{3,}", s.text)}
            if any(
                p.start != s.start and words & set(p.text.replace(",", " ").split())
                for p in patients
            ):
                out[i] = _relabel(s, "PATIENT", "hybrid.correct:cc_patient")
    return out


#: labels the CRF gives a person's name it does not know (``nurse Pita Herewini``)
_NOT_PERSON_LABELS = frozenset(
    ["ORGANIZATION", "HOSPITAL", "DEPARTMENT", "LOCATION-OTHER", "STREET", "DATE"]
)
_PERSON_SHAPE = re.compile(r"[A-Z][\w'\u2019-]*\.?(?:[ ][A-Z][\w'\u2019.-]*){0,3}")


def _person_after_role(text: str, s: Span, patterns: dict[str, re.Pattern[str]]) -> Span:
    """A CRF place, organization or date right after a role word on its line (``nurse``,
    ``Clinician:``, ``domestic helper``) that is shaped like a person's name (one to four
    capitalized words, none an English or institution word) is that person: the role's
    type. The CRF labels an unknown name by the words around it."""
    if s.label not in _NOT_PERSON_LABELS or not s.source.startswith("crf"):
        return s
    if not _PERSON_SHAPE.fullmatch(s.text) or re.search(r"\b[A-Z]{2,4}\b", s.text):
        return s  # an acronym is no name word (``RN (SPUH MICU)``)
    from phiscrub.taggers.hybrid_steps import _name_stop_words, common_words

    stop, common = _name_stop_words(), common_words(35)
    for word in s.text.split():
        low = word.rstrip(".").lower()
        if low in stop or (len(low) > 1 and low in common and low not in person_words()):
            return s
    before = text[max(0, s.start - 40) : s.start]
    before = before[max(before.rfind("\n"), before.rfind("\r")) + 1 :]
    for label, pattern in patterns.items():
        if label != "kin" and pattern.search(before):
            return _relabel(s, label, "hybrid.correct:role")
    return s


def _relabel(span: Span, label: str, source: str) -> Span:
    if span.label == label:
        return span
    return Span(span.start, span.end, label, span.text, source, span.score)
