"""PROFESSION from a list of non-medical occupations (``data/lexicons/professions.txt``).

An occupation is found where its last word occurs in the note (looked up in the note's
shared word index, :func:`lanes.note_index`), the longest entry of the list that ends there
first; it then takes the modifiers right before it (``high school chemistry teacher``:
``data/lexicons/profession_modifiers.txt`` and the other words of the list's multi-word
entries). Medical staff are not on the list (not PHI under the guidelines). Trigger phrases
(``works as a``, ``occupation:``) for occupations not on the list live in ``name.toml``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import resources

from phiscrub.detect.lanes import note_index
from phiscrub.span import Document, Span

#: one separator between the words of an occupation (a space or a hyphen, on one line)
_SEP = re.compile(r"[ \-]")
#: a word just before a match, with its separator (for modifiers)
_WORD_BEFORE = re.compile(r"([A-Za-z0-9][A-Za-z0-9\-']*)[ ]$")
#: what must precede an occupation (``attorney``, ``pastor``, ``home health aide`` are often
#: someone else's role or a service: "sent to attorney", "her teacher"): the job of a person
#: is said "is a ...", "retired ...", "(...)", ", ...", "Social: ...", "58M ..."
_PERSON_JOB = re.compile(
    r"(?:\b(?:a|an|is|was|as|retired|former|semi-retired|Retired|Former|self-employed|"
    r"previously|formerly|currently|Previously|Formerly|Currently)[ ]"
    r"|\([ ]?|[,:][ ]+|\b\d{1,3}[ ]?(?:yo|y/o|M|F|-year-old)[ ]|-year-old[ ])"
    # one or two describing words may stand between ("a 38 y/o right-handed teacher",
    # "46-year-old premenopausal teacher", "RHD commercial fisherman")
    r"(?:(?:[a-z]+(?:-[a-z]+)+|RHD|LHD|premenopausal|postmenopausal|single|married|divorced|"
    r"widowed|local|unemployed|part-time|full-time)[ ]){0,2}$"
)
#: the stricter context of care-giving occupations (``professions_medical.txt``): only a
#: person's own job ("is a pharmacist", "retired nurse", "trained as a nursing technician",
#: "works as a nurse": GUIDELINES, Professions, the job of a patient or relative is
#: PROFESSION), never "there is a nurse at the bedside" or "the nurse"
_OWN_JOB = re.compile(
    r"(?<![Tt]here )\b(?:is|was|Is|Was)[ ](?:a|an)[ ](?:retired[ ]|former[ ])?$"
    r"|\b(?:retired|former|Retired|Former)[ ]$"
    r"|\b(?:[Tt]rained|[Ww]orks?|[Ww]orked|[Ww]orking|[Ee]mployed)"
    r"(?:[ ](?:part-time|full-time|nights|days))?[ ]as[ ](?:a|an)[ ]$"
)
#: a hyphenated modifier made of letters ("hay-ranch foreman", "tool-and-die maker"); not a
#: participle ("right-handed"), not "year-old"
_COMPOUND = re.compile(r"[a-z]+(?:-[a-z]+)+")


def _lines(name: str) -> list[str]:
    text = resources.files("phiscrub").joinpath("data", "lexicons", name).read_text("utf-8")
    return [ln.strip().lower() for ln in text.splitlines() if ln.strip() and ln[0] != "#"]


@functools.cache
def occupations() -> tuple[frozenset[str], frozenset[str]]:
    """(occupations, modifiers), lower case."""
    jobs = frozenset(_lines("professions.txt"))
    mods = set(_lines("profession_modifiers.txt"))
    for job in jobs | medical_occupations():
        mods.update(w for w in job.split(" ")[:-1] if "'" not in w)
    return jobs, frozenset(mods)


@functools.cache
def medical_occupations() -> frozenset[str]:
    """Care-giving occupations: PROFESSION only as a person's own job (``_OWN_JOB``)."""
    return frozenset(_lines("professions_medical.txt"))


@dataclass
class ProfessionDetector:
    """Occupations of the list, with their modifiers: ``detect(doc) -> spans``."""

    name: str = "professions"
    score: float = 0.8
    max_modifiers: int = 3
    _by_last: dict[str, list[tuple[str, ...]]] = field(init=False, repr=False)
    _mods: frozenset[str] = field(init=False, repr=False)
    _medical: frozenset[tuple[str, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        jobs, self._mods = occupations()
        self._medical = frozenset(tuple(_SEP.split(j)) for j in medical_occupations())
        self._by_last = {}
        for job in sorted(jobs | medical_occupations(), key=len, reverse=True):  # longest first
            words = tuple(_SEP.split(job))
            last = re.match(r"[a-z]+", words[-1])
            assert last is not None, job
            self._by_last.setdefault(last.group(), []).append(words)

    def detect(self, doc: Document) -> list[Span]:
        text = doc.text
        out: list[Span] = []
        words = note_index(text).words
        # a lower-case letter run that ends an occupation (the keys are lower case; a run
        # with a capital is not taken: "Teacher" at a sentence start is not matched)
        for word in words.keys() & self._by_last.keys():
            entries = self._by_last[word]
            for p in words[word]:
                found = self._at(text, p, entries)
                if found is not None:
                    a, b = found
                    out.append(
                        Span.of(text, a, b, "PROFESSION", "dict.professions:list", self.score)
                    )
        return sorted(out)

    def _at(self, text: str, p: int, entries: list[tuple[str, ...]]) -> tuple[int, int] | None:
        """The occupation whose last word starts at ``p`` (the longest), with modifiers."""
        for words in entries:
            span = _match_back(text, p, words)
            if span is not None:
                start = self._modifiers(text, span[0])
                if words in self._medical:  # "is a pharmacist", not "the pharmacist"
                    if _OWN_JOB.search(text, max(0, start - 40), start) is None:
                        return None
                    return start, span[1]
                if _PERSON_JOB.search(text, max(0, start - 60), start) is None:
                    return None  # "sent to attorney", "a home health aide was discussed"
                return start, span[1]
        return None

    def _modifiers(self, text: str, start: int) -> int:
        for _ in range(self.max_modifiers):
            m = _WORD_BEFORE.search(text, max(0, start - 40), start)
            if m is None or not self._modifier(m.group(1)):
                break
            start = m.start()
        return start

    def _modifier(self, word: str) -> bool:
        """A listed modifier, or a compound of letters that is not a participle or an age
        ("hay-ranch", "tool-and-die", "high-school"; not "right-handed", "year-old")."""
        w = word.lower()
        if w in self._mods:
            return True
        return (
            _COMPOUND.fullmatch(w) is not None
            and not w.endswith(("ed", "old", "ing"))
            and w.split("-")[0] not in {"non", "self", "well", "full", "part", "long-term"}
        ) or all(p in self._mods for p in w.split("-") if p)


def _match_back(text: str, p: int, words: tuple[str, ...]) -> tuple[int, int] | None:
    """Does ``words`` (lower case) occur with its last word at ``p``, whole? (start, end)"""
    last = words[-1]
    end = p + len(last)
    if text[p:end].lower() != last or (end < len(text) and _joined(text[end])):
        return None
    start = p
    for w in reversed(words[:-1]):
        if start < 1 or text[start - 1] not in " -":
            return None
        a = start - 1 - len(w)
        if a < 0 or text[a : start - 1].lower() != w:
            return None
        start = a
    if start > 0 and _joined(text[start - 1]):
        return None
    return start, end


def _joined(c: str) -> bool:
    return c.isalnum() or c in "_'\u2019-"
