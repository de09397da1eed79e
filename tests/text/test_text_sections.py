"""Section headings, section lookup, attribute-value lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phiscrub.text import (
    AttributeValue,
    Heading,
    attribute_at,
    attribute_values,
    known_headings,
    section_at,
    section_headings,
)

# (text, expected [(heading text as written, normalized name)])
HEADING_CASES: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "HISTORY OF PRESENT ILLNESS:\nThe patient",
        [("HISTORY OF PRESENT ILLNESS:", "HISTORY OF PRESENT ILLNESS")],
    ),
    (
        "History of  Present\tIllness\n45M",
        [("History of  Present\tIllness", "HISTORY OF PRESENT ILLNESS")],
    ),
    ("HPI: 45M with chest pain", [("HPI:", "HPI")]),
    ("  Social History:\nCocaine: denies", [("Social History:", "SOCIAL HISTORY")]),
    ("Medications\n1. aspirin", [("Medications", "MEDICATIONS")]),
    ("Allergies : NKDA", [("Allergies :", "ALLERGIES")]),
    ("ASSESSMENT AND PLAN:\nstable", [("ASSESSMENT AND PLAN:", "ASSESSMENT AND PLAN")]),
    ("A/P: stable", [("A/P:", "A/P")]),
    ("Discharge Diagnosis:\r\nCHF\r\n", [("Discharge Diagnosis:", "DISCHARGE DIAGNOSIS")]),
    # all-caps lines (or line starts) ending in a colon
    ("SOCIAL HX:\nlives alone", [("SOCIAL HX:", "SOCIAL HX")]),
    ("HOSPITAL  COURSE BY SYSTEM:", [("HOSPITAL  COURSE BY SYSTEM:", "HOSPITAL COURSE BY SYSTEM")]),
    ("NEURO: intact", [("NEURO:", "NEURO")]),
    ("GI:\nsoft", [("GI:", "GI")]),
    ("ÉTAT CIVIL:", [("ÉTAT CIVIL:", "ÉTAT CIVIL")]),
    # not headings
    ("BP: 120/80", []),  # short all-caps label with a value
    ("TEMP: 98.6", []),  # value starts with a digit
    ("Cocaine: denies", []),
    ("The history of present illness is long", []),
    ("Medications include aspirin", []),
    ("HPIs: none", []),
    ("He said PLAN: later", []),  # not at the start of a line
    ("Plan of care:", []),  # neither known nor all caps
    ("", []),
    (" \n\n", []),
]


@pytest.mark.parametrize(("text", "expected"), HEADING_CASES)
def test_section_headings(text: str, expected: list[tuple[str, str]]) -> None:
    found = section_headings(text)
    assert [(text[h.start : h.end], h.name) for h in found] == expected
    assert all(isinstance(h, Heading) for h in found)


def test_known_headings_loaded() -> None:
    names = known_headings()
    assert len(names) >= 80
    for name in [
        "HISTORY OF PRESENT ILLNESS",
        "HPI",
        "CHIEF COMPLAINT",
        "ALLERGIES",
        "PAST MEDICAL HISTORY",
        "SOCIAL HISTORY",
        "FAMILY HISTORY",
        "PHYSICAL EXAM",
        "REVIEW OF SYSTEMS",
        "ASSESSMENT AND PLAN",
        "IMPRESSION",
        "FINDINGS",
        "LABS",
        "DISPOSITION",
        "DISCHARGE DIAGNOSIS",
        "MEDICATIONS",
    ]:
        assert name in names
    assert all(name == " ".join(name.upper().split()) for name in names)


NOTE = (
    "Intro line\n"
    "CHIEF COMPLAINT: chest pain\n"
    "History of Present Illness:\n"
    "45M seen today.\n"
    "SOCIAL HX:\n"
    "Cocaine: denies\n"
)


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ("Intro", None),
        ("CHIEF", "CHIEF COMPLAINT"),
        ("chest", "CHIEF COMPLAINT"),
        ("45M", "HISTORY OF PRESENT ILLNESS"),
        ("Cocaine", "SOCIAL HX"),
        ("denies", "SOCIAL HX"),
    ],
)
def test_section_at(needle: str, expected: str | None) -> None:
    assert section_at(section_headings(NOTE), NOTE.index(needle)) == expected


def test_section_at_without_headings() -> None:
    assert section_at([], 5) is None


# (text, expected [(attribute, pair text, value text)])
AV_CASES: list[tuple[str, list[tuple[str, str, str]]]] = [
    ("Cocaine: denies", [("cocaine", "Cocaine: denies", "denies")]),
    ("Marital status: married", [("marital status", "Marital status: married", "married")]),
    ("BP: 120/80", [("bp", "BP: 120/80", "120/80")]),
    ("BP:120/80", [("bp", "BP:120/80", "120/80")]),
    (
        "Date  of birth :  01/02/2090  ",
        [("date of birth", "Date  of birth :  01/02/2090", "01/02/2090")],
    ),
    (
        "  - Tobacco: quit 2080\r\nAlcohol: rarely\r\n",
        [("tobacco", "Tobacco: quit 2080", "quit 2080"), ("alcohol", "Alcohol: rarely", "rarely")],
    ),
    (
        "Referral source: Dr. Smith, PCP",
        [("referral source", "Referral source: Dr. Smith, PCP", "Dr. Smith, PCP")],
    ),
    ("Phone #: 555-1212", [("phone #", "Phone #: 555-1212", "555-1212")]),
    ("Allergies: NKDA", [("allergies", "Allergies: NKDA", "NKDA")]),
    # not attribute-value lines
    ("Social History:", []),  # a heading with nothing after it
    ("Social History:\nCocaine: denies", [("cocaine", "Cocaine: denies", "denies")]),
    ("Cocaine:   ", []),
    ("Seen at 10:30 today", []),  # a time, not a separator
    ("See http://example.org", []),
    ("The patient told me that: he is fine", []),  # more than four words
    ("10: ten", []),  # attribute must start with a letter
    (": nothing", []),
    ("", []),
]


@pytest.mark.parametrize(("text", "expected"), AV_CASES)
def test_attribute_values(text: str, expected: list[tuple[str, str, str]]) -> None:
    found = attribute_values(text)
    assert all(isinstance(av, AttributeValue) for av in found)
    got = [(a.attribute, text[a.start : a.end], text[a.value_start : a.value_end]) for a in found]
    assert got == expected


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ("Cocaine", None),
        ("denies", "cocaine"),
        ("married", "marital status"),
        ("Social", None),
        ("ried", "marital status"),
        ("\nMarital", None),
    ],
)
def test_attribute_at(needle: str, expected: str | None) -> None:
    text = "Social History:\nCocaine: denies\nMarital status: married\n"
    assert attribute_at(attribute_values(text), text.index(needle)) == expected


def test_attribute_at_end_is_exclusive() -> None:
    text = "BP: 120/80 "
    pairs = attribute_values(text)
    assert attribute_at(pairs, 9) == "bp"
    assert attribute_at(pairs, 10) is None
    assert attribute_at([], 0) is None


@given(st.text(alphabet=st.sampled_from("aA: \n\r\t-1/#"), max_size=60))
def test_offsets_are_consistent(text: str) -> None:
    for h in section_headings(text):
        assert 0 <= h.start < h.end <= len(text)
        assert " ".join(text[h.start : h.end].rstrip(":").upper().split()) == h.name
    previous = 0
    for av in attribute_values(text):
        assert previous <= av.start < av.value_start < av.value_end == av.end <= len(text)
        value = text[av.value_start : av.value_end]
        assert value == value.strip() and value
        previous = av.end
