"""Generated notes for the property tests and the benchmark: templates with PHI slots."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from phiscrub.span import Document, Span

FIRST = ("John", "Mary", "Angie", "Dennis", "Kathleen", "Robert", "Linda", "Xavier", "Zoe")
LAST = ("Smith", "Ferrerro", "Holcomb", "Ireland", "Petty", "Nguyen", "Oconnor", "Quinn")
DATE_FORMATS = ("%m/%d/%Y", "%Y-%m-%d", "%d-%b-%Y", "%B %d, %Y")


@dataclass(frozen=True)
class Person:
    first: str
    last: str


def build_note(
    doc_id: str,
    patient_id: str,
    person: Person,
    doctor: Person,
    dates: list[tuple[dt.date, str]],
    mrn: str,
    phone: str,
) -> Document:
    """One note: a header, the patient's name in two surface forms, dates, ids."""
    parts: list[tuple[str, str | None]] = [
        ("Record date: ", None),
        (dates[0][0].strftime(dates[0][1]), "DATE"),
        ("\nPatient: ", None),
        (f"{person.last.upper()},{person.first.upper()}", "PATIENT"),
        ("  MRN ", None),
        (mrn, "MEDICALRECORD"),
        ("\n\nMr. ", None),
        (person.last, "PATIENT"),
        (" was seen by Dr. ", None),
        (f"{doctor.first} {doctor.last}", "DOCTOR"),
        (". Call ", None),
        (phone, "PHONE"),
        (".\n", None),
    ]
    for day, fmt in dates[1:]:
        parts += [("Seen again on ", None), (day.strftime(fmt), "DATE"), (".\n", None)]
    parts += [(f"{person.first[0]}. {person.last}", "PATIENT"), (" signed.\r\n", None)]
    text, spans, pos = "", [], 0
    for chunk, label in parts:
        if label:
            spans.append(Span(pos, pos + len(chunk), label, chunk, "gen"))
        text += chunk
        pos += len(chunk)
    return Document(doc_id, text, patient_id, layers={"gold": spans})
