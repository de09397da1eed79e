"""Property: any text and any non-overlapping spans survive i2b2-2014, jsonl and brat."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from phiscrub.io import read_corpus, write_corpus
from phiscrub.span import Document, Span
from phiscrub.taxonomy import SUBTYPES

#: characters XML 1.0 can carry, with the hard ones made likely
_PIECES = st.sampled_from(["\r", "\n", "\r\n", "\t", "]]>", "]]", "é", "中", "😀", "&", "<", '"'])
_CHARS = st.characters(
    codec="utf-8",  # no lone surrogates
    exclude_characters="".join(map(chr, [*range(9), 11, 12, *range(14, 32), 0xFFFE, 0xFFFF])),
)
TEXTS = st.lists(st.one_of(_PIECES, st.text(_CHARS, max_size=8)), min_size=1, max_size=30).map(
    "".join
)


@st.composite
def documents(draw: st.DrawFn) -> Document:
    text = draw(TEXTS.filter(bool))
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=12)))
    spans = [
        Span.of(text, start, end, draw(st.sampled_from(SUBTYPES)))
        for start, end in zip(cuts[::2], cuts[1::2], strict=False)
        if start < end
    ]
    return Document("123-45", text, "123", layers={"gold": spans})


@settings(max_examples=150, deadline=None)
@given(doc=documents())
def test_random_documents_round_trip(doc: Document) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, name in (("i2b2-2014", "x"), ("jsonl", "c.jsonl"), ("brat", "b")):
            target = Path(tmp) / name
            write_corpus([doc], target, format=fmt)
            (back,) = read_corpus(target, format=fmt).documents
            assert (back.id, back.patient_id, back.text) == (doc.id, doc.patient_id, doc.text)
            assert [s.to_dict() for s in back.gold] == [s.to_dict() for s in doc.gold], fmt
