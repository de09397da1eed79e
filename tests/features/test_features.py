"""The shared feature extractor: per-type caching, windows, families, configuration."""

from __future__ import annotations

import pytest

from phiscrub.errors import UsageError
from phiscrub.features import CorpusStats, FeatureConfig, FeatureExtractor, augment, with_domain
from phiscrub.features.token import orthographic_features, regex_shape_features, shape
from phiscrub.span import Document, Span
from phiscrub.text import tokenize


def _features(text: str, config: FeatureConfig | None = None) -> list[dict[str, str | float]]:
    return FeatureExtractor(config).sequence(text, tokenize(text))


def _own(feats: dict[str, str | float], prefix: str) -> dict[str, str | float]:
    """The word-type features of one window position (not n-grams, not context)."""
    return {k[len(prefix) :]: v for k, v in feats.items() if k.startswith(prefix)}


def test_word_type_features_do_not_depend_on_context() -> None:
    """Cache correctness: a type's features are the same wherever it occurs, whether it
    was cached first at the start, in the middle or at the end of a note."""
    text = "Smith\nDr. Smith saw Mr Smith on 3/4 .\nSmith"
    seq = _features(text)
    fresh = FeatureExtractor()
    positions = [i for i, t in enumerate(tokenize(text)) if t.text == "Smith"]
    assert len(positions) == 4
    expected = dict(fresh.word_features("Smith"))
    for i in positions:
        own = {k: v for k, v in _own(seq[i], "0:").items() if k in expected}
        assert own == expected
    # and the same type seen as a neighbour carries the same features, prefixed
    neighbour = _own(seq[positions[1] + 1], "-1:")
    assert neighbour == {k: v for k, v in expected.items() if k != "bias"}


def test_cached_and_uncached_extraction_agree() -> None:
    text = "Seen by Dr. Jones at Mercy Hospital on 04/05/2091, MRN 123456."
    warm = FeatureExtractor()
    warm.sequence(text, tokenize(text))
    assert warm.sequence(text, tokenize(text)) == FeatureExtractor().sequence(text, tokenize(text))


def test_window_keys_are_position_prefixed() -> None:
    seq = _features("a b c d e")
    middle = seq[2]
    for offset, word in ((-2, "a"), (-1, "b"), (0, "c"), (1, "d"), (2, "e")):
        assert middle[f"{offset}:lower"] == word
    assert middle["-1|0:lower"] == "b|c" and middle["0|1|2:lower"] == "c|d|e"
    assert "-3:lower" not in middle
    assert seq[0]["-1:BOS"] == 1.0 and seq[0]["-2:BOS"] == 1.0 and seq[-1]["2:EOS"] == 1.0


def test_window_size_follows_the_configuration() -> None:
    seq = _features("a b c d e f g", FeatureConfig(window=1))
    assert "1:lower" in seq[3] and "2:lower" not in seq[3]
    assert "0|1|2:lower" not in seq[3]


def test_families_can_be_switched_off() -> None:
    off = FeatureConfig(lexical=False, orthographic=False, ngrams=False, triggers=False)
    feats = _features("Seen by Dr. Jones", off)[3]
    assert not any(k.endswith(":lower") or k.endswith(":shape") for k in feats)
    assert not any(":trig" in k for k in feats)


def test_table2_orthographic_features() -> None:
    assert shape("Valdez") == "Aaaaaa" and shape("12/3") == "00/0"
    flags = orthographic_features("Valdez")
    assert flags["initcap"] == 1.0 and "allcap" not in flags and "hasdigit" not in flags
    assert orthographic_features("2091")["alldigit"] == 1.0
    assert regex_shape_features("2091")["year"] == 1.0
    assert "initial" in regex_shape_features("J")


def test_dictionary_medical_and_profession_features() -> None:
    fx = FeatureExtractor()
    assert fx.word_features("Boston")["dict_city"] == 1.0
    assert fx.word_features("April")["dict_date"] == 1.0
    assert fx.word_features("Hospital")["dict_hospital"] == 1.0
    assert fx.word_features("parkinson").get("medical") == 1.0
    assert fx.word_features("pharmacist")["prof_suffix"] == "ist"


def test_context_features_triggers_section_attribute() -> None:
    text = "SOCIAL HISTORY:\nOccupation: teacher\nSeen by Dr. Jones today."
    toks = tokenize(text)
    seq = _features(text)
    jones = next(i for i, t in enumerate(toks) if t.text == "Jones")
    teacher = next(i for i, t in enumerate(toks) if t.text == "teacher")
    assert seq[jones]["0:trig-1:TITLE"] == 1.0  # "Dr ." ends just before Jones
    assert seq[jones]["0:section"] == "SOCIAL HISTORY"
    assert seq[teacher]["0:attr"] == "occupation"
    assert "0:bol" not in seq[teacher] and seq[teacher]["0:eol"] == 1.0


def test_frequency_features_come_from_training_counts_without_phi() -> None:
    text = "Smith saw the patient. The patient saw Smith."
    spans = [Span.of(text, 0, 5, "DOCTOR"), Span.of(text, 39, 44, "DOCTOR")]
    stats = CorpusStats.learn([Document("d1", text, layers={"gold": spans})])
    assert stats.frequency_class("patient") == "f1"
    assert stats.frequency_class("Smith") == "unseen"  # PHI occurrences are not counted
    fx = FeatureExtractor(FeatureConfig(), stats)
    assert fx.word_features("the")["capr"] in {"never", "rare", "half", "mostly", "always"}


def test_feature_config_json_round_trip() -> None:
    config = FeatureConfig(window=3, ngrams=False, easyadapt=True, trigger_offsets=2)
    assert FeatureConfig.from_json(config.to_json()) == config
    assert FeatureConfig.from_dict(FeatureConfig().to_dict()) == FeatureConfig()


@pytest.mark.parametrize(
    "text",
    ['{"window": 2, "colour": true}', '{"schema": 99}', '{"window": -1}', "[1]", "{bad"],
)
def test_feature_config_rejects_bad_json(text: str) -> None:
    with pytest.raises(UsageError):
        FeatureConfig.from_json(text)


def test_easyadapt_makes_general_and_domain_copies() -> None:
    feats = {"0:lower": "smith", "0:initcap": 1.0}
    src = augment(feats, "source")
    assert src == {"g~0:lower": "smith", "s~0:lower": "smith", "g~0:initcap": 1.0,
                   "s~0:initcap": 1.0}  # fmt: skip
    tgt = augment(feats, "target")
    assert set(tgt) == {"g~0:lower", "t~0:lower", "g~0:initcap", "t~0:initcap"}
    with pytest.raises(UsageError):
        augment(feats, "elsewhere")


def test_easyadapt_through_the_extractor_and_documents() -> None:
    doc = Document("n1", "Seen by Dr. Jones", "p1")
    (marked,) = with_domain([doc], "source")
    assert marked.metadata["domain"] == "source" and marked.text == doc.text
    fx = FeatureExtractor(FeatureConfig(easyadapt=True))
    toks = tokenize(doc.text)
    source = fx.sequence(doc.text, toks, "source")[0]
    target = fx.sequence(doc.text, toks)[0]  # new notes are target notes
    assert source["g~0:lower"] == target["g~0:lower"] == "seen"
    assert "s~0:lower" in source and "t~0:lower" in target
    assert not any(k.startswith("t~") for k in source)


def test_glove_clusters_group_words_of_a_kind_and_mark_unknown_words() -> None:
    """The shipped GloVe clusters: kinds of place share a cluster (a diner and an
    apothecary, a hospital and a clinic), an invented brand has none, a number no feature."""
    fx = FeatureExtractor(FeatureConfig())

    def clusters(word: str) -> dict[str, str | float]:
        return {k: v for k, v in fx.word_features(word).items() if k in ("gc", "gm", "gf")}

    assert clusters("Diner") == clusters("apothecary") != {}
    assert clusters("hospital")["gf"] == clusters("Clinic")["gf"]
    assert clusters("hospital")["gf"] != clusters("Tulsa")["gf"]
    assert clusters("Church's") == clusters("church") != {"gc": "none"}
    assert clusters("RxPorchly") == {"gc": "none"}
    assert clusters("12") == {}
    assert "gc" not in FeatureExtractor(FeatureConfig(glove=False)).word_features("Diner")


def test_a_stored_configuration_without_a_later_family_keeps_it_off() -> None:
    """A model stored before the glove family existed computes what it was trained with."""
    stored = FeatureConfig().to_dict()
    del stored["glove"]
    assert FeatureConfig.from_dict(stored).glove is False
    assert FeatureConfig().glove is True
