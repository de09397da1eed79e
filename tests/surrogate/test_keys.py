"""Key loading and the keyed chooser."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub.surrogate.keys import Chooser, SurrogateKeyError, digest, load_key, random_key


def test_load_key_from_file_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "key"
    path.write_text("ab" * 32 + "\n")
    assert load_key(path) == bytes.fromhex("ab" * 32)
    monkeypatch.setenv("MY_KEY", "a text secret of enough length")
    assert load_key(env="MY_KEY") == b"a text secret of enough length"


def test_missing_or_short_key_is_a_coded_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)
    with pytest.raises(SurrogateKeyError) as info:
        load_key()
    assert info.value.code == "E401" and "PHISCRUB_KEY" in str(info.value)
    with pytest.raises(SurrogateKeyError):
        load_key(tmp_path / "absent")
    (tmp_path / "short").write_text("short")
    with pytest.raises(SurrogateKeyError):
        load_key(tmp_path / "short")


def test_random_key() -> None:
    assert len(random_key()) == 32 and random_key() != random_key()


def test_chooser_is_deterministic_and_uniformish() -> None:
    seed = digest(b"k" * 32, "p", "X", "v")
    a, b = Chooser(seed), Chooser(seed)
    draws = [a.below(10) for _ in range(2000)]
    assert draws == [b.below(10) for _ in range(2000)]
    assert all(300 > draws.count(d) > 100 for d in range(10))
    assert sorted(Chooser(seed).shuffled(range(26))) == list(range(26))
    assert all(3 <= Chooser(seed).between(3, 5) <= 5 for _ in range(50))
