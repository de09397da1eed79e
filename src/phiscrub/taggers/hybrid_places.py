"""Hybrid corrections of an institution's or place's type (seed 001 §3.3.5, error correction).

``hospital_or_organization``: a HOSPITAL or ORGANIZATION span takes its type from its own
words (``data/lexicons/institution_words.txt``), else from the words before it. A care
practice (a clinical field or service with only practice words among its organization
words: ``Kailua Town Medical Group``, ``Back Mountain Counseling Services``, ``Essex Home Care
Partners``) is a HOSPITAL, after GUIDELINES.md "Places" (physician, dental and therapy
practices, home-health agencies are care sites).

``place_or_organization``: a CITY or LOCATION-OTHER span of two words or more that ends in
an organization or hospital word (``Big Sky Drug``, ``Four Corners Cancer Fund``) is that
institution: the city cue of the rules (``from``, ``to``) took the name of a shop or a fund.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources

from phiscrub.span import Span

__all__ = ["hospital_or_organization", "institution_words", "place_or_organization"]

_HOSPITAL_BEFORE = re.compile(
    r"\b(?:admitted|transferred|discharged|presented|seen|followed|treated|hospitali[sz]ed)"
    r"\s+(?:to|at|from|in|by)\s*(?:the\s+)?$",
    re.IGNORECASE,
)
_ORG_BEFORE = re.compile(
    r"\b(?:works?|worked|working|employed|employee|job|retired|volunteers?|attends?)"
    r"\s+(?:at|for|by|from|with|of)?\s*(?:the\s+)?$",
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
KINDS = ("hospital", "weak_hospital", "organization", "care", "practice")


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


def _is_care_practice(name: str, words: set[str]) -> bool:
    """A clinical field or service, and no organization word but practice words."""
    lex = institution_words()
    lowered = " ".join(name.lower().split())
    care = words & lex["care"] or any(
        " " in phrase and re.search(rf"\b{re.escape(phrase)}\b", lowered)
        for phrase in lex["care"]
    )
    return bool(care) and words & lex["organization"] <= lex["practice"]


def hospital_or_organization(text: str, spans: Sequence[Span]) -> list[Span]:
    """HOSPITAL or ORGANIZATION by the span's own words, else by the words before it."""
    lex = institution_words()
    out: list[Span] = []
    for s in spans:
        if s.label in ("HOSPITAL", "ORGANIZATION"):
            words = {w.lower() for w in _WORD.findall(s.text)}
            before = text[max(0, s.start - 40) : s.start]
            payer = _PAYER_BEFORE.search(before)
            if words & lex["hospital"] and not words & lex["organization"]:
                s = _relabel(s, "HOSPITAL", "hybrid.correct:hospital")
            elif not payer and _is_care_practice(s.text, words):
                s = _relabel(s, "HOSPITAL", "hybrid.correct:care_site")
            elif not words & lex["hospital"] and (words & lex["organization"] or payer):
                s = _relabel(s, "ORGANIZATION", "hybrid.correct:organization")
            elif words & lex["weak_hospital"] or _HOSPITAL_BEFORE.search(before):
                s = _relabel(s, "HOSPITAL", "hybrid.correct:hospital")
            elif _ORG_BEFORE.search(before):
                s = _relabel(s, "ORGANIZATION", "hybrid.correct:organization")
        out.append(s)
    return out


def place_or_organization(text: str, spans: Sequence[Span]) -> list[Span]:
    """A CITY or LOCATION-OTHER of two words or more ending in an institution word takes
    that institution's type (the correction above then decides which)."""
    lex = institution_words()
    out: list[Span] = []
    for s in spans:
        words = _WORD.findall(s.text)
        if s.label in ("CITY", "LOCATION-OTHER") and len(words) >= 2:
            last = words[-1].lower()
            if last in lex["organization"] and last not in _PLACE_WORDS:
                s = _relabel(s, "ORGANIZATION", "hybrid.correct:place_org")
            elif last in lex["hospital"]:
                s = _relabel(s, "HOSPITAL", "hybrid.correct:place_org")
        out.append(s)
    return out
