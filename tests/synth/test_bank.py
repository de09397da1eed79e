"""The template bank: its syntax, its size, and every fragment renders in every mode."""

from __future__ import annotations

import datetime as dt

import pytest

from phiscrub.synth.bank import BankError, Slot, compile_template, load_bank, parse_recipes
from phiscrub.synth.generate import patient_notes
from phiscrub.synth.profile import build_profile
from phiscrub.synth.render import Builder, render_template
from phiscrub.synth.rng import Rng, derive_key
from phiscrub.synth.slots import NoteContext


def test_bank_is_large_and_covers_every_kind_of_note() -> None:
    bank = load_bank()
    assert bank.size >= 500
    assert set(bank.recipes) == {
        "discharge",
        "ed",
        "clinic",
        "psych",
        "nursing",
        "radiology",
        "pathology",
        "phone",
        "instructions",
        "letter",
        "rx",
        "device",
        "ambulance",
    }


def test_template_syntax() -> None:
    assert compile_template("Seen by {DR.dr} on {DATE.visit}.", "t") == (
        "Seen by ",
        Slot("DR", "dr"),
        " on ",
        Slot("DATE", "visit"),
        ".",
    )
    with pytest.raises(BankError):
        compile_template("{PATIENT.nickname}", "t")
    with pytest.raises(BankError):
        compile_template("a { brace", "t")
    with pytest.raises(BankError):
        parse_recipes("@@ x\nheader*a-b\n")


@pytest.mark.parametrize("mode", ["random", "ambiguous", "oov"])
def test_every_fragment_renders(mode: str) -> None:
    key = derive_key("bank")
    profile = build_profile(key, "0001", mode, 2070)
    day = dt.date(2070, 5, 1)
    for kind, templates in load_bank().fragments.items():
        for n, template in enumerate(templates):
            ctx = NoteContext(key, profile, Rng.keyed(key, kind, str(n)), day, day, n, "iso", mode)
            out = Builder()
            render_template(template, ctx, out)
            text = out.result()
            assert text.strip() or kind == "ambig"
            assert all(text[i.start : i.end] == i.text for i in out.insertions)


def test_a_patient_alone_gives_the_same_notes() -> None:
    key = derive_key("x")
    first = [n.document.text for n in patient_notes(key, "0042", 3, "random")]
    again = [n.document.text for n in patient_notes(key, "0042", 3, "random")]
    assert first == again and len(set(first)) == 3
