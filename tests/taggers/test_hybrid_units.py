"""The hybrid's split of a hospital's unit off its name (made-up notes)."""

from __future__ import annotations

from phiscrub.span import Span
from phiscrub.taggers.hybrid_units import hospital_units

from .spans import at


def _hospital(text: str, needle: str) -> Span:
    return at(text, needle, "HOSPITAL")


def test_an_acronym_or_a_hospital_name_then_a_unit_is_split() -> None:
    text = (
        "Seen at KVMC Larkspur Memory Center; delivered at Bay Ridge Hospital Birthing Center; "
        "labs at Pine Hollow Medical Center Outreach Lab."
    )
    spans = [
        _hospital(text, "KVMC Larkspur Memory Center"),
        _hospital(text, "Bay Ridge Hospital Birthing Center"),
        _hospital(text, "Pine Hollow Medical Center Outreach Lab"),
    ]
    out = [(s.text, s.label) for s in hospital_units(text, spans)]
    assert out == [
        ("KVMC", "HOSPITAL"),
        ("Larkspur Memory Center", "DEPARTMENT"),
        ("Bay Ridge Hospital", "HOSPITAL"),
        ("Birthing Center", "DEPARTMENT"),
        ("Pine Hollow Medical Center", "HOSPITAL"),
        ("Outreach Lab", "DEPARTMENT"),
    ]


def test_one_name_stays_whole() -> None:
    text = "Referred to Bay Ridge Hospital, then RIVERTON CLINIC, then Mercy Hospital Colorado."
    spans = [
        _hospital(text, "Bay Ridge Hospital"),
        _hospital(text, "RIVERTON CLINIC"),
        _hospital(text, "Mercy Hospital Colorado"),
    ]
    assert hospital_units(text, spans) == spans


def test_a_named_ward_and_its_room_are_a_department_and_a_room() -> None:
    text = "Admitted to Menominee 9 914, moved to Larimer 6 6-33, then Roadrunner 3 - Rm 3117."
    spans = [
        at(text, "Menominee 9 914", "DEPARTMENT"),
        at(text, "Larimer 6 6-33", "DEPARTMENT"),
        at(text, "Roadrunner 3 - Rm 3117", "ROOM"),
    ]
    out = [(s.text, s.label) for s in hospital_units(text, spans)]
    assert out == [
        ("Menominee 9", "DEPARTMENT"),
        ("914", "ROOM"),
        ("Larimer 6", "DEPARTMENT"),
        ("6-33", "ROOM"),
        ("Roadrunner 3", "DEPARTMENT"),
        ("Rm 3117", "ROOM"),
    ]


def test_a_ward_named_by_a_room_word_or_without_a_room_stays_whole() -> None:
    text = "Bed on Ward 64 / Bed 12, then Bay 3 Bed 4, then Hanna 6."
    spans = [
        at(text, "Ward 64 / Bed 12", "ROOM"),
        at(text, "Bay 3 Bed 4", "ROOM"),
        at(text, "Hanna 6", "DEPARTMENT"),
    ]
    assert hospital_units(text, spans) == spans
