"""The hybrid's filter of the CRF's bare AGE and DATE numbers (made-up notes)."""

from __future__ import annotations

from phiscrub.span import Span
from phiscrub.taggers.hybrid_numbers import bare_numbers

from .spans import at as _at


def test_numbers_in_tables_and_vitals_are_dropped() -> None:
    text = "DTaP        2      03-16-2031\nTooth #18 intact. AF with RVR at 108. eGFR 47 today."
    spans = [
        _at(text, "2", "DATE"),
        _at(text, "03-16-2031", "DATE"),
        _at(text, "18", "AGE"),
        _at(text, "108", "AGE"),
        _at(text, "47", "AGE"),
    ]
    assert [s.text for s in bare_numbers(text, spans)] == ["03-16-2031"]


def test_ages_with_context_and_years_are_kept() -> None:
    text = "Sister Ona is 74 years old. Lives with Tam Ruiz, 24, welder. Mute since ~2035. At 7 we"
    name = _at(text, "Tam Ruiz", "PATIENT")
    spans = [
        _at(text, "74", "AGE"),
        name,
        _at(text, "24", "AGE"),
        _at(text, "2035", "DATE"),
        Span.of(text, text.rindex("7"), text.rindex("7") + 1, "AGE", "crf.all", 0.9),
    ]
    kept = bare_numbers(text, spans, [name])
    assert [s.text for s in kept] == ["74", "Tam Ruiz", "24", "2035"]
    assert [s.text for s in bare_numbers(text, spans)] == ["74", "Tam Ruiz", "2035"]


def test_ids_of_letters_and_reference_ranges_are_dropped() -> None:
    text = "NDC 61314-0454-02. ALT 19 (6-29). MAP 62-78. MRN 0094-17. Login kpatel, ch 16-20."
    spans = [
        _at(text, "NDC", "IDNUM"),
        _at(text, "6-29", "MEDICALRECORD"),
        _at(text, "MAP 62-78", "MEDICALRECORD"),
        _at(text, "0094-17", "MEDICALRECORD"),
        _at(text, "kpatel", "USERNAME"),
        _at(text, "ch 16-20", "USERNAME"),
    ]
    assert [s.text for s in bare_numbers(text, spans)] == ["0094-17", "kpatel"]


def test_years_of_service_are_no_age_but_years_after_a_birth_date_are() -> None:
    text = "Retired bus operator (MBTA, 34 years); 30 yrs at the mine. DOB 08/02/1944 (74 yrs)"
    spans = [_at(text, "34", "AGE"), _at(text, "30", "AGE"), _at(text, "74", "AGE")]
    assert [s.text for s in bare_numbers(text, spans)] == ["74"]


def test_lengths_of_time_are_not_ages() -> None:
    text = (
        "She describes 18 months of decline. Off alendronate 3 years off. Adenoma: 3-year "
        "surveillance. Recheck in 12 months. A 4 years old boy; walked at 15 months."
    )
    spans = [
        _at(text, "18", "AGE"),
        _at(text, "3", "AGE"),
        Span.of(text, text.index("3-year"), text.index("3-year") + 1, "AGE", "crf.all", 0.9),
        _at(text, "12", "AGE"),
        _at(text, "4", "AGE"),
        _at(text, "15", "AGE"),
    ]
    assert [s.text for s in bare_numbers(text, spans)] == ["4", "15"]
