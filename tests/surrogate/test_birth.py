"""Dates of birth that reveal an age over 89: triggers, reference date, capping."""

from __future__ import annotations

import datetime as dt

import pytest

from phiscrub.span import Document, Span
from phiscrub.surrogate import Replacer, SurrogateOptions
from phiscrub.surrogate.birth import is_birth_date, reference_date
from phiscrub.surrogate.dates import shift_date

KEY = b"b" * 32


@pytest.mark.parametrize(
    ("before", "expected"),
    [
        ("DOB: ", True),
        ("dob ", True),
        ("D.O.B. ", True),
        ("D.O.B.: ", True),
        ("Date of Birth: ", True),
        ("date of\nbirth - ", True),
        ("Birthdate (", True),
        ("She was born on ", True),
        ("born ", True),
        ("Her birth date is ", True),
        ("Admitted: ", False),
        ("Reborn on ", False),  # a trigger must start a word
        ("DOB: 01/02/1930. Seen ", False),  # too far: the trigger must end just before
        ("", False),
    ],
)
def test_birth_date_triggers(before: str, expected: bool) -> None:
    text = f"{before}01/02/1930."
    span = Span.of(text, len(before), len(before) + 10, "DATE")
    assert is_birth_date(text, span) is expected


def test_only_dates_are_birth_dates() -> None:
    text = "DOB: 01/02/1930"
    assert not is_birth_date(text, Span.of(text, 5, 15, "IDNUM"))


def _dates(*values: str) -> list[Span]:
    return [Span(0, len(v), "DATE", v) for v in values]


def test_reference_is_the_latest_full_date_or_a_later_year() -> None:
    dates = _dates("2069-04-07", "May 2080", "1/2/2070", "2071")
    assert reference_date(dates) == dt.date(2070, 1, 2)
    assert reference_date(dates, reference_year=2069) == dt.date(2070, 1, 2)
    assert reference_date(dates, reference_year=2070) == 2070  # one year for every note
    assert reference_date(dates, reference_year=2075) == 2075
    assert reference_date(_dates("May 2080")) is None
    assert reference_date(_dates("May 2080"), reference_year=2075) == 2075


def note(dob: str, record: str = "04/07/2069") -> tuple[Document, list[Span]]:
    text = f"Record date: {record}\nDOB: {dob}\nAdmitted {dob}.\n"
    first = text.index(dob)
    second = text.index(dob, first + 1)
    spans = [
        Span.of(text, 13, 13 + len(record), "DATE"),
        Span.of(text, first, first + len(dob), "DATE"),
        Span.of(text, second, second + len(dob), "DATE"),
    ]
    return Document("n", text, "p"), spans


def test_a_birth_date_over_89_is_capped_then_shifted() -> None:
    doc, spans = note("03/02/1975")
    replacer = Replacer(key=KEY, audit=True)
    result = replacer.replace(doc, spans)
    assert result.birth_dates_capped == 1 and result.birth_dates_unchecked == 0
    assert replacer._surrogator is not None
    offset = replacer._surrogator.offset("p")
    record, dob, admitted = (s.text for s in result.spans)
    assert record == shift_date("04/07/2069", offset)
    assert dob == shift_date("03/02/1979", offset)  # age 90 at the note's date
    assert admitted == shift_date("03/02/1975", offset)  # not a birth date: shifted only
    assert result.audit[1].original == "03/02/1975" and result.audit[1].surrogate == dob


def test_a_birth_date_under_90_is_only_shifted() -> None:
    doc, spans = note("05/06/1990")
    result = Replacer(key=KEY).replace(doc, spans)
    assert result.birth_dates_capped == 0
    assert result.spans[1].text == result.spans[2].text


def test_without_a_reference_the_birth_date_is_counted_unchecked() -> None:
    doc, spans = note("03/02/1975", record="Spring 2069")
    spans = spans[:2]  # the record date is not a full date; no other date
    result = Replacer(key=KEY).replace(doc, spans)
    assert result.birth_dates_capped == 0 and result.birth_dates_unchecked == 1
    options = SurrogateOptions(reference_year=2069)
    capped = Replacer(key=KEY, options=options).replace(doc, spans)
    assert capped.birth_dates_capped == 1 and capped.birth_dates_unchecked == 0


def test_capping_can_be_switched_off_and_respects_keep() -> None:
    doc, spans = note("03/02/1975")
    off = Replacer(key=KEY, options=SurrogateOptions(cap_birth_dates=False))
    assert off.replace(doc, spans).birth_dates_capped == 0
    kept = Replacer(key=KEY, keep={"DATE"}).replace(doc, spans)
    assert kept.birth_dates_capped == 0 and kept.text == doc.text
    assert Replacer("tag").replace(doc, spans).birth_dates_capped == 0
