"""The eighth round's name steps, on made-up notes: nicknames inside a name, one-word CRF
names that are acronyms or English words, titles inside CRF place spans, and the role
words that type a name (a credential written ``M.D.``, ``Dr.`` after a lay role, a role
after the name, a CRF place after a role)."""

from __future__ import annotations

from phiscrub.taggers import hybrid_steps as steps
from phiscrub.taggers.hybrid_tidy import join_nicknames, trim_names

from .spans import at as span


def test_a_nickname_between_first_and_last_name_joins_the_pieces() -> None:
    text = 'Partner: Dorian "Dory" Fenwick, 31. Re: Mr Ji-ho ("Jay") PARK, DOB 1/2/1970'
    spans = [
        span(text, "Dorian", "PATIENT"),
        span(text, 'Dory" Fenwick', "PATIENT"),
        span(text, 'Ji-ho ("Jay")', "PATIENT", "rules"),
        span(text, "PARK", "PATIENT"),
    ]
    out = join_nicknames(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ('Dorian "Dory" Fenwick', "PATIENT"),
        ('Ji-ho ("Jay") PARK', "PATIENT"),
    ]


def test_a_nickname_in_curly_quotes_joins_and_a_note_without_quotes_keeps_its_spans() -> None:
    # the step skips notes with no opening quote: a curly one must still be looked at
    text = "Partner: Dorian \u201cDory\u201d Fenwick, 31."
    spans = [span(text, "Fenwick", "PATIENT"), span(text, "Dorian", "PATIENT")]
    out = join_nicknames(text, spans)
    assert [(s.text, s.label) for s in out] == [("Dorian \u201cDory\u201d Fenwick", "PATIENT")]
    plain = "Partner: Dorian Fenwick, 31."
    spans = [span(plain, "Fenwick", "PATIENT"), span(plain, "Dorian", "PATIENT")]
    assert join_nicknames(plain, spans) == sorted(spans)


def test_a_nickname_after_the_name_stays_apart() -> None:
    text = 'Re: Lindqvist, Augusta "Gussie", DOB 3/4/1950\nPatient: Ann Marsh ("Nan")   MRN 4471'
    spans = [
        span(text, "Lindqvist, Augusta", "PATIENT", "rules"),
        span(text, "Gussie", "PATIENT"),
        span(text, "Ann Marsh", "PATIENT", "rules"),
        span(text, "Nan", "PATIENT"),
    ]
    assert join_nicknames(text, spans) == sorted(spans)


def test_a_one_word_crf_name_that_is_an_acronym_or_a_word_is_dropped() -> None:
    text = (
        "No labs/LP/EEG today; referred to HV next week. Reply from: Omar.\n"
        'Goes by "KJ" at school. Transcribed by: QWV\nZT/bc 2/26\nW/ SON CURTIS; ETA 1 H'
    )
    spans = [
        span(text, "LP", "DOCTOR"),  # an acronym inside running text
        span(text, "HV", "DOCTOR"),
        span(text, "Reply", "DOCTOR"),  # an English word no one is named
        span(text, "KJ", "PATIENT"),  # quoted: a nickname
        span(text, "QWV", "DOCTOR"),  # initials at a line's end
        span(text, "ZT", "DOCTOR"),  # initials at a line's start
        span(text, "CURTIS", "PATIENT"),  # a name in capitals
    ]
    out = trim_names(text, spans)
    assert [s.text for s in out] == ["KJ", "QWV", "ZT", "CURTIS"]
    ruled = trim_names(text, [span(text, "HV", "DOCTOR", "rules")])
    assert [s.text for s in ruled] == ["HV"]  # only the CRF's words are judged


def test_a_title_inside_a_crf_place_span_is_cut_and_types_the_name() -> None:
    text = "Team: Prof Odile Brandt; police PC Tamsin Orley attended. Dr Ivo Lenk saw her."
    spans = [
        span(text, "Prof Odile Brandt", "ORGANIZATION"),
        span(text, "PC Tamsin Orley", "HOSPITAL"),
        span(text, "Dr Ivo Lenk", "DOCTOR"),
    ]
    out = trim_names(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Odile Brandt", "DOCTOR"),
        ("Tamsin Orley", "PATIENT"),
        ("Ivo Lenk", "DOCTOR"),
    ]


def test_a_credential_with_periods_outranks_a_patient_role() -> None:
    text = "RESIDENT: Pell Varga, M.D.\nResident: Varga, Ilse   Room 4"
    spans = [span(text, "Pell Varga", "PATIENT"), span(text, "Varga, Ilse", "DOCTOR")]
    out = steps.doctor_after_title(text, steps.name_roles(text, spans))
    assert [s.label for s in out] == ["DOCTOR", "PATIENT"]


def test_dr_after_a_lay_role_is_not_a_clinician_but_after_a_rank_it_is() -> None:
    text = (
        "Met principal Dr. Hester Vail and wife Dr. Ona Greer (dentist).\n"
        "Resident: Dr. Kip Amos. Dr. Lutz (night resident) called."
    )
    spans = [
        span(text, "Hester Vail", "DOCTOR", "rules"),
        span(text, "Ona Greer", "DOCTOR", "rules"),
        span(text, "Kip Amos", "DOCTOR", "rules"),
        span(text, "Lutz", "DOCTOR", "rules"),
    ]
    out = steps.doctor_after_title(text, steps.name_roles(text, spans))
    assert [s.label for s in out] == ["PATIENT", "PATIENT", "DOCTOR", "DOCTOR"]


def test_a_role_that_starts_the_words_after_a_name_types_it() -> None:
    text = "Referral to gynaecology (Ms Rhea Quill, consultant gynaecologist) today."
    (out,) = steps.name_roles(text, [span(text, "Rhea Quill", "PATIENT", "rules")])
    assert out.label == "DOCTOR"


def test_a_crf_place_shaped_like_a_name_after_a_role_is_that_person() -> None:
    text = (
        "escorted by nurse Tavi Marangu.\nEmployer: Lakeside Feed Co\n"
        "RN (SPUH MICU) at 04:05; helper Rosalind Abad"
    )
    spans = [
        span(text, "Tavi Marangu", "ORGANIZATION"),
        span(text, "Lakeside Feed Co", "ORGANIZATION"),  # an institution word: left
        span(text, "SPUH MICU", "HOSPITAL"),  # acronyms: left
        span(text, "Rosalind Abad", "ORGANIZATION"),
    ]
    out = steps.name_roles(text, spans)
    assert [s.label for s in out] == ["DOCTOR", "ORGANIZATION", "HOSPITAL", "PATIENT"]
