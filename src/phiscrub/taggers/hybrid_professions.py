"""Hybrid correction of PROFESSION spans (``professions``, after the merge).

The name CRF tags as a job many clinical and household nouns that end like one
(``digital thermometer``, ``stool softener``, ``Lifeline pendant``), people who are not
doing a job (``toddler``, ``widower``, ``stepfather``), and words that only sit where jobs
sit (``church supper``, ``bank holiday``); it and the lexicon also keep only the head of a
compound job (``truck driver`` of ``long-haul truck driver``, ``die maker`` of
``tool-and-die maker``). Per PROFESSION span:

- a CRF span is kept only when its last word can name a job: a head of the lexicons
  (the last words of ``professions.txt`` and ``professions_medical.txt``,
  ``profession_heads.txt``) or an agentive ending (``-er``, ``-or``, ``-ist``, ``-ian``,
  ``-man``...), and not a word of ``profession_non_heads.txt``; a
  plural (a group, not a person's job: ``club volunteers``) and a span that starts with a
  determiner or a question word (``our hardest worker``) are dropped;
- a span right before a person's name (``adjuster Dana Reyes``, ``teacher Ms Kahu``) or
  right after a clinician's name (``Ana Ruiz, DO, hospice medical director``) is the role
  of a professional in the care, not the job of a patient or relative, and is dropped
  (GUIDELINES, Professions: a role with no patient or relative behind it is not PHI), and
  so is a job in apposition to a name that no relative word introduces (``To: Rhea
  Banks, Claims Adjuster``; not ``Father Tom Ng, bus driver``, ``Mr. Ng, a welder``);
- a job in brackets right after a job is the person's part in that job (``wildland
  firefighter (crew boss)``) and is dropped (DEV and tune tag only the first);
- a span grows to the left over the rest of a hyphenated word (``tool-and-``) and over
  the modifiers jobs take (``profession_modifiers.txt`` and the other words of the
  lexicons' multi-word jobs: ``school bus driver``, ``air traffic controller``), and loses
  a handedness word in front (``R-hand-dominant``); a span that does not end on a job
  head grows over the head right after it (``court`` -> ``court interpreter``).

Jobs no span covers are then taken after cues, when they end on a job head: after an age
(``a 38-year-old veterinary nurse,``, ``23 yo female waitress at``) or ``is a`` / ``I'm a``
with only a job's modifiers before the head; after a relative and the relative's name
(``mother Ana Ruiz (phlebotomist at``, ``MOTHER (CNA AT``, ``wife Dr. Eva Cole
(pediatrician)``, ``Mother: Eva Lund (19), care assistant,``), in brackets after ``from
work`` (``from work (ski patroller, ...)``) and in a form's occupation field
(``Occupation: orchard supervisor - employer``, ``Job title: ...``, ``OCC: PEN RIDER``),
with any words but a determiner before the head. A CRF span of another type that is
exactly the field's job becomes a PROFESSION, and a job-title field's two jobs (``crane
operator / millwright helper``) make one span, as the corpora tag them. A lone generic
head (``a 20-year-old driver``, ``son (student)``: ``profession_generic.txt``) is not
taken.

"retired", "former", "later" and other time words stay out of the span (a CRF span loses
them): the development corpus and tune never tag them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources

from phiscrub.detect.roles import medical_occupations, occupations
from phiscrub.span import Span

__all__ = ["can_head_job", "professions"]

#: endings of agent nouns (who does something): driver, operator, machinist, librarian,
#: lineman (not -ant, -ent: "pendant", "rent"; those jobs are listed heads)
_AGENTIVE = re.compile(r"(?:er|or|ist|ian|man|eer|smith|wright|ess)$")
#: a word of a span (letters, inner hyphens and apostrophes)
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019]*")
#: first words that make a span a phrase, not a job ("our hardest worker", "where pastor")
_FUNCTION = frozenset(
    ["a", "an", "the", "our", "my", "your", "his", "her", "their", "its", "this", "that",
     "these", "those", "where", "when", "which", "who", "whose", "what", "whom", "some",
     "any", "every", "each", "no"]
)  # fmt: skip
#: a handedness word before a job ("R-hand-dominant ironworker", "right-handed teacher")
_HANDED = re.compile(r"(?i)(?:[lr]|right|left)(?:-hand(?:ed)?)?(?:-dominant)?|rhd|lhd")
#: between a job and the name after it: a space or a comma, and a title ("teacher Ms Kahu",
#: "health navigator, Ana Ruiz")
_BEFORE_NAME = re.compile(
    r",?[ ]+(?:(?:Mr|Mrs|Ms|Miss|Mme|Mlle|Dr|Officer|Sister|Brother|Father|Rev)\.?[ ]+)?"
)
#: between a clinician's name and the job after it: ", ", credentials, "(" ("Ana Ruiz, DO,
#: hospice medical director", "Lee, MD (medical director)")
_AFTER_CLINICIAN = re.compile(
    r"(?:,?[ ]*(?:[A-Z][A-Za-z]{0,5}\.?,?[ ]+)*\(?)[ ]*(?:[a-z][a-z\-]*[ ]){0,2}"
)
#: the word before a span: a word, then one space or a hyphen
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z0-9'\u2019\-]*)[ ]$")
_WORD_AFTER = re.compile(r"[ ]([A-Za-z][A-Za-z'\u2019-]*)")
_MAX_GROW = 3


def _lines(name: str) -> list[str]:
    text = resources.files("phiscrub").joinpath("data", "lexicons", name).read_text("utf-8")
    return [ln.strip().lower() for ln in text.splitlines() if ln.strip() and ln[0] != "#"]


@functools.cache
def _heads() -> tuple[frozenset[str], frozenset[str]]:
    """(job heads, words that do not name a job), lower case."""
    jobs, _ = occupations()
    last = {re.split(r"[ \-]", j)[-1] for j in jobs | medical_occupations()}
    non = frozenset(_lines("profession_non_heads.txt"))
    return frozenset((last | set(_lines("profession_heads.txt"))) - non), non


@functools.cache
def _generic() -> frozenset[str]:
    """Heads that are a job only with a modifier (``bus driver``, not ``the driver``)."""
    return frozenset(_lines("profession_generic.txt"))


def can_head_job(word: str) -> bool:
    """Can ``word`` end the name of a job (``driver``, ``cook``, ``machinist``)? Not a
    plural, not a listed non-job (``thermometer``, ``toddler``)."""
    w = word.lower().replace("\u2019", "'")
    heads, non = _heads()
    if w in heads:
        return True
    if w in non or len(w) < 4:
        return False
    if w.endswith("s") and not w.endswith("ss"):
        return False
    return _AGENTIVE.search(w) is not None and not w.endswith("ment")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.replace("-", " "))


def _is_modifier(word: str) -> bool:
    _, mods = occupations()
    w = word.lower()
    if w in mods:
        return True
    parts = [p for p in w.split("-") if p]
    return len(parts) > 1 and all(p in mods or len(p) <= 3 for p in parts)


def _left(text: str, start: int) -> int:
    # the rest of a hyphenated word the span starts inside ("tool-and-" of "die maker")
    while start > 1 and text[start - 1] == "-" and text[start - 2].isalpha():
        a = start - 1
        while a > 0 and (text[a - 1].isalpha() or text[a - 1] == "-"):
            a -= 1
        start = a
    for _ in range(_MAX_GROW):
        m = _WORD_BEFORE.search(text, max(0, start - 40), start)
        if m is None or not _is_modifier(m.group(1)):
            break
        if m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "-"):
            break  # the tail of a longer hyphenated word
        start = m.start()
    return start


def _trim_handed(text: str, s: Span) -> Span:
    """Without a handedness word or a time word in front (``R-hand-dominant``, ``retired``,
    ``later``: the development corpus and tune leave them out)."""
    first = re.match(r"[^ ]+[ ]", s.text)
    if first and (_HANDED.fullmatch(first.group().strip()) or _LEAD.fullmatch(first.group())):
        return Span.of(text, s.start + first.end(), s.end, s.label, s.source + "+prof", s.score)
    return s


#: time words before a job that stay out of it
_LEAD = re.compile(
    r"(?i:retired|former|later|then|also|current|currently|previously|formerly|now)[ ]"
)


def _grow_right(text: str, s: Span, starts: set[int]) -> Span:
    """A span that does not end on a job head takes the head right after it (``court`` ->
    ``court interpreter``, ``loan servicing`` -> ``loan servicing supervisor``)."""
    words = _words(s.text)
    if words and not can_head_job(words[-1]):
        m = _WORD_AFTER.match(text, s.end)
        # a head in the case of the span (not a name: "visitor Gillian"), not another span
        same_case = m is not None and (m.group(1).islower() or s.text.isupper())
        if m and same_case and m.start(1) not in starts and can_head_job(m.group(1)):
            return Span.of(text, s.start, m.end(), s.label, s.source + "+prof", s.score)
    return s


def _grow_left(text: str, s: Span) -> Span:
    start = _left(text, s.start)
    if start == s.start:
        return s
    return Span.of(text, start, s.end, s.label, s.source + "+prof", s.score)


def _staff(text: str, s: Span, names: Sequence[Span]) -> bool:
    """The role of a professional: right before a name, or right after a clinician's."""
    m = _BEFORE_NAME.match(text, s.end)
    if m and any(n.start == m.end() for n in names):
        return True
    for n in names:
        near = n.end <= s.start and s.start - n.end <= 20
        if near and n.label == "DOCTOR" and _AFTER_CLINICIAN.fullmatch(text, n.end, s.start):
            return True
        # "Sheila Vrdoljak, Claims Adjuster": a name in apposition that no relative word
        # introduces ("mother Ana Ruiz, bus driver" is a relative's job)
        if near and _APPOSED.fullmatch(text, n.end, s.start) and not _relative(text, n):
            return True
    return False


#: between a name and a job in apposition: a comma, and a word or two ("clinical")
_APPOSED = re.compile(r",[ ]+(?!(?:a|an|the)[ ])(?:[a-z]+[ ]){0,2}")


def _relative(text: str, n: Span) -> bool:
    """Does a relative word ("married to", "patient") stand right before the name ``n``?"""
    return _KIN_NEAR.search(text, max(0, n.start - 60), n.start) is not None


def _not_a_job(s: Span) -> bool:
    words = _words(s.text)
    if not words or words[0].lower() in _FUNCTION:
        return True
    return s.source.startswith("crf") and not can_head_job(words[-1])


#: one to four words of a job (the head last), then what ends it: punctuation, a line end,
#: or "at", "with", "for", "in" (an employer or a place follows)
_JOB = (
    r"(?P<job>(?:[A-Za-z0-9][A-Za-z0-9\-]*[ ]){0,3}?[A-Za-z][A-Za-z\-]*)"
    r"(?=[ ]*[(),;./]|[ ]*\n|[ ]*$|[ ]{2,}|[ ]-[ ]|[ ]+(?:at|with|for|in|AT|WITH|FOR|IN)[ ])"
)
#: a form's occupation field: "Occupation: orchard supervisor - employer ...", "Job title:
#: overhead crane operator, 14 yrs", "OCC: PEN RIDER", "Usual occupation / industry ....."
#: The cues below that scan whole notes open with a lookahead of their first letters: re
#: then skips to the next such letter in C instead of trying the word boundary and the
#: alternation at every position (the same matches; 0.11 -> 0.07 s per 208 notes).
_FIELD_CUE = re.compile(
    r"(?=[OoJjPp])"
    r"\b(?:[Oo]ccupation|OCCUPATION|[Jj]ob[ ][Tt]itle|JOB[ ]TITLE|OCC|[Pp]rofession|PROFESSION)"
    r"(?:[ ]/[ ][Ii]ndustry)?[ \t]*(?::|\.{3,})[ \t]*(?:(?:[Rr]etired|[Ff]ormer|RETIRED)[ ])?"
    + _JOB
)
#: an age in front of a job: "a 38-year-old veterinary nurse,", "23 yo female waitress at"
_AGE_CUE = re.compile(
    r"\b\d{1,3}(?:[ -]?years?[ -]old|[ ]?y/?o|[ ]?yr[ ]old)[ ]"
    r"(?:(?:fe)?male[ ]|woman[ ]|man[ ])?(?:(?:retired|former)[ ])?" + _JOB
)
#: a relative (and the relative's name, age) before a job in brackets or after a comma:
#: "mother Ana Ruiz (phlebotomist at", "Mother: Eva Lund (19), care assistant,"
_KIN = (
    r"(?i:wife|husband|son|daughter|brother|sister|mother|father|mom|dad|parent|"
    r"grand(?:mother|father|son|daughter)|partner|girlfriend|boyfriend|fianc[e\u00e9]e?|"
    r"spouse|cousin|aunt|uncle|niece|nephew|step(?:mother|father|son|daughter)|FOB)"
)
_KIN_BEFORE = re.compile(
    r"(?:\b" + _KIN + r"|\b(?i:married)[ ]to)[ ]*[:(]?[ ]*(?:(?i:mr|mrs|ms|dr)\.?[ ]+)?$"
)
#: a job in brackets after "from work": "en route from work (ski patroller, ...)"
_WORK_PAREN = re.compile(r"(?=[fab])\b(?:from|at|after|before)[ ]work[ ]*\([ ]*" + _JOB)
#: "is a" / "was a" before a job, with only a job's modifiers between
_IS_A = re.compile(r"(?=[IiWw])\b(?:[Ii]s|[Ww]as|I'm)[ ]an?[ ]" + _JOB)
_AFTER_KIN_NAME = re.compile(
    r"(?:[ ]*\(\d{1,3}\)|,[ ]*\d{1,3})?(?:[ ]*\([ ]*|,[ ]+)(?:an?[ ])?" + _JOB
)
#: an explicit job phrase: "works as a 9th-grade biology teacher at"
_WORKS_AS = re.compile(
    r"(?=[WwEeJj])"
    r"\b(?:[Ww]orks?|[Ww]orked|[Ww]orking|[Ee]mployed|[Jj]ob)(?:[ ](?:part-time|full-time))?"
    r"[ ]as[ ](?:an?[ ])?" + _JOB
)
#: a relative word (or the patient's), then capitalized words (the rest of the name) up to
#: a name span
_KIN_NEAR = re.compile(
    r"(?:\b" + _KIN + r"|\b(?i:married)[ ]to|\b(?i:patient|pt|client))"
    r"[ ]*[:(]?[ ]*(?:[A-Z][\w'\-]*\.?[ ]+){0,3}$"
)
_KIN_PAREN = re.compile(r"(?=(?i:[whsdbmfpgcaun]))\b" + _KIN + r"[ ]*\([ ]*" + _JOB)


def _cue_job(text: str, m: re.Match[str], loose: bool = False) -> Span | None:
    """The job of a cue's match when it is one: a head of a job, modifiers before it (with
    a relative or in an occupation field, ``loose``: any words but a determiner), one case;
    a lone ambiguous head (``driver``, ``student``) is not taken."""
    job = m.group("job")
    words = job.split(" ")
    if not all(_one_case(w) for w in words) or not can_head_job(_words(words[-1])[-1]):
        return None
    if loose:
        if any(w.lower() in _FUNCTION for w in words):
            return None
    elif not all(_is_modifier(w) or _compound(w) for w in words[:-1]):
        return None
    if len(words) == 1 and words[0].lower() in _generic():
        return None
    return Span.of(text, m.start("job"), m.end("job"), "PROFESSION", "hybrid.professions:cue")


def _one_case(word: str) -> bool:
    """A word of a job: lower case, or capitals (``NICU nurse``, ``PEDIATRIC DENTIST``)."""
    return word.islower() or word.isupper()


def _compound(word: str) -> bool:
    """A hyphenated modifier (``night-shift``, ``meat-processing``, ``200-level``), not a
    participle or an age (``right-handed``, ``year-old``)."""
    return re.fullmatch(
        r"[a-z0-9]+(?:-[a-z]+)+", word.lower()
    ) is not None and not word.lower().endswith(("ed", "old"))


def _cued(text: str, spans: Sequence[Span]) -> list[Span]:
    """Jobs after an age or a relative that no span covers."""
    found = [*_AGE_CUE.finditer(text), *_IS_A.finditer(text)]
    near = [*_KIN_PAREN.finditer(text), *_WORK_PAREN.finditer(text), *_WORKS_AS.finditer(text)]
    for n in spans:
        if n.category == "NAME" and _KIN_BEFORE.search(text, max(0, n.start - 40), n.start):
            m = _AFTER_KIN_NAME.match(text, n.end)
            if m:
                near.append(m)
    jobs = [_cue_job(text, m) for m in found]
    jobs += [_cue_job(text, m, loose=True) for m in near]
    jobs += [_cue_job(text, m, loose=True) for m in _FIELD_CUE.finditer(text)]
    out: list[Span] = []
    for job in jobs:
        if job is not None and not any(s.overlaps(job) for s in (*spans, *out)):
            out.append(job)
    return out


def _retype_fields(text: str, spans: list[Span]) -> list[Span]:
    """A CRF span that is exactly the job of an occupation field becomes a PROFESSION
    (``OCC: PEN RIDER`` typed HOSPITAL)."""
    fields = {(m.start("job"), m.end("job")) for m in _FIELD_CUE.finditer(text)}
    return [
        Span.of(text, s.start, s.end, "PROFESSION", s.source + "+prof", s.score)
        if (s.start, s.end) in fields
        and s.source.startswith("crf")
        and s.category != "NAME"
        and s.label != "PROFESSION"
        and can_head_job(_words(s.text)[-1])
        else s
        for s in spans
    ]


def professions(text: str, spans: Sequence[Span]) -> list[Span]:
    """The spans with the PROFESSION spans corrected (see the module docstring)."""
    names = [s for s in spans if s.category == "NAME"]
    starts = {s.start for s in spans}
    out: list[Span] = []
    for s in _retype_fields(text, list(spans)):
        if s.label == "PROFESSION":
            s = _grow_right(text, _trim_handed(text, s), starts)
            if _not_a_job(s) or _staff(text, s, names):
                continue
            s = _grow_left(text, s)
        out.append(s)
    out = _join_field(text, _drop_detail(text, out))
    return sorted(out + _cued(text, out))


#: a second job after a slash in a job-title field ("crane operator / millwright helper")
_SLASH_JOB = re.compile(r"[ ]?/[ ]?" + _JOB)


def _join_field(text: str, spans: list[Span]) -> list[Span]:
    """A job-title field's two jobs (``A / B``) make one span, as the corpora tag them."""
    fields = {m.start("job") for m in _FIELD_CUE.finditer(text)}
    out = []
    for s in spans:
        if s.label == "PROFESSION" and s.start in fields:
            m = _SLASH_JOB.match(text, s.end)
            if m and _cue_job(text, m, loose=True) is not None:
                s = Span.of(text, s.start, m.end(), s.label, s.source + "+prof", s.score)
        out.append(s)
    return out


def _drop_detail(text: str, spans: list[Span]) -> list[Span]:
    """A job in brackets right after a job tells what the person does in it (``wildland
    firefighter (crew boss)``, ``fisherman (deckhand on the F/V ...)``): not tagged again."""
    ends = {s.end for s in spans if s.label == "PROFESSION"}
    out = []
    for s in spans:
        if s.label == "PROFESSION":
            p = text.rfind("(", max(0, s.start - 60), s.start)
            if p >= 0 and not re.search(r"[)\n]", text[p : s.start]):
                q = len(text[:p].rstrip(" "))
                if q in ends:
                    continue
        out.append(s)
    return out
