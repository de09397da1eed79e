"""Fictional notes and helpers shared by the corpus I/O tests."""

from __future__ import annotations

from pathlib import Path

from phiscrub.span import Document, Span

#: a fictional note with everything that is hard to keep: CRLF, a lone CR, tabs,
#: non-ASCII (é, ü, 中文, an emoji), markup characters and a literal ``]]>``
TRICKY = (
    "Patient: Zorba Quill\r\nSeen 2067-05-03 at Mercy Vale\tby Dr. Émile Brünn.\r\n"
    'Note 中文 😀 ]]> kept & <tags> "quoted"\rlone CR\n\tindented\n'
)

#: file name per format (folder formats get a folder)
TARGETS = {
    "i2b2-2014": "out2014",
    "i2b2-2006": "out2006.xml",
    "brat": "outbrat",
    "jsonl": "out.jsonl",
    "text": "outtext",
    "csv": "out.csv",
    "parquet": "out.parquet",
}


def span(text: str, fragment: str, label: str) -> Span:
    start = text.index(fragment)
    return Span.of(text, start, start + len(fragment), label)


def tricky_docs(labels_2006: bool = False) -> list[Document]:
    """Two notes; with ``labels_2006``, only labels that survive a 2006 round trip."""
    hospital = "HOSPITAL" if labels_2006 else "ORGANIZATION"
    spans = [
        span(TRICKY, "Zorba", "PATIENT"),
        span(TRICKY, "2067-05-03", "DATE"),
        span(TRICKY, "Mercy Vale", hospital),
        span(TRICKY, "Émile Brünn", "DOCTOR"),
        span(TRICKY, ']]> kept & <tags> "quoted"\rlone', "LOCATION-OTHER"),
        span(TRICKY, "Quill\r\nSeen", "PATIENT" if labels_2006 else "USERNAME"),
    ]
    other = "Follow-up in 中文 clinic.\r\n"
    return [
        Document("110-01", TRICKY, "110", layers={"gold": spans}),
        Document("note-b", other, None, layers={"gold": [span(other, "中文", "LOCATION-OTHER")]}),
    ]


def summary(doc: Document) -> tuple[str, str, str, list[dict[str, object]]]:
    """What a round trip must keep."""
    return doc.id, doc.patient_id, doc.text, [s.to_dict() for s in doc.gold]


def write_xml_2014(path: Path, text: str, tags: str) -> Path:
    """A hand-written i2b2 2014 file (``text`` goes into a CDATA section as is)."""
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n'
        f"<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n{tags}</TAGS>\n</deIdi2b2>\n",
        encoding="utf-8",
    )
    return path
