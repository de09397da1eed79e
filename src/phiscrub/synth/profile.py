"""One synthetic patient: every value the notes of that patient share.

A profile is a pure function of (corpus key, patient id, mode): name, sex, birth date,
identifiers, address, family, job, clinicians, hospitals. Identifiers, phones and IP
addresses are drawn by the surrogate engine's keyed same-shape generators
(``number_surrogate``, ``ip_surrogate``) from the shape models of ``data/synth/shapes.txt``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from phiscrub.surrogate.contact import ip_surrogate
from phiscrub.surrogate.lexicon import lexicon, pairs
from phiscrub.surrogate.numbers import number_surrogate
from phiscrub.synth.rng import Rng
from phiscrub.synth.vocab import AmbiguousWord, Vocabulary, data_lines, data_table

RELATIONS = {
    "M": ("husband", "father", "son", "brother", "grandson", "partner"),
    "F": ("wife", "mother", "daughter", "sister", "granddaughter", "partner"),
}
CLINICIANS = ("DR", "PCP", "CONS", "RES", "RN")
CREDENTIALS = {"DR": "MD", "PCP": "MD", "CONS": "MD", "RES": "MD", "RN": "RN"}
ID_LABELS = (
    "MEDICALRECORD",
    "SSN",
    "HEALTHPLAN",
    "ACCOUNT",
    "LICENSE",
    "VEHICLE",
    "DEVICE",
    "BIOID",
)


@dataclass(frozen=True, slots=True)
class Person:
    first: str
    middle: str
    last: str
    sex: str  # "M" or "F"
    user: str = ""  # a user name (clinicians)
    email: str = ""
    relation: str = ""  # relatives: wife, son...
    age: int = 0  # relatives
    job: str = ""  # relatives


@dataclass(frozen=True, slots=True)
class Address:
    street: str
    city: str
    state: str
    state_abbr: str
    zip: str


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything the notes of one patient agree on."""

    pid: str
    person: Person
    dob: dt.date
    first_visit: dt.date
    ids: dict[str, str]
    phone: str
    cell: str
    email: str
    ip: str
    address: Address
    origin_city: str
    country: str
    profession: str
    employer: str
    school: str
    place: str
    relatives: tuple[Person, ...]
    clinicians: dict[str, Person]
    hospital: str
    hospital_acronym: str
    other_hospitals: tuple[str, ...]
    hospital_address: Address
    clinic_phone: str
    pager: str
    fax: str
    url: str
    department: str
    room: str
    ambiguous: tuple[AmbiguousWord, ...] = field(default=())


def _shape(key: bytes, scope: str, shape: str, rng: Rng) -> str:
    """A keyed value of one of the shape models listed for ``shape`` (PAGER: a phone)."""
    models = [m for lab, m in data_table("shapes.txt") if lab == shape]
    label = "PHONE" if shape == "PAGER" else shape
    return number_surrogate(key, scope, label, rng.choice(models))


def _person(vocab: Vocabulary, rng: Rng, sex: str | None = None) -> Person:
    sex = sex or rng.choice("MF")
    middle = vocab.first(sex) if rng.chance(60) else ""
    return Person(vocab.first(sex), middle, vocab.last(), sex)


def _clinician(vocab: Vocabulary, rng: Rng) -> Person:
    p = _person(vocab, rng)
    user = (p.first[0] + (p.middle[:1] or "") + p.last[0]).lower() + str(rng.between(1, 99))
    domain = rng.choice(data_lines("email_domains.txt"))
    email = f"{p.first[0]}{p.last}@{domain}".lower()
    return Person(p.first, p.middle, p.last, p.sex, user=user, email=email)


def _relative(vocab: Vocabulary, rng: Rng, patient: Person, age: int) -> Person:
    sex = rng.choice("MF")
    relation = rng.choice(RELATIONS[sex])
    same_name = relation not in ("partner",) and rng.chance(60)
    p = _person(vocab, rng, sex)
    last = patient.last if same_name else p.last
    rel_age = max(1, age + _age_gap(relation, rng))
    job = rng.choice(lexicon("professions.txt"))
    return Person(p.first, p.middle, last, sex, relation=relation, age=rel_age, job=job)


def _age_gap(relation: str, rng: Rng) -> int:
    if relation in ("mother", "father"):
        return rng.between(18, 40)
    if relation in ("son", "daughter"):
        return -rng.between(18, 40)
    if relation in ("grandson", "granddaughter"):
        return -rng.between(40, 60)
    return rng.between(-8, 8)


def _address(key: bytes, scope: str, vocab: Vocabulary, rng: Rng) -> Address:
    number = str(rng.between(1, 9999))
    full, abbr = rng.choice(pairs("street_suffixes.txt"))
    suffix = rng.choice((full, abbr, abbr + "."))
    street = f"{number} {vocab.street_name()} {suffix}"
    if rng.chance(25):
        street += rng.choice((", Apt ", " Apt. ", " #", ", Unit ")) + str(rng.between(1, 40))
    state, state_abbr = rng.choice(pairs("states.txt"))
    return Address(street, vocab.city(), state, state_abbr, _shape(key, scope, "ZIP", rng))


def _acronym(name: str) -> str:
    letters = "".join(w[0] for w in name.split() if w[0].isalpha() and w[0].isupper())
    return letters if len(letters) >= 2 else name[:3].upper()


def _draw_age(rng: Rng) -> int:
    """Children, adults, the elderly and a few patients over 89 (whose age is PHI to cap)."""
    low, high = rng.choice(((0, 17), (18, 89), (18, 89), (40, 89), (88, 104)))
    return rng.between(low, high)


def build_profile(key: bytes, pid: str, mode: str, base_year: int) -> Profile:
    """The profile of patient ``pid`` (first visit in ``base_year``)."""
    rng = Rng.keyed(key, pid, "profile")
    vocab = Vocabulary(mode, rng)
    person = _person(vocab, rng)
    first_visit = dt.date(base_year, 1, 1) + dt.timedelta(days=rng.below(365))
    age = _draw_age(rng)
    dob = first_visit - dt.timedelta(days=365 * age + rng.between(1, 364) + age // 4)
    ids = {label: _shape(key, pid, label, rng) for label in ID_LABELS}
    domain = rng.choice(data_lines("email_domains.txt"))
    hospital = vocab.hospital()
    clinicians = {role: _clinician(vocab, rng) for role in CLINICIANS}
    return Profile(
        pid=pid,
        person=person,
        dob=dob,
        first_visit=first_visit,
        ids=ids,
        phone=_shape(key, pid, "PHONE", rng),
        cell=_shape(key, pid + "/cell", "PHONE", rng),
        email=f"{person.first}.{person.last}{rng.between(1, 99)}@{domain}".lower(),
        ip=ip_surrogate(key, pid, rng.choice(("10.0.12.34", "192.168.1.20", "172.16.254.1"))),
        address=_address(key, pid, vocab, rng),
        origin_city=vocab.city(),
        country=rng.choice(lexicon("countries.txt")),
        profession=rng.choice(lexicon("professions.txt")),
        employer=vocab.organization("company"),
        school=vocab.organization("school"),
        place=vocab.other_location(),
        relatives=tuple(_relative(vocab, rng, person, age) for _ in range(3)),
        clinicians=clinicians,
        hospital=hospital,
        hospital_acronym=_acronym(hospital),
        other_hospitals=(vocab.hospital(), vocab.hospital()),
        hospital_address=_address(key, pid + "/hospital", vocab, rng),
        clinic_phone=_shape(key, pid + "/clinic", "PHONE", rng),
        pager=_shape(key, pid, "PAGER", rng),
        fax=_shape(key, pid, "FAX", rng),
        url=f"www.{_acronym(hospital).lower()}{rng.choice(data_lines('url_words.txt'))}.org",
        department=vocab.department(),
        room=_shape(key, pid, "ROOM", rng),
        ambiguous=tuple(vocab.used),
    )
