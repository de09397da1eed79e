"""name_joins: the pieces of one person's name made one span."""

from __future__ import annotations

from phiscrub.taggers.hybrid_joins import name_joins
from phiscrub.taggers.hybrid_words import not_a_title_or_role

from .spans import at as span


def test_two_name_pieces_side_by_side_are_one_name_with_the_rules_label() -> None:
    text = "Dr Cathal Ó Súilleabháin; registrar Mr Tomás Ó Briain; Outreach worker Dez Marquez"
    spans = [
        span(text, "Cathal", "DOCTOR", "rules.name:title_doctor"),
        span(text, "Ó Súilleabháin", "DOCTOR", "crf.all"),
        span(text, "Tomás", "DOCTOR", "hybrid.correct:role"),
        span(text, "Ó Briain", "PATIENT", "crf.all"),  # the CRF's label loses
        span(text, "Outreach worker", "DOCTOR", "crf.all"),  # a role: nobody's name
        span(text, "Dez Marquez", "PATIENT", "crf.all"),
    ]
    out = name_joins(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Cathal Ó Súilleabháin", "DOCTOR"),
        ("Tomás Ó Briain", "DOCTOR"),
        ("Outreach worker", "DOCTOR"),
        ("Dez Marquez", "PATIENT"),
    ]


def test_an_initial_after_a_title_or_after_a_surname_and_comma_belongs_to_the_name() -> None:
    text = "Dr H Marchbanks\ncc Mrs A McAvoy; Crew: Haskell, R (Paramedic); Smith, I think"
    spans = [
        span(text, "H", "ORGANIZATION", "crf.all"),
        span(text, "Marchbanks", "DOCTOR", "rules.propagate:name"),
        span(text, "McAvoy", "PATIENT", "rules.propagate:name"),
        span(text, "Haskell", "DOCTOR", "rules.name:role_trigger"),
        span(text, "Smith", "PATIENT", "crf.all"),
    ]
    out = name_joins(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("H Marchbanks", "DOCTOR"),  # the CRF's span on the initial alone goes
        ("A McAvoy", "PATIENT"),
        ("Haskell, R", "DOCTOR"),
        ("Smith", "PATIENT"),
    ]


def test_a_name_is_cut_at_a_line_break() -> None:
    text = "called in per Dr M.\nSue Bragdon, RN"
    out = name_joins(text, [span(text, "M.\nSue Bragdon", "DOCTOR", "rules.name:credentials")])
    assert [(s.text, s.label) for s in out] == [("M", "DOCTOR"), ("Sue Bragdon", "DOCTOR")]


def test_titles_roles_and_english_words_are_no_name_pieces() -> None:
    assert not not_a_title_or_role("Mrs")
    assert not not_a_title_or_role("DR.")
    assert not not_a_title_or_role("Outreach worker")
    assert not_a_title_or_role("ap Dafydd")
    assert not_a_title_or_role("O")
