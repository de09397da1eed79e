"""Properties over generated notes: replaced text gone, keyed determinism, preserved
intervals, consistency across notes, orders and processes, spans matching the text."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phiscrub.span import Document
from phiscrub.surrogate import Replacement, Replacer

from .notes import DATE_FORMATS, FIRST, LAST, Person, build_note

KEY = b"k" * 32
OTHER_KEY = b"j" * 32

people = st.builds(Person, st.sampled_from(FIRST), st.sampled_from(LAST))
dates = st.lists(
    st.tuples(
        st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2080, 12, 31)),
        st.sampled_from(DATE_FORMATS),
    ),
    min_size=2,
    max_size=5,
)
digits = st.text("0123456789", min_size=7, max_size=7)


@st.composite
def patient_notes(draw: st.DrawFn) -> list[Document]:
    """Two to four notes of one patient (same name, doctor, MRN; different dates)."""
    patient_id = draw(st.text("abcdef0123", min_size=1, max_size=8))
    person, doctor = draw(people), draw(people)
    mrn, phone = draw(digits), "(617) 555-" + draw(digits)[:4]
    count = draw(st.integers(2, 4))
    return [
        build_note(f"{patient_id}-{i}", patient_id, person, doctor, draw(dates), mrn, phone)
        for i in range(count)
    ]


def run(notes: list[Document], key: bytes = KEY) -> list[Replacement]:
    replacer = Replacer(key=key)
    return [replacer.replace(n, n.gold) for n in notes]


def surrogate_map(notes: list[Document], results: list[Replacement]) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = defaultdict(set)
    for note, result in zip(notes, results, strict=True):
        for old, new in zip(note.gold, result.spans, strict=True):
            seen[f"{old.label}:{old.text}"].add(new.text)
    return seen


def _parse(text: str) -> dt.date:
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise AssertionError(f"not a generated date format: {text}")


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(patient_notes())
def test_replaced_text_is_gone_and_spans_match(notes: list[Document]) -> None:
    for note, result in zip(notes, run(notes), strict=True):
        assert len(result.spans) == len(note.gold)
        for old, new in zip(note.gold, result.spans, strict=True):
            assert result.text[new.start : new.end] == new.text
            assert new.label == old.label
            assert new.text != old.text
        assert "\r\n" in result.text and result.unparsed_dates == 0


@SETTINGS
@given(patient_notes())
def test_same_key_same_bytes_other_key_other_bytes(notes: list[Document]) -> None:
    first, again = run(notes), run(notes)
    assert [r.text for r in first] == [r.text for r in again]
    assert [r.text for r in first] != [r.text for r in run(notes, OTHER_KEY)]


@SETTINGS
@given(patient_notes())
def test_day_differences_between_full_dates_are_preserved(notes: list[Document]) -> None:
    before, after = [], []
    for note, result in zip(notes, run(notes), strict=True):
        for old, new in zip(note.gold, result.spans, strict=True):
            if old.label == "DATE":
                before.append(_parse(old.text))
                after.append(_parse(new.text))
    shift = {(b - a).days for a, b in zip(before, after, strict=True)}
    assert len(shift) == 1 and 0 not in shift


@SETTINGS
@given(patient_notes(), st.randoms())
def test_consistent_across_notes_and_orders(notes: list[Document], rnd: object) -> None:
    mapping = surrogate_map(notes, run(notes))
    assert all(len(v) == 1 for v in mapping.values())
    shuffled = list(notes)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert surrogate_map(shuffled, run(shuffled)) == mapping


_CHILD = """
import json, sys
from phiscrub.span import Document, Span
from phiscrub.surrogate import Replacer
items = json.loads(sys.stdin.read())
replacer = Replacer(key=b"k" * 32)
out = []
for pid, label, text in items:
    doc = Document("d", text, pid)
    out.append(replacer.replace(doc, [Span(0, len(text), label, text)]).text)
print(json.dumps(out))
"""


def test_same_surrogates_in_a_separate_process() -> None:
    items = [
        ("p1", "PATIENT", "John Smith"),
        ("p1", "DATE", "04/05/2069"),
        ("p2", "PATIENT", "SMITH, JOHN"),
        ("p1", "MEDICALRECORD", "833-12-06-0"),
        ("p1", "HOSPITAL", "Green Hospital"),
    ]
    here = []
    replacer = Replacer(key=KEY)
    for pid, label, text in reversed(items):
        from phiscrub.span import Span

        doc = Document("d", text, pid)
        here.append(replacer.replace(doc, [Span(0, len(text), label, text)]).text)
    child = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=json.dumps(items),
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )
    assert json.loads(child.stdout) == list(reversed(here))
