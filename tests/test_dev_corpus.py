"""The development corpus: valid, up to date with its sources, split by patient; every
other annotated corpus up to date with its sources and faithful through BIO."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import pytest

from phiscrub.io import read_corpus
from phiscrub.span import Document

CORPORA = Path(__file__).resolve().parents[1] / "corpora"
sys.path.insert(0, str(CORPORA))
import build_corpus  # noqa: E402
import build_dev  # noqa: E402

#: the annotated corpora besides the development corpus (built by corpora/build_corpus.py)
OTHER_CORPORA = tuple(build_corpus.PATIENTS)


def _contents(doc: Document) -> tuple[str, tuple[tuple[int, int, str], ...]]:
    """What a note's XML must hold: its text and its gold spans."""
    return doc.text, tuple((s.start, s.end, s.label) for s in doc.gold)


@pytest.fixture(scope="module")
def xml_docs() -> dict[str, tuple[str, tuple[tuple[int, int, str], ...]]]:
    corpus = read_corpus(CORPORA / "dev" / "xml", format="i2b2-2014")
    assert corpus.skipped == []
    return {d.id: _contents(d) for d in corpus.documents}


def test_xml_matches_the_sources(xml_docs: dict[str, object]) -> None:
    sources = sorted((CORPORA / "dev" / "src").glob("*.txt"))
    assert len(sources) == len(xml_docs)
    for path in sources:
        doc = build_dev.load(path)
        assert xml_docs[doc.id] == _contents(doc), f"{doc.id}: run python corpora/build_dev.py"


def test_corpus_size(xml_docs: dict[str, tuple[str, tuple[tuple[int, int, str], ...]]]) -> None:
    patients = {doc_id.split("-")[0] for doc_id in xml_docs}
    spans = [s for _, tags in xml_docs.values() for s in tags]
    assert len(xml_docs) >= 200 and len(patients) >= 60
    assert len(spans) >= 4000 and len({label for _, _, label in spans}) >= 25


def test_split_is_by_patient_and_complete(xml_docs: dict[str, object]) -> None:
    split = json.loads((CORPORA / "split.json").read_text())
    parts = [set(split[k]) for k in ("train", "dev", "test")]
    assert not (parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2])
    assert set().union(*parts) == {doc_id.split("-")[0] for doc_id in xml_docs}


@pytest.mark.parametrize(
    "folder",
    [
        CORPORA / "dev" / "xml",
        CORPORA.parent / "examples" / "gold",
        *(CORPORA / name / "xml" for name in OTHER_CORPORA),
    ],
    ids=str,
)
def test_every_gold_span_survives_bio(folder: Path) -> None:
    """span -> BIO -> span is the identity on every gold span of the repository's corpora."""
    from phiscrub.text import bio_to_spans, spans_to_bio

    docs = read_corpus(folder).documents
    total = 0
    for doc in docs:
        tokens, tags = spans_to_bio(doc.text, doc.gold)
        back = bio_to_spans(doc.text, tokens, tags)
        assert [(s.start, s.end, s.label) for s in back] == [
            (s.start, s.end, s.label) for s in doc.gold
        ], doc.id
        total += len(doc.gold)
    assert total > 0


@pytest.mark.parametrize("name", OTHER_CORPORA, ids=str)
def test_other_corpora_match_their_sources(name: str) -> None:
    """Every annotated corpus's XML is what ``build_corpus.py`` makes of its sources (a
    source edited without a rebuild would train or score stale notes)."""
    folder = CORPORA / name
    corpus = read_corpus(folder / "xml", format="i2b2-2014")
    assert corpus.skipped == []
    got = {d.id: _contents(d) for d in corpus.documents}
    sources = sorted((folder / "src").glob("*.txt"))
    assert sources and len(sources) == len(got)
    for path in sources:
        doc = build_dev.load(path)
        assert got.get(doc.id) == _contents(doc), (
            f"{name}/{doc.id}: run python corpora/build_corpus.py {name}"
        )


def test_every_annotated_corpus_has_its_own_patients(xml_docs: dict[str, object]) -> None:
    """``build_corpus.PATIENTS`` names every corpus folder with sources besides the
    development corpus (so each is built and checked here), and no two corpora, the
    development corpus included, share a patient."""
    folders = {p.parent.name for p in CORPORA.glob("*/src")} - {"dev"}
    assert folders == set(OTHER_CORPORA)
    ranges = sorted(build_corpus.PATIENTS.values(), key=lambda r: r.start)
    assert ranges[0].start > max(int(doc_id.split("-")[0]) for doc_id in xml_docs)
    assert all(a.stop <= b.start for a, b in itertools.pairwise(ranges))
