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
