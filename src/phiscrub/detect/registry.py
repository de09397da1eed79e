"""Every stage, validation hook and pipeline of ``phiscrub.detect``, registered by name here.

Stages are built on first use and cached (pattern compilation, lexicon loading); nothing
runs at import time.

Pipelines:

- ``rules``: the rule tagger of seed 001 §3.3.2 plus dictionaries (seed 000 §6.5.2):
  pattern files for every category, census-name and gazetteer detectors, then the
  span processors of ``resolve.py`` (clinical invalidation, id lists, name
  propagation, overlap resolution) and ``logins.py`` (logins built from the note's names).
- ``hd-baseline``: the heuristic+dictionary baseline of seed 000 §7.1.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType

from phiscrub.detect import lexicon, regex_shape, validators
from phiscrub.detect.baseline import HeuristicDictionaryDetector
from phiscrub.detect.context_checks import CONTEXT_CHECKS
from phiscrub.detect.dictionary import NameDictionaryDetector, PlaceDictionaryDetector
from phiscrub.detect.logins import Logins
from phiscrub.detect.pattern_files import PatternFile, load_pattern_file
from phiscrub.detect.patterns import PatternDetector
from phiscrub.detect.pipeline import Pipeline, Stage
from phiscrub.detect.resolve import IdLists, Invalidate, Propagate, Resolve
from phiscrub.detect.roles import ProfessionDetector
from phiscrub.errors import UsageError
from phiscrub.span import Span

#: validation hooks a pattern file may name
VALIDATORS: Mapping[str, validators.Validator] = MappingProxyType(
    {**validators.VALIDATORS, **CONTEXT_CHECKS, "known_city": lexicon.known_city}
)

#: the pattern files that tag PHI (data/patterns/<name>.toml), in stage order
RULE_FILES: tuple[str, ...] = ("date", "age", "contact", "ids", "location", "name")

#: priority of spans that no pattern produced (dictionaries, propagation)
SOURCE_PRIORITY: Mapping[str, int] = MappingProxyType(
    {
        "dict.names": 30,
        "dict.places": 40,
        "dict.professions": 40,
        "rules.propagate": 35,
        "rules.logins": 72,
        "hd.": 50,
    }
)


@functools.cache
def pattern_file(name: str) -> PatternFile:
    return load_pattern_file(name)


@functools.cache
def pattern_detector(name: str) -> PatternDetector:
    return PatternDetector(pattern_file(name), VALIDATORS)


def priority_of(span: Span) -> int:
    """The overlap-resolution priority of a span, from the pattern that produced it."""
    return _priority(span.source)


@functools.cache
def _priority(source: str) -> int:
    if source.startswith("rules.") and ":" in source:
        file, name = source[6:].split(":", 1)
        if file in RULE_FILES or file == "baseline":
            pat = pattern_detector(file).pattern(name.removesuffix("+list"))
            if pat is not None:
                return pat.priority
    for prefix, prio in SOURCE_PRIORITY.items():
        if source.startswith(prefix):
            return prio
    return 50


def _rules_stage(file: str) -> Callable[[], Stage]:
    return lambda: pattern_detector(file)


#: stage name -> factory
STAGES: Mapping[str, Callable[[], Stage]] = MappingProxyType(
    {
        **{file: _rules_stage(file) for file in RULE_FILES},
        "names_dict": lambda: NameDictionaryDetector(lexicon.lexicons()),
        "professions": ProfessionDetector,
        "places_dict": lambda: PlaceDictionaryDetector(lexicon.lexicons()),
        "invalidate": lambda: Invalidate(pattern_detector("clinical"), priority_of),
        "id_lists": IdLists,
        "propagate": lambda: Propagate(lexicon.lexicons()),
        "logins": lambda: Logins(lexicon.lexicons()),
        "resolve": lambda: Resolve(priority_of),
        "hd_dictionary": lambda: HeuristicDictionaryDetector(lexicon.lexicons()),
        "hd_patterns": lambda: pattern_detector("baseline"),
    }
)

#: pipeline name -> its stages, in order
PIPELINES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "rules": (
            *RULE_FILES,
            "names_dict",
            "places_dict",
            "professions",
            "invalidate",
            "id_lists",
            "propagate",
            "logins",
            "resolve",
        ),
        "hd-baseline": ("hd_patterns", "hd_dictionary", "resolve"),
    }
)


@functools.cache
def stage(name: str) -> Stage:
    if name not in STAGES:
        raise UsageError(f"no detection stage named {name!r}", hint=f"known: {', '.join(STAGES)}")
    return STAGES[name]()


def get_pipeline(name: str = "rules") -> Pipeline:
    """The pipeline registered under ``name`` (its stages built on first use)."""
    if name not in PIPELINES:
        raise UsageError(
            f"no pipeline named {name!r}", hint=f"choose one of: {', '.join(PIPELINES)}"
        )
    pipeline = Pipeline(name, tuple(stage(s) for s in PIPELINES[name]))
    # The parse trees shared by the analyses that build the stages are not used when
    # notes run: kept, they were ~480,000 of the process's ~550,000 objects that the
    # garbage collector tracks, and each full collection walked them (0.24 s, about one
    # per 200 notes of the default pipeline; 0.045 s without them).
    regex_shape.parse.cache_clear()
    return pipeline
