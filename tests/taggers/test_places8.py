"""Eighth round of the hybrid's place steps: a rule place grows over the CRF's address line
only up to the rules' next place of another type, and what else the CRF found is kept."""

from __future__ import annotations

from phiscrub.span import Span
from phiscrub.taggers import hybrid_steps as steps
from phiscrub.taggers.hybrid_places import generic_places

from .spans import at


def span(text: str, needle: str, label: str, source: str = "t") -> Span:
    return at(text, needle, label, source)


def found(out: list[Span]) -> list[tuple[str, str]]:
    return [(s.label, s.text) for s in out]


def test_a_street_stops_before_the_city_and_postcode_the_rules_found() -> None:
    text = "Clinic\n14 Harbour Road, Port Kelby 4410\nPhone"
    rules = [
        span(text, "14 Harbour Road", "STREET", "rules.location"),
        span(text, "Port Kelby", "CITY", "rules.location"),
        span(text, "4410", "ZIP", "rules.location"),
    ]
    crf = [span(text, "14 Harbour Road, Port Kelby 4410", "STREET", "crf")]
    out = steps.merge(rules, crf, text=text)
    assert found(out) == [("STREET", "14 Harbour Road"), ("CITY", "Port Kelby"), ("ZIP", "4410")]


def test_a_suite_or_floor_is_a_room_of_its_own_and_an_apartment_stays_in_the_street() -> None:
    text = "Seen at 20 Elm Terrace, Suite 310, and home at 9 Oak Ln Apt 4."
    rules = [
        span(text, "20 Elm Terrace", "STREET", "rules.location"),
        span(text, "Suite 310", "ROOM", "rules.location"),
        span(text, "9 Oak Ln", "STREET", "rules.location"),
    ]
    crf = [
        span(text, "20 Elm Terrace, Suite 310", "STREET", "crf"),
        span(text, "9 Oak Ln Apt 4", "STREET", "crf"),
    ]
    out = steps.merge(rules, crf, text=text)
    assert found(out) == [
        ("STREET", "20 Elm Terrace"),
        ("ROOM", "Suite 310"),
        ("STREET", "9 Oak Ln Apt 4"),
    ]


def test_a_growth_between_two_rule_places_goes_to_the_first() -> None:
    text = "on Willow Ward Pod C, Bed 7 since Monday"
    rules = [
        span(text, "Willow Ward Pod", "DEPARTMENT", "rules.location"),
        span(text, "Bed 7", "ROOM", "rules.location"),
    ]
    crf = [span(text, "Willow Ward Pod C, Bed 7", "DEPARTMENT", "crf")]
    out = steps.merge(rules, crf, text=text)
    assert found(out) == [("DEPARTMENT", "Willow Ward Pod C"), ("ROOM", "Bed 7")]


def test_a_city_does_not_take_the_street_line_the_crf_found_before_it() -> None:
    text = "home address 810 Camino Alto NW, Ridgefield 87001. Next"
    rules = [
        span(text, "Ridgefield", "CITY", "rules.location"),
        span(text, "87001", "ZIP", "rules.location"),
    ]
    crf = [span(text, "810 Camino Alto NW, Ridgefield 87001", "STREET", "crf")]
    out = steps.merge(rules, crf, text=text)
    assert found(out) == [
        ("STREET", "810 Camino Alto NW"),
        ("CITY", "Ridgefield"),
        ("ZIP", "87001"),
    ]


def test_a_place_still_grows_where_no_other_rule_place_is() -> None:
    text = "She studies at Bay View High School in town."
    rules = [span(text, "View High School", "ORGANIZATION", "rules.location")]
    crf = [span(text, "Bay View High School", "ORGANIZATION", "crf")]
    assert found(steps.merge(rules, crf, text=text)) == [("ORGANIZATION", "Bay View High School")]


def relabel(name: str, label: str, before: str = "Seen at ") -> str:
    text = f"{before}{name} today."
    return steps.hospital_or_organization(text, [span(text, name, label)])[0].label


def test_a_care_field_after_a_county_word_is_a_care_site_and_a_county_at_the_end_is_not() -> None:
    assert relabel("Brant County Imaging", "ORGANIZATION") == "HOSPITAL"
    assert relabel("Oxley County Transplant Partners", "ORGANIZATION") == "HOSPITAL"
    assert relabel("Hollis County Jail", "HOSPITAL") == "ORGANIZATION"
    assert relabel("Weller County", "ORGANIZATION") == "LOCATION-OTHER"  # a region
    assert relabel("Weller County Health", "ORGANIZATION") == "HOSPITAL"


def test_an_animal_hospital_and_a_technical_institute_are_organizations() -> None:
    assert relabel("Pine Paws Animal Hospital", "HOSPITAL") == "ORGANIZATION"
    assert relabel("Corrin Veterinary Clinic", "HOSPITAL") == "ORGANIZATION"
    assert relabel("Lake Institute of Technology", "HOSPITAL") == "ORGANIZATION"


def test_agencies_and_suppliers_are_organizations_and_a_general_is_a_hospital() -> None:
    assert relabel("Tamar Valley Health Authority", "HOSPITAL") == "ORGANIZATION"
    assert relabel("Ridge Air Medical", "HOSPITAL") == "ORGANIZATION"
    assert relabel("Summit Home Medical", "HOSPITAL") == "ORGANIZATION"
    assert relabel("Tarrow Regional Dispatch", "HOSPITAL") == "ORGANIZATION"
    assert relabel("Hillcrest General", "ORGANIZATION") == "HOSPITAL"
    assert relabel("Eastgate Polyclinic", "ORGANIZATION") == "HOSPITAL"
    assert relabel("Ysbyty Glan Teifi", "ORGANIZATION") == "HOSPITAL"


def test_the_words_before_a_name_without_its_own_cue_decide() -> None:
    assert relabel("Marlow Crest", "ORGANIZATION", "hospital d/c from ") == "HOSPITAL"
    assert relabel("Tensing", "ORGANIZATION", "She was evaluated at ") == "HOSPITAL"
    assert relabel("Quillby Works", "HOSPITAL", "his employer (") == "ORGANIZATION"
    assert relabel("Aldersgate Free Baptist", "HOSPITAL", "Pt's church (") == "ORGANIZATION"
    assert relabel("Norhaven HomeCo", "HOSPITAL", "DME via ") == "ORGANIZATION"


def test_a_generic_unit_or_service_is_no_hospital_but_a_name_that_goes_on_is_kept() -> None:
    text = (
        "Followed at the Sickle Cell Clinic since May.\n"
        "Geriatric Day Hospital (3/F) on Monday.\n"
        "Seen at Women's Clinic of Tarrant, then Oak Desert Heart & Vascular and County General."
    )
    spans = [
        span(text, "Sickle Cell Clinic", "HOSPITAL"),
        span(text, "Geriatric Day Hospital", "HOSPITAL"),
        span(text, "Women's Clinic", "HOSPITAL"),
        span(text, "Heart & Vascular", "HOSPITAL"),
        span(text, "County General", "HOSPITAL"),
    ]
    assert [s.text for s in generic_places(text, spans)] == [
        "Women's Clinic",
        "Heart & Vascular",
        "County General",
    ]



def test_a_region_the_rules_found_before_its_postcode_is_kept_as_a_state() -> None:
    text = "14 Reef Rd, Tallow QLD 4410; Ormsby, ON K7L 2V3; kicked in Reefton"
    spans = [
        span(text, "QLD", "STATE", "rules.location:au_state_postcode"),
        span(text, "ON", "STATE", "rules.location:ca_province_postcode+crf"),
        span(text, "QLD 4410; Ormsby", "LOCATION-OTHER", "crf"),
    ]
    crf_state = Span.of(text, text.rindex("Reefton"), len(text), "STATE", "crf", 1.0)
    out = steps.drop_unknown_states(text, [*spans, crf_state])
    assert [(s.text, s.source) for s in out if s.label == "STATE"] == [
        ("QLD", "rules.location:au_state_postcode"),
        ("ON", "rules.location:ca_province_postcode+crf"),
    ]


def test_a_city_that_is_a_name_and_a_floor_number_is_a_ward() -> None:
    text = "Back to Larchmont 4 after PACU; lives in Larchmont."
    last = text.rindex("Larchmont")
    spans = [span(text, "Larchmont 4", "CITY"), Span.of(text, last, last + 9, "CITY", "t", 1.0)]
    out = steps.place_or_organization(text, spans)
    assert found(out) == [("DEPARTMENT", "Larchmont 4"), ("CITY", "Larchmont")]


def test_a_street_or_town_ending_in_a_care_word_is_the_practice_there() -> None:
    text = "GP: Ferndale Lane Surgery; plan at Tamsin Ridge VAMC and Harlow Midwifery."
    spans = [
        span(text, "Ferndale Lane Surgery", "STREET"),
        span(text, "Tamsin Ridge VAMC", "CITY"),
        span(text, "Harlow Midwifery", "LOCATION-OTHER"),
    ]
    out = steps.place_or_organization(text, spans)
    assert [s.label for s in out] == ["HOSPITAL", "HOSPITAL", "HOSPITAL"]


def test_a_make_and_model_or_a_field_label_is_no_place() -> None:
    text = "Drove a blue 2038 Corvan Zephyr; adm 02/26/2000 Whitby 3 bed 4.\nInsurer: Acme Mutual"
    spans = [
        span(text, "Corvan Zephyr", "ORGANIZATION"),
        span(text, "Whitby 3", "DEPARTMENT"),
        span(text, "Insurer", "ORGANIZATION"),
        span(text, "Acme Mutual", "ORGANIZATION"),
    ]
    assert [s.text for s in generic_places(text, spans)] == ["Whitby 3", "Acme Mutual"]


def test_a_place_grows_up_to_a_lower_case_word_and_the_crf_keeps_the_name_beyond() -> None:
    text = "Travelled to Lima, Peru over Inti Raymi; fell at Kestrel Hill junction."
    rules = [
        span(text, "Peru", "COUNTRY", "dict.places"),
        span(text, "Kestrel", "CITY", "dict.places"),
    ]
    crf = [
        span(text, "Peru over Inti Raymi", "LOCATION-OTHER", "crf"),
        span(text, "Kestrel Hill junction", "LOCATION-OTHER", "crf"),
    ]
    out = steps.merge(rules, crf, text=text)
    assert found(out) == [
        ("COUNTRY", "Peru"),
        ("LOCATION-OTHER", "Inti Raymi"),
        ("CITY", "Kestrel Hill"),
    ]
