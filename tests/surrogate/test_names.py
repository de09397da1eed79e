"""Name surrogates: letter mapping, gender, surface forms, partial mentions."""

from __future__ import annotations

import pytest

from phiscrub.surrogate.names import (
    census,
    letter_map,
    name_kind,
    name_surrogate,
    part_surrogate,
    username_surrogate,
)

KEY = b"k" * 32
P = "patient-1"


def sur(text: str, scope: str = P) -> str:
    return name_surrogate(KEY, scope, text)


def test_letter_map_is_a_keyed_permutation() -> None:
    mapping = letter_map(KEY, P)
    assert sorted(mapping) == sorted(mapping.values()) == [chr(c) for c in range(65, 91)]
    assert letter_map(KEY, P) == mapping
    assert any(letter_map(KEY, f"other{i}") != mapping for i in range(3))


def test_surrogate_starts_with_the_mapped_letter() -> None:
    mapping = letter_map(KEY, P)
    for name in ("Angie", "Ferrerro", "John", "Smith", "Xavier", "Quinn", "Yolanda", "Ulrich"):
        assert sur(name)[0] == mapping[name[0]]


def test_gender_is_kept_for_first_names() -> None:
    freq = census().freq
    for name, gender in (
        ("John", "male"),
        ("Dennis", "male"),
        ("Angie", "female"),
        ("Mary", "female"),
    ):
        assert name_kind(name) == gender
        assert sur(name).upper() in freq[gender]
    assert name_kind("Smith") == "last" and sur("Smith").upper() in freq["last"]


# (mention of John Smith, expected form of the surrogate: {f} first name, {s} surname)
SURFACE_FORMS = [
    ("John Smith", "{f} {s}"),
    ("JOHN SMITH", "{F} {S}"),
    ("john smith", "{fl} {sl}"),
    ("SMITH,JOHN", "{S},{F}"),
    ("Smith, John", "{s}, {f}"),
    ("J. Smith", "{i}. {s}"),
    ("J Smith", "{i} {s}"),
    ("Mr. Smith", "Mr. {s}"),
    ("MR. SMITH", "MR. {S}"),
    ("Dr. John Smith, MD", "Dr. {f} {s}, MD"),
    ("Smith's", "{s}'s"),
    ("John", "{f}"),
    ("Smith", "{s}"),
    ("John  Smith", "{f}  {s}"),
]


@pytest.mark.parametrize(("mention", "expected"), SURFACE_FORMS)
def test_surface_forms_and_partial_mentions(mention: str, expected: str) -> None:
    first, last = sur("John"), sur("Smith")
    values = {"f": first, "s": last, "F": first.upper(), "S": last.upper()}
    values |= {"fl": first.lower(), "sl": last.lower(), "i": first[0]}
    assert sur(mention) == expected.format(**values)


def test_middle_initial_goes_through_the_letter_mapping() -> None:
    out = sur("John K. Smith")
    assert out == f"{sur('John')} {letter_map(KEY, P)['K']}. {sur('Smith')}"


def test_hyphenated_names_become_two_hyphenated_parts() -> None:
    out = sur("Smith-Jones")
    assert out == f"{sur('Smith')}-{sur('Jones')}"


def test_initial_agrees_with_the_full_name_surrogate() -> None:
    for first in ("Angie", "Robert", "Kathleen", "Zoe"):
        assert sur(first[0] + ".")[0] == sur(first)[0]


def test_same_part_same_surrogate_different_patients_differ() -> None:
    assert part_surrogate(KEY, P, "Smith") == part_surrogate(KEY, P, "SMITH")
    others = {part_surrogate(KEY, f"p{i}", "Smith") for i in range(20)}
    assert len(others) > 1


def test_surrogate_differs_from_original() -> None:
    for i in range(200):
        assert sur("Smith", f"p{i}").lower() != "smith"


def test_username_keeps_initials_through_the_letter_mapping() -> None:
    out = username_surrogate(KEY, P, "KI30")
    assert out[:2] == sur("K.")[0] + sur("I.")[0]
    assert out[2:].isdigit() and len(out) == 4
    long = username_surrogate(KEY, P, "jsmith42")
    assert len(long) == 8 and long[:6].islower() and long[6:].isdigit() and long != "jsmith42"


def test_signature_initials_stay_initials() -> None:
    from phiscrub.surrogate.names import letter_map, name_surrogate

    key, scope = b"k" * 32, "patient-7"
    mapping = letter_map(key, scope)
    assert name_surrogate(key, scope, "POH") == "".join(mapping[c] for c in "POH")
    assert name_surrogate(key, scope, "lk") == "".join(mapping[c] for c in "LK").lower()
    # a short surname written in capitals is still a name, not initials
    lee = name_surrogate(key, scope, "LEE")
    assert lee.isupper() and lee[0] == mapping["L"]
