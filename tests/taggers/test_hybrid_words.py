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
