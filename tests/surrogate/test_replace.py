"""The replacer: modes, keep, overlaps, carried-over spans, errors."""

from __future__ import annotations

import itertools

import pytest

from phiscrub.errors import SpanError, UsageError
from phiscrub.span import Document, Span
from phiscrub.surrogate import Replacer, SurrogateKeyError, SurrogateOptions, resolve_overlaps

KEY = b"k" * 32
TEXT = "Pt John Smith seen 04/05/2069 at\nMGH; age 93.\n"


def spans() -> list[Span]:
    return [
        Span.of(TEXT, 3, 13, "PATIENT"),
        Span.of(TEXT, 19, 29, "DATE"),
        Span.of(TEXT, 33, 36, "HOSPITAL"),
        Span.of(TEXT, 42, 44, "AGE"),
    ]


def doc() -> Document:
    return Document("n1", TEXT, "p1")


def check_spans(text: str, out: tuple[Span, ...]) -> None:
    for span in out:
        assert text[span.start : span.end] == span.text
    assert all(a.end <= b.start for a, b in itertools.pairwise(out))


def test_surrogate_mode() -> None:
    result = Replacer(key=KEY, audit=True).replace(doc(), spans())
    check_spans(result.text, result.spans)
    assert [s.label for s in result.spans] == ["PATIENT", "DATE", "HOSPITAL", "AGE"]
    assert result.spans[3].text == "90" and result.unparsed_dates == 0
    assert [a[1] for a in result.audit] == ["John Smith", "04/05/2069", "MGH", "93"]
    assert "John" not in result.text and "04/05/2069" not in result.text
    assert result.text.endswith(";" + " age 90.\n") and "\n" in result.text


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("tag", "Pt [**PATIENT**] seen [**DATE**] at\n[**HOSPITAL**]; age [**AGE**].\n"),
        ("redact", "Pt **** ***** seen ********** at\n***; age **.\n"),
        ("placeholder", "Pt ___ seen ___ at\n___; age ___.\n"),
    ],
)
def test_other_modes(mode: str, expected: str) -> None:
    result = Replacer(mode).replace(doc(), spans())  # type: ignore[arg-type]
    assert result.text == expected and not result.audit
    check_spans(result.text, result.spans)


def test_keep_labels_and_categories() -> None:
    result = Replacer("tag", keep={"AGE", "LOCATION"}).replace(doc(), spans())
    assert result.text == "Pt [**PATIENT**] seen [**DATE**] at\nMGH; age 93.\n"
    assert [s.label for s in result.spans] == ["PATIENT", "DATE", "HOSPITAL", "AGE"]
    with pytest.raises(UsageError):
        Replacer("tag", keep={"NOPE"})


def test_overlaps_keep_the_longer_span() -> None:
    over = [*spans(), Span.of(TEXT, 8, 13, "DOCTOR"), Span.of(TEXT, 3, 7, "PATIENT")]
    kept = resolve_overlaps(over)
    assert kept == sorted(spans())
    result = Replacer("tag").replace(doc(), over)
    assert result.text.startswith("Pt [**PATIENT**] seen")


def test_inputs_are_not_modified_and_output_is_pure() -> None:
    d, s = doc(), spans()
    replacer = Replacer(key=KEY)
    first = replacer.replace(d, s)
    assert d.text == TEXT and s == spans()
    assert replacer.replace(d, list(reversed(s))) == first
    assert Replacer(key=KEY).replace(d, s) == first


def test_errors() -> None:
    with pytest.raises(SurrogateKeyError):
        Replacer("surrogate")
    with pytest.raises(UsageError):
        Replacer("shred")  # type: ignore[arg-type]
    bad = Span(0, 2, "PATIENT", "xx")
    with pytest.raises(SpanError) as info:
        Replacer("tag").replace(doc(), [bad])
    assert "xx" not in str(info.value)


def test_clinician_scope_corpus() -> None:
    text = "Dr. Kathleen Ireland"
    span = [Span.of(text, 4, 20, "DOCTOR")]
    per_patient = Replacer(key=KEY)
    corpus = Replacer(key=KEY, options=SurrogateOptions(clinician_scope="corpus"))
    outs = {corpus.replace(Document(f"d{i}", text, f"p{i}"), span).text for i in range(10)}
    assert len(outs) == 1
    outs = {per_patient.replace(Document(f"d{i}", text, f"p{i}"), span).text for i in range(10)}
    assert len(outs) > 1


def test_unparsed_dates_are_counted() -> None:
    text = "on the day after surgery"
    result = Replacer(key=KEY).replace(Document("d", text), [Span.of(text, 3, 16, "DATE")])
    assert result.unparsed_dates == 1 and "the day after" not in result.text
