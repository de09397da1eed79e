"""A real interruption: ``python -m phiscrub deid`` killed with SIGKILL part-way, then
run again: the output equals an uninterrupted run's, byte for byte."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from phiscrub.io import read_corpus, write_corpus
from phiscrub.synth import SynthOptions, documents

from .common import deid

N = 300


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs POSIX process groups")
def test_sigkill_then_resume_equals_an_uninterrupted_run(
    tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "notes.jsonl"
    write_corpus(documents(SynthOptions(n=N, seed="interrupt")), source, format="jsonl")
    out = tmp_path / "out.jsonl"
    work = tmp_path / "out.jsonl.phiscrub-work"
    args = [str(source), "-o", str(out), "--key-file", str(key_file), "--chunk-notes", "20"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "phiscrub", "deid", *args, "--jobs", "2", "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill reaches the workers too
    )
    try:
        deadline = time.monotonic() + 300
        while not (work / "chunk-00000001.jsonl").exists():
            assert proc.poll() is None, "the run ended before it could be interrupted"
            assert time.monotonic() < deadline, "no chunk was finished in time"
            time.sleep(0.01)
        assert not out.exists()
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    done = sorted(work.glob("chunk-*.jsonl"))
    assert 2 <= len(done) < N // 20
    assert not out.exists()  # nothing half-written where the output goes
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []

    code, err = deid(capsys, *args)  # the same command again (one job this time)
    assert code == 0, err
    assert "resumed an interrupted run: " in err and f"{N} notes read, {N} written" in err
    assert not work.exists()

    whole = tmp_path / "whole.jsonl"
    code, _ = deid(capsys, args[0], "-o", whole, *args[3:])
    assert code == 0
    assert out.read_bytes() == whole.read_bytes()
    ids = [d.id for d in read_corpus(out).documents]
    assert ids == [d.id for d in read_corpus(source).documents]  # none missing, none twice
