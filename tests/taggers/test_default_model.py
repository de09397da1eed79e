"""The default model shipped in the package: it loads, it is the hybrid, it tags a note."""

from __future__ import annotations

from phiscrub.model import read_info
from phiscrub.span import Document
from phiscrub.taggers import load_default
from phiscrub.taggers.default import DEFAULT_NAME, SHIPPED, predict_documents
from phiscrub.taggers.hybrid import HybridTagger

NOTE = (
    "Discharge summary\n"
    "Patient: Walter Quimby   MRN: 4471-0093\n"
    "Admitted 03/14/2071 to Riverside General Hospital by Dr. Helen Novak.\n"
    "Mr. Quimby is a 67 year old retired carpenter from Springfield, Ohio.\n"
    "Call 617-555-0101 with questions. Fax: 617-555-0199.\n"
    "Quimby\n"
)


def test_the_default_model_loads_and_is_the_hybrid() -> None:
    tagger = load_default()
    assert isinstance(tagger, HybridTagger)
    assert load_default() is tagger  # loaded once per process
    assert DEFAULT_NAME == "default"


def test_the_default_model_card_says_how_it_was_trained() -> None:
    from importlib import resources

    with resources.as_file(resources.files("phiscrub").joinpath(*SHIPPED)) as path:
        assert path.stat().st_size < 50 * 1024 * 1024
        info = read_info(path)
    assert info["tagger"] == "hybrid"
    recipe = info["training"]["recipe"]
    assert "test" not in recipe["use"]  # never the test patients
    assert "test" not in recipe.get("evaluate_on", [])
    assert any("TEST patients never used" in note for note in info["notes"])


def test_the_default_model_tags_a_note_with_valid_spans() -> None:
    doc = Document("note-1", NOTE, patient_id="p1")
    (tagged,) = predict_documents(load_default(), [doc])
    spans = tagged.gold
    assert spans
    for s in spans:
        assert NOTE[s.start : s.end] == s.text
    found = {(s.text, s.category) for s in spans}
    assert ("03/14/2071", "DATE") in found
    assert ("617-555-0101", "CONTACT") in found
    assert any(text == "Quimby" and cat == "NAME" for text, cat in found)
