"""Slot filling: ``{ENTITY.form}`` -> pieces of text, each with its label or None.

A slot may give several pieces (``{PATIENT.mr}`` gives ``Mr. `` unlabelled and the
surname labelled), so every labelled piece is exactly the gold span of the value it
inserts: titles, credentials and possessive ``'s`` stay outside (seed 004 Appendix A).
``FORMS`` lists every entity and form; the template bank is checked against it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from phiscrub.surrogate.lexicon import pairs
from phiscrub.surrogate.numbers import number_surrogate
from phiscrub.synth.dates import FULL_FORMATS, PARTIAL, render_full, render_partial
from phiscrub.synth.profile import Address, Person, Profile
from phiscrub.synth.rng import Rng
from phiscrub.synth.vocab import data_lines, data_table

Piece = tuple[str, str | None]
Pieces = list[Piece]

PEOPLE = {
    "PATIENT": "PATIENT",
    "REL1": "PATIENT",
    "REL2": "PATIENT",
    "REL3": "PATIENT",
    "DR": "DOCTOR",
    "PCP": "DOCTOR",
    "CONS": "DOCTOR",
    "RES": "DOCTOR",
    "RN": "DOCTOR",
}
NAME_FORMS = (
    "full",
    "name",
    "first",
    "last",
    "initlast",
    "inits",
    "lf",
    "LF",
    "LFS",
    "lfm",
    "lower",
    "upper",
    "initials",
)
_ANY = ("full", "name", "name", "last", "initlast", "inits", "lf", "LF", "first")
PERSON_FORMS = frozenset(
    {
        *NAME_FORMS,
        "any",
        "mr",
        "dr",
        "sig",
        "poss",
        "user",
        "email",
        "age",
        "job",
        "title",
        "he",
        "He",
        "his",
        "His",
        "him",
        "sex",
        "male",
        "man",
        "rel",
        "cred",
    }
)
ID_SLOTS = {
    "MRN": "MEDICALRECORD",
    "SSN": "SSN",
    "HEALTHPLAN": "HEALTHPLAN",
    "ACCOUNT": "ACCOUNT",
    "LICENSE": "LICENSE",
    "VEHICLE": "VEHICLE",
    "DEVICE": "DEVICE",
    "BIOID": "BIOID",
}
DATE_FORMS = frozenset({"dob", "admit", "disch", "visit", "past", "next", *PARTIAL})
NEG_FORMS = frozenset(
    {"time", "bp", "hr", "rr", "temp", "spo2", "wt", "dose", "frac", "score", "dept", "num", "lab"}
)
#: injected words (besides the patient's name) used as non-PHI in each ambiguous note
AMBIGUOUS_PER_NOTE = 2
ADDR_FORMS = frozenset({"street", "city", "state", "abbr", "zip", "line"})


@dataclass
class NoteContext:
    """What the slots of one note are filled from."""

    key: bytes
    profile: Profile
    rng: Rng
    note_date: dt.date
    admit_date: dt.date
    note_no: int
    house_format: str
    mode: str
    fresh: list[int] = field(default_factory=lambda: [0])


def _name(p: Person, form: str) -> str:
    mid = f" {p.middle[0]}." if p.middle else ""
    if form == "full":
        return f"{p.first}{mid} {p.last}"
    if form == "name":
        return f"{p.first} {p.last}"
    if form == "first":
        return p.first
    if form == "last":
        return p.last
    if form == "initlast":
        return f"{p.first[0]}. {p.last}"
    if form == "inits":
        return f"{p.first[0]}.{mid} {p.last}"
    if form == "lf":
        return f"{p.last}, {p.first}"
    if form == "LF":
        return f"{p.last},{p.first}".upper()
    if form == "LFS":
        return f"{p.last}, {p.first}".upper()
    if form == "lfm":
        return f"{p.last}, {p.first}{mid}"
    if form == "lower":
        return f"{p.first} {p.last}".lower()
    if form == "upper":
        return f"{p.first} {p.last}".upper()
    return (p.first[0] + p.middle[:1] + p.last[0]).upper()  # initials


_PRONOUNS = {
    "he": ("he", "she"),
    "He": ("He", "She"),
    "his": ("his", "her"),
    "His": ("His", "Her"),
    "him": ("him", "her"),
    "sex": ("M", "F"),
    "male": ("male", "female"),
    "man": ("man", "woman"),
}


def person(entity: str, form: str, ctx: NoteContext) -> Pieces:
    p = _who(entity, ctx.profile)
    label = PEOPLE[entity]
    if form in _PRONOUNS:
        return [(_PRONOUNS[form][p.sex == "F"], None)]
    if form == "any":
        form = ctx.rng.choice(_ANY)
    if form in NAME_FORMS:
        return [(_name(p, form), label)]
    return _person_extra(p, entity, form, label, ctx)


def _person_extra(p: Person, entity: str, form: str, label: str, ctx: NoteContext) -> Pieces:
    rng = ctx.rng
    if form == "title":
        return [(_title(p, entity, rng), None)]
    if form == "mr":
        return [(_title(p, entity, rng) + " ", None), (p.last, label)]
    if form == "dr":
        return [("Dr. ", None), (_name(p, rng.choice(("last", "last", "name", "initlast"))), label)]
    if form == "sig":
        name = _name(p, rng.choice(("full", "name", "initlast", "LFS")))
        return [(name, label), (", " + _cred(entity), None)]
    if form == "poss":
        return [(p.last, label), ("'s", None)]
    if form == "cred":
        return [(_cred(entity), None)]
    if form == "rel":
        return [(p.relation or "patient", None)]
    if form == "user":
        return [(p.user or _name(p, "initials").lower() + "1", "USERNAME")]
    if form == "email":
        return [(p.email or ctx.profile.email, "EMAIL")]
    if form == "age":
        return [
            (
                str(_age(ctx.profile.dob, ctx.note_date)) if entity == "PATIENT" else str(p.age),
                "AGE",
            )
        ]
    return [(p.job or ctx.profile.profession, "PROFESSION")]  # job


def _who(entity: str, profile: Profile) -> Person:
    if entity == "PATIENT":
        return profile.person
    if entity.startswith("REL"):
        return profile.relatives[int(entity[3]) - 1]
    return profile.clinicians[entity]


def _title(p: Person, entity: str, rng: Rng) -> str:
    if PEOPLE[entity] == "DOCTOR" and entity != "RN":
        return "Dr."
    return "Mr." if p.sex == "M" else rng.choice(("Ms.", "Mrs.", "Ms."))


def _cred(entity: str) -> str:
    return {"RN": "RN", "RES": "MD", "PCP": "MD"}.get(entity, "MD")


def _age(dob: dt.date, on: dt.date) -> int:
    return on.year - dob.year - ((on.month, on.day) < (dob.month, dob.day))


def date(_entity: str, form: str, ctx: NoteContext) -> Pieces:
    rng, day = ctx.rng, ctx.note_date
    if form == "dob":
        day = ctx.profile.dob
    elif form == "admit":
        day = ctx.admit_date
    elif form == "past":
        day = day - dt.timedelta(days=rng.between(7, 3000))
    elif form == "next":
        day = day + dt.timedelta(days=rng.between(3, 120))
    elif form in PARTIAL:
        if form == "decade":
            day = ctx.profile.dob + dt.timedelta(days=365 * rng.between(15, 40))
        elif rng.chance(50):
            day = day - dt.timedelta(days=rng.between(1, 800))
        return [(render_partial(day, form, rng), "DATE")]
    fmt = ctx.house_format if rng.chance(60) else rng.choice(FULL_FORMATS)
    return [(render_full(day, fmt), "DATE")]


def ident(entity: str, form: str, ctx: NoteContext) -> Pieces:
    if entity == "IDNUM":
        ctx.fresh[0] += 1
        models = [m for lab, m in data_table("shapes.txt") if lab == "IDNUM"]
        scope = f"{ctx.profile.pid}/{ctx.note_no}/{ctx.fresh[0]}"
        return [(number_surrogate(ctx.key, scope, "IDNUM", ctx.rng.choice(models)), "IDNUM")]
    label = ID_SLOTS[entity]
    return [(ctx.profile.ids[label], label)]


def contact(entity: str, form: str, ctx: NoteContext) -> Pieces:
    p = ctx.profile
    if entity == "FAX":
        return [(p.fax, "FAX")]
    if entity == "EMAIL":
        return [(p.email, "EMAIL")]
    if entity == "URL":
        return [(p.url, "URL")]
    if entity == "IPADDR":
        return [(p.ip, "IPADDR")]
    value = {"": p.phone, "cell": p.cell, "clinic": p.clinic_phone, "pager": p.pager}[form]
    return [(value, "PHONE")]


def address(entity: str, form: str, ctx: NoteContext) -> Pieces:
    a: Address = ctx.profile.address if entity == "ADDR" else ctx.profile.hospital_address
    if form == "line":
        return [
            (a.street, "STREET"),
            (", ", None),
            (a.city, "CITY"),
            (", ", None),
            (a.state_abbr, "STATE"),
            ("  " if ctx.rng.chance(20) else " ", None),
            (a.zip, "ZIP"),
        ]
    if form == "state":
        return [(a.state if ctx.rng.chance(60) else a.state_abbr, "STATE")]
    value = {"street": a.street, "city": a.city, "abbr": a.state_abbr, "zip": a.zip}[form]
    return [(value, {"abbr": "STATE"}.get(form, form.upper()))]


def place(entity: str, form: str, ctx: NoteContext) -> Pieces:
    p = ctx.profile
    if entity == "HOSPITAL":
        value = {
            "": p.hospital,
            "acr": p.hospital_acronym,
            "osh": p.other_hospitals[0],
            "other": p.other_hospitals[1],
        }[form]
        return [(value, "HOSPITAL")]
    if entity == "ORG":
        return [(p.employer if form == "employer" else p.school, "ORGANIZATION")]
    values = {
        "DEPT": (p.department, "DEPARTMENT"),
        "ROOM": (p.room, "ROOM"),
        "PROFESSION": (p.profession, "PROFESSION"),
        "PLACE": (p.place, "LOCATION-OTHER"),
        "COUNTRY": (p.country, "COUNTRY"),
        "ORIGIN": (p.origin_city, "CITY"),
    }
    return [values[entity]]


def age(_entity: str, _form: str, ctx: NoteContext) -> Pieces:
    return [(str(_age(ctx.profile.dob, ctx.note_date)), "AGE")]


def negative(_entity: str, form: str, ctx: NoteContext) -> Pieces:
    """Hard negatives: numbers that look like PHI and are not."""
    r = ctx.rng
    values: dict[str, Callable[[], str]] = {
        "time": lambda: r.choice(
            (
                f"{r.between(0, 23):02d}:{r.choice(('00', '15', '30', '45'))}",
                f"{r.between(1, 12)}:{r.between(10, 59)} {r.choice(('AM', 'PM'))}",
                f"{r.between(0, 23):02d}{r.choice(('00', '30'))}",
            )
        ),
        "bp": lambda: f"{r.between(88, 190)}/{r.between(48, 110)}",
        "hr": lambda: str(r.between(48, 135)),
        "rr": lambda: str(r.between(10, 32)),
        "temp": lambda: f"{r.between(96, 103)}.{r.below(10)}",
        "spo2": lambda: f"{r.between(86, 100)}%",
        "wt": lambda: f"{r.between(3, 140)}.{r.below(10)} kg",
        "dose": lambda: r.choice(data_lines("doses.txt")),
        "frac": lambda: r.choice(("2/2", "1/2", "3/5", "4/5", "5/5", "1/3", "2/3", "0/10", "7/10")),
        "score": lambda: r.choice(data_lines("scores.txt")).replace("#", str(r.between(0, 15))),
        "dept": lambda: r.choice(pairs("departments.txt"))[1],
        "num": lambda: str(r.between(1, 400)),
        "lab": lambda: f"{r.between(1, 250)}.{r.below(10)}",
    }
    return [(values[form](), None)]


def ambiguous(_entity: str, _form: str, ctx: NoteContext) -> Pieces:
    """Ambiguous mode: sentences that use injected words as non-PHI: always those of the
    patient's own name ("Mr. Huntington ... Huntington's disease"), and two of the
    patient's other injected words (clinicians, family, places)."""
    words = ctx.profile.ambiguous
    if ctx.mode != "ambiguous" or not words:
        return []
    person = ctx.profile.person
    own = {person.first, person.middle, person.last}
    picked = [w for w in words if w.word in own]
    picked += ctx.rng.sample([w for w in words if w.word not in own], AMBIGUOUS_PER_NOTE)
    return [(" ".join(w.context for w in picked), None)]


_ALL = frozenset({""})
#: entity -> (resolver, allowed forms)
SLOTS: dict[str, tuple[Callable[[str, str, NoteContext], Pieces], frozenset[str]]] = {
    **{e: (person, PERSON_FORMS) for e in PEOPLE},
    **{e: (ident, _ALL) for e in (*ID_SLOTS, "IDNUM")},
    "PHONE": (contact, frozenset({"", "cell", "clinic", "pager"})),
    **{e: (contact, _ALL) for e in ("FAX", "EMAIL", "URL", "IPADDR")},
    "ADDR": (address, ADDR_FORMS),
    "HADDR": (address, ADDR_FORMS),
    "HOSPITAL": (place, frozenset({"", "acr", "osh", "other"})),
    "ORG": (place, frozenset({"employer", "school"})),
    **{e: (place, _ALL) for e in ("DEPT", "ROOM", "PROFESSION", "PLACE", "COUNTRY", "ORIGIN")},
    "AGE": (age, _ALL),
    "DATE": (date, DATE_FORMS),
    "NEG": (negative, NEG_FORMS),
    "AMBIG": (ambiguous, _ALL),
}


def check_slot(entity: str, form: str) -> bool:
    """Whether ``{entity.form}`` is a slot this module can fill."""
    found = SLOTS.get(entity)
    return found is not None and form in found[1]


def fill(entity: str, form: str, ctx: NoteContext) -> Pieces:
    return SLOTS[entity][0](entity, form, ctx)
