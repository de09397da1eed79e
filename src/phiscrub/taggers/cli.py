"""``phiscrub train``, ``phiscrub cv`` and ``phiscrub tag``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, TypeAlias

from phiscrub.errors import UsageError
from phiscrub.evaluate import align, build_report
from phiscrub.features import FeatureConfig, WordClusters, with_domain
from phiscrub.io import FORMATS, write_corpus
from phiscrub.model import ModelInfo, load_model, save_model
from phiscrub.span import Document
from phiscrub.taggers.base import SCHEMES, PersistentTagger, Tagger
from phiscrub.taggers.corpora import LoadedCorpus, load_corpus, load_split
from phiscrub.taggers.crf import CRFSettings, CRFTagger
from phiscrub.taggers.cv import CV_MEASURES, cross_validate, predict_corpus, summarize
from phiscrub.taggers.registry import TAGGER_KINDS, tagger_class

SINGLE_FILE = {"jsonl", "csv", "parquet", "i2b2-2006"}
_DEFAULTS = CRFSettings()


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, help="format of the corpora (default: detected)")
    p.add_argument("--split", metavar="JSON", help="split file assigning patients to parts")
    p.add_argument("--use", default="train", help="parts of the split to use (e.g. train,dev)")
    p.add_argument(
        "--tagger",
        choices=sorted(k for k in TAGGER_KINDS if k != "hybrid"),
        default="crf",
        help="tagger kind (the hybrid is trained by --recipe default)",
    )
    p.add_argument("--c1", type=float, default=_DEFAULTS.c1, help="L1 penalty")
    p.add_argument("--c2", type=float, default=_DEFAULTS.c2, help="L2 penalty")
    p.add_argument("--max-iter", type=int, default=_DEFAULTS.max_iter)
    p.add_argument(
        "--scheme",
        choices=SCHEMES,
        default=_DEFAULTS.scheme,
        help="CRF tags: BIO, or IO (one tag per subtype: faster, a little less accurate)",
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="recall bias: a token is PHI when P(O) < T (default: Viterbi)",
    )
    p.add_argument("--features", metavar="JSON", help="a FeatureConfig JSON file")
    p.add_argument(
        "--clusters",
        metavar="CORPUS",
        help="learn word clusters from the texts of this (unannotated) corpus",
    )


Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def register(sub: Subparsers) -> None:
    _register_train(sub)
    _register_cv(sub)
    _register_tag(sub)


def _register_train(sub: Subparsers) -> None:
    t = sub.add_parser(
        "train",
        help="train a tagger and write a model archive",
        description="Train a tagger on annotated corpora (patients of the "
        "--use parts of --split only) and write a model archive.",
    )
    t.add_argument("corpora", nargs="*", metavar="CORPUS")
    t.add_argument("-o", "--out", required=True, metavar="MODEL", help="model archive to write")
    t.add_argument(
        "--source",
        action="append",
        default=[],
        metavar="CORPUS",
        help="EasyAdapt: a corpus of another domain (repeatable)",
    )
    t.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="CORPUS",
        help="EasyAdapt: a corpus of the domain to tag (repeatable)",
    )
    t.add_argument("--eval", metavar="CORPUS", help="score the model on this corpus afterwards")
    t.add_argument("--eval-use", default="dev", help="split parts of --eval to score (dev)")
    t.add_argument(
        "--recipe",
        choices=["default"],
        help="train a named model by its fixed recipe (default: the shipped hybrid model; "
        "CORPUS and --split, when given, locate the development corpus and its split)",
    )
    _common(t)
    t.set_defaults(func=run_train)


def _register_cv(sub: Subparsers) -> None:
    c = sub.add_parser(
        "cv",
        help="k-fold cross-validation by patient",
        description="Cross-validate a tagger with folds of patients (never "
        "of notes); print mean and SD of strict and binary-token P/R/F.",
    )
    c.add_argument("corpora", nargs="+", metavar="CORPUS")
    c.add_argument("-k", type=int, default=5, help="number of folds (default 5)")
    c.add_argument("--seed", type=int, default=0, help="seed of the patient shuffle")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    _common(c)
    c.set_defaults(func=run_cv)


def _register_tag(sub: Subparsers) -> None:
    g = sub.add_parser(
        "tag",
        help="tag notes with a model archive",
        description="Tag INPUT with MODEL and write the predictions as the "
        "gold layer of OUTPUT, so that `phiscrub eval` can score them.",
    )
    g.add_argument("model", metavar="MODEL", help="a model archive, or 'default'")
    g.add_argument("input", metavar="INPUT")
    g.add_argument("-o", "--out", required=True, metavar="OUTPUT")
    g.add_argument("--format", choices=FORMATS, help="format of INPUT (default: detected)")
    g.add_argument("--out-format", choices=FORMATS, help="format of OUTPUT (default: INPUT's)")
    g.add_argument("--threshold", type=float, default=None, help="recall-bias threshold")
    g.set_defaults(func=run_tag)


def _uses(args: argparse.Namespace) -> list[str]:
    return [u.strip() for u in args.use.split(",") if u.strip()]


def _load(paths: list[str], args: argparse.Namespace, role: str = "") -> list[LoadedCorpus]:
    split = load_split(args.split) if args.split else None
    uses = _uses(args) if split else []
    if "test" in uses:
        print("phiscrub: warning: training on the test part of the split", file=sys.stderr)
    return [load_corpus(p, args.format, split, uses, role) for p in paths]


def _make_tagger(args: argparse.Namespace, easyadapt: bool = False) -> PersistentTagger:
    config = FeatureConfig()
    if args.features:
        config = FeatureConfig.from_json(Path(args.features).read_text(encoding="utf-8"))
    clusters = None
    if args.clusters:
        texts = [d.text for c in _load([args.clusters], args) for d in c.documents]
        clusters = WordClusters.learn(texts)
    if easyadapt or clusters is not None:
        changes = config.to_dict()
        changes.update(easyadapt=easyadapt or config.easyadapt, clusters=clusters is not None)
        config = FeatureConfig.from_dict(changes)
    if args.tagger != "crf":
        # SVM and boosted trees take the shared feature configuration and their defaults
        return tagger_class(args.tagger)(config)  # type: ignore[call-arg]
    settings = CRFSettings(
        args.c1, args.c2, args.max_iter, threshold=args.threshold, scheme=args.scheme
    )
    return CRFTagger(config, settings, clusters)


def _evaluate(tagger: Tagger, docs: list[Document]) -> dict[str, Any]:
    """Micro P/R/F of the main measures and the leak rate, for the model metadata."""
    report = build_report(*align(docs, predict_corpus(tagger, docs)))
    out: dict[str, Any] = {
        m: report[m]["micro"] for m in ("strict", "relaxed", "token", "binary_token")
    }
    out["leak_rate"] = report["leak_rate"]
    return out


def run_recipe(args: argparse.Namespace) -> int:
    from phiscrub.taggers.default import default_recipe, train_default

    corpus = args.corpora[0] if args.corpora else None
    result = train_default(default_recipe(corpus, args.split), args.out)
    print(
        f"trained the {args.recipe} model on {result['documents']} notes in "
        f"{result['seconds']:.1f} s; wrote {args.out}",
        file=sys.stderr,
    )
    print(json.dumps(result["evaluation"], indent=1))
    return 0


def run_train(args: argparse.Namespace) -> int:
    if args.recipe:
        return run_recipe(args)
    easy = bool(args.source or args.target)
    corpora = _load(args.corpora, args, "target" if easy else "")
    corpora += _load(args.target, args, "target") + _load(args.source, args, "source")
    if not corpora:
        raise UsageError("no training corpus", hint="pass CORPUS or --source/--target")
    docs: list[Document] = []
    for c in corpora:
        docs += with_domain(c.documents, c.role) if easy else c.documents
    tagger = _make_tagger(args, easyadapt=easy)
    start = time.perf_counter()
    tagger.fit(docs)
    seconds = time.perf_counter() - start
    evaluation: dict[str, Any] = {}
    if args.eval:
        split = load_split(args.split) if args.split else None
        uses = [u for u in args.eval_use.split(",") if u] if split else []
        ev = load_corpus(args.eval, args.format, split, uses)
        evaluation[ev.name] = _evaluate(tagger, ev.documents)
    info = ModelInfo(
        training={
            "corpora": [c.describe() for c in corpora],
            "seconds": seconds,
            "documents": len(docs),
            "split": args.split,
            "use": args.use,
        },
        evaluation=evaluation,
    )
    save_model(tagger, args.out, info)
    print(
        f"trained {tagger.kind} on {len(docs)} notes in {seconds:.1f} s; wrote {args.out}",
        file=sys.stderr,
    )
    if evaluation:
        print(json.dumps(evaluation, indent=1))
    return 0


def run_cv(args: argparse.Namespace) -> int:
    docs = [d for c in _load(args.corpora, args) for d in c.documents]
    results = cross_validate(docs, args.k, lambda: _make_tagger(args), seed=args.seed)
    summary = summarize(results)
    if args.json:
        folds = [{m: r.report[m]["micro"] for m in CV_MEASURES} for r in results]
        print(json.dumps({"k": args.k, "folds": folds, "summary": summary}, indent=1))
        return 0
    print(f"{args.k}-fold cross-validation by patient over {len(docs)} notes")
    for measure, metrics in summary.items():
        cells = "  ".join(f"{m} {v['mean']:.4f} ± {v['sd']:.4f}" for m, v in metrics.items())
        print(f"  {measure:<13} {cells}")
    return 0


def run_tag(args: argparse.Namespace) -> int:
    from phiscrub.taggers.default import DEFAULT_NAME, load_default, predict_documents

    start = time.perf_counter()
    tagger = load_default() if args.model == DEFAULT_NAME else load_model(args.model)
    loaded = time.perf_counter() - start
    if args.threshold is not None:
        with_threshold = getattr(tagger, "with_threshold", None)
        if with_threshold is None:
            raise UsageError("--threshold needs a model with token scores (CRF, SVM, hybrid)")
        tagger = with_threshold(args.threshold)
    docs = load_corpus(args.input, args.format).documents
    start = time.perf_counter()
    out = predict_documents(tagger, docs)
    seconds = time.perf_counter() - start
    fmt = args.out_format or args.format or _detected(args.input)
    target = Path(args.out)
    if fmt not in SINGLE_FILE:
        target.mkdir(parents=True, exist_ok=True)
    write_corpus(out, target, format=fmt)
    rate = len(docs) / seconds if seconds > 0 else float("inf")
    print(
        f"tagged {len(docs)} notes in {seconds:.2f} s ({rate:.1f} notes/s; model loaded in "
        f"{loaded:.2f} s); wrote {target}",
        file=sys.stderr,
    )
    return 0


def _detected(path: str) -> str:
    from phiscrub.io import detect_format

    return detect_format(Path(path))
