"""Pattern files: the data of the rule detectors, and their loader.

A pattern file ``phiscrub/data/patterns/<category>.toml`` holds named patterns::

    [[pattern]]
    name = "numeric_mdy"          # unique in the file; the span source is "rules.<file>:<name>"
    label = "DATE"                # the subtype of the whole match (or of group ``v``)
    reason = "why it exists"      # printed by ``phiscrub detect --explain``
    regex = '''...'''             # Python ``re`` syntax; ``%NAME%`` expands a shared definition
    flags = "i"                   # optional: any of "i", "m", "x" (scoped to this pattern)
    validate = ["date_parts"]     # optional: hooks of ``validators.VALIDATORS``
    priority = 50                 # optional: overlap resolution order (higher wins)
    score = 1.0                   # optional: confidence of the span
    anchor = '...'                # optional: a fast regex every match contains; the pattern
    before = 80                   #   is searched only from ``before`` chars ahead of an
                                  #   anchor match to the end of its line (speed only)

A pattern marks what it tags with named groups: ``(?P<v>...)`` for its own label, or a
group named after a label (``(?P<CITY>...)``, ``(?P<LOCATION_OTHER>...)``) so that one
address line yields STREET, CITY, STATE and ZIP spans. Without such a group the whole match
is tagged. Definitions shared by every file live in ``_common.toml`` under ``[defs]``; a file
may add its own ``[defs]``.

``detect/patterns.py`` runs them (``PatternDetector``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from phiscrub.detect.tries import optimize_def
from phiscrub.errors import UsageError
from phiscrub.taxonomy import CATEGORY_OF

__all__ = ["NOT_PHI", "Pattern", "PatternFile", "Validator", "load_pattern_file"]

_DEF = re.compile(r"%([A-Z][A-Z0-9_]*)%")
_BACKREF = re.compile(r"\\[1-9]")
_FLAGS = {"i", "m", "x"}
#: the label of invalidation patterns (clinical numbers and phrases): they block, never tag
NOT_PHI = "NOT-PHI"

#: a hook gets the text and the range it would tag (the first labelled group, or the match)
Validator = Callable[[str, int, int], bool]


@dataclass(frozen=True, slots=True)
class Pattern:
    """One named pattern of a pattern file, with the reason it exists."""

    file: str
    name: str
    label: str
    reason: str
    regex: str
    flags: str = ""
    validate: tuple[str, ...] = ()
    priority: int = 50
    score: float = 1.0
    anchor: str = ""
    before: int = 80
    source: str = field(init=False, compare=False, repr=False)  # "rules.<file>:<name>"

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", f"rules.{self.file}:{self.name}")

    def scoped(self) -> str:
        """The regex with its flags scoped to it, so that it can join an alternation."""
        return f"(?{self.flags}:{self.regex})" if self.flags else f"(?:{self.regex})"


@dataclass(frozen=True, slots=True)
class PatternFile:
    """The parsed content of one pattern file."""

    name: str
    about: str
    patterns: tuple[Pattern, ...]


def _expand(regex: str, defs: Mapping[str, str], where: str) -> str:
    for _ in range(8):  # definitions may use definitions
        if "%" not in regex:
            return regex

        def sub(m: re.Match[str]) -> str:
            if m.group(1) not in defs:
                raise UsageError(f"{where}: unknown definition %{m.group(1)}%")
            return defs[m.group(1)]

        regex = _DEF.sub(sub, regex)
    return regex


def _read_toml(name: str) -> dict[str, Any]:
    data = resources.files("phiscrub").joinpath("data", "patterns", f"{name}.toml").read_bytes()
    try:
        return tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"patterns/{name}.toml: {exc}") from exc


def load_pattern_file(
    name: str, common: Mapping[str, str] | None = None, optimize: bool = True
) -> PatternFile:
    """Parse ``data/patterns/<name>.toml``, expanding shared definitions (word lists as
    tries, :mod:`phiscrub.detect.tries`, unless ``optimize`` is False: the same matches)."""
    raw = _read_toml(name)
    defs = dict(common if common is not None else _read_toml("_common").get("defs", {}))
    defs.update(raw.get("defs", {}))
    if optimize:
        defs = {k: optimize_def(v) for k, v in defs.items()}
    patterns: list[Pattern] = []
    seen: set[str] = set()
    for entry in raw.get("pattern", []):
        where = f"patterns/{name}.toml:{entry.get('name', '?')}"
        if entry["name"] in seen:
            raise UsageError(f"{where}: duplicate pattern name")
        seen.add(entry["name"])
        if entry["label"] not in CATEGORY_OF and entry["label"] != NOT_PHI:
            raise UsageError(f"{where}: unknown label {entry['label']}")
        if not entry.get("reason"):
            raise UsageError(f"{where}: every pattern needs a reason")
        if _BACKREF.search(entry["regex"]):
            raise UsageError(f"{where}: numbered groups and back-references break the alternation")
        flags = entry.get("flags", "")
        if set(flags) - _FLAGS:
            raise UsageError(f"{where}: unsupported flags {flags!r}")
        patterns.append(
            Pattern(
                file=name,
                name=entry["name"],
                label=entry["label"],
                reason=entry["reason"],
                regex=_expand(entry["regex"], defs, where),
                flags=flags,
                validate=tuple(entry.get("validate", ())),
                priority=int(entry.get("priority", raw.get("priority", 50))),
                score=float(entry.get("score", 1.0)),
                anchor=_expand(entry.get("anchor", ""), defs, where),
                before=int(entry.get("before", 80)),
            )
        )
    return PatternFile(name, raw.get("about", ""), tuple(patterns))
