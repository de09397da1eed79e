"""The service core (no HTTP): variants share the loaded detector; the default model."""

from __future__ import annotations

from typing import Any

import pytest

from phiscrub.api import Deidentifier, Settings
from phiscrub.serve.service import Limits, NoteInput, Service, documents, kept_labels
from phiscrub.surrogate.keys import SurrogateKeyError

from .phi import KEY, NOTE, PHI


def test_with_replacement_shares_the_detector_and_key() -> None:
    base = Deidentifier(Settings(pipeline="rules"), key=KEY)
    tagged = base.with_replacement(mode="tag", keep=["DATE"])
    assert tagged._detect is base._detect and tagged.settings.pipeline == "rules"
    assert tagged.settings.mode == "tag" and tagged.settings.keep == ("DATE",)
    assert tagged.key is None and base.key == KEY
    assert tagged.deidentify(NOTE).text.startswith("Patient [**PATIENT**] was seen on 03/14/2021")
    again = base.with_replacement(keep=["NAME"])  # same mode, same key
    assert again.key == KEY and again.deidentify(NOTE, "p1").text.startswith("Patient Zebulon")
    assert base.with_replacement().deidentify(NOTE, "p1").text == base.deidentify(NOTE, "p1").text


def test_with_replacement_to_surrogate_needs_a_key() -> None:
    tagger = Deidentifier(Settings(pipeline="rules", mode="tag"))
    with pytest.raises(SurrogateKeyError):
        tagger.with_replacement(mode="surrogate")


def test_variants_are_cached_and_checked() -> None:
    service = Service.start(Settings(pipeline="rules", mode="tag"), KEY)
    assert service.default_mode == "tag" and service.key_loaded
    assert service.variant() is service.variant("tag", ())
    assert service.variant(keep=["DATE", "AGE"]) is service.variant(keep=["AGE", "DATE"])
    assert service.variant("surrogate").key == KEY
    keyless = Service.start(Settings(pipeline="rules", mode="redact"), None, Limits(max_notes=2))
    assert not keyless.key_loaded and keyless.limits.max_notes == 2
    with pytest.raises(SurrogateKeyError):
        keyless.variant("surrogate")


def test_surrogate_default_without_key_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)
    with pytest.raises(SurrogateKeyError):
        Service.start(Settings(pipeline="rules"), None)


def test_documents_ids_and_patients() -> None:
    docs = documents(
        [NoteInput(None, NOTE, None), NoteInput("n2", NOTE, None), NoteInput(None, "x", "p1")]
    )
    assert [d.id for d in docs] == ["0", "n2", "2"]
    assert docs[0].patient_id == docs[1].patient_id  # its own patient, scoped by its text
    assert docs[0].patient_id.startswith("note:") and docs[2].patient_id == "p1"
    assert not any(p in docs[0].patient_id for p in PHI)
    assert kept_labels(["NAME", "DATE"]) == {"PATIENT", "DOCTOR", "USERNAME", "DATE"}


@pytest.fixture(scope="module")
def default_client() -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from phiscrub.serve.app import create_app

    service = Service.start(Settings(mode="tag"), KEY)  # the shipped model, loaded once
    with TestClient(create_app(service)) as client:
        yield client


def test_the_default_model_serves(default_client: Any) -> None:
    assert default_client.get("/health").json()["pipeline"] == "default"
    notes = [{"id": "a", "text": NOTE, "patient_id": "p1"}, {"text": "BP 120/80, afebrile."}]
    detected = default_client.post("/v1/detect", json={"notes": notes}).json()["notes"]
    assert {"PATIENT", "DATE", "PHONE"} <= {s["label"] for s in detected[0]["spans"]}
    assert detected[1]["spans"] == []
    body = default_client.post("/v1/deidentify", json={"notes": notes}).json()
    assert body["mode"] == "tag"
    assert body["notes"][0]["text"].startswith("Patient [**PATIENT**] was seen on [**DATE**]")
    assert body["notes"][1]["text"] == "BP 120/80, afebrile."
    surrogate = default_client.post(
        "/v1/deidentify", json={"notes": notes[:1], "mode": "surrogate"}
    ).json()
    assert not any(p in surrogate["notes"][0]["text"] for p in PHI)
