"""Reading training corpora for the ``train``, ``cv`` and ``tag`` commands.

A split file (``corpora/split.json``) assigns patients to ``train``, ``dev`` and ``test``.
It applies to a corpus whose patients it lists (all of them: a corpus only partly listed
is an error, since its unlisted patients could be anyone's); a corpus none of whose
patients it lists (a synthetic one) is used whole.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phiscrub.errors import UsageError
from phiscrub.io import Corpus, read_corpus
from phiscrub.span import Document

__all__ = ["LoadedCorpus", "load_corpus", "load_split"]

log = logging.getLogger("phiscrub.taggers")


@dataclass(frozen=True, slots=True)
class LoadedCorpus:
    name: str
    documents: list[Document]
    role: str = ""

    def describe(self) -> dict[str, Any]:
        """Name, size and role, for the model metadata (no note text)."""
        return {
            "name": self.name,
            "documents": len(self.documents),
            "patients": len({d.patient_id for d in self.documents}),
            "spans": sum(len(d.gold) for d in self.documents),
            "role": self.role,
        }


def load_split(path: str | Path) -> dict[str, set[str]]:
    """The patient sets of a split file (``{"train": [...], "dev": [...], ...}``)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise UsageError(
            f"cannot read the split file ({type(exc).__name__})", path=str(path)
        ) from None
    if not isinstance(data, dict):
        raise UsageError("a split file is a JSON object of patient lists", path=str(path))
    return {k: {str(p) for p in v} for k, v in data.items() if isinstance(v, list)}


def _read(path: str, fmt: str | None) -> list[Document]:
    corpus: Corpus = read_corpus(path, format=fmt)
    if corpus.skipped:
        raise UsageError(
            f"{len(corpus.skipped)} file(s) under {path} could not be read "
            f"({corpus.skipped[0][1].code})",
            hint="fix or remove those files; a model trained on part of a corpus misleads",
        )
    return corpus.documents


#: folder names that say a corpus's format, not which corpus it is
_FORMAT_FOLDERS = frozenset(
    {"xml", "txt", "text", "brat", "jsonl", "csv", "parquet", "notes", "src"}
)


def _display_name(path: str) -> str:
    """The name a model card and an evaluation give a corpus: ``tune/xml``, not ``xml``."""
    p = Path(path)
    if p.name.lower() in _FORMAT_FOLDERS and p.parent.name:
        return f"{p.parent.name}/{p.name}"
    return p.name or path


def load_corpus(
    path: str,
    fmt: str | None = None,
    split: dict[str, set[str]] | None = None,
    use: Sequence[str] = (),
    role: str = "",
) -> LoadedCorpus:
    """Read a corpus and keep the patients of the ``use`` parts of ``split``."""
    docs = _read(path, fmt)
    name = _display_name(path)
    if split is None or not use:
        return LoadedCorpus(name, docs, role)
    unknown = [u for u in use if u not in split]
    if unknown:
        raise UsageError(
            f"the split file has no part named {unknown[0]!r}",
            hint=f"use one of {', '.join(sorted(split))}",
        )
    listed = set().union(*split.values())
    patients = {d.patient_id for d in docs}
    if not patients & listed:
        log.info("corpus %s is not in the split file: all of it is used", name)
        return LoadedCorpus(name, docs, role)
    if not patients <= listed:
        raise UsageError(
            f"corpus {name}: {len(patients - listed)} patient(s) are not in the split file",
            hint="a split must list every patient of the corpus it splits",
        )
    keep = set().union(*(split[u] for u in use))
    kept = [d for d in docs if d.patient_id in keep]
    return LoadedCorpus(f"{name}[{'+'.join(use)}]", kept, role)
