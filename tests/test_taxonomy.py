from __future__ import annotations

import pytest

from phiscrub import taxonomy as tx
from phiscrub.errors import LabelError


def test_every_i2b2_2014_subtype_has_its_category() -> None:
    # seed 004 Fig. 1: 7 categories and 30 subtypes, plus OTHER (kept for files that use it);
    # the "25 sub-categories" of seed 003 are the ones that occur in the released corpus
    assert len(tx.SUBTYPES) == 31
    assert len(tx.CATEGORIES) == 8
    assert tx.category_of("PATIENT") == "NAME"
    assert tx.category_of("LOCATION-OTHER") == "LOCATION"
    assert tx.category_of("BIOID") == "ID"
    assert tx.category_of("IPADDR") == "CONTACT"
    with pytest.raises(LabelError):
        tx.category_of("PERSON")


def test_hipaa_follows_the_scorer_source_not_its_readme() -> None:
    assert {"IDNUM"} == tx.HIPAA_README - tx.HIPAA
    assert not tx.is_hipaa("IDNUM")
    for label in ("PATIENT", "AGE", "DATE", "ZIP", "ORGANIZATION", "BIOID", "DEVICE"):
        assert tx.is_hipaa(label)
    for label in ("DOCTOR", "HOSPITAL", "STATE", "COUNTRY", "PROFESSION", "URL", "IPADDR"):
        assert not tx.is_hipaa(label)


@pytest.mark.parametrize("table", [tx.FROM_I2B2_2006, tx.FROM_PHYSIONET, tx.FROM_PRESIDIO])
def test_mapping_tables_land_on_known_subtypes(table: object) -> None:
    assert isinstance(table, type(tx.FROM_I2B2_2006))
    for target in table.values():  # type: ignore[attr-defined]
        assert target is None or target in tx.CATEGORY_OF


def test_label_sets_of_other_schemes_are_complete() -> None:
    assert set(tx.FROM_I2B2_2006) == {
        "PATIENT", "DOCTOR", "HOSPITAL", "LOCATION", "DATE", "ID", "PHONE", "AGE"
    }  # fmt: skip
    assert set(tx.FROM_PHYSIONET) == {
        "PTName", "PTNameInitial", "RelativeProxyName", "HCPName", "Date", "DateYear",
        "Location", "Phone", "Age", "Other",
    }  # fmt: skip
    for name in ("PERSON", "LOCATION", "DATE_TIME", "PHONE_NUMBER", "EMAIL_ADDRESS", "US_SSN"):
        assert name in tx.FROM_PRESIDIO


def test_2006_round_trip_of_2006_labels() -> None:
    for label, ours in tx.FROM_I2B2_2006.items():
        assert tx.TO_I2B2_2006[ours] == label
    # every 2014 subtype but PROFESSION and OTHER has a 2006 type
    assert set(tx.SUBTYPES) - set(tx.TO_I2B2_2006) == {"PROFESSION", "OTHER"}


def test_map_label() -> None:
    assert tx.map_label("PTName", "physionet") == "PATIENT"
    assert tx.map_label("NRP", "presidio") is None
    with pytest.raises(LabelError):
        tx.map_label("Nope", "physionet")
    with pytest.raises(LabelError):
        tx.map_label("PATIENT", "nonexistent-scheme")
