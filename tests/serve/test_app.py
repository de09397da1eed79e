"""The endpoints, through FastAPI's TestClient, on the rules pipeline."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from .phi import KEY, NOTE, PHI

SECOND_NOTE = "Patient Zebulon Quartermaine returned on 04/01/2021."


def deidentify(client: Any, *notes: dict[str, Any], **options: Any) -> dict[str, Any]:
    response = client.post("/v1/deidentify", json={"notes": list(notes), **options})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# -- /health and the schema ----------------------------------------------------------
def test_health_names_pipeline_mode_key_and_limits(make_client: Callable[..., Any]) -> None:
    health = make_client(max_notes=7).get("/health").json()
    assert health["status"] == "ok" and health["pipeline"] == "rules"
    assert health["default_mode"] == "surrogate" and health["key_loaded"] is True
    assert health["max_notes"] == 7 and health["max_request_bytes"] == 10 * 1024 * 1024
    assert health["version"]
    assert make_client(key=None, mode="tag").get("/health").json()["key_loaded"] is False


def test_openapi_schema_documents_the_endpoints(client: Any) -> None:
    schema = client.get("/openapi.json").json()
    assert {"/health", "/v1/detect", "/v1/deidentify"} <= set(schema["paths"])
    components = schema["components"]["schemas"]
    assert {"DeidentifyRequest", "DeidentifyResponse", "DetectRequest", "NoteIn"} <= set(components)
    modes = components["DeidentifyRequest"]["properties"]["mode"]["anyOf"][0]["enum"]
    assert modes == ["surrogate", "tag", "redact", "placeholder"]
    assert "413" in schema["paths"]["/v1/deidentify"]["post"]["responses"]
    assert client.get("/docs").status_code == 200


def test_model_endpoints_run_in_the_threadpool(client: Any) -> None:
    endpoints = {r.path: r.endpoint for r in client.app.routes if r.path.startswith("/v1/")}
    assert set(endpoints) == {"/v1/detect", "/v1/deidentify"}
    assert not any(inspect.iscoroutinefunction(e) for e in endpoints.values())


# -- /v1/detect ----------------------------------------------------------------------
def test_detect_returns_offsets_and_labels_without_text_by_default(client: Any) -> None:
    response = client.post("/v1/detect", json={"notes": [{"id": "n1", "text": NOTE}]})
    assert response.status_code == 200
    body = response.json()
    assert body["pipeline"] == "rules"
    (note,) = body["notes"]
    assert note["id"] == "n1" and "patient_id" not in note
    labels = [s["label"] for s in note["spans"]]
    assert labels == ["PATIENT", "DATE", "DOCTOR", "MEDICALRECORD", "PHONE"]
    assert all("text" not in s for s in note["spans"])
    assert all(set(s) == {"start", "end", "label", "source", "score"} for s in note["spans"])
    assert not any(p in response.text for p in PHI)
    first = note["spans"][0]
    assert NOTE[first["start"] : first["end"]] == "Zebulon Quartermaine"


def test_detect_with_include_text_and_index_ids(client: Any) -> None:
    notes = [{"text": "Call 617-555-0199."}, {"text": "BP 120/80", "patient_id": "p9"}]
    body = client.post("/v1/detect", json={"notes": notes, "include_text": True}).json()
    assert [n["id"] for n in body["notes"]] == ["0", "1"]
    assert body["notes"][1]["patient_id"] == "p9" and body["notes"][1]["spans"] == []
    assert body["notes"][0]["spans"][0]["text"] == "617-555-0199"


def test_an_empty_batch_is_an_empty_answer(client: Any) -> None:
    assert client.post("/v1/detect", json={"notes": []}).json()["notes"] == []


# -- /v1/deidentify ------------------------------------------------------------------
def test_deidentify_replaces_every_phi_and_returns_output_spans(client: Any) -> None:
    body = deidentify(client, {"id": "n1", "text": NOTE, "patient_id": "p1"})
    assert body["mode"] == "surrogate" and body["pipeline"] == "rules"
    (note,) = body["notes"]
    assert note["id"] == "n1" and note["patient_id"] == "p1"
    assert not any(p in note["text"] for p in PHI)
    assert "replacements" not in note
    assert note["counts"] == {
        "DATE": 1, "DOCTOR": 1, "MEDICALRECORD": 1, "PATIENT": 1, "PHONE": 1,
    }  # fmt: skip
    for span in note["spans"]:  # offsets into the new text
        assert span["kept"] is False
        assert note["text"][span["start"] : span["end"]].strip()
    assert note["text"].startswith("Patient ") and "MRN: " in note["text"]


def test_replacements_only_when_asked(client: Any) -> None:
    note = deidentify(client, {"text": NOTE}, include_replacements=True)["notes"][0]
    rows = note["replacements"]
    assert [r["original"] for r in rows][:2] == ["Zebulon Quartermaine", "03/14/2021"]
    for row in rows:
        assert NOTE[row["start"] : row["end"]] == row["original"]
        assert note["text"][row["new_start"] : row["new_end"]] == row["replacement"]


def test_same_patient_same_surrogates_across_requests(client: Any) -> None:
    first = deidentify(client, {"text": NOTE, "patient_id": "p1"}, include_replacements=True)
    second = deidentify(
        client, {"text": SECOND_NOTE, "patient_id": "p1"}, include_replacements=True
    )
    name = {r["original"]: r["replacement"] for r in first["notes"][0]["replacements"]}
    again = {r["original"]: r["replacement"] for r in second["notes"][0]["replacements"]}
    assert again["Zebulon Quartermaine"] == name["Zebulon Quartermaine"]
    assert (
        deidentify(client, {"text": NOTE, "patient_id": "p1"})["notes"][0]["text"]
        == (first["notes"][0]["text"])
    )


def test_surrogates_depend_on_key_and_patient(make_client: Callable[..., Any]) -> None:
    texts = {
        deidentify(make_client(key=key), {"text": NOTE, "patient_id": patient})["notes"][0]["text"]
        for key, patient in ((KEY, "p1"), (KEY, "p2"), (b"another test key, 32 bytes long!", "p1"))
    }
    assert len(texts) == 3


def test_notes_without_patient_are_not_linked(client: Any) -> None:
    """Index ids repeat across requests; a note without patient_id is still its own patient."""
    one = deidentify(client, {"text": NOTE})["notes"][0]["text"]
    assert deidentify(client, {"text": NOTE})["notes"][0]["text"] == one  # reproducible
    other = deidentify(client, {"text": SECOND_NOTE}, include_replacements=True)["notes"][0]
    name = next(r["replacement"] for r in other["replacements"] if r["label"] == "PATIENT")
    assert name not in one


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("tag", "Patient [**PATIENT**] was seen on [**DATE**]"),
        ("redact", "Patient ******* ************ was seen on **********"),
        ("placeholder", "Patient ___ was seen on ___"),
    ],
)
def test_per_request_mode(client: Any, mode: str, expected: str) -> None:
    body = deidentify(client, {"text": NOTE}, mode=mode)
    assert body["mode"] == mode and body["notes"][0]["text"].startswith(expected)


def test_keep_leaves_labels_in_clear_and_flags_them(client: Any) -> None:
    note = deidentify(client, {"text": NOTE}, mode="tag", keep=["date", "CONTACT"])["notes"][0]
    assert "03/14/2021" in note["text"] and "617-555-0199" in note["text"]
    assert "Quartermaine" not in note["text"]
    kept = {s["label"] for s in note["spans"] if s["kept"]}
    assert kept == {"DATE", "PHONE"}


def test_server_defaults_apply_when_a_request_names_none(make_client: Callable[..., Any]) -> None:
    client = make_client(key=None, mode="placeholder", keep=("DATE",))
    note = deidentify(client, {"text": NOTE})["notes"][0]
    assert note["text"].startswith("Patient ___ was seen on 03/14/2021")


def test_surrogate_request_on_a_server_without_key_is_400(
    make_client: Callable[..., Any],
) -> None:
    client = make_client(key=None, mode="tag")
    response = client.post("/v1/deidentify", json={"notes": [{"text": NOTE}], "mode": "surrogate"})
    assert response.status_code == 400
    assert "E401" in response.json()["detail"] and "PHISCRUB_KEY" in response.json()["detail"]
    assert not any(p in response.text for p in PHI)


# -- bad input -----------------------------------------------------------------------
NAME = "Zebulon Quartermaine"
BAD_BODIES = [
    ({"notes": [{"txt": NAME}]}, "notes.0.text: Field required"),
    ({"notes": [{"text": [NAME]}]}, "notes.0.text: Input should be a valid string"),
    ({"notes": [{"text": 8675309}]}, "notes.0.text: Input should be a valid string"),
    ({"notes": NAME}, "notes: Input should be a valid list"),
    ([NAME], "send a JSON object"),
    ({"notes": [{"text": "x"}], "mode": "Zebulon"}, "mode: Input should be 'surrogate'"),
    ({"notes": [{"text": "x"}], "keep": ["PATIENT", "Zebulon"]}, "categories: ZEBULON"),
    ({"notes": [{"text": "x"}], "include_replacements": "yes"}, "should be a valid boolean"),
    ({"notes": [{"text": "x", "id": ""}]}, "notes.0.id: String should have at least 1"),
    ({"notes": [{"text": "Zebulon \ud800"}]}, "unpaired UTF-16 surrogate"),
    ({"notes": [{"text": "x"}], "include_replacement": True}, "include_replacement: Extra"),
    (None, "body: Field required"),
]


@pytest.mark.parametrize(("body", "message"), BAD_BODIES)
def test_invalid_requests_are_422_with_what_to_fix(client: Any, body: Any, message: str) -> None:
    content = "" if body is None else json.dumps(body)
    response = client.post(
        "/v1/deidentify", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert message in response.json()["message"]
    assert "Zebulon" not in response.text and "8675309" not in response.text
    assert all(set(item) == {"loc", "msg", "type"} for item in response.json()["detail"])


@pytest.mark.parametrize("body", ['{"notes": [{"text": "Zebulon', '{"notes": [}', "{'notes': []}"])
def test_malformed_json_is_400(client: Any, body: str) -> None:
    response = client.post("/v1/detect", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["detail"] and "Zebulon" not in response.text


def test_a_body_not_sent_as_json_is_415(client: Any) -> None:
    body = json.dumps({"notes": [{"text": NOTE}]})
    response = client.post("/v1/detect", content=body, headers={"content-type": "text/plain"})
    assert response.status_code == 415 and "application/json" in response.json()["detail"]
    assert not any(p in response.text for p in PHI)


def test_unknown_path_and_method(client: Any) -> None:
    assert client.post("/v1/nothing", json={}).status_code == 404
    assert client.get("/v1/deidentify").status_code == 405


# -- limits --------------------------------------------------------------------------
def test_body_over_the_limit_is_413(make_client: Callable[..., Any]) -> None:
    client = make_client(max_request_bytes=1000)
    small = client.post("/v1/detect", json={"notes": [{"text": "x" * 900}]})
    assert small.status_code == 200
    big = client.post("/v1/detect", json={"notes": [{"text": NOTE * 20}]})
    assert big.status_code == 413
    assert "1000 bytes" in big.json()["detail"] and "--max-request-bytes" in big.json()["detail"]
    assert not any(p in big.text for p in PHI)


def test_streamed_body_over_the_limit_is_413(make_client: Callable[..., Any]) -> None:
    """No Content-Length (chunked): the limit holds on the bytes actually read."""

    def chunks() -> Iterator[bytes]:
        yield b'{"notes": [{"text": "'
        for _ in range(50):
            yield b"x" * 100
        yield b'"}]}'

    client = make_client(max_request_bytes=1000)
    response = client.post(
        "/v1/detect", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_streamed_body_under_the_limit_passes(make_client: Callable[..., Any]) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"notes": [{"text": '
        yield json.dumps(NOTE).encode()
        yield b"}]}"

    client = make_client(max_request_bytes=1000)
    response = client.post(
        "/v1/detect", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 200 and len(response.json()["notes"][0]["spans"]) == 5


def test_too_many_notes_is_413(make_client: Callable[..., Any]) -> None:
    client = make_client(max_notes=3)
    assert client.post("/v1/detect", json={"notes": [{"text": "x"}] * 3}).status_code == 200
    response = client.post("/v1/deidentify", json={"notes": [{"text": NOTE}] * 4})
    assert response.status_code == 413
    assert "4" in response.json()["detail"] and "--max-notes" in response.json()["detail"]


# -- failing closed ------------------------------------------------------------------
def test_a_failing_note_fails_the_request_without_text(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from phiscrub.api import Deidentifier

    def broken(self: Deidentifier, doc: Any, spans: Any) -> Any:
        raise ValueError(f"cannot replace {doc.text}")

    monkeypatch.setattr(Deidentifier, "replace", broken)
    notes = [{"text": "BP 120/80"}, {"text": NOTE}]
    response = client.post("/v1/deidentify", json={"notes": notes})
    assert response.status_code == 500
    assert "reference" in response.json()["detail"] and "notes" not in response.json()
    assert not any(p in response.text for p in PHI) and "120/80" not in response.text


def test_health_answers_while_notes_are_processed(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model work runs in the thread pool: the event loop stays free meanwhile."""
    import threading

    from phiscrub.serve.service import Service

    started, release = threading.Event(), threading.Event()
    detect = Service.detect

    def slow(self: Service, docs: Any) -> Any:
        started.set()
        release.wait(timeout=20)
        return detect(self, docs)

    monkeypatch.setattr(Service, "detect", slow)
    answers: list[int] = []
    with client:  # one event loop for both requests
        worker = threading.Thread(
            target=lambda: answers.append(
                client.post("/v1/detect", json={"notes": [{"text": NOTE}]}).status_code
            )
        )
        worker.start()
        try:
            assert started.wait(timeout=20)
            assert client.get("/health").status_code == 200  # while detect is still blocked
            assert not release.is_set() and not answers
        finally:
            release.set()
            worker.join(timeout=20)
    assert answers == [200]
