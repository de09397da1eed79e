"""Copy the notes of one split of corpora/split.json (train, dev, test, or train+dev) into a folder.

python scripts/split_corpus.py test /tmp/test_gold
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "corpora"


def main(argv: list[str]) -> int:
    which, out = argv[0], Path(argv[1])
    split = json.loads((ROOT / "split.json").read_text(encoding="utf-8"))
    patients = {p for part in which.split("+") for p in split[part]}
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for f in sorted((ROOT / "dev" / "xml").glob("*.xml")):
        if f.stem.split("-")[0] in patients:
            shutil.copy(f, out / f.name)
            n += 1
    print(f"{n} notes of {which} -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
