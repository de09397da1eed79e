"""The synthetic corpus: exact annotations, reproducibility, consistency, modes, I/O."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from phiscrub.cli import main
from phiscrub.io import read_corpus, write_corpus
from phiscrub.surrogate.dates import parse_date, shift_date
from phiscrub.synth import SynthNote, SynthOptions, documents, generate
from phiscrub.synth.generate import plan
from phiscrub.synth.profile import Person, Profile
from phiscrub.synth.vocab import ambiguous_lexicon, in_census

MODES = ("random", "ambiguous", "oov")
#: person forms that insert words that are not PHI (titles, pronouns, relations...)
PLAIN_FORMS = {"title", "he", "He", "his", "His", "him", "sex", "male", "man", "rel", "cred"}
#: the unlabelled pieces of compound forms (Mr. Smith, Dr. Smith, Smith, MD, Smith's)
PLAIN_PIECES = re.compile(r"(Mr\.|Ms\.|Mrs\.|Dr\.) |, (MD|RN)|'s|, | {1,2}")


@cache
def corpus(mode: str, n: int = 150, seed: str = "7") -> tuple[SynthNote, ...]:
    return tuple(generate(SynthOptions(n=n, mode=mode, seed=seed)))


def _people(p: Profile) -> list[Person]:
    return [p.person, *p.relatives, *p.clinicians.values()]


@pytest.mark.parametrize("mode", MODES)
def test_every_span_is_exactly_an_inserted_value(mode: str) -> None:
    for note in corpus(mode):
        doc = note.document
        labelled = [i for i in note.insertions if i.label is not None]
        assert [(s.start, s.end, s.label, s.text) for s in doc.gold] == sorted(
            (i.start, i.end, i.label, i.text) for i in labelled
        )
        for ins in note.insertions:
            assert doc.text[ins.start : ins.end] == ins.text
        ends = [(i.start, i.end) for i in note.insertions]
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(ends))


@pytest.mark.parametrize("mode", MODES)
def test_no_inserted_value_is_left_unannotated(mode: str) -> None:
    for note in corpus(mode):
        for ins in note.insertions:
            if ins.label is not None or ins.entity in ("NEG", "AMBIG"):
                continue
            assert ins.form in PLAIN_FORMS or PLAIN_PIECES.fullmatch(ins.text), ins


def _blanked(note: SynthNote) -> str:
    text = note.document.text
    for s in note.document.gold:
        text = text[: s.start] + " " * (s.end - s.start) + text[s.end :]
    return text


@pytest.mark.parametrize("mode", MODES)
def test_no_identifier_of_the_patient_outside_the_spans(mode: str) -> None:
    """An independent check: blank every gold span, no identifier of the profile is left."""
    for note in corpus(mode):
        p, rest = note.profile, _blanked(note)
        values = [
            *p.ids.values(),
            p.phone,
            p.cell,
            p.email,
            p.url,
            p.ip,
            p.fax,
            p.pager,
            p.clinic_phone,
            p.address.street,
            p.address.zip,
            p.hospital,
        ]
        for value in (v for v in values if len(v) >= 5):
            pattern = rf"(?<!\w){re.escape(value)}(?!\w)"
            assert not re.search(pattern, rest), (note.document.id, value)


def test_oov_names_never_occur_outside_the_spans() -> None:
    for note in corpus("oov"):
        rest = _blanked(note)
        for person in _people(note.profile):
            for part in (person.first, person.last):
                if len(part) >= 4:
                    assert not re.search(rf"\b{part}\b", rest), (note.document.id, part)


def test_same_seed_same_bytes_and_another_seed_differs(tmp_path: Path) -> None:
    for name in ("a", "b"):
        write_corpus(documents(SynthOptions(n=40, seed="s1")), tmp_path / name, format="i2b2-2014")
    write_corpus(documents(SynthOptions(n=40, seed="s2")), tmp_path / "c", format="i2b2-2014")
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "b").iterdir()) and len(files) == 40
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    differ = [
        (tmp_path / "a" / n).read_bytes() != (tmp_path / "c" / n).read_bytes()
        for n in files
        if (tmp_path / "c" / n).exists()
    ]
    assert differ and all(differ)


@pytest.mark.parametrize("mode", MODES)
def test_notes_of_a_patient_agree(mode: str) -> None:
    by_patient: dict[str, list[SynthNote]] = defaultdict(list)
    for note in corpus(mode):
        by_patient[note.document.patient_id].append(note)
    assert any(len(v) > 1 for v in by_patient.values())
    for pid, notes in by_patient.items():
        assert len({id(n.profile) for n in notes}) == 1 or len({n.profile for n in notes}) == 1
        seen: dict[tuple[str, str], set[str]] = defaultdict(set)
        for note in notes:
            assert note.document.id.startswith(pid + "-")
            for ins in note.insertions:
                if ins.form in ("last", "LF", "LFS", "dob") or ins.entity in ("MRN", "SSN"):
                    value = ins.text
                    if ins.form == "dob":
                        parsed = parse_date(ins.text)
                        assert parsed is not None
                        value = f"{parsed.year % 100}-{parsed.month}-{parsed.day}"
                    seen[ins.entity, ins.form].add(value)
        assert all(len(v) == 1 for v in seen.values()), (pid, seen)


def test_ambiguous_mode_draws_names_from_the_list_and_uses_them_as_non_phi() -> None:
    words = ambiguous_lexicon()
    notes = corpus("ambiguous")
    plain = " ".join(_blanked(n) for n in notes).lower()
    used = {w.word.lower() for n in notes for w in n.profile.ambiguous}
    for note in notes:
        p = note.profile
        for person in _people(p):
            assert person.first.lower() in words and person.last.lower() in words
        assert p.address.city.lower() in words and p.hospital.split()[0].lower() in words
        own = _blanked(note).lower()  # the patient's own name is used as non-PHI in the note
        for part in (p.person.first, p.person.last):
            assert re.search(rf"\b{part.lower()}\b", own), part
    covered = [w for w in used if re.search(rf"\b{w}\b", plain)]
    assert len(covered) >= 0.9 * len(used)


def test_oov_mode_names_are_in_no_list() -> None:
    for note in corpus("oov"):
        for person in _people(note.profile):
            for part in (person.first, person.last):
                assert not in_census(part) and part.lower() not in ambiguous_lexicon()


def test_random_mode_names_come_from_the_census() -> None:
    for note in corpus("random"):
        for person in _people(note.profile):
            assert in_census(person.first) and in_census(person.last)


@pytest.mark.parametrize("mode", MODES)
def test_every_date_is_one_the_surrogate_engine_can_shift(mode: str) -> None:
    dates = {s.text for n in corpus(mode) for s in n.document.gold if s.label == "DATE"}
    assert len(dates) > 100
    assert [d for d in dates if shift_date(d, 45) is None] == []


@pytest.mark.parametrize("fmt", ["i2b2-2014", "jsonl"])
def test_output_reads_back(tmp_path: Path, fmt: str) -> None:
    docs = [n.document for n in corpus("ambiguous")]
    target = tmp_path / ("out" if fmt == "i2b2-2014" else "out.jsonl")
    write_corpus(docs, target, format=fmt)
    back = read_corpus(target, format=fmt)
    assert not back.skipped
    got = {d.id: (d.patient_id, d.text, d.gold) for d in back.documents}
    for doc in docs:
        pid, text, gold = got[doc.id]
        assert (pid, text) == (doc.patient_id, doc.text)
        assert [(s.start, s.end, s.label) for s in gold] == [
            (s.start, s.end, s.label) for s in doc.gold
        ]


def test_every_kind_of_note_and_many_subtypes() -> None:
    notes = corpus("random", 400)
    assert len({n.kind for n in notes}) == 13
    labels = {s.label for n in notes for s in n.document.gold}
    assert len(labels) >= 28


def test_plan_with_patients() -> None:
    assert plan(SynthOptions(n=10, patients=4)) == [3, 3, 2, 2]
    assert sum(plan(SynthOptions(n=101, seed=3))) == 101
    ids = {d.patient_id for d in documents(SynthOptions(n=10, patients=4))}
    assert len(ids) == 4


def test_cli_writes_i2b2_files(tmp_path: Path) -> None:
    assert main(["synth", "-n", "6", "-o", str(tmp_path / "x"), "--mode", "oov"]) == 0
    names = sorted(p.name for p in (tmp_path / "x").iterdir())
    assert len(names) == 6 and all(re.fullmatch(r"\d{4}-\d{2}\.xml", n) for n in names)
    assert main(["synth", "-n", "6", "-o", str(tmp_path / "j"), "--format", "jsonl"]) == 0
    assert len(read_corpus(tmp_path / "j" / "synth.jsonl").documents) == 6


def test_every_ambiguous_word_occurs_in_its_own_context_sentence() -> None:
    from phiscrub.synth.vocab import ambiguous_words

    words = ambiguous_words()
    assert len(words) >= 100 and len({w.word for w in words}) == len(words)
    for w in words:
        assert re.search(rf"\b{w.word}\b", w.context, re.IGNORECASE), w.word
        assert set(w.kinds.split(",")) <= {"f", "l", "p"}
