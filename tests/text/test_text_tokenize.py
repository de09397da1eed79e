"""Tokenizer: seed cases (seed 001 §3.3.1, seed 003 Table 1), offsets, whitespace, Unicode."""

from __future__ import annotations

import gc
import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phiscrub.text import Token, split_at, tokenize

CASES: list[tuple[str, list[str]]] = [
    # seed 003 Table 1
    ("CABG6/95", ["CABG", "6", "/", "95"]),
    ("PEND01/26/2098", ["PEND", "01", "/", "26", "/", "2098"]),
    ("45-year-old", ["45", "-", "year", "-", "old"]),
    ("x76221", ["x", "76221"]),
    ("X1-1335", ["X", "1", "-", "1335"]),
    ("47798497-045-1949", ["47798497", "-", "045", "-", "1949"]),
    ("ALMarital", ["AL", "Marital"]),
    ("34712RadiologyExam", ["34712", "Radiology", "Exam"]),
    ("JaffreyMarital", ["Jaffrey", "Marital"]),
    ("2106-02-12", ["2106", "-", "02", "-", "12"]),
    ("Since6/03/04", ["Since", "6", "/", "03", "/", "04"]),
    # seed 001 §3.3.1
    ("rangeImpression", ["range", "Impression"]),
    ("winterHx", ["winter", "Hx"]),
    ("stantonPsychiatric", ["stanton", "Psychiatric"]),
    # letter / digit boundaries
    ("3pm", ["3", "pm"]),
    ("HbA1c", ["Hb", "A", "1", "c"]),
    ("SpO2", ["Sp", "O", "2"]),
    # case boundaries: lower->Upper always splits; caps run cut before Capitalized word
    ("McDonald", ["Mc", "Donald"]),
    ("iPhone", ["i", "Phone"]),
    ("eMAIL", ["e", "MAIL"]),
    ("HPIPatient", ["HPI", "Patient"]),
    ("MRIs CTs PMHx", ["MRIs", "CTs", "PMHx"]),
    ("CTscan", ["C", "Tscan"]),
    ("NKDA", ["NKDA"]),
    # punctuation: one token per character
    ("Smith's", ["Smith", "'", "s"]),
    ("(784) 032-8966", ["(", "784", ")", "032", "-", "8966"]),
    ("a.b@c.org", ["a", ".", "b", "@", "c", ".", "org"]),
    ("2.5mg", ["2", ".", "5", "mg"]),
    ("--", ["-", "-"]),
    ("[**DATE**]", ["[", "*", "*", "DATE", "*", "*", "]"]),
    ("___", ["_", "_", "_"]),
    # whitespace of every kind separates and is never in a token
    ("a\r\nb", ["a", "b"]),
    ("a\tb\x0bc\x0cd", ["a", "b", "c", "d"]),
    ("a\u00a0b\u2003c\u2028d", ["a", "b", "c", "d"]),
    ("", []),
    (" \t\r\n ", []),
    # non-ASCII letters are letters
    ("José", ["José"]),
    ("Jose\u0301", ["Jose\u0301"]),  # NFD: the combining accent stays in the word
    ("E\u0301COLE", ["E\u0301COLE"]),
    ("Müller-Lüdenscheidt", ["Müller", "-", "Lüdenscheidt"]),
    ("ÅngströmÖl", ["Ångström", "Öl"]),
    ("Дмитрий Петров", ["Дмитрий", "Петров"]),
    ("東京3", ["東京", "3"]),
    ("x²+½", ["x", "²", "+", "½"]),
    ("٣٤5", ["٣٤5"]),  # Unicode decimal digits are digits
    ("😀ok", ["😀", "ok"]),
    ("x\U00010400\U00010428", ["x", "\U00010400\U00010428"]),  # Deseret: lower->Upper
    ("\U0001d400b", ["\U0001d400b"]),  # a mathematical capital A starts a word
    ("a\U00011127", ["a\U00011127"]),  # an astral combining mark stays with its letter
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_token_texts(text: str, expected: list[str]) -> None:
    assert [t.text for t in tokenize(text)] == expected


@pytest.mark.parametrize("text", [c[0] for c in CASES])
def test_offsets_index_the_text(text: str) -> None:
    _check_invariants(text, tokenize(text))


def test_crlf_offsets() -> None:
    text = "Pt: Smith\r\nDOB: 01/02/2090\r\n"
    tokens = tokenize(text)
    assert tokens[0] == Token(0, 2, "Pt")
    assert tokens[3] == Token(11, 14, "DOB")
    assert all("\r" not in t.text and "\n" not in t.text for t in tokens)
    _check_invariants(text, tokens)


def _check_invariants(text: str, tokens: list[Token]) -> None:
    previous_end = 0
    for tok in tokens:
        assert isinstance(tok, Token)
        assert text[tok.start : tok.end] == tok.text
        assert tok.start < tok.end
        assert tok.start >= previous_end, "tokens are in order and do not overlap"
        assert not any(ch.isspace() for ch in tok.text)
        assert text[previous_end : tok.start].strip() == "", "only whitespace between tokens"
        previous_end = tok.end
    assert text[previous_end:].strip() == ""


@given(st.text())
def test_tokens_and_whitespace_rebuild_the_text(text: str) -> None:
    tokens = tokenize(text)
    _check_invariants(text, tokens)
    rebuilt: list[str] = []
    pos = 0
    for tok in tokens:
        rebuilt.append(text[pos : tok.start])
        rebuilt.append(tok.text)
        pos = tok.end
    rebuilt.append(text[pos:])
    assert "".join(rebuilt) == text
    assert "".join(t.text for t in tokens) == "".join(text.split())


CLINICAL = st.text(alphabet=st.sampled_from("aAbBzZéÉ019 .,:/-'\n\r\t\u0301Дд"), max_size=60)


@given(CLINICAL)
def test_tokenize_is_idempotent_on_its_tokens(text: str) -> None:
    for tok in tokenize(text):
        assert [t.text for t in tokenize(tok.text)] == [tok.text]


SPLIT_CASES: list[tuple[str, list[int], list[str]]] = [
    ("Smith's", [5], ["Smith", "'", "s"]),
    ("CABG6/95", [5], ["CABG", "6", "/", "95"]),
    ("Johnson", [2, 4], ["Jo", "hn", "son"]),
    ("Johnson", [0, 7, 99, -1], ["Johnson"]),
    ("ab cd", [2, 3], ["ab", "cd"]),  # offsets in whitespace or at edges change nothing
    ("abcd efgh", [1, 6, 6], ["a", "bcd", "e", "fgh"]),
    ("", [0, 1], []),
]


@pytest.mark.parametrize(("text", "cuts", "expected"), SPLIT_CASES)
def test_split_at(text: str, cuts: list[int], expected: list[str]) -> None:
    tokens = split_at(tokenize(text), cuts)
    assert [t.text for t in tokens] == expected
    _check_invariants(text, tokens)


@given(CLINICAL, st.lists(st.integers(min_value=-2, max_value=70)))
def test_split_at_keeps_invariants_and_cuts_everywhere(text: str, cuts: list[int]) -> None:
    tokens = split_at(tokenize(text), cuts)
    _check_invariants(text, tokens)
    inner = {t.start for t in tokens} | {t.end for t in tokens}
    for cut in cuts:
        inside = any(t.start < cut < t.end for t in tokenize(text))
        if inside:
            assert cut in inner


def _reference(text: str) -> list[str]:
    """The documented rules, written the slow way: one character at a time."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isdecimal():
            j = i
            while j < len(text) and text[j].isdecimal():
                j += 1
            out.append(text[i:j])
            i = j
        elif ch.isalpha():
            units: list[str] = []  # a letter and its combining marks
            j = i
            while j < len(text) and text[j].isalpha():
                k = j + 1
                while k < len(text) and unicodedata.category(text[k]).startswith("M"):
                    k += 1
                units.append(text[j:k])
                j = k
            out.extend(_split_case(units))
            i = j
        else:
            out.append(ch)
            i += 1
    return out


def _split_case(units: list[str]) -> list[str]:
    def is_upper(unit: str) -> bool:
        return unit[0].isupper() or unit[0].istitle()

    shape = "".join("U" if is_upper(u) else "l" for u in units)
    pieces: list[str] = []
    pos = 0
    for match in re.finditer("U+(?=Ull)|U?l+|U+l?", shape):
        assert match.start() == pos
        pieces.append("".join(units[match.start() : match.end()]))
        pos = match.end()
    return pieces


MIXED = st.text(
    alphabet=st.sampled_from("aAzZéÉßǅ0\u0661²½ .'_\u0301\u093e\n\t\u00a0ДдΣ\u03c3東😀\U0001d400")
)


@given(MIXED | st.text())
def test_tokenizer_follows_the_documented_rules(text: str) -> None:
    assert [t.text for t in tokenize(text)] == _reference(text)


def test_large_text_restores_gc_state() -> None:
    text = "Pt JaffreyMarital seen 01/26/2098. " * 40_000  # over 1M characters
    was = gc.isenabled()
    tokens = tokenize(text)
    assert gc.isenabled() == was
    assert len(tokens) == 10 * 40_000
    assert tokens[-1] == Token(len(text) - 2, len(text) - 1, ".")
