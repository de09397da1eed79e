"""The array decoder gives exactly the spans of the dict-based ``decode_threshold``."""

from __future__ import annotations

import numpy
import pytest

from phiscrub.taggers.decode import OUTSIDE, ArrayDecoder, decode_threshold
from phiscrub.text import tokenize

LABELS = ("B-DATE", "I-DATE", OUTSIDE, "B-PATIENT", "I-PATIENT", "B-CITY", "I-CITY")
IO_LABELS = (OUTSIDE, "I-DATE", "I-PATIENT", "I-CITY")


@pytest.mark.parametrize("labels", [LABELS, IO_LABELS], ids=["bio", "io"])
def test_array_decoder_matches_the_dict_decoder_on_random_marginals(
    labels: tuple[str, ...],
) -> None:
    rng = numpy.random.default_rng(7)
    text = " ".join(f"w{i}" for i in range(40))
    tokens = tokenize(text)
    decoder = ArrayDecoder(labels)
    for _ in range(200):
        probs = rng.dirichlet(numpy.full(len(labels), 0.3), size=len(tokens))
        for threshold in (0.2, 0.5, 0.9):
            dicts = [dict(zip(labels, row, strict=True)) for row in probs.tolist()]
            want = decode_threshold(text, tokens, dicts, threshold, "crf")
            got = decoder(text, tokens, probs, threshold, "crf")
            assert [(s.start, s.end, s.label) for s in got] == [
                (s.start, s.end, s.label) for s in want
            ]
            assert numpy.allclose([s.score for s in got], [s.score for s in want])


def test_array_decoder_without_phi() -> None:
    tokens = tokenize("nothing here")
    probs = numpy.zeros((len(tokens), len(LABELS)))
    probs[:, LABELS.index(OUTSIDE)] = 1.0
    assert ArrayDecoder(LABELS)("nothing here", tokens, probs, 0.7, "crf") == []


def test_io_tags_cut_a_run_where_the_subtype_changes() -> None:
    text = "Ann Lee Boston x"
    tokens = tokenize(text)
    probs = numpy.array(
        [
            [0.1, 0.0, 0.9, 0.0],  # Ann: patient
            [0.2, 0.1, 0.6, 0.1],  # Lee: patient (no B- tag: the run goes on)
            [0.3, 0.0, 0.2, 0.5],  # Boston: city, so a new span
            [0.9, 0.1, 0.0, 0.0],
        ]
    )
    dicts = [dict(zip(IO_LABELS, row, strict=True)) for row in probs.tolist()]
    for spans in (
        ArrayDecoder(IO_LABELS)(text, tokens, probs, 0.5, "crf"),
        decode_threshold(text, tokens, dicts, 0.5, "crf"),
    ):
        assert [(s.text, s.label) for s in spans] == [("Ann Lee", "PATIENT"), ("Boston", "CITY")]
