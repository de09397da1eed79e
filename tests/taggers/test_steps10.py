"""Hybrid steps of round 10: the right edge of an institution's name."""

from __future__ import annotations

from phiscrub.taggers.hybrid_units import institution_edges

from .spans import at as span


def test_an_institution_takes_its_legal_form() -> None:
    text = (
        "Sponsor: Halvorsen Therapeutics, Inc.    CRO: none\n"
        "Sponsor: Halcyon Therapeutics Inc.   Site 4\n"
        "High Desert Rheumatology & Infusion, PLLC\n7800 Jefferson St NE"
    )
    spans = [
        span(text, "Halvorsen Therapeutics", "ORGANIZATION"),
        span(text, "Halcyon Therapeutics Inc", "ORGANIZATION"),
        span(text, "High Desert Rheumatology & Infusion", "HOSPITAL"),
        span(text, "PLLC", "STREET", "crf.all"),  # taken in: a place inside the name
        span(text, "7800 Jefferson St NE", "STREET"),
    ]
    out = institution_edges(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Halvorsen Therapeutics, Inc.", "ORGANIZATION"),
        ("Halcyon Therapeutics Inc.", "ORGANIZATION"),
        ("High Desert Rheumatology & Infusion, PLLC", "HOSPITAL"),
        ("7800 Jefferson St NE", "STREET"),
    ]


def test_a_facility_takes_its_of_the_tail_in_the_same_case() -> None:
    text = (
        "Children's Hospital of the Ozarks - ED\n"
        "HOLLOWAY CHILDREN'S MEDICAL CENTER OF TULSA\n"
        "Royal Alexandria Infirmary of Kilbarchan\n"
        "seen at Wyoming Valley VA Clinic for We Honor Veterans pinning.\n"
        "TRANSFERRED TO MERCY HOSPITAL FOR Evaluation\n"
        "Seen at Coastal Clinic for Dr. Ames\n"
        "Delta Clinic of Mary Smith"
    )
    spans = [
        span(text, "Children's Hospital", "HOSPITAL"),
        span(text, "HOLLOWAY CHILDREN'S MEDICAL CENTER", "HOSPITAL"),
        span(text, "Royal Alexandria Infirmary", "HOSPITAL"),
        span(text, "Kilbarchan", "ORGANIZATION", "crf.all"),  # a place word: taken in
        span(text, "Wyoming Valley VA Clinic", "HOSPITAL"),  # `We` starts no name
        span(text, "MERCY HOSPITAL", "HOSPITAL"),  # another case
        span(text, "Coastal Clinic", "HOSPITAL"),  # a title
        span(text, "Delta Clinic", "HOSPITAL"),
        span(text, "Mary Smith", "PATIENT"),  # a person is not taken in
    ]
    out = institution_edges(text, spans)
    assert [s.text for s in out] == [
        "Children's Hospital of the Ozarks",
        "HOLLOWAY CHILDREN'S MEDICAL CENTER OF TULSA",
        "Royal Alexandria Infirmary of Kilbarchan",
        "Wyoming Valley VA Clinic",
        "MERCY HOSPITAL",
        "Coastal Clinic",
        "Delta Clinic",
        "Mary Smith",
    ]


def test_an_institution_with_an_ampersand_is_taken_whole() -> None:
    text = (
        "buying 2 more at Speedway Hardware & Feed).\n"
        "forklift operator at cimarron pallet & crate, let go\n"
        "FURNESS & LUNE VALLEY GENERAL HOSPITAL NHS TRUST\n"
        "Requester: Pemberton, Oyelowo & Marsh LLP (atty A. Pemberton)\n"
        "Seen at Mercy Hospital & Dr. Ames said"
    )
    spans = [
        span(text, "Speedway Hardware", "ORGANIZATION"),
        span(text, "cimarron pallet", "ORGANIZATION"),
        span(text, "FURNESS", "HOSPITAL", "crf.all"),
        span(text, "LUNE VALLEY GENERAL HOSPITAL", "HOSPITAL"),
        span(text, "Pemberton", "PATIENT", "hybrid.reconcile:propagate"),
        span(text, "Marsh LLP", "ORGANIZATION"),
        span(text, "Pemberton", "DOCTOR", nth=1),
        span(text, "Mercy Hospital", "HOSPITAL"),
        span(text, "Ames", "DOCTOR"),
    ]
    out = institution_edges(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Speedway Hardware & Feed", "ORGANIZATION"),
        ("cimarron pallet & crate", "ORGANIZATION"),
        ("FURNESS & LUNE VALLEY GENERAL HOSPITAL", "HOSPITAL"),
        ("Pemberton, Oyelowo & Marsh LLP", "ORGANIZATION"),
        ("Pemberton", "DOCTOR"),
        ("Mercy Hospital", "HOSPITAL"),  # `& Dr. Ames` is no part of it
        ("Ames", "DOCTOR"),
    ]


def test_a_crf_name_or_place_that_is_a_clinical_acronym_alone_is_dropped() -> None:
    from phiscrub.taggers.hybrid_tidy import clinical_filter

    text = "from MICU bed 11; colonoscopy at OSH. Seen at SRMC. Boise, ID 83703. Dr. OSH"
    spans = [
        span(text, "MICU", "HOSPITAL", "crf.all"),
        span(text, "OSH", "HOSPITAL", "crf.all"),
        span(text, "SRMC", "HOSPITAL", "crf.all"),  # a hospital's acronym
        span(text, "ID", "STATE", "crf.all"),  # a state's code: drop_unknown_states decides
        span(text, "OSH", "DOCTOR", "rules.name:title_doctor", nth=1),  # the rules' own
    ]
    out = clinical_filter(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("SRMC", "HOSPITAL"),
        ("ID", "STATE"),
        ("OSH", "DOCTOR"),
    ]


def test_a_crf_name_that_is_an_allow_listed_clinical_term_is_dropped_without_a_title() -> None:
    from phiscrub.taggers.hybrid_tidy import clinical_filter

    text = (
        "stress test (Bruce) 9 min. Grip (Jamar, position 2). posterior (Kocher-Langenbeck) "
        "approach. Seen by Dr. Bruce. Mohs coordinator. Call Bruce Kocher."
    )
    spans = [
        span(text, "Bruce", "PATIENT", "crf.all"),  # a first name: kept
        span(text, "Kocher-Langenbeck", "DOCTOR", "crf.all"),
        span(text, "Bruce", "DOCTOR", "crf.all", nth=1),
        span(text, "Mohs coordinator", "DOCTOR", "crf.all"),  # a common word that is no name
        span(text, "Bruce Kocher", "PATIENT", "crf.all"),
    ]
    out = clinical_filter(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Bruce", "PATIENT"),
        ("Bruce", "DOCTOR"),
        ("Bruce Kocher", "PATIENT"),
    ]
    kocher = [span(text, "Kocher", "DOCTOR", "crf.all", nth=1)]  # `Call Bruce Kocher`
    assert clinical_filter(text, kocher) == []  # alone, an allow-listed surname goes


def test_a_landmark_taken_for_an_institution_or_a_street_is_a_location_other() -> None:
    from phiscrub.taggers.hybrid_places import place_or_organization

    text = (
        "cabin on Burntside Lake; climbing at Peavine Peak; broke down on the Garden State "
        "Parkway; 2400 Savannah Hwy; USCG Station Southwest Harbor; Elkhart Lake; "
        "Lakeview Hospital Pier"
    )
    spans = [
        span(text, "Burntside Lake", "ORGANIZATION", "crf.all"),
        span(text, "Peavine Peak", "HOSPITAL", "crf.all"),
        span(text, "Garden State Parkway", "STREET", "rules.location:street_named"),
        span(text, "2400 Savannah Hwy", "STREET", "rules"),  # a house number: a street
        span(text, "USCG Station Southwest Harbor", "ORGANIZATION", "crf.all"),  # an agency
        span(text, "Elkhart Lake", "CITY", "dict.places"),  # a town
        span(text, "Lakeview Hospital Pier", "ORGANIZATION", "crf.all"),  # an institution word
    ]
    out = place_or_organization(text, spans)
    assert [s.label for s in out] == [
        "LOCATION-OTHER",
        "LOCATION-OTHER",
        "LOCATION-OTHER",
        "STREET",
        "ORGANIZATION",
        "CITY",
        "ORGANIZATION",
    ]


def test_a_street_ends_at_its_last_street_word_and_its_line() -> None:
    text = (
        "meds from Big Sky Drug on Grand Ave yesterday; pharmacy at 212 S. Main St. My note.\n"
        "210 Hebert Cemetery Rd * Carencro\n| Rehab - Shaw Ave | 22 |\n88 Main St\nSt. Martinville"
        "\n1120 S. Utica Ave | Tulsa; Dunlo St., Ballinasloe; at a St. Malo Parish Hall fry"
    )
    spans = [
        span(text, "Grand Ave yesterday", "STREET", "rules+crf"),
        span(text, "212 S. Main St.", "STREET", "rules"),
        span(text, "210 Hebert Cemetery Rd *", "STREET", "rules+crf"),
        span(text, "Shaw Ave | 22", "STREET", "crf.all"),
        span(text, "88 Main St\nSt.", "STREET", "rules"),
        span(text, "1120 S. Utica Ave", "STREET", "rules"),  # a direction ends nothing
        span(text, "Dunlo St.", "STREET", "crf.all"),  # a comma after: the period stays
        span(text, "St. Malo Parish Hall", "STREET", "crf.all"),  # `St.` alone is no street
    ]
    out = institution_edges(text, spans)
    assert [s.text for s in out] == [
        "Grand Ave",
        "212 S. Main St",
        "210 Hebert Cemetery Rd",
        "Shaw Ave",
        "88 Main St",
        "1120 S. Utica Ave",
        "Dunlo St.",
        "St. Malo Parish Hall",
    ]


def test_a_rule_span_whose_growth_lost_to_another_rule_keeps_its_own_extent() -> None:
    from phiscrub.taggers import hybrid_steps as steps

    text = "Parents asking about police; OSHP Trooper Halvorsen (badge 12)."
    rules = [
        span(text, "OSHP", "ORGANIZATION", "rules.location:organization_agency_acronym", 0.8),
        span(text, "Halvorsen", "PATIENT", "rules.name:relative", 0.9),
    ]
    crf = [span(text, "OSHP Trooper Halvorsen", "ORGANIZATION", "crf.all")]
    out = steps.merge(rules, crf, text=text)
    assert [(s.text, s.label) for s in out] == [("OSHP", "ORGANIZATION"), ("Halvorsen", "PATIENT")]
