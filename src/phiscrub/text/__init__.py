"""Text preparation (DESIGN.md stage 2): tokens with offsets, the BIO view of spans,
sentences, section headings and attribute-value lines. Every offset is a half-open
code-point offset into the original, unmodified text."""

from __future__ import annotations

from phiscrub.text.bio import bio_to_spans, spans_to_bio
from phiscrub.text.sections import (
    AttributeValue,
    Heading,
    attribute_at,
    attribute_values,
    known_headings,
    section_at,
    section_headings,
)
from phiscrub.text.sentences import sentences
from phiscrub.text.tokenize import Token, split_at, tokenize

__all__ = [
    "AttributeValue",
    "Heading",
    "Token",
    "attribute_at",
    "attribute_values",
    "bio_to_spans",
    "known_headings",
    "section_at",
    "section_headings",
    "sentences",
    "spans_to_bio",
    "split_at",
    "tokenize",
]
