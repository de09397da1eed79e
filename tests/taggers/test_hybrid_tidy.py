"""The hybrid's tidying of CRF spans: layout breaks, whole words, clinical numbers."""

from __future__ import annotations

from phiscrub.span import Span
from phiscrub.taggers.hybrid_tidy import clinical_filter, tidy


def crf(text: str, part: str, label: str, start: int | None = None) -> Span:
    at = text.index(part) if start is None else start
    return Span(at, at + len(part), label, part, "crf.all", 0.9)


def texts(spans: list[Span]) -> list[tuple[str, str]]:
    return [(s.label, s.text) for s in spans]


def test_span_is_cut_at_a_line_break_and_a_column_gap() -> None:
    text = "Commonwealth Harbor Hospital\nYawkey Oncology Program   Rm 4112"
    spans = tidy(text, [crf(text, text, "HOSPITAL")])
    assert texts(spans) == [
        ("HOSPITAL", "Commonwealth Harbor Hospital"),
        ("HOSPITAL", "Yawkey Oncology Program"),
        ("HOSPITAL", "Rm 4112"),
    ]


def test_span_is_cut_at_a_sentence_end_but_not_after_an_abbreviation_or_initial() -> None:
    text = "Works at Four Corners Freight. Attends St. Agnes Parish with T. McCall."
    spans = tidy(
        text,
        [
            crf(text, "Four Corners Freight. Attends", "ORGANIZATION"),
            crf(text, "St. Agnes Parish", "ORGANIZATION"),
            crf(text, "T. McCall", "DOCTOR"),
        ],
    )
    assert texts(spans) == [
        ("ORGANIZATION", "Four Corners Freight"),
        ("ORGANIZATION", "St. Agnes Parish"),
        ("DOCTOR", "T. McCall"),
    ]


def test_pieces_of_only_common_words_are_dropped() -> None:
    text = "Service      Total      Plan paid"
    assert tidy(text, [crf(text, text, "ORGANIZATION")]) == []


def test_name_spans_are_snapped_to_whole_words() -> None:
    text = "Seen by Trina McCall today."
    spans = tidy(text, [crf(text, "Trina Mc", "DOCTOR")])
    assert texts(spans) == [("DOCTOR", "Trina McCall")]
    assert spans[0].source == "crf.all+tidy"


def test_rule_spans_are_left_alone() -> None:
    text = "A\nB"
    rule = Span(0, 3, "HOSPITAL", "A\nB", "rules.location:x", 1.0)
    assert tidy(text, [rule]) == [rule]


def test_clinical_numbers_and_impossible_dates_are_dropped() -> None:
    text = "Pain 8/10 after SOX10/Melan-A stain; AST/ALT 24/31; seen 03/14/2021."
    spans = [
        crf(text, "8/10", "DATE"),
        crf(text, "10/Melan", "DATE"),
        crf(text, "24/31", "DATE"),
        crf(text, "03/14/2021", "DATE"),
    ]
    assert texts(clinical_filter(text, spans)) == [("DATE", "03/14/2021")]


def test_clinical_filter_keeps_rule_spans_and_names() -> None:
    text = "Pain 8/10 per Dr. Ruiz"
    rule = Span(5, 9, "DATE", "8/10", "rules.date:numeric_md", 1.0)
    name = crf(text, "Ruiz", "DOCTOR")
    assert clinical_filter(text, [rule, name]) == [rule, name]


def test_the_label_of_the_next_form_field_is_cut_off() -> None:
    text = "Pharmacy: 12 Wharf St. Account # 55-0912-7. Seen by Ann Lee: stable."
    spans = tidy(
        text,
        [crf(text, "12 Wharf St. Account #", "STREET"), crf(text, "Ann Lee:", "DOCTOR")],
    )
    assert texts(spans) == [("STREET", "12 Wharf St."), ("DOCTOR", "Ann Lee")]


def test_crf_dates_that_can_be_no_date_are_dropped_by_their_shape() -> None:
    text = (
        "BP 104/66, temp 20-25 C, CPT 72148 at 0659; Job 88213047; seen Sun 3/1, "
        "Presidents' Day, 8/47, 2043-03-01, 20240315, '90s, Christmas; ref 2039310008917."
    )
    parts = ["104/66", "20-25", "72148", "0659", "Job", "Sun 3/1", "Presidents' Day",
             "8/47", "2043-03-01", "20240315", "'90s", "Christmas", "2039310008917"]  # fmt: skip
    kept = texts(clinical_filter(text, [crf(text, p, "DATE") for p in parts]))
    assert kept == [
        ("DATE", "Sun 3/1"),
        ("DATE", "Presidents' Day"),
        ("DATE", "8/47"),
        ("DATE", "2043-03-01"),
        ("DATE", "20240315"),
        ("DATE", "'90s"),
        ("DATE", "Christmas"),
        ("IDNUM", "2039310008917"),  # a long number is PHI of some kind: kept, not a date
    ]


def test_clinical_filter_drops_a_crf_name_before_an_eponym_head_unless_titled() -> None:
    text = "Allen test normal, tender at McBurney's point. Mr. Clark level with Ann."
    found = [
        crf(text, "Allen", "PATIENT"),
        crf(text, "McBurney", "HOSPITAL"),
        crf(text, "Clark", "PATIENT"),
        crf(text, "Ann", "PATIENT"),
        Span(0, 5, "PATIENT", "Allen", "rules.name:x", 1.0),  # rules are not filtered here
    ]
    out = clinical_filter(text, found)
    assert [(s.text, s.source) for s in out] == [
        ("Clark", "crf.all"),
        ("Ann", "crf.all"),
        ("Allen", "rules.name:x"),
    ]


def test_clinical_filter_drops_crf_names_that_are_no_person() -> None:
    text = (
        "Re: Mr Tane Walker. Seen with Mdm Tan. Cx: E. coli and H. influenzae. "
        "Signed ERIK LUND, M.D. and M.D reviewed. Nurse Ann Ruiz, D. Reyes."
    )
    found = [
        crf(text, "Mr", "PATIENT"),  # a title alone
        crf(text, "Tane Walker", "PATIENT"),
        crf(text, "Mdm", "PATIENT"),
        crf(text, "Tan", "PATIENT"),
        crf(text, "E. coli", "DOCTOR"),  # a genus and its species
        crf(text, "H. influenzae", "PATIENT"),
        crf(text, "ERIK LUND", "DOCTOR"),
        crf(text, "D.", "DOCTOR", text.index("M.D.") + 2),  # the tail of a degree
        crf(text, "M.D", "PATIENT", text.index("M.D reviewed")),
        crf(text, "Nurse", "DOCTOR"),  # a role alone
        crf(text, "Ann Ruiz", "DOCTOR"),
        crf(text, "D. Reyes", "DOCTOR"),  # an initial and a surname stay
        crf(text, "D.", "PATIENT", text.index("D. Reyes")),  # an initial alone stays
    ]
    out = clinical_filter(text, found)
    assert texts(out) == [
        ("PATIENT", "Tane Walker"),
        ("PATIENT", "Tan"),
        ("DOCTOR", "ERIK LUND"),
        ("DOCTOR", "Ann Ruiz"),
        ("DOCTOR", "D. Reyes"),
        ("PATIENT", "D."),
    ]


def test_clinical_filter_drops_a_crf_name_that_is_a_medication_unless_titled() -> None:
    text = "Started Trimbow 2 puffs; stop Aimovig. Seen by Dr. Spiriva today."
    found = [
        crf(text, "Trimbow", "PATIENT"),
        crf(text, "Aimovig", "DOCTOR"),
        crf(text, "Spiriva", "DOCTOR"),  # after a title it is a name
    ]
    assert texts(clinical_filter(text, found)) == [("DOCTOR", "Spiriva")]


def test_medication_names_are_clinical_terms_but_not_crf_allow_list_features() -> None:
    from phiscrub.detect.lexicon import lexicons

    lex = lexicons()
    assert lex.is_allowed("Fostair") and lex.is_allowed("basaglar")
    assert "fostair" not in lex.allow  # the feature the shipped CRF was trained with
    assert not lex.is_allowed("Okafor")
    drugs = lex.allowed - lex.allow
    assert len(drugs) > 500
    assert not drugs & lex.first_names and not drugs & lex.last_names


def test_only_the_tail_of_a_degree_is_dropped_not_any_initial_after_one() -> None:
    text = "ANA REY, D.O. and M.O. Diaz"
    found = [
        crf(text, "O.", "DOCTOR", text.index("D.O.") + 2),  # the O. of D.O.
        crf(text, "O.", "DOCTOR", text.index("M.O.") + 2),  # no degree: an initial
    ]
    assert [s.start for s in clinical_filter(text, found)] == [text.index("M.O.") + 2]
