"""One surrogate for one (label, original, patient): the dispatch over the modules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from phiscrub.errors import UsageError
from phiscrub.surrogate.ages import AgeCap, age_surrogate
from phiscrub.surrogate.contact import email_surrogate, ip_surrogate, url_surrogate
from phiscrub.surrogate.dates import DateShift, Order, date_surrogate, patient_offset
from phiscrub.surrogate.keys import MIN_KEY_BYTES, Chooser, SurrogateKeyError, digest, normalize
from phiscrub.surrogate.names import name_surrogate, username_surrogate
from phiscrub.surrogate.numbers import number_surrogate
from phiscrub.surrogate.places import (
    LIST_FILES,
    department_surrogate,
    hospital_surrogate,
    list_surrogate,
    state_surrogate,
    street_surrogate,
)
from phiscrub.surrogate.shape import shape_surrogate
from phiscrub.taxonomy import CATEGORIES

#: the scope used instead of a patient id for clinicians with ``clinician_scope="corpus"``
CORPUS_SCOPE = "\x00corpus"
NUMBER_LABELS = frozenset({"PHONE", "FAX", "ZIP", "ROOM", *CATEGORIES["ID"]})
CLINICIAN_LABELS = frozenset({"DOCTOR", "USERNAME"})

Maker = Callable[[bytes, str, str, str], str]


@dataclass(frozen=True, slots=True)
class SurrogateOptions:
    """How surrogates are made.

    ``date_shift``: the range of the per-patient offset; ``date_order``: how ambiguous
    numeric dates are read (``mdy``: US month first); ``age_cap``: what ages >= 90
    become; ``clinician_scope``: ``patient`` (a clinician's surrogate is consistent
    within a patient's notes) or ``corpus`` (the same in every note of the corpus);
    ``cap_birth_dates``: move dates of birth that reveal an age over 89 (see
    ``birth.py``); ``reference_year``: the year those ages are measured at when it is
    later than the note's latest full date (e.g. the last year of the corpus).
    """

    date_shift: DateShift = field(default_factory=DateShift)
    date_order: Order = "mdy"
    age_cap: AgeCap = "90"
    clinician_scope: Literal["patient", "corpus"] = "patient"
    cap_birth_dates: bool = True
    reference_year: int | None = None

    def __post_init__(self) -> None:
        if self.date_order not in ("mdy", "dmy"):
            raise UsageError(f"unknown date order {self.date_order!r}", hint="use mdy or dmy")
        if self.age_cap not in ("90", "90+"):
            raise UsageError(f"unknown age cap {self.age_cap!r}", hint="use 90 or 90+")
        if self.clinician_scope not in ("patient", "corpus"):
            raise UsageError(
                f"unknown clinician scope {self.clinician_scope!r}", hint="use patient or corpus"
            )
        if self.reference_year is not None and not 1 <= self.reference_year <= 9999:
            raise UsageError(f"reference year {self.reference_year} is not a year")


def _other(key: bytes, scope: str, _label: str, text: str) -> str:
    return shape_surrogate(text, Chooser(digest(key, scope, "OTHER", normalize(text))))


def _table() -> dict[str, Maker]:
    table: dict[str, Maker] = {
        "PATIENT": lambda k, s, _l, t: name_surrogate(k, s, t),
        "DOCTOR": lambda k, s, _l, t: name_surrogate(k, s, t),
        "USERNAME": lambda k, s, _l, t: username_surrogate(k, s, t),
        "STATE": lambda k, s, _l, t: state_surrogate(k, s, t),
        "STREET": lambda k, s, _l, t: street_surrogate(k, s, t),
        "HOSPITAL": lambda k, s, _l, t: hospital_surrogate(k, s, t),
        "DEPARTMENT": lambda _k, _s, _l, t: department_surrogate(t),
        "EMAIL": lambda k, s, _l, t: email_surrogate(k, s, t),
        "URL": lambda k, s, _l, t: url_surrogate(k, s, t),
        "IPADDR": lambda k, s, _l, t: ip_surrogate(k, s, t),
        "OTHER": _other,
    }
    for label in LIST_FILES:
        table[label] = list_surrogate
    for label in NUMBER_LABELS:
        table[label] = number_surrogate
    return table


_MAKERS = _table()


class Surrogator:
    """Keyed surrogates for single values; pure apart from an in-process cache."""

    def __init__(self, key: bytes, options: SurrogateOptions | None = None) -> None:
        if not isinstance(key, bytes) or len(key) < MIN_KEY_BYTES:
            raise SurrogateKeyError(f"a surrogate key must be at least {MIN_KEY_BYTES} bytes")
        self._key = key
        self.options = options or SurrogateOptions()
        self._offset = lru_cache(maxsize=65536)(self._compute_offset)
        self._cached = lru_cache(maxsize=32768)(self._compute)

    def scope(self, label: str, patient_id: str) -> str:
        """The consistency scope of a label: the patient, or the corpus for clinicians."""
        if label in CLINICIAN_LABELS and self.options.clinician_scope == "corpus":
            return CORPUS_SCOPE
        return patient_id

    def offset(self, patient_id: str) -> int:
        """The patient's date offset in days."""
        return self._offset(patient_id)

    def _compute_offset(self, patient_id: str) -> int:
        return patient_offset(self._key, patient_id, self.options.date_shift)

    def surrogate(self, label: str, text: str, patient_id: str) -> tuple[str, bool]:
        """(surrogate, unparsed date?) for ``text`` labelled ``label`` in a patient's note."""
        return self._cached(label, text, patient_id)

    def _compute(self, label: str, text: str, patient_id: str) -> tuple[str, bool]:
        if label == "DATE":
            return date_surrogate(
                text, self.offset(patient_id), self._key, patient_id, self.options.date_order
            )
        if label == "AGE":
            return age_surrogate(text, self.options.age_cap), False
        maker = _MAKERS.get(label)
        if maker is None:
            raise UsageError(f"no surrogate generator for label {label!r}")
        out = maker(self._key, self.scope(label, patient_id), label, text)
        return (out or "___"), False
