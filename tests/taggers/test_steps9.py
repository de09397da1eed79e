"""The ninth round's hybrid steps on made-up notes: a letter copied to the patient, and
CRF institutions made of plain English words."""

from __future__ import annotations

from phiscrub.taggers import hybrid_steps as steps
from phiscrub.taggers.hybrid_places import generic_places
from phiscrub.taggers.hybrid_units import institution_edges

from .spans import at as span


def test_a_name_copied_on_a_cc_line_is_the_patient_when_it_shares_the_patients_name() -> None:
    text = (
        "Patient: Deborah Kowalczyk   DOB 1/2/1960\nDear Dr. Ames,\n...\n"
        "cc: Deborah Kowalczyk, 3124 S. Delaware Ave\ncc: Priya Iyer, MD\n"
    )
    spans = [
        span(text, "Deborah Kowalczyk", "PATIENT", "rules"),
        span(text, "Ames", "DOCTOR", "rules"),
        span(text, "Deborah Kowalczyk", "DOCTOR", "rules.name:role_trigger", nth=1),
        span(text, "Priya Iyer", "DOCTOR", "rules"),
    ]
    out = steps.name_roles(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Deborah Kowalczyk", "PATIENT"),
        ("Ames", "DOCTOR"),
        ("Deborah Kowalczyk", "PATIENT"),
        ("Priya Iyer", "DOCTOR"),  # a clinician copied keeps her type
    ]


def test_a_crf_institution_of_plain_english_in_capitals_or_lower_case_is_dropped() -> None:
    text = (
        "IMMUNIZATION RECORD / CERTIFICATE\nFamily would like the Catholic chaplain.\n"
        "HVAC technician w/ Desert Air Mechanical; labs at Quest; NORTHERN TIER RECOVERY CLINIC"
        "\nPART 3 - CAUSE OF DEATH"
    )
    spans = [
        span(text, "IMMUNIZATION RECORD", "ORGANIZATION"),
        span(text, "CAUSE OF DEATH", "ORGANIZATION"),  # `OF` is no town
        span(text, "Catholic chaplain", "LOCATION-OTHER"),
        span(text, "Desert Air Mechanical", "ORGANIZATION"),  # a name in title case
        span(text, "Quest", "ORGANIZATION"),  # one capitalized word
        span(text, "NORTHERN TIER RECOVERY CLINIC", "HOSPITAL"),  # an institution's word
    ]
    out = generic_places(text, spans)
    assert [s.text for s in out] == [
        "Desert Air Mechanical",
        "Quest",
        "NORTHERN TIER RECOVERY CLINIC",
    ]
    ruled = [span(text, "IMMUNIZATION RECORD", "ORGANIZATION", "rules")]
    assert generic_places(text, ruled) == ruled  # only the CRF's spans are judged


def test_a_crf_person_or_date_that_is_a_name_and_a_floor_number_is_a_named_ward() -> None:
    text = "To floor (Hanna 6) on 6/16. 2 days on Cedar 5. Seen Oct 5 by Dr. Hanna. GU: Tanner 4"
    spans = [
        span(text, "Hanna 6", "PATIENT"),
        span(text, "Cedar 5", "DATE"),
        span(text, "Oct 5", "DATE"),  # a month leads: a date
        span(text, "Hanna", "DOCTOR", nth=1),
        span(text, "Tanner 4", "PATIENT"),  # a clinical word leads: a Tanner stage, dropped
    ]
    out = steps.place_or_organization(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Hanna 6", "DEPARTMENT"),
        ("Cedar 5", "DEPARTMENT"),
        ("Oct 5", "DATE"),
        ("Hanna", "DOCTOR"),
    ]


def test_an_institution_loses_a_leading_article_verb_or_plan_type() -> None:
    text = (
        "Works at the Teche Sugar Cooperative and at The Anthracite Grille. Attends Little "
        "Hooghan Preschool. Ins: Heartland Mutual Health PPO. Buys at Bluestem Grain Co-op."
    )
    spans = [
        span(text, "the Teche Sugar Cooperative", "ORGANIZATION"),
        span(text, "The Anthracite Grille", "ORGANIZATION"),  # a capital The is the name's
        span(text, "Attends Little Hooghan Preschool", "ORGANIZATION", "rules"),
        span(text, "Heartland Mutual Health PPO", "ORGANIZATION", "rules"),
        span(text, "Bluestem Grain Co", "ORGANIZATION"),
    ]
    out = institution_edges(text, spans)
    assert [s.text for s in out] == [
        "Teche Sugar Cooperative",
        "The Anthracite Grille",
        "Little Hooghan Preschool",
        "Heartland Mutual Health",
        "Bluestem Grain Co-op",
    ]


def test_a_crf_state_code_with_no_place_around_it_is_dropped() -> None:
    text = (
        "Read back by L. Vazquez (MA) at 10:02; trace AR. Lives in Worcester, MA 01605.\n"
        "Moved from OH last year. J. Voss, PT, DPT   KS PT lic 11-0442"
    )
    spans = [
        span(text, "MA", "STATE"),  # a medical assistant
        span(text, "AR", "STATE"),  # aortic regurgitation
        span(text, "MA", "STATE", nth=1),  # after a town and a comma, before a ZIP
        span(text, "OH", "STATE"),  # after a place preposition
        span(text, "KS", "STATE"),  # before a licence
    ]
    out = steps.drop_unknown_states(text, spans)
    assert [s.text for s in out] == ["MA", "OH", "KS"]
    assert out[0].start == text.index("MA", text.index("Worcester"))
    ruled = [span(text, "AR", "STATE", "rules.location:state_abbrev_context")]
    assert steps.drop_unknown_states(text, ruled) == ruled  # only the CRF's codes
