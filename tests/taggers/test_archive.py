"""Model archives: a round trip predicts the same; a damaged archive gives a coded error."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from phiscrub.model import (
    IncompatibleModel,
    ModelError,
    ModelInfo,
    load_model,
    read_info,
    save_model,
)
from phiscrub.span import Document
from phiscrub.taggers import CRFTagger


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory, crf: CRFTagger) -> Path:
    path = tmp_path_factory.mktemp("model") / "crf.phiscrub"
    info = ModelInfo(
        training={"corpora": [{"name": "synth", "documents": 60, "patients": 20}]},
        evaluation={"synth-test": {"strict": {"precision": 0.9, "recall": 0.8, "f1": 0.85}}},
    )
    save_model(crf, path, info)
    return path


def test_round_trip_predicts_identically(
    archive: Path, crf: CRFTagger, synth_test: list[Document]
) -> None:
    loaded = load_model(archive)
    assert isinstance(loaded, CRFTagger)
    for doc in synth_test[:5]:
        assert loaded.predict(doc) == crf.predict(doc)
    assert loaded.labels == crf.labels and loaded.features == crf.features


def test_archive_holds_metadata_and_card(archive: Path) -> None:
    meta = read_info(archive)
    assert meta["format"] == "phiscrub-model" and meta["tagger"] == "crf"
    assert meta["features"]["window"] == 2 and "O" in meta["labels"]
    assert meta["training"]["corpora"][0]["documents"] == 60
    with zipfile.ZipFile(archive) as zf:
        names = zf.namelist()
        card = zf.read("MODEL_CARD.md").decode()
    assert "parts/crf.model" in names and not any(n.endswith(".pkl") for n in names)
    assert "Part-of-speech" in card and "| synth-test | strict |" in card


def _rewrite(src: Path, dst: Path, change: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for name in zin.namelist():
            zout.writestr(name, change.get(name, zin.read(name)))
    return dst


def test_truncated_archive_is_a_coded_error(archive: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.phiscrub"
    bad.write_bytes(archive.read_bytes()[:200])
    with pytest.raises(ModelError) as err:
        load_model(bad)
    assert err.value.code == "E601"


def test_corrupted_member_is_a_coded_error(archive: Path, tmp_path: Path) -> None:
    bad = _rewrite(archive, tmp_path / "bad.phiscrub", {"parts/crf.model": b"garbage"})
    with pytest.raises(ModelError) as err:
        load_model(bad)
    assert err.value.code == "E601" and "checksum" in str(err.value)


def test_not_a_model_and_missing_file(tmp_path: Path) -> None:
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("readme.txt", "hello")
    for path in (other, tmp_path / "absent.phiscrub"):
        with pytest.raises(ModelError) as err:
            load_model(path)
        assert err.value.code == "E601"


@pytest.mark.parametrize(
    "change", [{"format_version": 99}, {"tagger": "quantum"}, {"features": {"schema": 42}}]
)
def test_incompatible_archive_is_e602(
    archive: Path, tmp_path: Path, change: dict[str, object]
) -> None:
    with zipfile.ZipFile(archive) as zf:
        meta = json.loads(zf.read("phiscrub-model.json"))
    meta.update(change)
    meta_bytes = json.dumps(meta).encode()
    bad = _rewrite(archive, tmp_path / "x.phiscrub", {"phiscrub-model.json": meta_bytes})
    with pytest.raises(IncompatibleModel) as err:
        load_model(bad)
    assert err.value.code == "E602"
