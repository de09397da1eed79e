"""The synthetic corpus: patients, their notes, and the notes' gold spans.

``generate(SynthOptions(n=1000, mode="ambiguous", seed=7))`` yields ``SynthNote``s
(the document and the record of its insertions); ``documents(...)`` the documents
alone. Everything is a pure function of the options: the corpus key is derived from
the seed, each patient's profile and each note from their own keyed stream.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from phiscrub.errors import UsageError
from phiscrub.span import Document
from phiscrub.synth.bank import load_bank
from phiscrub.synth.dates import FULL_FORMATS
from phiscrub.synth.profile import Profile, build_profile
from phiscrub.synth.render import Insertion, render_recipe
from phiscrub.synth.rng import Rng, derive_key
from phiscrub.synth.slots import NoteContext
from phiscrub.synth.vocab import MODES

#: how many notes a patient has when --patients is not given (drawn uniformly)
NOTES_PER_PATIENT = (1, 1, 2, 2, 3, 3, 4, 5)
#: kinds of note with an admission before the note's date
INPATIENT = frozenset({"discharge", "instructions"})


@dataclass(frozen=True, slots=True)
class SynthOptions:
    n: int
    mode: str = "random"
    seed: int | str = 0
    patients: int | None = None

    def __post_init__(self) -> None:
        if self.n < 1:
            raise UsageError("the number of notes must be at least 1")
        if self.mode not in MODES:
            raise UsageError(f"unknown mode {self.mode!r}", hint=f"use one of {', '.join(MODES)}")
        if self.patients is not None and not 1 <= self.patients <= self.n:
            raise UsageError("the number of patients must be between 1 and the number of notes")


@dataclass(frozen=True, slots=True)
class SynthNote:
    document: Document
    kind: str
    insertions: tuple[Insertion, ...]
    profile: Profile


def plan(options: SynthOptions) -> list[int]:
    """The number of notes of each patient (they sum to ``options.n``)."""
    if options.patients is not None:
        base, extra = divmod(options.n, options.patients)
        return [base + (i < extra) for i in range(options.patients)]
    rng = Rng.keyed(derive_key(options.seed), "\x00corpus", "plan")
    counts: list[int] = []
    left = options.n
    while left > 0:
        counts.append(min(left, rng.choice(NOTES_PER_PATIENT)))
        left -= counts[-1]
    return counts


def generate(options: SynthOptions) -> Iterator[SynthNote]:
    """The notes of the corpus, patient by patient, in order."""
    key = derive_key(options.seed)
    counts = plan(options)
    width = max(4, len(str(len(counts))))
    for number, count in enumerate(counts, 1):
        pid = f"{number:0{width}d}"
        yield from patient_notes(key, pid, count, options.mode)


def patient_notes(key: bytes, pid: str, count: int, mode: str) -> Iterator[SynthNote]:
    """The ``count`` notes of one patient."""
    bank = load_bank()
    kinds = sorted(bank.recipes)
    rng = Rng.keyed(key, pid, "visits")
    profile = build_profile(key, pid, mode, base_year=rng.between(2005, 2095))
    day = profile.first_visit
    for n in range(count):
        note_rng = Rng.keyed(key, pid, f"note{n}")
        kind = note_rng.choice(kinds)
        stay = note_rng.between(1, 14) if kind in INPATIENT else 0
        ctx = NoteContext(
            key,
            profile,
            note_rng,
            day,
            day - dt.timedelta(days=stay),
            n,
            note_rng.choice(FULL_FORMATS),
            mode,
        )
        out = render_recipe(bank, bank.recipes[kind], ctx)
        doc_id = f"{pid}-{n + 1:0{max(2, len(str(count)))}d}"
        meta = {"kind": kind, "mode": mode, "source": "phiscrub synth"}
        doc = Document(doc_id, out.result(), pid, meta, {"gold": out.spans()})
        yield SynthNote(doc, kind, tuple(out.insertions), profile)
        day += dt.timedelta(days=rng.between(2, 200))


def documents(options: SynthOptions) -> Iterator[Document]:
    for note in generate(options):
        yield note.document
