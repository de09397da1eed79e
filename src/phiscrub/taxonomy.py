"""The PHI taxonomy of the i2b2 2014 corpus (seed 004, Fig. 1 and Table 3), and label mappings.

Our labels are the i2b2 2014 subtypes (the ``TYPE`` attribute); every subtype
belongs to one category (the XML element name). ``OTHER`` is in the 2014
guidelines (seed 004 §4) and in the official scorer's list of valid types, but
not in the released gold standard; it is kept so that files using it can be read.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from phiscrub.errors import LabelError

CATEGORIES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "NAME": ("PATIENT", "DOCTOR", "USERNAME"),
        "PROFESSION": ("PROFESSION",),
        "LOCATION": (
            "ROOM",
            "DEPARTMENT",
            "HOSPITAL",
            "ORGANIZATION",
            "STREET",
            "CITY",
            "STATE",
            "COUNTRY",
            "ZIP",
            "LOCATION-OTHER",
        ),
        "AGE": ("AGE",),
        "DATE": ("DATE",),
        "CONTACT": ("PHONE", "FAX", "EMAIL", "URL", "IPADDR"),
        "ID": (
            "SSN",
            "MEDICALRECORD",
            "HEALTHPLAN",
            "ACCOUNT",
            "LICENSE",
            "VEHICLE",
            "DEVICE",
            "BIOID",
            "IDNUM",
        ),
        "OTHER": ("OTHER",),
    }
)

#: subtype -> category
CATEGORY_OF: Mapping[str, str] = MappingProxyType(
    {sub: cat for cat, subs in CATEGORIES.items() for sub in subs}
)

#: every subtype, in the order of seed 004 Fig. 1
SUBTYPES: tuple[str, ...] = tuple(CATEGORY_OF)

#: The HIPAA subset as the official scorer's README lists it.
HIPAA_README: frozenset[str] = frozenset(
    {
        "PATIENT", "AGE", "CITY", "STREET", "ZIP", "ORGANIZATION", "DATE", "PHONE", "FAX",
        "EMAIL", "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE",
        "DEVICE", "BIOID", "IDNUM",
    }
)  # fmt: skip

#: The HIPAA subset the official scorer actually computes (kotfic/i2b2_evaluation_scripts,
#: classes.py, ``PHITrackEvaluation.HIPAA_regexes``). Its IDNUM pattern is written with a
#: trailing space ("IDNUM "), which never matches a TYPE, so IDNUM is left out of every
#: HIPAA figure the scorer prints. We follow the source, so that our numbers equal its numbers.
HIPAA: frozenset[str] = HIPAA_README - {"IDNUM"}

#: i2b2 2006 (Uzuner et al. 2007) PHI types -> our subtypes.
FROM_I2B2_2006: Mapping[str, str] = MappingProxyType(
    {
        "PATIENT": "PATIENT",
        "DOCTOR": "DOCTOR",
        "HOSPITAL": "HOSPITAL",
        "LOCATION": "LOCATION-OTHER",
        "DATE": "DATE",
        "ID": "IDNUM",
        "PHONE": "PHONE",
        "AGE": "AGE",
    }
)

#: our subtypes -> the closest i2b2 2006 type (writing 2006 files is lossy for 2014 labels).
TO_I2B2_2006: Mapping[str, str] = MappingProxyType(
    {
        "PATIENT": "PATIENT",
        "DOCTOR": "DOCTOR",
        "USERNAME": "ID",
        "HOSPITAL": "HOSPITAL",
        "DATE": "DATE",
        "AGE": "AGE",
        "PHONE": "PHONE",
        "FAX": "PHONE",
        "EMAIL": "PHONE",
        "URL": "PHONE",
        "IPADDR": "PHONE",
        **{sub: "LOCATION" for sub in CATEGORIES["LOCATION"] if sub != "HOSPITAL"},
        **{sub: "ID" for sub in CATEGORIES["ID"]},
    }
)

#: PhysioNet deid gold-standard categories -> our subtypes. Relatives and proxies are
#: PATIENT, as in the 2014 guidelines (names of people other than care providers);
#: deid's "Other" holds identifying numbers and codes, hence IDNUM.
FROM_PHYSIONET: Mapping[str, str] = MappingProxyType(
    {
        "PTName": "PATIENT",
        "PTNameInitial": "PATIENT",
        "RelativeProxyName": "PATIENT",
        "HCPName": "DOCTOR",
        "Date": "DATE",
        "DateYear": "DATE",
        "Location": "LOCATION-OTHER",
        "Phone": "PHONE",
        "Age": "AGE",
        "Other": "IDNUM",
    }
)

#: Presidio entity names -> our subtypes. PERSON cannot tell patients from clinicians;
#: PATIENT is the protective choice. Entities that are not PHI under the 2014
#: guidelines (NRP: nationality, religion, political group) map to None and are dropped.
FROM_PRESIDIO: Mapping[str, str | None] = MappingProxyType(
    {
        "PERSON": "PATIENT",
        "LOCATION": "LOCATION-OTHER",
        "ORGANIZATION": "ORGANIZATION",
        "DATE_TIME": "DATE",
        "AGE": "AGE",
        "PHONE_NUMBER": "PHONE",
        "EMAIL_ADDRESS": "EMAIL",
        "URL": "URL",
        "IP_ADDRESS": "IPADDR",
        "US_SSN": "SSN",
        "US_ITIN": "IDNUM",
        "US_PASSPORT": "IDNUM",
        "US_DRIVER_LICENSE": "LICENSE",
        "MEDICAL_LICENSE": "LICENSE",
        "US_BANK_NUMBER": "ACCOUNT",
        "IBAN_CODE": "ACCOUNT",
        "CREDIT_CARD": "ACCOUNT",
        "CRYPTO": "ACCOUNT",
        "NRP": None,
    }
)

#: named label schemes, for readers that meet foreign labels (``--labels`` on the CLI)
SCHEMES: Mapping[str, Mapping[str, str | None]] = MappingProxyType(
    {
        "i2b2-2014": MappingProxyType({sub: sub for sub in SUBTYPES}),
        "i2b2-2006": FROM_I2B2_2006,
        "physionet": FROM_PHYSIONET,
        "presidio": FROM_PRESIDIO,
    }
)


def category_of(label: str) -> str:
    """The category of a subtype; raises LabelError for an unknown label."""
    try:
        return CATEGORY_OF[label]
    except KeyError:
        raise LabelError(f"unknown label {label!r}") from None


def is_hipaa(label: str) -> bool:
    """Whether the official scorer counts this subtype in its HIPAA figures."""
    return label in HIPAA


def map_label(label: str, scheme: str = "i2b2-2014") -> str | None:
    """Map a label of a named scheme to our subtype (None: not PHI, drop it)."""
    try:
        table = SCHEMES[scheme]
    except KeyError:
        raise LabelError(
            f"unknown label scheme {scheme!r}", hint=f"use one of {', '.join(SCHEMES)}"
        ) from None
    if label in table:
        return table[label]
    raise LabelError(f"label {label!r} is not in the {scheme} scheme")
