"""Restoring capitals in notes written all in lower case (taggers/truecase.py)."""

from __future__ import annotations

from phiscrub.span import Document, Span
from phiscrub.taggers import truecase

LOWER = (
    "social work note. met pt at bedside, wife chiara joined by phone from wauwatosa. "
    "kids staying with grandmother rosaria ferraro-kowalczyk. grace was calm. "
    "spoke with dr. halvorsen and d. okamura in the icu; continue rituximab per plan. "
) * 2


def test_only_notes_with_almost_no_capitals_are_lower_case() -> None:
    assert truecase.is_lower_case_note(LOWER)
    assert not truecase.is_lower_case_note(LOWER.title())
    assert not truecase.is_lower_case_note("short note, all lower")
    # Roman numeral signs are upper case but no letters: they count for neither
    assert truecase.is_lower_case_note(LOWER + "\u216b" * 40)
    assert not truecase.is_lower_case_note(LOWER + "XII" * 14)


def test_truecase_keeps_the_length_and_restores_names_titles_and_acronyms() -> None:
    out = truecase.truecase(LOWER)
    assert len(out) == len(LOWER) and out.lower() == LOWER
    for word in ("Social", "Met", "Chiara", "Wauwatosa", "Rosaria", "Ferraro-Kowalczyk",
                 "Dr.", "Halvorsen", "D. Okamura", "ICU"):  # fmt: skip
        assert word in out, word
    for word in (" pt ", " wife ", " rituximab ", " calm"):
        assert word in out, word
    assert "Grace was" in out  # a sentence start; "grace" inside a sentence stays lower
    assert truecase.truecase("we said grace.") == "We said grace."


def test_spans_found_on_the_proxy_get_the_original_text() -> None:
    doc = Document("n1", LOWER)
    proxy = truecase.proxy(doc)
    assert proxy is not doc and proxy.text != doc.text
    start = proxy.text.index("Chiara")
    found = [Span.of(proxy.text, start, start + 6, "PATIENT", "crf")]
    (back,) = truecase.restore(doc, found)
    assert back.text == "chiara"
    assert (back.start, back.end, back.label) == (start, start + 6, "PATIENT")
    ordinary = Document("n2", "Seen by Dr. Lee.")
    assert truecase.proxy(ordinary) is ordinary


def test_a_name_runs_on_to_the_institution_word_that_ends_it() -> None:
    out = truecase.truecase("claim went through milwaukee public educators trust today.")
    assert "Milwaukee Public Educators Trust today" in out
    out = truecase.truecase("she lives near milwaukee and the public library.")
    assert "Milwaukee and the public library" in out  # "and" ends the run
