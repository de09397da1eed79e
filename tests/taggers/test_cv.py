"""Cross-validation folds are made of patients, never of single notes."""

from __future__ import annotations

import pytest

from phiscrub.errors import UsageError
from phiscrub.span import Document
from phiscrub.taggers.cv import patient_folds


def _docs() -> list[Document]:
    return [Document(f"{p}-{n}", "note", str(p)) for p in range(11) for n in range(1 + p % 3)]


@pytest.mark.parametrize("k", [2, 3, 5, 11])
def test_folds_never_share_a_patient(k: int) -> None:
    docs = _docs()
    folds = patient_folds(docs, k, seed=7)
    assert len(folds) == k
    tested: list[str] = []
    for train, test in folds:
        assert test and train
        assert not {d.patient_id for d in train} & {d.patient_id for d in test}
        assert len(train) + len(test) == len(docs)
        tested += [d.id for d in test]
    assert sorted(tested) == sorted(d.id for d in docs)  # every note tested exactly once


def test_folds_are_deterministic_and_checked() -> None:
    docs = _docs()
    ids = [[d.id for d in test] for _, test in patient_folds(docs, 3, seed=1)]
    assert ids == [[d.id for d in test] for _, test in patient_folds(docs, 3, seed=1)]
    with pytest.raises(UsageError):
        patient_folds(docs, 12)
    with pytest.raises(UsageError):
        patient_folds(docs, 1)
