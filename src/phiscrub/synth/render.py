"""Rendering one note from a recipe: text, gold spans and the record of every insertion.

Every value a slot inserts is recorded (offsets, slot, label or None); the gold spans
are exactly the labelled insertions, so the annotation is exact by construction and
checkable: ``tests/synth`` compares spans, insertions and text.
"""

from __future__ import annotations

from typing import NamedTuple

from phiscrub.span import Span
from phiscrub.synth.bank import Bank, Item, Slot, Template
from phiscrub.synth.slots import NoteContext, fill

AMBIG_KIND = "ambig"


class Insertion(NamedTuple):
    """One inserted value: ``text == note[start:end]``; ``label`` None for non-PHI."""

    start: int
    end: int
    entity: str
    form: str
    label: str | None
    text: str


class Builder:
    """Accumulates the text of a note and what was inserted where."""

    __slots__ = ("chunks", "insertions", "pos")

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.insertions: list[Insertion] = []
        self.pos = 0

    def text(self, value: str) -> None:
        self.chunks.append(value)
        self.pos += len(value)

    def value(self, value: str, label: str | None, slot: Slot) -> None:
        if not value:
            return
        end = self.pos + len(value)
        self.insertions.append(Insertion(self.pos, end, slot.entity, slot.form, label, value))
        self.chunks.append(value)
        self.pos = end

    def result(self) -> str:
        return "".join(self.chunks)

    def spans(self) -> list[Span]:
        return [
            Span(i.start, i.end, i.label, i.text, "synth")
            for i in self.insertions
            if i.label is not None
        ]


def render_template(template: Template, ctx: NoteContext, out: Builder) -> None:
    for part in template:
        if isinstance(part, str):
            out.text(part)
        else:
            for value, label in fill(part.entity, part.form, ctx):
                out.value(value, label, part)


def render_recipe(bank: Bank, lines: tuple[tuple[Item, ...], ...], ctx: NoteContext) -> Builder:
    """The note a recipe gives in this context."""
    out = Builder()
    for line in lines:
        before = out.pos
        blank = False
        for item in line:
            if not item.kind:
                blank = True
                continue
            _render_item(bank, item, ctx, out, first=out.pos == before)
        if blank or out.pos != before:
            out.text("\n")
    return out


def _render_item(bank: Bank, item: Item, ctx: NoteContext, out: Builder, first: bool) -> None:
    rng = ctx.rng
    if item.kind == AMBIG_KIND and ctx.mode != "ambiguous":
        return
    if item.optional and rng.chance(50):
        return
    count = item.low if item.low == item.high else rng.between(item.low, item.high)
    for template in rng.sample(bank.fragments[item.kind], count):
        if not first:
            out.text(" ")
        render_template(template, ctx, out)
        first = False
