"""Tagging a note written all in lower case: capitals put back where a writer would have
put them, on a copy of the same length, so that the spans found on it fit the note.

Some writers type whole notes in lower case (quick social-work and phone notes). The
rules and the CRF lean on capitals to find names and places; on the lower-case notes of
``corpora/train2-4`` the TRAIN-only model found about half of the PHI tokens. Training on
lower-case copies of notes (``taggers/augment.py``) raised that to 0.77 but cost every
other note precision (docs/models.md, seventh round); restoring the capitals costs the
ordinary notes nothing, since it only runs on notes with almost no capitals.

A word is capitalized when it starts a sentence or a line, or is a known person's name
or a town of the gazetteer and no English word (``chiara``, ``wauwatosa``, but not
``grace`` or ``young``); a clinical acronym of the rules' list is put in capitals
(``icu``, ``mrn``); titles (``dr.``, ``mr.``) and ``i`` are capitalized.
"""

from __future__ import annotations

import functools
import re

from phiscrub.span import Document, Span

__all__ = ["is_lower_case_note", "proxy", "restore", "truecase"]

#: a note is written in lower case when fewer than this share of its letters are capitals
LOWER_SHARE = 0.02
#: ... and it has at least this many letters (a short line says too little)
MIN_LETTERS = 200
#: a word of letters in any script, with inner hyphens and apostrophes
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['\u2019\-](?=[^\W\d_]))*")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n[ \t\-*\d.)]*)$")
_TITLES = frozenset(["dr", "mr", "mrs", "ms", "fr", "rev", "st"])
#: endings of drug names (INN stems): a drug is no proper name (``rituximab``, ``apixaban``)
_DRUG = re.compile(
    r"(?:mab|nib|pril|sartan|olol|statin|azole|cillin|mycin|floxacin|cycline|vir|pine|"
    r"pam|lam|zine|tide|gliflozin|gliptin|parin|xaban|profen|triptan|prazole|tidine|"
    r"semide|thiazide|oxetine|aline|afil|lukast|sone|olone|asone|umab|ximab|zumab)$"
)
#: acronyms of the list that are words in lower-case notes (``pt`` is the patient)
_NOT_ACRONYMS = frozenset(["pt", "pts", "tia", "am", "pm"])


def is_lower_case_note(text: str) -> bool:
    """Almost no capitals among enough letters."""
    letters = sum(map(str.isalpha, text))  # map: a loop in C, 4x the Python loop
    upper = sum(map(str.isupper, filter(str.isalpha, text)))  # not Ⅻ: no letter
    return letters >= MIN_LETTERS and upper < LOWER_SHARE * letters


@functools.cache
def _vocab() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(person names, towns lower case, English words, clinical acronyms lower case)."""
    from phiscrub.detect import lexicon
    from phiscrub.resources import data_lines

    lex = lexicon.lexicons()
    acronyms = frozenset(a.lower() for a in data_lines("lexicons", "clinical_acronyms.txt"))
    towns = frozenset(c.lower() for c in lex.cities)
    return lex.first_names | lex.last_names, towns, frozenset(lex.common_words), acronyms


def _proper(part: str) -> bool:
    """A known name or town that is no English word, or a word of 4 letters or more that
    is neither English, nor a clinical term, nor shaped like a drug name (``chiara``,
    ``kowalczyk``; not ``rituximab``)."""
    from phiscrub.detect import lexicon

    names, towns, english, _ = _vocab()
    if part in english:
        return False
    if part in names or part in towns:
        return True
    return (
        len(part) >= 4
        and part.isalpha()
        and not _DRUG.search(part)
        and not lexicon.lexicons().is_allowed(part)
    )


def _capitalize_parts(out: list[str], word: str, start: int) -> None:
    """Capitalize each hyphen part of ``word`` that is a name (``dacosta-greer``)."""
    offset = 0
    for part in word.split("-"):
        core = re.sub(r"['\u2019]s$", "", part)
        if core and _proper(core):
            out[start + offset] = out[start + offset].upper()
        offset += len(part) + 1


def truecase(text: str) -> str:
    """``text`` with capitals restored (same length, same characters but for their case)."""
    _, towns, english, acronyms = _vocab()
    out = list(text)
    words = list(_WORD.finditer(text))
    for k, m in enumerate(words):
        word, start = m.group(), m.start()
        if not word.islower():
            continue
        bare = re.sub(r"['\u2019]s$", "", word)
        nxt = words[k + 1] if k + 1 < len(words) else None
        if bare in acronyms and bare not in english and bare not in _NOT_ACRONYMS:
            out[start : m.end()] = list(word.upper())
            continue
        if (
            nxt is not None
            and text[m.end() : nxt.start()] == " "
            and f"{bare} {nxt.group()}" in towns
        ):
            out[start] = out[start].upper()
            out[nxt.start()] = out[nxt.start()].upper()
            continue
        after = text[m.end() : m.end() + 2]
        if (
            word == "i"
            or (bare in _TITLES and after[:1] == ".")
            or (len(word) == 1 and after == ". " and nxt is not None and _proper(nxt.group()))
            or _SENTENCE_START.search(text, max(0, start - 12), start) is not None
        ):
            out[start] = out[start].upper()
        _capitalize_parts(out, word, start)
        if out[start].isupper() and not _SENTENCE_START.search(text, max(0, start - 12), start):
            _institution_after(text, out, words, k)
    return "".join(out)


#: words that end an institution's name besides those of ``institution_words.txt``
_INSTITUTION_ENDS = frozenset(
    ["center", "centre", "house", "mission", "program", "network", "trust", "circle",
     "library", "diner", "depot", "home", "alliance", "coalition", "council", "fund"]
)  # fmt: skip
#: words an institution's name does not run over
_STOP = frozenset(["the", "a", "an", "and", "or", "to", "for", "at", "in", "on", "with", "by"])


@functools.cache
def _institution_ends() -> frozenset[str]:
    from phiscrub.taggers.hybrid_places import institution_words

    lex = institution_words()
    kinds = ("hospital", "weak_hospital", "organization", "practice", "care")
    return _INSTITUTION_ENDS.union(*(lex[kind] for kind in kinds))


def _institution_after(text: str, out: list[str], words: list[re.Match[str]], k: int) -> None:
    """A name just capitalized (``milwaukee``) that up to 4 words later, on one line and with
    no punctuation between, reaches an institution word (``public educators trust``): the
    words between and that word are part of the name and take capitals too."""
    ends = _institution_ends()
    run: list[re.Match[str]] = []
    for nxt in words[k + 1 : k + 5]:
        gap = text[(run[-1] if run else words[k]).end() : nxt.start()]
        if gap not in (" ", " of ") or nxt.group() in _STOP:
            return
        run.append(nxt)
        if nxt.group() in ends:
            for w in run:
                out[w.start()] = out[w.start()].upper()
            return


def proxy(doc: Document) -> Document:
    """The note to tag in place of ``doc``: itself, or a capitalized copy of a lower-case
    note (text only; the spans found on it are moved back by ``restore``)."""
    if not is_lower_case_note(doc.text):
        return doc
    return Document(doc.id, truecase(doc.text), doc.patient_id, dict(doc.metadata))


def restore(doc: Document, spans: list[Span]) -> list[Span]:
    """Spans found on ``proxy(doc)`` with the text of ``doc``."""
    return [
        s
        if doc.text[s.start : s.end] == s.text
        else Span(s.start, s.end, s.label, doc.text[s.start : s.end], s.source, s.score)
        for s in spans
    ]
