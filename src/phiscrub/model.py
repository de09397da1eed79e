"""Model archives: a trained tagger as a versioned zip file, never a pickle.

An archive holds::

    phiscrub-model.json   metadata: format name and version, phiscrub version, tagger kind,
                          label set, FeatureConfig, tagger settings, training corpora and
                          sizes, evaluation figures, and a SHA-256 of every other member
    MODEL_CARD.md         the model card (Markdown): data, settings, figures, limits
    parts/<name>          the tagger's files (for a CRF: the crfsuite model, statistics)

Loading reads JSON and the tagger's own binary formats only, checks every checksum, and
turns any defect into ``ModelError`` (E601: unreadable or corrupted) or
``IncompatibleModel`` (E602: another format version, feature schema or tagger kind).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub import __version__
from phiscrub.errors import PhiscrubError, UsageError
from phiscrub.features import FeatureConfig
from phiscrub.taggers.base import PersistentTagger, TaggerState
from phiscrub.taggers.registry import tagger_class

__all__ = [
    "ARCHIVE_FORMAT",
    "ARCHIVE_VERSION",
    "IncompatibleModel",
    "ModelError",
    "ModelInfo",
    "load_model",
    "read_info",
    "save_model",
]

ARCHIVE_FORMAT = "phiscrub-model"
ARCHIVE_VERSION = 1
META = "phiscrub-model.json"
CARD = "MODEL_CARD.md"
PARTS = "parts/"
#: archives larger than this are refused before reading (a default model is < 50 MB)
MAX_MEMBER_BYTES = 512 * 1024 * 1024


class ModelError(PhiscrubError, ValueError):
    """A model archive that cannot be read: not a zip, a missing or corrupted member."""

    code = "E601"
    hint = "the file is not a phiscrub model or is damaged; train it again or re-copy it"


class IncompatibleModel(ModelError):
    """A well-formed archive that this phiscrub cannot use."""

    code = "E602"
    hint = "use the phiscrub version that wrote the model, or train it again with this one"


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """What a model card and the metadata say about how the model was made."""

    training: dict[str, Any] = field(default_factory=dict)
    evaluation: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _metadata(state: TaggerState, info: ModelInfo, files: dict[str, bytes]) -> dict[str, Any]:
    return {
        "format": ARCHIVE_FORMAT,
        "format_version": ARCHIVE_VERSION,
        "phiscrub_version": __version__,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "tagger": state.kind,
        "labels": list(state.labels),
        "features": state.features.to_dict(),
        "settings": state.settings,
        "training": info.training,
        "evaluation": info.evaluation,
        "notes": info.notes,
        "files": {name: _sha(data) for name, data in sorted(files.items())},
    }


def save_model(tagger: PersistentTagger, path: str | Path, info: ModelInfo | None = None) -> None:
    """Write a fitted tagger, its metadata and its model card to ``path`` (a zip file)."""
    from phiscrub.taggers.card import render_card

    info = info or ModelInfo()
    state = tagger.export()
    files = {PARTS + name: data for name, data in state.files.items()}
    meta = _metadata(state, info, files)
    card = render_card(meta)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(META, json.dumps(meta, indent=1, sort_keys=True))
        zf.writestr(CARD, card)
        for name, data in files.items():
            zf.writestr(name, data)
    tmp.replace(path)


def _read_members(path: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ModelError(f"cannot read the model file ({exc.strerror})", path=str(path)) from None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if sum(i.file_size for i in infos) > MAX_MEMBER_BYTES:
                raise ModelError("the model archive is too large to be a phiscrub model")
            members = {i.filename: zf.read(i) for i in infos}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError):
        raise ModelError("not a readable zip archive", path=str(path)) from None
    if META not in members:
        raise ModelError(f"the archive has no {META}", path=str(path))
    try:
        meta = json.loads(members[META])
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ModelError(f"{META} is not JSON", path=str(path)) from None
    if not isinstance(meta, dict):
        raise ModelError(f"{META} is not a JSON object", path=str(path))
    return meta, members


def _check(meta: dict[str, Any], members: dict[str, bytes], where: str) -> None:
    if meta.get("format") != ARCHIVE_FORMAT:
        raise ModelError("the archive is not a phiscrub model", path=where)
    version = meta.get("format_version")
    if version != ARCHIVE_VERSION:
        raise IncompatibleModel(
            f"archive format version {version!r}; this phiscrub reads version {ARCHIVE_VERSION}",
            path=where,
        )
    files = meta.get("files")
    if not isinstance(files, dict):
        raise ModelError("the metadata lists no files", path=where)
    for name, digest in files.items():
        if name not in members:
            raise ModelError(f"member {name} is missing", path=where)
        if _sha(members[name]) != digest:
            raise ModelError(f"member {name} is corrupted (checksum mismatch)", path=where)


def read_info(path: str | Path) -> dict[str, Any]:
    """The metadata of a model archive (checked, but the tagger is not built)."""
    meta, members = _read_members(Path(path))
    _check(meta, members, str(path))
    return meta


def load_model(path: str | Path) -> PersistentTagger:
    """Rebuild the tagger of a model archive (see the module docstring for the errors)."""
    where = str(path)
    meta, members = _read_members(Path(path))
    _check(meta, members, where)
    try:
        cls = tagger_class(str(meta.get("tagger")))
        features = FeatureConfig.from_dict(meta["features"])
        state = TaggerState(
            kind=cls.kind,
            features=features,
            labels=tuple(meta.get("labels", ())),
            settings=dict(meta.get("settings", {})),
            files={n[len(PARTS) :]: d for n, d in members.items() if n.startswith(PARTS)},
        )
        return cls.restore(state)
    except UsageError as exc:
        raise IncompatibleModel(exc.message, path=where) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ModelError(f"the metadata is malformed ({type(exc).__name__})", path=where) from None
