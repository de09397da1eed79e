"""Optional families: word clusters and Link Grammar syntactic bigrams."""

from __future__ import annotations

import pytest

from phiscrub.errors import UsageError
from phiscrub.features import FeatureConfig, FeatureExtractor, WordClusters, syntax
from phiscrub.text import tokenize


def test_word_clusters_group_words_of_like_contexts() -> None:
    texts = ["seen by dr smith today", "seen by dr jones today", "seen by dr brown today",
             "took aspirin daily", "took tylenol daily", "took heparin daily"] * 5  # fmt: skip
    clusters = WordClusters.learn(texts, coarse=2, fine=4, min_count=5)
    c = clusters.clusters
    assert c["smith"] == c["jones"] == c["brown"]
    assert c["aspirin"][1] == c["tylenol"][1] and c["aspirin"][1] != c["smith"][1]
    assert WordClusters.from_dict(clusters.to_dict()) == clusters
    fx = FeatureExtractor(FeatureConfig(clusters=True), clusters=clusters)
    assert fx.word_features("Smith")["clu_f"] == str(c["smith"][1])
    assert "clu_f" not in FeatureExtractor().word_features("Smith")  # off by default


def test_clusters_need_text() -> None:
    with pytest.raises(UsageError):
        WordClusters.learn(["too little"])


@pytest.mark.skipif(syntax.available(), reason="the Link Grammar parser is installed")
def test_syntax_without_the_parser_is_a_clear_error() -> None:
    with pytest.raises(UsageError) as err:
        FeatureExtractor(FeatureConfig(syntax=True))
    assert "Link Grammar" in err.value.message


@pytest.mark.skipif(not syntax.available(), reason="the Link Grammar parser is not installed")
def test_syntactic_bigrams_follow_links() -> None:
    """Seed 000 §6.4.2: 'Hatfield' has the left syntactic bigram (lives, MVp), (in, Js)."""
    text = "She lives alone in Hatfield."
    seq = FeatureExtractor(FeatureConfig(syntax=True)).sequence(text, tokenize(text))
    hatfield = seq[4]
    assert hatfield["0:synL1=Js|in"] == 1.0
    assert any(k.startswith("0:synL2=MV") and k.endswith("|lives") for k in hatfield)
