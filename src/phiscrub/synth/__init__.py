"""The synthetic corpus generator (``phiscrub synth``): annotated notes from a bank of
templates, with random, ambiguous or out-of-vocabulary surrogates (seed 000 §5)."""

from __future__ import annotations

from phiscrub.synth.generate import SynthNote, SynthOptions, documents, generate
from phiscrub.synth.render import Insertion

__all__ = ["Insertion", "SynthNote", "SynthOptions", "documents", "generate"]
