"""Binary token precision and recall over the well-formed subtypes only (issue 3 "done when").

Both gold and predictions are filtered to DATE, AGE, PHONE, FAX, EMAIL, URL, IPADDR, SSN,
ZIP, MEDICALRECORD, IDNUM, USERNAME, then scored with ``phiscrub.evaluate`` (binary token).

    python scripts/eval_wellformed.py GOLD PRED [--json]
"""

from __future__ import annotations

import json
import sys

from phiscrub.evaluate.report import align, build_report
from phiscrub.io import read_corpus
from phiscrub.span import Document

WELL_FORMED = frozenset(
    {"DATE", "AGE", "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "SSN", "ZIP",
     "MEDICALRECORD", "IDNUM", "USERNAME"}
)  # fmt: skip


def _only(docs: list[Document]) -> list[Document]:
    return [d.with_layer("gold", [s for s in d.gold if s.label in WELL_FORMED]) for d in docs]


def main(argv: list[str]) -> int:
    gold = _only(read_corpus(argv[0]).documents)
    pred = _only(read_corpus(argv[1]).documents)
    pairs, info = align(gold, pred)
    micro = build_report(pairs, info)["binary_token"]["micro"]
    if "--json" in argv:
        print(json.dumps(micro))
    else:
        print(
            f"well-formed binary token: P {micro['precision']:.4f}  R {micro['recall']:.4f}  "
            f"F1 {micro['f1']:.4f}  (tp {micro['tp']}, fp {micro['fp']}, fn {micro['fn']})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
