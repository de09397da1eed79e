"""The hybrid's correction of PROFESSION spans (made-up notes)."""

from __future__ import annotations

import re

import pytest

from phiscrub.detect.regex_shape import first_set
from phiscrub.span import Span
from phiscrub.taggers import hybrid_professions
from phiscrub.taggers.hybrid_professions import can_head_job, professions

from .spans import at


def _at(text: str, needle: str, label: str = "PROFESSION", source: str = "crf.all") -> Span:
    return at(text, needle, label, source, 0.9)


def _jobs(text: str, spans: list[Span]) -> list[str]:
    return [s.text for s in professions(text, spans) if s.label == "PROFESSION"]


def test_heads_that_name_a_job() -> None:
    for word in ["driver", "machinist", "librarian", "lineman", "cook", "attendant", "DJ"]:
        assert can_head_job(word), word
    for word in ["thermometer", "humidifier", "toddler", "widower", "pendant", "supper",
                 "volunteers", "semester", "stepfather", "adenoma", "holiday"]:  # fmt: skip
        assert not can_head_job(word), word


def test_clinical_and_household_nouns_of_the_crf_are_dropped() -> None:
    text = (
        "Temp by oral thermometer. Use a stool softener PRN. As a toddler he had croup. "
        "CPAP with humidifier. Closed for the spring holiday. Father is a welder."
    )
    spans = [_at(text, w) for w in ("oral thermometer", "stool softener", "toddler",
                                     "humidifier", "spring holiday", "welder")]  # fmt: skip
    assert _jobs(text, spans) == ["welder"]


def test_a_phrase_is_not_a_job() -> None:
    text = 'Coach called him "our best worker". Ramps built by Elks Club volunteers.'
    spans = [_at(text, "our best worker"), _at(text, "volunteers")]
    assert _jobs(text, spans) == []


def test_a_listed_job_is_not_judged_by_its_head() -> None:
    text = "She is a paralegal."
    assert _jobs(text, [_at(text, "paralegal", source="dict.professions:list")]) == ["paralegal"]


def test_the_role_of_a_professional_before_a_name_is_dropped() -> None:
    text = "School: Elm Park (teacher Ms Olsen). Claims: adjuster Rhea Banks. Son is a plumber."
    spans = [
        _at(text, "teacher"),
        _at(text, "Olsen", "PATIENT"),
        _at(text, "adjuster"),
        _at(text, "Rhea Banks", "PATIENT"),
        _at(text, "plumber"),
    ]
    assert _jobs(text, spans) == ["plumber"]


def test_the_role_after_a_clinicians_name_is_dropped() -> None:
    text = "Prepared by: Ana Ruiz, DO, hospice medical director. Mother Eva Lund, bus driver."
    spans = [
        _at(text, "Ana Ruiz", "DOCTOR"),
        _at(text, "hospice medical director"),
        _at(text, "Eva Lund", "PATIENT"),
        _at(text, "bus driver"),
    ]
    assert _jobs(text, spans) == ["bus driver"]


def test_a_job_grows_over_its_modifiers() -> None:
    text = (
        "Dad is a long-haul truck driver. Occupation: air traffic controller. "
        "Works as a tool-and-die maker. Timber harvester for a mill. Works as a court interpreter."
    )
    spans = [_at(text, w) for w in ("truck driver", "traffic controller", "die maker",
                                     "harvester", "court")]  # fmt: skip
    assert _jobs(text, spans) == [
        "long-haul truck driver",
        "air traffic controller",
        "tool-and-die maker",
        "Timber harvester",
        "court interpreter",
    ]


def test_handedness_and_retired_stay_out() -> None:
    text = "47 y/o R-hand-dominant ironworker. He is a retired postal clerk."
    spans = [_at(text, "R-hand-dominant ironworker"), _at(text, "postal clerk")]
    assert _jobs(text, spans) == ["ironworker", "postal clerk"]


def test_other_labels_are_untouched() -> None:
    text = "Seen at Harbor Clinic by Dr. Vos."
    spans = [_at(text, "Harbor Clinic", "HOSPITAL"), _at(text, "Vos", "DOCTOR")]
    assert professions(text, spans) == spans


def test_a_job_does_not_grow_into_a_name_or_a_payment() -> None:
    text = "Seen by health visitor Gillian Ford. Rent payment due. Works as a loan servicing clerk."
    spans = [
        _at(text, "health visitor"),
        _at(text, "Rent"),
        _at(text, "loan servicing"),
    ]
    assert _jobs(text, spans) == ["loan servicing clerk"]


def test_a_job_after_an_age_is_found() -> None:
    text = (
        "I saw Lena, a 41-year-old veterinary nurse, today. This is a 23 yo female waitress at "
        "a diner. A 20-year-old driver in a rollover. A 64-year-old smoker, 30 pack-years."
    )
    assert _jobs(text, []) == ["veterinary nurse", "waitress"]


def test_a_relatives_job_in_brackets_is_found() -> None:
    text = (
        "Lives with mother Ana Ruiz (phlebotomist at a lab) and son Tom (student). "
        "MOTHER (CNA AT A HOME)."
    )
    spans = [_at(text, "Ana Ruiz", "PATIENT"), _at(text, "Tom", "PATIENT")]
    assert _jobs(text, spans) == ["phlebotomist", "CNA"]


def test_an_occupation_field_is_found_and_retyped() -> None:
    text = "Occupation: orchard supervisor - employer Apple Co\nOCC: PEN RIDER\nOCC: none"
    spans = [_at(text, "PEN RIDER", "HOSPITAL")]
    assert _jobs(text, spans) == ["orchard supervisor", "PEN RIDER"]


def test_a_job_in_brackets_after_a_job_is_not_tagged_again() -> None:
    text = "He is a commercial fisherman (deckhand on a trawler). Son Ed (welder) visits."
    spans = [
        _at(text, "commercial fisherman", source="dict.professions:list"),
        _at(text, "deckhand", source="dict.professions:list"),
        _at(text, "Ed", "PATIENT"),
        _at(text, "welder"),
    ]
    assert _jobs(text, spans) == ["commercial fisherman", "welder"]


def test_more_cues_find_jobs() -> None:
    text = (
        "Dad left from work (ski patroller, Elk Ridge). Pt is a fly-fishing guide with Drift Co. "
        "She is a poor historian. Companion: wife Dr. Eva Cole (pediatrician) is here. "
        "Job title: crane operator / millwright helper   Shift: 2nd"
    )
    spans = [_at(text, "Eva Cole", "DOCTOR"), _at(text, "crane operator", source="rules.x")]
    assert _jobs(text, spans) == [
        "ski patroller",
        "fly-fishing guide",
        "pediatrician",
        "crane operator / millwright helper",
    ]


def test_a_job_in_apposition_to_a_name_with_no_relative_word_is_dropped() -> None:
    text = (
        "To: Rhea Banks, Claims Adjuster, Acme Mutual. Father Tom Ng, bus driver. "
        "Mr. Ng, a retired welder, fell."
    )
    spans = [
        _at(text, "Rhea Banks", "PATIENT"),
        _at(text, "Claims Adjuster"),
        _at(text, "Tom Ng", "PATIENT"),
        _at(text, "bus driver"),
        _at(text, "Mr. Ng", "PATIENT"),
        _at(text, "welder"),
    ]
    assert _jobs(text, spans) == ["bus driver", "welder"]


def test_the_patients_own_job_in_apposition_is_kept() -> None:
    text = "Patient: Ana Ruiz, school librarian, seen today."
    spans = [_at(text, "Ana Ruiz", "PATIENT"), _at(text, "school librarian")]
    assert _jobs(text, spans) == ["school librarian"]


def test_time_words_stay_out_and_cues_take_acronyms() -> None:
    text = (
        "Retired smokejumper and later fire inspector. Pt works as a 9th-grade math teacher "
        "at Elm High. Her sister Ida Lund (NICU nurse in Reno) called."
    )
    spans = [_at(text, "later fire inspector"), _at(text, "Ida Lund", "PATIENT")]
    assert _jobs(text, spans) == ["fire inspector", "9th-grade math teacher", "NICU nurse"]


@pytest.mark.parametrize("name", ["_FIELD_CUE", "_WORK_PAREN", "_IS_A", "_WORKS_AS", "_KIN_PAREN"])
def test_a_cues_lookahead_admits_every_letter_the_cue_can_start_with(name: str) -> None:
    """The speed lookahead before a cue (``(?=[IiWw])\\bis a ...``) must not drop a word
    added to the cue later: it admits every first character of the rest."""
    rx = getattr(hybrid_professions, name)
    head, rest = rx.pattern.split("\\b", 1)
    assert head.startswith("(?=")
    first = first_set("\\b" + rest, rx.flags)
    assert first is not None
    assert {c for c in first if not re.match(head, c)} == set()
    assert rx.search("the wife (retired teacher), ") or name != "_KIN_PAREN"
