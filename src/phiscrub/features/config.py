"""``FeatureConfig``: which feature families the extractor computes, serialisable to JSON.

A model archive stores its configuration, so a loaded model computes exactly the features
it was trained with. Unknown keys in a stored configuration are an error (a newer model
read by an older phiscrub), never silently ignored.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from phiscrub.errors import UsageError

__all__ = ["FEATURE_SCHEMA", "FeatureConfig"]

#: version of the feature definitions; a change that alters feature strings bumps it
FEATURE_SCHEMA = 1
#: families added within schema 1 (on by default now, off for configurations without them)
ADDED_FAMILIES = ("glove",)


@dataclass(frozen=True, slots=True)
class FeatureConfig:
    """Feature families (each on or off) and their sizes.

    Per word type, then windowed over ``±window`` tokens:
    ``lexical`` (lower case, prefixes and suffixes of 1..``affix_max`` characters; seed 003
    Table 2, seed 001 (3)), ``orthographic`` (shape, short shape, length and flags; seed 003),
    ``regex_shapes`` (year, month/day numbers, initials, roman numerals; seed 001 (2)),
    ``dictionaries`` (name, place, hospital, street and date word lists; seed 000 §6,
    seed 003), ``medical`` (clinical vocabulary; seed 000's MeSH feature), ``profession``
    (suffix -ist/-ian/-man; seed 001), ``frequency`` (frequency class and capitalization
    ratio from the training corpus; seed 002), ``glove`` (the word's clusters, at three
    nested granularities, of the GloVe 6B vectors shipped as
    ``data/features/glove_clusters.txt``: seed 001 (9), word clusters of a large text),
    ``clusters`` (word clusters, needs a
    cluster file).

    At the target only: ``ngrams`` (token and shape bigrams and trigrams in the window,
    which include seed 000's lexical bigrams; seed 001 (4), (12)), ``chunk_shapes`` (regex
    classes of the whitespace-delimited word holding the token: date-, phone-, time-,
    e-mail-like), ``sentence`` (length class and shape; seed 001 (6), (7)), ``section``
    (heading; seed 001 (8), seed 000), ``attribute`` (attribute name; seed 001 (13)),
    ``layout`` (first / last / only token of its line), ``triggers`` (trigger phrases at
    offsets 1..``trigger_offsets`` either side; seed 002), ``syntax`` (Link Grammar
    syntactic bigrams; seed 000 §6.4.2; needs the optional parser).

    ``easyadapt`` adds domain copies of every feature (seed 001 §3.3.3).
    """

    window: int = 2
    lexical: bool = True
    affix_max: int = 4
    orthographic: bool = True
    regex_shapes: bool = True
    dictionaries: bool = True
    medical: bool = True
    profession: bool = True
    frequency: bool = True
    glove: bool = True
    clusters: bool = False
    ngrams: bool = True
    chunk_shapes: bool = True
    sentence: bool = True
    section: bool = True
    attribute: bool = True
    layout: bool = True
    triggers: bool = True
    trigger_offsets: int = 3
    syntax: bool = False
    easyadapt: bool = False

    def __post_init__(self) -> None:
        for name in ("window", "affix_max", "trigger_offsets"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 8:
                raise UsageError(f"feature setting {name} must be an integer from 0 to 8")
        for f in fields(self):
            if f.type in (bool, "bool") and not isinstance(getattr(self, f.name), bool):
                raise UsageError(f"feature family {f.name} must be true or false")

    @classmethod
    def fast(cls) -> FeatureConfig:
        """The preset of the default model: every family whose features are computed per
        word type (cheap once cached), without the per-token families that cost the most
        tagging time for the least accuracy: n-grams, sentence and attribute features
        (measured on the development corpus; docs/models.md "The default model")."""
        return cls(ngrams=False, sentence=False, attribute=False)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": FEATURE_SCHEMA, **asdict(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FeatureConfig:
        """Build from ``to_dict`` output; unknown keys or another schema raise UsageError."""
        data = dict(data)
        schema = data.pop("schema", FEATURE_SCHEMA)
        if schema != FEATURE_SCHEMA:
            raise UsageError(
                f"feature schema {schema} is not the one this phiscrub computes ({FEATURE_SCHEMA})",
                hint="retrain the model with this phiscrub version",
            )
        # families added after a configuration was stored: absent means off, so that an
        # older model computes exactly the features it was trained with
        for name in ADDED_FAMILIES:
            data.setdefault(name, False)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise UsageError(
                f"unknown feature settings: {', '.join(unknown)}",
                hint="the configuration was written by another phiscrub version",
            )
        return cls(**data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> FeatureConfig:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"feature configuration is not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise UsageError("feature configuration must be a JSON object")
        return cls.from_dict(data)
