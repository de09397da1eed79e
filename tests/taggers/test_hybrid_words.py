"""CRF spans that are words, not PHI (``hybrid_words``), on made-up notes: roles, common
English phrases and capitalized headings taken for names; languages, faiths and peoples
taken for names, places or organizations."""

from __future__ import annotations

from phiscrub.taggers.hybrid_tidy import clinical_filter, trim_names
from phiscrub.taggers.hybrid_words import speech_or_faith

from .spans import at as span


def test_a_role_or_english_phrase_or_heading_taken_for_a_name_is_dropped() -> None:
    text = (
        "Niece states she fell. Coach Tanner Boyle called.\nCOMMENTS\n"
        "Dog owner Al Reyes. Seen with Hope Marsh. WALTERS, GRACE\n"
        "AMES RN"
    )
    spans = [
        span(text, "Niece", "PATIENT"),  # a role alone
        span(text, "Coach", "PATIENT"),
        span(text, "Tanner Boyle", "PATIENT", "rules"),
        span(text, "COMMENTS", "DOCTOR"),  # a heading: English in capitals
        span(text, "Dog owner", "PATIENT"),  # every word common English, no one's name
        span(text, "Hope Marsh", "PATIENT"),  # first names that are words stay
        span(text, "WALTERS, GRACE", "PATIENT"),
        span(text, "AMES", "DOCTOR"),  # a surname in capitals
    ]
    out = trim_names(text, spans)
    assert [s.text for s in out] == ["Tanner Boyle", "Hope Marsh", "WALTERS, GRACE", "AMES"]
    ruled = [span(text, "Dog owner", "PATIENT", "rules")]
    assert trim_names(text, ruled) == ruled  # only the CRF's words are judged


def test_a_language_faith_or_people_is_no_name_place_or_organization() -> None:
    text = (
        "Speaks Russian and Ukrainian. Religion: Roman Catholic. Ethnicity: Samoan.\n"
        "Admitted to Lutheran for rehab. Seen at Samoan Community Church with Ms. Irish."
    )
    spans = [
        span(text, "Speaks Russian", "ORGANIZATION"),
        span(text, "Ukrainian", "ORGANIZATION"),
        span(text, "Roman Catholic", "DOCTOR"),
        span(text, "Samoan", "PATIENT"),
        span(text, "Lutheran", "HOSPITAL"),  # a care site named after a faith
        span(text, "Samoan Community Church", "ORGANIZATION"),  # more than the word
        span(text, "Irish", "PATIENT", "rules.name:title"),  # the rules' name stays
    ]
    out = clinical_filter(text, spans)
    assert [s.text for s in out] == ["Lutheran", "Samoan Community Church", "Irish"]
    assert speech_or_faith(span(text, "Lutheran", "ORGANIZATION"))
    assert not speech_or_faith(span(text, "Lutheran", "HOSPITAL"))


def test_a_name_loses_a_credential_or_closed_class_word_at_its_end_and_a_role_at_its_start() -> (
    None
):
    text = (
        "Certifying scientist: Mei-Lin Harrow, Ph.D. - June 8\nSPOKE W/ DR VANMETER AT 0150. "
        "C.R. SLONE MD\nsw: lindsey vue, lcsw\nsent by PE teacher Coach Haskins: low BG\n"
        "Seen by Grace Coach today. DR. MAYO AT HOME"
    )
    spans = [
        span(text, "Mei-Lin Harrow, Ph", "DOCTOR", "rules"),
        span(text, "VANMETER AT", "DOCTOR", "rules"),
        span(text, "C.R. SLONE MD", "DOCTOR", "rules"),
        span(text, "lindsey vue, lcsw", "DOCTOR", "rules"),
        span(text, "Coach Haskins", "PATIENT", "rules"),
        span(text, "Grace Coach", "PATIENT", "rules"),  # a first name leads: kept whole
        span(text, "MAYO", "DOCTOR", "rules"),
    ]
    out = trim_names(text, spans)
    assert [s.text for s in out] == [
        "Mei-Lin Harrow",
        "VANMETER",
        "C.R. SLONE",
        "lindsey vue",
        "Haskins",
        "Grace Coach",
        "MAYO",
    ]


def test_a_crf_date_that_is_a_month_alone_is_left_to_the_rules() -> None:
    text = "Copies sent: ED record, labs, MAR, flowsheet. Seen Mar 3, 2040."
    spans = [span(text, "MAR", "DATE"), span(text, "Mar 3, 2040", "DATE")]
    assert [s.text for s in clinical_filter(text, spans)] == ["Mar 3, 2040"]
