"""The hybrid tagger (seed 001): each span step on hand-made notes, the compiled CRF decoder
against python-crfsuite, and the tagger end to end (fit, predict, patient, archive)."""

from __future__ import annotations

import random
from itertools import pairwise, product
from pathlib import Path

import pytest

from phiscrub.detect.resolve import Disjoint
from phiscrub.errors import UsageError
from phiscrub.model import load_model, save_model
from phiscrub.span import Document, Span
from phiscrub.taggers import CRFSettings, CRFTagger, PersistentTagger, Tagger
from phiscrub.taggers import hybrid_steps as steps
from phiscrub.taggers.chain import forward_backward, viterbi
from phiscrub.taggers.compiled import CompiledCRF, attribute_strings
from phiscrub.taggers.hybrid import STEPS, HybridSettings, HybridTagger
from phiscrub.text import tokenize

from .spans import at


def span(
    text: str, needle: str, label: str, source: str = "t", score: float = 1.0, nth: int = 0
) -> Span:
    """``spans.at`` with a source that is neither the rules' nor the CRF's by default."""
    return at(text, needle, label, source, score, nth)


# -- merge ------------------------------------------------------------------------
def test_merge_gives_rules_priority_for_well_formed_types() -> None:
    text = "Seen 03/04/2069 by Dr. Adams"
    rule_date = span(text, "03/04/2069", "DATE", "rules.date")
    crf_bad = span(text, "03/04", "PHONE", "crf")
    crf_name = span(text, "Adams", "DOCTOR", "crf")
    out = steps.merge([rule_date], [crf_bad, crf_name])
    assert [(s.text, s.label) for s in out] == [("03/04/2069", "DATE"), ("Adams", "DOCTOR")]


def test_merge_grows_a_rule_name_or_place_over_the_crf_span_keeping_its_label() -> None:
    text = "Seen by Dr. Mary Lee at Bay View High School in Boston."
    rule_name = span(text, "Mary", "DOCTOR", "rules.name")
    rule_org = span(text, "View High School", "ORGANIZATION", "rules.location")
    crf_name = span(text, "Mary Lee", "PATIENT", "crf")
    crf_org = span(text, "Bay View High", "ORGANIZATION", "crf")
    crf_wrong = span(text, "School in Boston", "DATE", "crf")  # another category: dropped
    out = steps.merge([rule_name, rule_org], [crf_name, crf_org, crf_wrong])
    assert [(s.text, s.label, s.source) for s in out] == [
        ("Mary Lee", "DOCTOR", "rules.name+crf"),
        ("Bay View High School", "ORGANIZATION", "rules.location+crf"),
    ]
    lone = steps.merge([span(text, "Boston", "CITY", "rules.location")], [])
    assert [(s.text, s.source) for s in lone] == [("Boston", "rules.location")]


@pytest.mark.parametrize(
    ("crf_text", "rule_text", "grown"),
    [
        ("T. Haskins", "Haskins", "T. Haskins"),  # an initial
        ("Rosario Santos dela Cruz", "Rosario Santos", "Rosario Santos dela Cruz"),  # particle
        ("VANTERPOOL, Desmond", "Desmond", "VANTERPOOL, Desmond"),  # LAST, First
        ("Ann Lee, BSN", "Ann Lee", "Ann Lee"),  # a credential
        ("Tran MBBS FRACGP", "Tran", "Tran"),  # international credentials
        ("Nurse Kim Ames", "Kim Ames", "Kim Ames"),  # a role word
        ("Sgt. Rivera", "Rivera", "Rivera"),  # a title
        ("Ferreira concurs", "Ferreira", "Ferreira"),  # a lower-case word
        ("Wendell, I", "Wendell", "Wendell"),  # the pronoun
    ],
)
def test_merge_grows_a_rule_name_only_over_more_name_words(
    crf_text: str, rule_text: str, grown: str
) -> None:
    text = f"Seen with {crf_text} called today."
    rule = span(text, rule_text, "DOCTOR", "rules.name")
    crf = span(text, crf_text, "DOCTOR", "crf")
    out = steps.merge([rule], [crf], text=text)
    assert [(s.text, s.label) for s in out] == [(grown, "DOCTOR")]


def test_disjoint_spans_answer_overlaps_as_a_pass_over_them_does() -> None:
    """``merge`` asks a bisection of kept spans whether a span overlaps one of them."""
    rng = random.Random(7)
    text = "x" * 200
    for _ in range(200):
        kept: list[Span] = []
        for _ in range(rng.randrange(12)):
            a = rng.randrange(190)
            s = Span.of(text, a, a + rng.randrange(1, 10), "DATE", "t")
            if not any(s.overlaps(k) for k in kept):
                kept.append(s)
        built = Disjoint(kept[: len(kept) // 2])
        for k in kept[len(kept) // 2 :]:
            built.add(k)
        for _ in range(20):
            a = rng.randrange(195)
            probe = Span.of(text, a, a + rng.randrange(1, 6), "DATE", "t")
            expected = any(probe.overlaps(k) for k in kept)
            assert Disjoint(kept).overlaps(probe) is expected
            assert built.overlaps(probe) is expected


def test_merge_fills_with_rule_spans_of_other_categories_only_where_no_crf_span_is() -> None:
    text = "Mary Lee, a retired welder and teacher"
    crf_name = span(text, "Mary Lee", "PATIENT", "crf")
    crf_job = span(text, "retired welder", "PROFESSION", "crf")
    rule_welder = span(text, "welder", "PROFESSION", "rules.professions")
    rule_teacher = span(text, "teacher", "PROFESSION", "rules.professions")
    out = steps.merge([rule_welder, rule_teacher], [crf_name, crf_job])
    assert [s.text for s in out] == ["Mary Lee", "retired welder", "teacher"]
    unfilled = steps.merge([rule_welder, rule_teacher], [crf_name, crf_job], fill=False)
    assert [s.text for s in unfilled] == ["Mary Lee", "retired welder"]


# -- error correction -------------------------------------------------------------
def test_fax_or_phone_follows_the_nearest_context_word() -> None:
    text = "Phone: 617-555-0101 Fax: 617-555-0199\nTel 617-555-0111"
    spans = [
        span(text, "617-555-0101", "FAX"),
        span(text, "617-555-0199", "PHONE"),
        span(text, "617-555-0111", "FAX"),
    ]
    assert [s.label for s in steps.fax_or_phone(text, spans)] == ["PHONE", "FAX", "PHONE"]


def test_fax_or_phone_keeps_a_label_without_context() -> None:
    text = "call back 555-0101"
    kept = span(text, "555-0101", "PHONE")
    text2 = "see 555-0101"
    fax = span(text2, "555-0101", "FAX")
    assert steps.fax_or_phone(text, [kept]) == [kept]
    assert steps.fax_or_phone(text2, [fax]) == [fax]
    text3 = "Telephone 410-555-0100 | Facsimile 410-555-0101"
    both = [span(text3, "410-555-0100", "PHONE"), span(text3, "410-555-0101", "PHONE")]
    assert [s.label for s in steps.fax_or_phone(text3, both)] == ["PHONE", "FAX"]


def test_states_not_in_the_state_list_are_dropped() -> None:
    text = "Lives in Ohio, moved from Mass. and from Springfield; also TX"
    spans = [
        span(text, "Ohio", "STATE"),
        span(text, "Springfield", "STATE"),
        span(text, "TX", "STATE"),
        span(text, "Springfield", "CITY"),
    ]
    out = steps.drop_unknown_states(text, spans)
    assert [(s.text, s.label) for s in out] == [
        ("Ohio", "STATE"),
        ("TX", "STATE"),
        ("Springfield", "CITY"),
    ]


def test_regions_outside_the_us_are_kept_and_grown_rule_states_dropped() -> None:
    text = "In Kelso, Co. Mayo; from Ludhiana, Punjab; clinic in Gimli, MB R0C 1B0; Bayview"
    spans = [
        span(text, "Co. Mayo", "STATE"),
        span(text, "Punjab", "STATE"),
        span(text, "MB", "STATE", source="rules.location:ca_province_postcode"),
        span(text, "Gimli, MB", "STATE", source="rules.location:state_name+crf"),
        span(text, "Bayview", "STATE"),
    ]
    out = steps.drop_unknown_states(text, spans)
    assert [s.text for s in out] == ["Co. Mayo", "Punjab", "MB"]
    assert "queensland" in steps.state_names() and "county cork" in steps.state_names()


def test_hospital_or_organization_by_words_and_context() -> None:
    text = "Works at Acme Corp. Admitted to Riverside. Employed by Riverside Medical Center."
    spans = [
        span(text, "Acme Corp", "HOSPITAL"),
        span(text, "Riverside", "ORGANIZATION"),
        span(text, "Riverside Medical Center", "ORGANIZATION"),
    ]
    out = steps.hospital_or_organization(text, spans)
    assert [s.label for s in out] == ["ORGANIZATION", "HOSPITAL", "HOSPITAL"]


def test_a_payer_label_makes_an_organization_and_care_words_a_hospital() -> None:
    text = "Insurance: Silver State Health ID 4471. Seen at Tidewater Dialysis. Oak Labs."
    spans = [
        span(text, "Silver State Health", "HOSPITAL"),
        span(text, "Tidewater Dialysis", "ORGANIZATION"),
        span(text, "Oak Labs", "HOSPITAL"),
    ]
    out = steps.hospital_or_organization(text, spans)
    assert [s.label for s in out] == ["ORGANIZATION", "HOSPITAL", "ORGANIZATION"]


def test_organization_words_beat_generic_health_words() -> None:
    text = "Buckeye Mutual Health denied it. Westline Medical Supply. Lakeshore Medical Center."
    spans = [
        span(text, "Buckeye Mutual Health", "HOSPITAL"),
        span(text, "Westline Medical Supply", "HOSPITAL"),
        span(text, "Lakeshore Medical Center", "ORGANIZATION"),
    ]
    out = steps.hospital_or_organization(text, spans)
    assert [s.label for s in out] == ["ORGANIZATION", "ORGANIZATION", "HOSPITAL"]


def test_care_practices_are_hospitals_and_shops_named_as_places_are_not() -> None:
    text = (
        "PCP: Kailua Town Medical Group. IOP at Back Mountain Counseling Services. PCA from "
        "Essex Home Care Partners. Dental plan: Pinetree Dental Benefits. Picked up pills "
        "from Big Sky Drug. Lives in Meade County. Grant from Four Corners Cancer Fund."
    )
    spans = [
        span(text, "Kailua Town Medical Group", "ORGANIZATION"),
        span(text, "Back Mountain Counseling Services", "ORGANIZATION"),
        span(text, "Essex Home Care Partners", "ORGANIZATION"),
        span(text, "Pinetree Dental Benefits", "HOSPITAL"),
        span(text, "Big Sky Drug", "CITY"),
        span(text, "Meade County", "CITY"),
        span(text, "Four Corners Cancer Fund", "CITY"),
    ]
    out = steps.hospital_or_organization(text, steps.place_or_organization(text, spans))
    assert [s.label for s in out] == [
        "HOSPITAL", "HOSPITAL", "HOSPITAL", "ORGANIZATION", "ORGANIZATION", "CITY",
        "ORGANIZATION",
    ]  # fmt: skip


# -- reconciliation ---------------------------------------------------------------
def test_a_name_with_a_credential_is_a_doctor_everywhere_in_the_note() -> None:
    text = "Jordan Ellery, LMFT called. Ellery will see her; Mary Lee is her mother."
    spans = [
        span(text, "Jordan Ellery", "PATIENT"),
        span(text, "Ellery", "PATIENT", nth=1),
        span(text, "Mary Lee", "PATIENT"),
    ]
    out = steps.doctor_after_title(text, spans)
    assert [s.label for s in out] == ["DOCTOR", "DOCTOR", "PATIENT"]


def test_a_name_after_dr_is_a_doctor_everywhere_in_the_note() -> None:
    text = "Dr. Helen Novak saw him.\nNovak\nHelen Novak agreed."
    spans = [
        span(text, "Helen Novak", "PATIENT"),
        span(text, "Novak", "PATIENT", nth=1),
        span(text, "Helen Novak", "PATIENT", nth=1),
    ]
    assert {s.label for s in steps.doctor_after_title(text, spans)} == {"DOCTOR"}


def test_type_counting_takes_the_majority_type_seen_twice() -> None:
    text = "Kent. Kent. Kent. Paris"
    a = [span(text, "Kent", "PATIENT", nth=i) for i in range(2)]
    odd = span(text, "Kent", "CITY", nth=2)
    once = span(text, "Paris", "CITY")
    (out,) = steps.type_counting([[*a, odd, once]])
    assert [s.label for s in out] == ["PATIENT", "PATIENT", "PATIENT", "CITY"]
    (tie,) = steps.type_counting([[a[0], odd]])
    assert [s.label for s in tie] == ["PATIENT", "CITY"]


def test_name_roles_type_a_name_by_the_role_word_before_it() -> None:
    text = (
        "Provider: Tom Grin, MD   RN: Kristen Ames\n"
        "Subscriber Mark Lee / ID 4471 (attorney Gerald Foss). Ames called.\n"
        "pt Anna Bell seen; Sonny saw Mark Lee; partner Dr. Ruth Ng"
    )
    found = [
        span(text, "Kristen Ames", "PATIENT", "crf"),
        span(text, "Mark Lee", "DOCTOR", "crf"),
        span(text, "Gerald Foss", "DOCTOR", "crf"),
        span(text, "Anna Bell", "DOCTOR", "crf"),  # "pt" is the patient, no role: left
        span(text, "Mark Lee", "DOCTOR", "crf", nth=1),  # another mention of a decided name
        span(text, "Ruth Ng", "DOCTOR", "crf"),  # a title between: not a partner
    ]
    out = steps.name_roles(text, found)
    assert [(s.text, s.label) for s in out] == [
        ("Kristen Ames", "DOCTOR"),
        ("Mark Lee", "PATIENT"),
        ("Gerald Foss", "PATIENT"),
        ("Anna Bell", "DOCTOR"),
        ("Mark Lee", "PATIENT"),
        ("Ruth Ng", "DOCTOR"),
    ]
    assert out[0].source == "hybrid.correct:role" and out[3].source == "crf"


def test_name_roles_look_past_an_honorific_and_at_a_role_after_the_name() -> None:
    text = (
        "Swallow screen (SLP Ms. Greer). Chaplain Rev. Amos Dunn came.\n"
        "Checked by Rhona Kerr, clinical pharmacist. Spoke with R. Szabo (employer).\n"
        "Seen with Ann Poole, Mary Lee."
    )
    found = [
        span(text, "Greer", "PATIENT", "rules"),
        span(text, "Amos Dunn", "PATIENT", "rules"),
        span(text, "Rhona Kerr", "PATIENT", "crf"),
        span(text, "R. Szabo", "DOCTOR", "crf"),
        span(text, "Ann Poole", "DOCTOR", "crf"),  # a name after it is no role: left
    ]
    out = steps.name_roles(text, found)
    assert [s.label for s in out] == ["DOCTOR", "DOCTOR", "DOCTOR", "PATIENT", "DOCTOR"]



def test_name_roles_a_credential_outranks_a_patient_role_and_a_bare_role_takes_no_title() -> None:
    text = (
        "Resident: Prudhomme, Evangeline   Rm B-14\n"
        "Resident: Daniel Feng, MD (PGY-2)\n"
        "I am referring Mr. Kingfisher to you. Referring: Ada Wills\n"
        "cc: O. Baptiste (patient); Roberta Doyle, RHIT"
    )
    found = [
        span(text, "Prudhomme, Evangeline", "DOCTOR", "rules"),  # long-term care: the patient
        span(text, "Daniel Feng", "DOCTOR", "rules"),  # a physician: ", MD" outranks the role
        span(text, "Kingfisher", "PATIENT", "crf"),  # "referring Mr." is a verb and its object
        span(text, "Ada Wills", "PATIENT", "crf"),
        span(text, "O. Baptiste", "DOCTOR", "rules"),
        span(text, "Roberta Doyle", "DOCTOR", "crf"),  # records staff are not providers
    ]
    out = steps.name_roles(text, found)
    labels = ["PATIENT", "DOCTOR", "PATIENT", "DOCTOR", "PATIENT", "PATIENT"]
    assert [s.label for s in out] == labels


def test_name_roles_a_relative_outranks_a_credential_and_dear_greets_a_colleague() -> None:
    text = (
        "Dear Howard,\n\nI saw your patient Mr. Pike today.\n"
        "Family: daughter Kristal Hatfield (LPN) flying in; wife Lena Pike, RN at bedside.\n"
        "Peer recovery specialist: Dante Whitlock, CPRS"
    )
    found = [
        span(text, "Howard", "PATIENT", "rules"),  # a letter about a patient: a clinician
        span(text, "Kristal Hatfield", "DOCTOR", "crf"),  # family, whatever her job
        span(text, "Lena Pike", "DOCTOR", "crf"),
        span(text, "Dante Whitlock", "PATIENT", "crf"),
    ]
    out = steps.name_roles(text, found)
    assert [s.label for s in out] == ["DOCTOR", "PATIENT", "PATIENT", "DOCTOR"]
    portal = "Hi Maren,\nYour refill is ready."
    (hi,) = steps.name_roles(portal, [span(portal, "Maren", "PATIENT", "rules")])
    assert hi.label == "PATIENT"


def test_trim_names_drops_a_leading_role_or_closed_class_word_only() -> None:
    from phiscrub.taggers.hybrid_tidy import trim_names

    text = "WITNESS CARMEN ESTRADA, RN. Doula Simone Carr present. A. Lund; Grace Lee; By"
    spans = [
        span(text, "WITNESS CARMEN ESTRADA", "DOCTOR", "rules"),
        span(text, "Doula Simone Carr", "DOCTOR", "crf"),
        span(text, "A. Lund", "DOCTOR", "crf"),  # an initial stays
        span(text, "Grace Lee", "PATIENT", "crf"),  # a first name that is also a word stays
        span(text, "By", "PATIENT", "rules"),  # nothing after it: left (a CRF "By" is dropped)
    ]
    out = trim_names(text, spans)
    assert [s.text for s in out] == ["CARMEN ESTRADA", "Simone Carr", "A. Lund", "Grace Lee", "By"]
    assert out[0].source == "rules+trim" and out[2].source == "crf"


def test_a_doctors_surname_does_not_make_her_family_doctors() -> None:
    text = "Daughter is Dr. Natalia Whitfield. Husband Arthur Whitfield drove. Whitfield paged."
    spans = [
        span(text, "Natalia Whitfield", "PATIENT"),
        span(text, "Arthur Whitfield", "PATIENT"),
        span(text, "Whitfield", "PATIENT", nth=2),
    ]
    out = steps.doctor_after_title(text, spans)
    assert [s.label for s in out] == ["DOCTOR", "PATIENT", "DOCTOR"]


def test_propagation_tags_a_bare_surname_across_a_patients_notes() -> None:
    first = "Patient: Walter Quimby\nSeen today."
    second = "Follow-up.\nQuimby\nWalter Quimby called. Quimbyville is a town."
    confident = span(first, "Walter Quimby", "PATIENT", "crf", 0.99)
    out = steps.propagate([first, second], [[confident], []])
    assert out[0] == [confident]
    assert [(s.text, s.label) for s in out[1]] == [
        ("Quimby", "PATIENT"),
        ("Walter Quimby", "PATIENT"),
    ]
    assert all(s.source == "hybrid.reconcile:propagate" for s in out[1])


def test_propagation_needs_confidence_and_skips_common_words() -> None:
    text = "Mr. John White\nWhite\nJohn White left. Quimby Zed"
    white = span(text, "John White", "PATIENT", "crf", 0.99)
    unsure = span(text, "Quimby Zed", "PATIENT", "crf", 0.5)
    (out,) = steps.propagate([text], [[white, unsure]])
    assert [s.text for s in out] == ["John White", "John White", "Quimby Zed"]


def test_propagation_tags_a_bare_first_name_but_no_credential() -> None:
    text = "Patient: Priya Venkataraman, PhD\nHi Priya, your labs are back. PhD student."
    full = span(text, "Priya Venkataraman", "PATIENT", "crf", 0.99)
    (out,) = steps.propagate([text], [[full]])
    assert [(s.text, s.label) for s in out] == [
        ("Priya Venkataraman", "PATIENT"),
        ("Priya", "PATIENT"),
    ]


def test_propagation_keeps_whole_words_of_any_script() -> None:
    # an accented first name is one word: no ``Luc`` seed that would tag ``Luc`` in ``Lucía``
    text = "Patient: Lucía Ortega\nDiscussed with Lucía and Luc Ortega's brother Luc."
    full = span(text, "Lucía Ortega", "PATIENT", "crf", 0.99)
    (out,) = steps.propagate([text], [[full]])
    assert [s.text for s in out] == ["Lucía Ortega", "Lucía", "Ortega"]


def test_propagation_tags_an_institutions_initials() -> None:
    text = "Seen at Tamarack Valley Medical Center.\nTVMC MRN 4471. TV at home. St Joseph Clinic."
    hosp = span(text, "Tamarack Valley Medical Center", "HOSPITAL", "crf", 0.99)
    short = span(text, "St Joseph Clinic", "HOSPITAL", "crf", 0.99)
    (out,) = steps.propagate([text], [[hosp, short]])
    assert [(s.text, s.label) for s in out if s.source.endswith("propagate")] == [
        ("TVMC", "HOSPITAL"),  # SJC is not in the note; two-word names give no initials
    ]


# -- the compiled decoder ----------------------------------------------------------
def _brute_force(emit: list[list[float]], trans: list[list[float]]) -> list[int]:
    from itertools import product

    def score(path: list[int]) -> float:
        return sum(emit[t][y] for t, y in enumerate(path)) + sum(
            trans[a][b] for a, b in pairwise(path)
        )

    paths = [list(p) for p in product(range(len(trans)), repeat=len(emit))]
    return max(paths, key=score)


def test_batched_viterbi_is_exact_for_notes_of_any_length() -> None:
    import numpy

    rng = numpy.random.default_rng(0)
    trans = rng.normal(0, 2, (3, 3))
    emits = [rng.normal(0, 2, (n, 3)) for n in (5, 1, 0, 6, 3)]
    paths = viterbi(emits, trans)
    for emit, path in zip(emits, paths, strict=True):
        assert path == (_brute_force(emit.tolist(), trans.tolist()) if len(emit) else [])
    for probs, emit in zip(forward_backward(emits, trans), emits, strict=True):
        assert probs.shape == emit.shape
        assert numpy.allclose(probs.sum(axis=1), 1.0)
    alone = forward_backward([emits[0]], trans)[0]
    assert numpy.allclose(alone, forward_backward(emits, trans)[0])


def test_forward_backward_gives_the_exact_marginals_and_keeps_earlier_results() -> None:
    import math

    import numpy

    rng = numpy.random.default_rng(1)
    trans = rng.normal(0, 2, (3, 3))
    emits = [rng.normal(0, 2, (n, 3)) for n in (4, 1, 5, 2)]
    first = forward_backward(emits[:2], trans)
    kept = [p.copy() for p in first]
    probs = forward_backward(emits, trans)  # a longer batch: the workspace is reused
    for p, q in zip(first, kept, strict=True):
        assert numpy.array_equal(p, q)
    for emit, prob in zip(emits, probs, strict=True):
        n = len(emit)
        want = numpy.zeros((n, 3))
        for path in product(range(3), repeat=n):
            s = sum(emit[t, path[t]] for t in range(n))
            s += sum(trans[path[t - 1], path[t]] for t in range(1, n))
            for t in range(n):
                want[t, path[t]] += math.exp(s)
        want /= want.sum(axis=1, keepdims=True)
        assert numpy.allclose(prob, want)
    # a thread that finds the workspace in use computes the same on fresh arrays
    from phiscrub.taggers import chain

    with chain._WORKSPACE.lock:
        busy = forward_backward(emits, trans)
    for p, q in zip(busy, probs, strict=True):
        assert numpy.array_equal(p, q)


def test_batches_group_notes_of_similar_length_within_both_bounds() -> None:
    from phiscrub.taggers.hybrid import BATCH, BATCH_CHARS, batches

    lengths = [5, BATCH_CHARS // 2, 7, 3] + [100] * (BATCH + 10) + [BATCH_CHARS // 3]
    groups = batches(lengths)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    flat = [lengths[i] for g in groups for i in g]
    assert flat == sorted(lengths)  # shortest first, in order
    for g in groups:
        assert len(g) <= BATCH
        assert len(g) == 1 or len(g) * max(lengths[i] for i in g) <= BATCH_CHARS
    assert batches([]) == []


def test_compiled_crf_matches_python_crfsuite(crf: CRFTagger, synth_test: list[Document]) -> None:
    compiled = CompiledCRF.from_taggers([crf._tagger], crf._extractor)
    for doc in synth_test[:5]:
        tokens = tokenize(doc.text)
        feats = crf._extractor.sequence(doc.text, tokens)
        crf._tagger.set(feats)
        emit = compiled.emissions(doc.text, tokens)
        assert compiled.decode([emit]) == [crf._tagger.tag()]
        outside = compiled.chains[0].labels.index("O")
        margs = compiled.marginals([emit])[0][:, outside]
        for i in range(len(tokens)):
            assert abs(margs[i] - crf._tagger.marginal("O", i)) < 1e-4
        # the attributes the compiled decoder builds are those of the feature extractor
        items = compiled.position_items(doc.text, tokens)
        for i in range(len(tokens)):
            window = {
                f"{d}:{k}:{v}" if isinstance(v, str) else f"{d}:{k}"
                for d in range(-2, 3)
                if 0 <= i + d < len(tokens)
                for k, v in crf._extractor.word_features(tokens[i + d].text).items()
                if d == 0 or k != "bias"
            }
            assert window | set(items[i]) == set(attribute_strings(feats[i]))


# -- the tagger -------------------------------------------------------------------
@pytest.fixture(scope="module")
def hybrid(synth_train: list[Document]) -> HybridTagger:
    tagger = HybridTagger(settings=HybridSettings(crf=CRFSettings(max_iter=30)))
    tagger.fit(synth_train[:30])
    return tagger


def test_hybrid_implements_the_protocols(hybrid: HybridTagger) -> None:
    assert isinstance(hybrid, Tagger) and isinstance(hybrid, PersistentTagger)
    assert "O" in hybrid.labels and "B-DATE" in hybrid.labels and "B-PATIENT" in hybrid.labels


def test_hybrid_spans_are_valid_and_steps_switch_off(
    hybrid: HybridTagger, synth_test: list[Document]
) -> None:
    doc = synth_test[0]
    spans = hybrid.predict(doc)
    assert spans and doc.with_layer("hybrid", spans)
    assert all(not a.overlaps(b) for a, b in pairwise(spans))
    crf_only = hybrid.predict(doc, disable=set(STEPS))
    assert {s.source.split(".")[0] for s in crf_only} <= {"crf"}
    with pytest.raises(UsageError):
        hybrid.predict(doc, disable={"no-such-step"})


def test_hybrid_marginals_sum_to_one(hybrid: HybridTagger, synth_test: list[Document]) -> None:
    for _, probs in hybrid.predict_marginals(synth_test[1])[:50]:
        assert abs(sum(probs.values()) - 1.0) < 1e-6


def test_predict_patient_reconciles_across_notes(
    hybrid: HybridTagger, synth_test: list[Document]
) -> None:
    docs = synth_test[:3]
    per_note = hybrid.predict_patient(docs)
    assert len(per_note) == 3
    for doc, spans in zip(docs, per_note, strict=True):
        doc.with_layer("x", spans)
        plain = hybrid.predict(doc, disable={"type_counting", "propagate"})
        assert {(s.start, s.end) for s in plain} <= {(s.start, s.end) for s in spans}


def test_hybrid_archive_round_trip(
    hybrid: HybridTagger, synth_test: list[Document], tmp_path: Path
) -> None:
    path = tmp_path / "hybrid.phiscrub"
    save_model(hybrid, path)
    loaded = load_model(path)
    assert isinstance(loaded, HybridTagger)
    doc = synth_test[2]
    assert loaded.predict(doc) == hybrid.predict(doc)
    assert loaded.with_threshold(0.9).predict(doc)


def test_a_state_right_after_a_name_is_a_credential() -> None:
    text = "Ann Lee, MD saw her in Baltimore, MD"
    spans = [
        span(text, "Ann Lee", "DOCTOR"),
        span(text, "MD", "STATE"),
        span(text, "Baltimore", "CITY"),
        span(text, "MD", "STATE", nth=1),
    ]
    out = steps.drop_credentials(text, spans)
    assert [(s.text, s.start) for s in out if s.label == "STATE"] == [("MD", text.rindex("MD"))]


def test_id_by_context_types_record_shapes_by_the_name_before_them() -> None:
    from phiscrub.taggers.hybrid_ids import id_by_context

    text = (
        "Pt: Hal Whitcombe (GMH-00784312) called.\n"
        "Police log WMC-52-10-1177 filed.\n"
        "Insulin pump ID CADD-SLS-00917; flu vaccine lot FL4471."
    )
    spans = [
        span(text, "Hal Whitcombe", "PATIENT", "rules.name:patient_trigger"),
        span(text, "GMH-00784312", "MEDICALRECORD", "rules.ids:record_shape"),
        span(text, "WMC-52-10-1177", "MEDICALRECORD", "rules.ids:record_shape+crf"),
        span(text, "CADD-SLS-00917", "IDNUM", "rules.ids:idnum_context"),
        span(text, "FL4471", "IDNUM", "rules.ids:idnum_context"),
    ]
    out = id_by_context(text, spans)
    # other ids are left as they are (device ids are typed by the rules, ids.toml)
    assert [s.label for s in out] == ["PATIENT", "MEDICALRECORD", "IDNUM", "IDNUM", "IDNUM"]
