"""Places, organizations, professions, departments, contacts, ages."""

from __future__ import annotations

import datetime as dt
import ipaddress
import re

import pytest

from phiscrub.surrogate.ages import age_surrogate, cap_birth_date
from phiscrub.surrogate.contact import email_surrogate, ip_surrogate, url_surrogate
from phiscrub.surrogate.lexicon import lexicon
from phiscrub.surrogate.places import (
    LIST_FILES,
    department_surrogate,
    hospital_surrogate,
    list_surrogate,
    state_surrogate,
    street_surrogate,
)

KEY = b"k" * 32


@pytest.mark.parametrize("label", sorted(LIST_FILES))
def test_list_surrogates_come_from_the_list_and_are_consistent(label: str) -> None:
    items = {i.casefold() for i in lexicon(LIST_FILES[label])}
    out = list_surrogate(KEY, "p1", label, "Springfield Something")
    assert out.casefold() in items
    assert list_surrogate(KEY, "p1", label, "springfield  something") == out.lower()
    assert list_surrogate(KEY, "p1", label, "SPRINGFIELD SOMETHING") == out.upper()


def test_list_surrogate_never_returns_the_original() -> None:
    for i in range(100):
        assert list_surrogate(KEY, f"p{i}", "CITY", "Albany") != "Albany"


def test_states_keep_abbreviation_or_full_name() -> None:
    assert re.fullmatch(r"[A-Z]{2}", state_surrogate(KEY, "p1", "MA"))
    assert len(state_surrogate(KEY, "p1", "Massachusetts")) > 2


@pytest.mark.parametrize(
    ("original", "pattern"),
    [
        ("23 Fruit Street", r"\d{2} [A-Z][a-z]+ [A-Z][a-z]+"),
        ("23 Fruit St", r"\d{2} [A-Z][a-z]+ [A-Z][a-z]+"),
        ("1200 N. Main St., Apt 4B", r"\d{4} N\. [A-Z][a-z]+ [A-Z][a-z]+\.?, Apt \d[A-Z]"),
        ("55 FRUIT ST. #12", r"\d{2} [A-Z]+ [A-Z]+\.? #\d{2}"),
    ],
)
def test_streets(original: str, pattern: str) -> None:
    out = street_surrogate(KEY, "p1", original)
    assert re.fullmatch(pattern, out), out


def test_street_suffix_style_is_kept() -> None:
    full = {"Street", "Avenue", "Road", "Boulevard", "Drive", "Lane", "Court", "Place"}
    for i in range(30):
        assert street_surrogate(KEY, f"p{i}", "9 Elm Street").split()[-1] not in {"St", "Ave"}
        abbr = street_surrogate(KEY, f"p{i}", "9 Elm St").split()[-1]
        assert abbr not in full


@pytest.mark.parametrize(
    ("original", "suffix"),
    [
        ("Massachusetts General Hospital", " General Hospital"),
        ("GREEN HOSPITAL", " HOSPITAL"),
        ("Springfield Medical Center", " Medical Center"),
        ("Everett Family Center", " Family Center"),
        ("Oak Street Clinic", " Clinic"),
    ],
)
def test_hospitals_keep_their_kind(original: str, suffix: str) -> None:
    out = hospital_surrogate(KEY, "p1", original)
    assert out.endswith(suffix) and out != original
    if original.isupper():
        assert out.isupper()


def test_hospital_acronym() -> None:
    out = hospital_surrogate(KEY, "p1", "MGH")
    assert re.fullmatch(r"[A-Z]{3}", out) and out != "MGH"


@pytest.mark.parametrize(
    ("original", "generic"),
    [
        ("Department for radiology, imaging, and oncology", "Radiology"),
        ("Ellison 10 Cardiac Step-Down", "Cardiology"),
        ("ER", "Emergency room/ER"),
        ("Bigelow Pediatric ICU", "Pediatric intensive care unit (PICU)"),
        ("Smith Unit", "Internal medicine"),
    ],
)
def test_departments_become_generic(original: str, generic: str) -> None:
    assert department_surrogate(original) == generic


def test_email_keeps_structure() -> None:
    out = email_surrogate(KEY, "p1", "john.smith@partners.org")
    assert re.fullmatch(r"[a-z]{4}\.[a-z]{5}@[a-z]{8}\.org", out)


def test_url_keeps_scheme_and_structure() -> None:
    out = url_surrogate(KEY, "p1", "https://www.mgh.harvard.edu/patients/index.html")
    assert re.fullmatch(r"https://www\.[a-z]{3}\.[a-z]{7}\.edu/[a-z]{8}/index\.html", out)


def test_ip_addresses() -> None:
    for i in range(100):
        v4 = ip_surrogate(KEY, f"p{i}", "192.168.0.12")
        assert ipaddress.ip_address(v4).version == 4
        assert [len(o) for o in v4.split(".")] == [3, 3, 1, 2]
        v6 = ip_surrogate(KEY, f"p{i}", "fe80::1ff:fe23:4567:890a")
        assert ipaddress.ip_address(v6).version == 6


@pytest.mark.parametrize(
    ("original", "capped", "plus"),
    [
        ("45", "45", "45"),
        ("89", "89", "89"),
        ("90", "90", "90+"),
        ("91yo", "90yo", "90+yo"),
        ("104", "90", "90+"),
        ("ninety-three", "ninety", "ninety"),
        ("Ninety", "Ninety", "Ninety"),
    ],
)
def test_ages(original: str, capped: str, plus: str) -> None:
    assert age_surrogate(original) == capped
    assert age_surrogate(original, "90+") == plus


def test_birth_date_revealing_an_age_over_89() -> None:
    note = dt.date(2015, 1, 1)
    assert cap_birth_date("03/04/1920", note) == "03/04/1924"  # 90 on the note date
    assert cap_birth_date("March 4, 1920", 2015) == "March 4, 1925"
    assert cap_birth_date("03/04/1960", note) is None
    assert cap_birth_date("02/29/1920", dt.date(2015, 3, 1)) == "02/28/1925"
