"""The work directory of a resumable run: ``OUTPUT.phiscrub-work/``.

A run cuts its input into chunks of consecutive notes. Each finished chunk is written
at once, atomically (a temporary file, flushed to disk, then renamed), as
``chunk-00000012.jsonl``: a first line of counts, then one line per note (its
de-identified text and spans) or per error, in input order. The manifest records a
fingerprint of the input (paths, sizes, modification times), the settings, a hash of
the key and the chunk size. A restart with the same fingerprint skips the chunks
already there; any other restart is refused (``--fresh`` discards the old work). When
every chunk is done, the output is assembled from the chunks, in any format, into the
work directory and renamed into place; then the work directory is removed. So an
interrupted run never leaves a half-written output, and a resumed run writes exactly
the bytes an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from phiscrub import __version__
from phiscrub.errors import PhiscrubError, UsageError
from phiscrub.span import Document, Span

WORK_SUFFIX = ".phiscrub-work"
MANIFEST = "manifest.json"
LAYOUT = 1  # bump when the chunk layout changes: old work is then refused


class ResumeRefused(PhiscrubError, RuntimeError):
    """An unfinished run's work directory that does not match this run."""

    code = "E703"
    hint = (
        "rerun with the same input, settings and key to resume it, or pass --fresh to "
        "discard the unfinished run and start over"
    )


class OutputExists(PhiscrubError, FileExistsError):
    """An output that would be replaced without being asked to."""

    code = "E704"
    hint = "choose another -o, or pass --overwrite to replace it when the new output is complete"


def work_path(output: Path) -> Path:
    return output.with_name(output.name + WORK_SUFFIX)


def key_digest(key: bytes | None) -> str | None:
    """A one-way hash of the key, to tell keys apart; the key itself is never stored."""
    if key is None:
        return None
    return hashlib.sha256(b"phiscrub deid work directory\x00" + key).hexdigest()


def input_files(path: Path) -> list[list[Any]]:
    """(name, size, modification time) of the input file, or of a folder's visible files."""
    files = [path] if path.is_file() else sorted(p for p in path.iterdir() if p.is_file())
    found = []
    for p in files:
        if p.name.startswith(".") and p != path:
            continue
        try:
            st = p.stat()
        except OSError:
            continue
        found.append([p.name, st.st_size, st.st_mtime_ns])
    return found


def fingerprint(described: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode("utf-8")).hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (temporary file, fsync, rename)."""
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


class WorkDir:
    """The chunks and manifest of one run."""

    def __init__(self, output: Path, described: dict[str, Any], chunk_notes: int) -> None:
        self.path = work_path(output)
        self.chunk_notes = chunk_notes
        self.manifest: dict[str, Any] = {
            "phiscrub_deid_layout": LAYOUT,
            "phiscrub_version": __version__,
            "fingerprint": fingerprint({**described, "chunk_notes": chunk_notes}),
            "chunk_notes": chunk_notes,
            "finishing": False,
        }
        self.resumed_chunks = 0

    def open(self, *, fresh: bool, random_key: bool) -> None:
        """Check an existing work directory (and count its done chunks), or remove it
        with ``fresh``; nothing is created yet (see ``create``)."""
        if self.path.exists() and fresh:
            shutil.rmtree(self.path)
        if self.path.exists():
            old = self._old_manifest()
            if old.get("fingerprint") != self.manifest["fingerprint"]:
                why = (
                    "it was made with a --random-key, which is gone: it cannot be resumed"
                    if random_key
                    else "its input, settings or key differ from this run's"
                )
                raise ResumeRefused(
                    f"an unfinished run's work directory is in the way: {why}",
                    path=str(self.path),
                )
            self.manifest["finishing"] = bool(old.get("finishing"))
            self.resumed_chunks = self._count_done()

    def create(self) -> None:
        """Create the directory and its manifest, unless resuming."""
        if not self.path.exists():
            self.path.mkdir(parents=True)
            self._save_manifest()

    def _old_manifest(self) -> dict[str, Any]:
        try:
            data = json.loads((self.path / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save_manifest(self) -> None:
        write_atomic(self.path / MANIFEST, json.dumps(self.manifest, indent=1).encode("utf-8"))

    def mark_finishing(self) -> None:
        """From now on the output at OUTPUT may be this run's own (see ``finishing``)."""
        self.manifest["finishing"] = True
        self._save_manifest()

    @property
    def finishing(self) -> bool:
        """True when an earlier attempt of this very run was putting its output in place:
        then an existing OUTPUT is its own and may be replaced."""
        return bool(self.manifest["finishing"])

    def chunk_path(self, number: int) -> Path:
        return self.path / f"chunk-{number:08d}.jsonl"

    def _count_done(self) -> int:
        number = 0
        while self.chunk_path(number).is_file():
            number += 1
        return number

    def write_chunk(self, number: int, header: dict[str, Any], lines: list[str]) -> None:
        body = "\n".join([json.dumps(header, sort_keys=True), *lines]) + "\n"
        write_atomic(self.chunk_path(number), body.encode("utf-8"))

    def chunk_numbers(self) -> range:
        return range(self._count_done())

    def headers(self) -> Iterator[dict[str, Any]]:
        """The counts line of every chunk, in order."""
        for number in self.chunk_numbers():
            with self.chunk_path(number).open(encoding="utf-8") as handle:
                yield json.loads(handle.readline())

    def lines(self) -> Iterator[str]:
        """Every note and error line of every chunk, in order."""
        for number in self.chunk_numbers():
            with self.chunk_path(number).open(encoding="utf-8") as handle:
                handle.readline()  # the counts
                for line in handle:
                    yield line.rstrip("\n")

    def documents(self, on_error: Callable[[str], None]) -> Iterator[Document]:
        """The notes to write, in order; each error's JSON object goes to ``on_error``."""
        for line in self.lines():
            if line.startswith(ERROR_PREFIX):  # chunk lines are written by this module
                on_error(line[len(ERROR_PREFIX) : -1])
            else:
                yield note_document(json.loads(line)["note"])

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


ERROR_PREFIX = '{"error": '


def error_record(error: dict[str, Any]) -> str:
    """A chunk line for an error (``ERROR_PREFIX`` + its JSON object + ``}``)."""
    return ERROR_PREFIX + json.dumps(error, ensure_ascii=False) + "}"


def note_record(doc: Document) -> str:
    """A chunk line for a written note: id, patient, de-identified text, output spans."""
    spans = [s.to_dict() for s in doc.layer("gold")]
    note = {"id": doc.id, "patient_id": doc.patient_id, "text": doc.text, "spans": spans}
    return json.dumps({"note": note}, ensure_ascii=False)


def note_document(note: dict[str, Any]) -> Document:
    spans = [Span(s["start"], s["end"], s["label"], s["text"]) for s in note["spans"]]
    return Document(note["id"], note["text"], note["patient_id"], layers={"gold": spans})


def put_in_place(built: Path, output: Path, work: Path) -> None:
    """Move the assembled output to OUTPUT: a rename, so it appears whole. An existing
    OUTPUT (allowed by the caller) is first moved into the work directory, which is
    removed afterwards."""
    if output.is_dir() or (output.exists() and built.is_dir()):
        previous = work / "previous"
        os.replace(output, previous)
    output.parent.mkdir(parents=True, exist_ok=True)
    os.replace(built, output)


def check_output_free(output: Path, *, overwrite: bool, ours: bool) -> None:
    """Refuse to replace an existing OUTPUT unless asked (or it is this run's own)."""
    if overwrite or ours or not output.exists():
        return
    if output.is_dir() and not any(output.iterdir()):
        return
    raise OutputExists("the output already exists", path=str(output))


def check_distinct(inp: Path, output: Path, extra: list[Path]) -> None:
    """The output, work directory and reports must not be, nor lie inside, the input."""
    src = inp.resolve()
    for path in [output, *extra]:
        target = path.resolve()
        if target == src or (src.is_dir() and src in target.parents):
            raise UsageError(
                "the output, its work directory and its reports must lie outside the input",
                path=str(path),
                hint="choose an -o outside the input folder",
            )
