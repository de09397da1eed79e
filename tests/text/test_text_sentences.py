"""Sentence splitter: cases per rule, CRLF, and the coverage invariant."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phiscrub.text import sentences

CASES: list[tuple[str, list[str]]] = [
    # rule 1: terminal punctuation, with its exceptions
    ("He is well. She is not.", ["He is well.", "She is not."]),
    ("Really? Yes! Fine.", ["Really?", "Yes!", "Fine."]),
    ("Seen by Dr. Smith today. Stable.", ["Seen by Dr. Smith today.", "Stable."]),
    ("Mr. and Mrs. Jones. Ms. Lee.", ["Mr. and Mrs. Jones.", "Ms. Lee."]),
    ("Take 2.5 mg daily. Return in 2 weeks.", ["Take 2.5 mg daily.", "Return in 2 weeks."]),
    ("Seen by J. Smith in the U.S. Army.", ["Seen by J. Smith in the U.S. Army."]),
    ("Aspirin 81 mg p.o. b.i.d. Continue.", ["Aspirin 81 mg p.o. b.i.d. Continue."]),
    ("e.g. Tylenol, i.e. Acetaminophen.", ["e.g. Tylenol, i.e. Acetaminophen."]),
    ("approx. Ten days ago vs. Twelve.", ["approx. Ten days ago vs. Twelve."]),
    ("Lives on Main St. Boston.", ["Lives on Main St. Boston."]),
    ("He is well. he is eating.", ["He is well. he is eating."]),  # lowercase: no break
    ("Nausea, vomiting, etc. Denies fever.", ["Nausea, vomiting, etc.", "Denies fever."]),
    ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
    ("Pain (severe). Then rest.", ["Pain (severe).", "Then rest."]),
    ("Stable. (Seen later.)", ["Stable.", "(Seen later.)"]),
    ("Version 1.2.3 was used.", ["Version 1.2.3 was used."]),
    ("Ended...Then", ["Ended...Then"]),
    ("Stable.\nfollow up in clinic.", ["Stable.", "follow up in clinic."]),  # newline
    # rule 2: blank lines
    (
        "First para line one\ncontinues here\n\nSecond para",
        ["First para line one\ncontinues here", "Second para"],
    ),
    ("one\n \t \ntwo", ["one", "two"]),
    # rule 3: colon followed by a newline (seed 001)
    ("Social History:\nCocaine: denies", ["Social History:", "Cocaine: denies"]),
    ("Plan:   \n  continue heparin", ["Plan:", "continue heparin"]),
    ("Time 10:30 today", ["Time 10:30 today"]),
    # rule 4: list items
    (
        "Meds:\n1. Aspirin 81 mg\n2. Lisinopril 10 mg\n- note",
        ["Meds:", "1. Aspirin 81 mg", "2. Lisinopril 10 mg", "- note"],
    ),
    (
        "the patient takes many drugs including\n* aspirin",
        ["the patient takes many drugs including", "* aspirin"],
    ),
    ("1. Aspirin. 2. Tylenol.", ["1. Aspirin.", "2. Tylenol."]),
    # rule 5: a short header-like line followed by a capital
    (
        "HISTORY OF PRESENT ILLNESS\nThe patient is 45.",
        ["HISTORY OF PRESENT ILLNESS", "The patient is 45."],
    ),
    ("Cocaine: denies\nAlcohol: rarely", ["Cocaine: denies", "Alcohol: rarely"]),
    ("Vitals\nBP 120/80", ["Vitals", "BP 120/80"]),
    (
        "He was admitted with chest pain and shortness of breath on\nMonday morning",
        ["He was admitted with chest pain and shortness of breath on\nMonday morning"],
    ),
    ("Seen by\nDr. Smith", ["Seen by\nDr. Smith"]),  # short but continues (next: Dr)
    ("Pain in the left arm,\nRadiating", ["Pain in the left arm,\nRadiating"]),
    # whitespace, CRLF and empties
    ("", []),
    ("  \r\n\t ", []),
    ("  Indented sentence.  ", ["Indented sentence."]),
    ("a line\r\n\r\nanother\r\n", ["a line", "another"]),
    ("Social History:\r\nCocaine: denies\r\n", ["Social History:", "Cocaine: denies"]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_sentences(text: str, expected: list[str]) -> None:
    assert [text[s:e] for s, e in sentences(text)] == expected


def test_crlf_offsets() -> None:
    text = "Social History:\r\nCocaine: denies\r\n"
    assert sentences(text) == [(0, 15), (17, 32)]


ALPHABET = "aAzZ09 .?!:;,-*()\"'\n\r\t\u00a0"


@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=80) | st.text(max_size=40))
def test_sentences_cover_all_non_space_text(text: str) -> None:
    found = sentences(text)
    pos = 0
    for start, end in found:
        assert pos <= start < end <= len(text)
        chunk = text[start:end]
        assert chunk == chunk.strip(), "sentences are trimmed"
        assert text[pos:start].strip() == "", "nothing but whitespace between sentences"
        pos = end
    assert text[pos:].strip() == ""
