"""The note gate (``prefilter``) never rules out an alternative that matches in the note.

The detectors run with the gate when its engine is installed; ``test_scan.py`` checks them
against one plain alternation of each file on every case and negative text. Here the gate
itself: on every case and negative text (and a few notes made for it) each alternative
with a match is among those it lets through, the spans are the same without it, it falls
back to "every alternative" whenever it cannot tell, and its relaxation of a regex matches
wherever the regex does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from phiscrub.detect import prefilter
from phiscrub.detect.patterns import PatternDetector
from phiscrub.detect.registry import RULE_FILES, VALIDATORS, pattern_detector, pattern_file

from .test_scan import TEXTS

FILES = [*RULE_FILES, "clinical"]
EXTRA = [
    "Pain 7/10 at rest; employer: Acme Freight (works at the dock since 2069).",
    "Lives in Springfield, IL 62704 with wife. Email jdoe@example.org, fax (217) 555-0134.",
    "Signed by Dr. Vance 03/04/2071 | transcribed by kl | MRN: 4411-223",
    "\u017figned by DR. \u212aELLY on 3/4; \u0130STANBUL, T\u00fcrkiye",
    "BP 120/80, HR 72. Seen 3/4. Follow up in 2 weeks.\n\n\n",
    "",
    "x",
]

needs_engine = pytest.mark.skipif(prefilter.engine() is None, reason="no gate engine")


def _alone(det: PatternDetector, slot: int) -> re.Pattern[str]:
    alt, flags = det._alts[slot]
    return re.compile(f"(?{flags}:{alt})" if flags else alt)


@needs_engine
@pytest.mark.parametrize("file", FILES)
def test_every_alternative_with_a_match_is_let_through(file: str) -> None:
    det = pattern_detector(file)
    assert det._gate.db is not None, file  # every file's searchers are gated
    alones = [_alone(det, slot) for slot in range(len(det._alts))]
    for text in [*TEXTS, *EXTRA]:
        det._gate.last = None
        on = det._gate.active(text)
        assert on is not None
        for slot, rx in enumerate(alones):
            if rx.search(text) is not None:
                assert slot in on, (file, det._alts[slot][0][:60])


@pytest.mark.parametrize("file", FILES)
def test_same_matches_without_the_gate(file: str) -> None:
    gated = pattern_detector(file)
    plain = PatternDetector(pattern_file(file), VALIDATORS)
    plain._gate = prefilter.Gate([], [])  # no engine behind it: every alternative is on
    for text in [*TEXTS, *EXTRA]:
        assert list(gated.iter_matches(text)) == list(plain.iter_matches(text)), file


def test_no_gate_means_every_alternative(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHISCRUB_GATE", "0")
    assert prefilter.engine() is None
    gate = prefilter.Gate([("abc", 0), ("d+", 0)], [0, 1])
    assert gate.active("abc") is None
    assert gate.always == {0, 1}


@needs_engine
def test_gate_rules_out_and_falls_back() -> None:
    gate = prefilter.Gate([("Dr\\.", 0), ("\\d{3}-\\d{4}", 0), ("(?i:mrn)", 0)], [0, 1])
    assert gate.active("call 555-0134") == {1, 2}  # slot 2 is not judged: always on
    assert gate.active("Dr. Who") == {0, 2}
    assert gate.active("lone \ud800 surrogate") is None  # UTF-8 cannot carry it


@needs_engine
def test_the_cache_is_used_and_survives_a_bad_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHISCRUB_CACHE", str(tmp_path))
    alts = [("Dr\\.", 0), ("\\d{3}-\\d{4}", 0)]
    first = prefilter.Gate(alts, [0, 1])
    (cached,) = tmp_path.glob("*.hsdb")
    again = prefilter.Gate(alts, [0, 1])
    assert first.active("Dr. 555-0134") == again.active("Dr. 555-0134") == {0, 1}
    cached.write_bytes(b"not a database")
    rebuilt = prefilter.Gate(alts, [0, 1])
    assert rebuilt.active("555-0134") == {1}


_RELAXED = [
    # (Python regex, flags, texts where it matches)
    (r"\bDr\.\s+(?=[A-Z])[A-Z][a-z]+", 0, ["Dr. Smith", "(Dr.  Ab"]),
    (r"(?<!\d)\d{1,2}/\d{1,2}/\d{2,4}(?!\d)", 0, ["3/14/2067", "12/1/71"]),
    (r"(?i:mrn)[:#]?\s*\d{6,}+", 0, ["MRN: 1234567", "mRn1234567"]),
    (r"(?i)kelly|(?>ab|a)c", 0, ["\u212aELLY", "ac", "abc"]),
    (r"^\s*Name:\s*(?P<v>\w+)$", re.M, ["Name: Jos\u00e9", "  Name:\t\u0130pek"]),
    (r"\w+@\w+\.(?:com|org)", 0, ["jo\u00e3o@exemplo.org"]),
    (r"(?x) \d+ [ ] kg  # a weight", 0, ["70 kg"]),
]


@needs_engine
@pytest.mark.parametrize(("regex", "flags", "texts"), _RELAXED)
def test_relaxed_regex_matches_wherever_the_regex_does(
    regex: str, flags: int, texts: list[str]
) -> None:
    gate = prefilter.Gate([(regex, flags)], [0])
    assert gate.db is not None
    for text in texts:
        assert re.search(regex, text, flags) is not None, text
        gate.last = None
        assert gate.active(text) == {0}, (regex, text)
    gate.last = None
    assert gate.active("nothing of the kind here") in (frozenset(), None)


def test_relax_drops_what_the_engine_cannot_read() -> None:
    assert prefilter.relax(r"\b(?<!x)a(?=b)$") == "a"
    assert prefilter.relax("a{2,9}") == "(?:a)+"  # a large count: as often as it likes
    assert prefilter.relax("a{2}b?") == "(?:a){2}(?:b)?"
    assert prefilter.relax("[^a]").endswith("\\x{80}-\\x{10ffff}]")
    assert prefilter.relax("(?i:k)") == "(?:[\\x4b\\x6b\\x{80}-\\x{10ffff}])"  # the Kelvin sign
    with pytest.raises(prefilter.Unsupported):
        prefilter.relax("(a")
