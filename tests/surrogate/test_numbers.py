"""Number surrogates: shape, consistency, check digits."""

from __future__ import annotations

import re

import pytest

from phiscrub.surrogate.numbers import (
    dea_valid,
    luhn_valid,
    npi_valid,
    number_surrogate,
    ssn_valid,
    vin_valid,
)

KEY = b"k" * 32


def shape(text: str) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", text)))


@pytest.mark.parametrize(
    ("label", "original"),
    [
        ("PHONE", "(617) 555-1234"),
        ("PHONE", "617-555-1234"),
        ("FAX", "617.555.1234"),
        ("PHONE", "x4321"),
        ("MEDICALRECORD", "833-12-06-0"),
        ("MEDICALRECORD", "0123456"),
        ("SSN", "123-45-6789"),
        ("ACCOUNT", "ACC-00123-B"),
        ("HEALTHPLAN", "HP 778812"),
        ("LICENSE", "MA-LIC-4471"),
        ("DEVICE", "SN: 7H-22k-9"),
        ("VEHICLE", "ABC 1234"),
        ("ZIP", "02114"),
        ("ZIP", "02114-1234"),
        ("IDNUM", "PY989/54741"),
        ("BIOID", "bx-2291"),
        ("ROOM", "412B"),
    ],
)
def test_same_shape_keyed_and_changed(label: str, original: str) -> None:
    out = number_surrogate(KEY, "p1", label, original)
    assert shape(out) == shape(original) and out != original
    assert number_surrogate(KEY, "p1", label, original) == out
    assert number_surrogate(b"j" * 32, "p1", label, original) != out


def test_ssn_avoids_invalid_areas() -> None:
    for i in range(300):
        out = number_surrogate(KEY, f"p{i}", "SSN", "078-05-1120")
        assert ssn_valid(out), out
        assert re.fullmatch(r"\d{3}-\d{2}-\d{4}", out)
    assert not ssn_valid("666-12-3456") and not ssn_valid("912-12-3456")
    assert not ssn_valid("000-12-3456") and not ssn_valid("123-00-4567")


def test_npi_check_digit() -> None:
    assert npi_valid("1234567893")
    for i in range(100):
        out = number_surrogate(KEY, f"p{i}", "IDNUM", "1234567893")
        assert npi_valid(out) and out != "1234567893"


def test_dea_check_digit() -> None:
    assert dea_valid("AB1234563") and not dea_valid("AB1234564")
    for i in range(100):
        out = number_surrogate(KEY, f"p{i}", "LICENSE", "AB1234563")
        assert dea_valid(out) and out != "AB1234563"


def test_vin_check_digit() -> None:
    assert vin_valid("1HGCM82633A004352") and vin_valid("11111111111111111")
    for i in range(100):
        out = number_surrogate(KEY, f"p{i}", "VEHICLE", "1HGCM82633A004352")
        assert vin_valid(out) and len(out) == 17
        assert not set(out) & set("IOQ")


def test_luhn_numbers_stay_luhn_valid() -> None:
    for i in range(50):
        out = number_surrogate(KEY, f"p{i}", "ACCOUNT", "4111111111111111")
        assert luhn_valid(out) and len(out) == 16


def test_phone_area_code_and_exchange_are_valid() -> None:
    for i in range(100):
        digits = re.sub(r"\D", "", number_surrogate(KEY, f"p{i}", "PHONE", "(617) 555-1234"))
        assert digits[0] in "23456789" and digits[3] in "23456789"


def test_separators_do_not_change_the_digits() -> None:
    a = number_surrogate(KEY, "p1", "PHONE", "617-555-1234")
    b = number_surrogate(KEY, "p1", "PHONE", "(617) 555 1234")
    assert re.sub(r"\D", "", a) == re.sub(r"\D", "", b)
