"""``phiscrub detect INPUT -o OUTPUT [--pipeline default|rules|hd-baseline] [--model PATH]
[--explain]``: the notes with the spans found as their gold layer, for ``phiscrub eval``.

The shipped model (``default``) and model archives run through the Python API
(``phiscrub.api``, with ``--jobs`` worker processes); the rule pipelines run directly,
so that ``--disable`` can switch their stages off."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from phiscrub.api import Deidentifier, Settings, settle_heap
from phiscrub.detect.registry import PIPELINES, get_pipeline, pattern_detector
from phiscrub.errors import UsageError
from phiscrub.io import FORMATS, detect_format, iter_documents, write_corpus
from phiscrub.span import Document, Span

log = logging.getLogger("phiscrub.detect")

EXPLAIN_HELP = (
    "print, for each span found, its offsets, label, source pattern and the reason the "
    "pattern exists. This prints the span TEXT to standard output (it may be PHI): use it "
    "on your own files only. Logs never contain note text."
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "detect",
        help="find PHI (the shipped model, a model archive, or the rule pipelines)",
        description="Find PHI in INPUT and write the notes with the spans found as their "
        "gold layer to OUTPUT, so that `phiscrub eval GOLD OUTPUT` scores them.",
    )
    p.add_argument("input", metavar="INPUT", help="a file or folder of notes (any format)")
    p.add_argument("-o", "--output", help="where to write the predictions")
    p.add_argument(
        "--pipeline",
        choices=sorted({"default", *PIPELINES}),
        default="default",
        help="default: the shipped model; rules, hd-baseline: rule pipelines",
    )
    p.add_argument("--model", metavar="PATH", help="a model archive (overrides --pipeline)")
    p.add_argument("--recall-bias", type=float, metavar="T",
                   help="a model's threshold: a token is PHI when P(O) < T")  # fmt: skip
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (model)")
    p.add_argument("--disable", action="append", default=[], metavar="STAGE",
                   help="switch a stage of a rule pipeline off (repeatable)")  # fmt: skip
    p.add_argument("--format", choices=FORMATS, help="format of INPUT (default: detected)")
    p.add_argument("--out-format", choices=FORMATS, help="format of OUTPUT (default: INPUT's)")
    p.add_argument("--encoding", default="utf-8", help="text encoding of INPUT")
    p.add_argument("--explain", action="store_true", help=EXPLAIN_HELP)
    p.set_defaults(func=run)


_OTHER = "dictionary or heuristic match"
_MODEL = "found by a trained tagger"


def _reason(source: str) -> str:
    if source.startswith("rules.") and ":" in source:
        file, name = source[6:].split(":", 1)
        try:
            pat = pattern_detector(file).pattern(name.removesuffix("+list"))
        except Exception:
            pat = None
        if pat is not None:
            return pat.reason + (" (continued list)" if name.endswith("+list") else "")
    return {
        "rules.propagate:name": "the same name was tagged by a trigger elsewhere in the note",
        "dict.names:first_last": "census first name followed by a census last name",
        "dict.places:country": "a country name",
        "dict.places:city_cue": "a gazetteer city after a place cue (lives in, from...)",
        "dict.places:area_cue": "a neighbourhood: a place the gazetteer does not know after a "
        "residence (lives in, home in), or a district before its city",
    }.get(source, _OTHER if source.startswith(("rules.", "dict.", "hd")) else _MODEL)


def explain(doc: Document, spans: list[Span]) -> str:
    """One line per span: offsets, label, source, score, reason, and the span text."""
    lines = [f"# {doc.id}: {len(spans)} span(s)"]
    for s in spans:
        lines.append(
            f"{s.start}-{s.end}\t{s.label}\t{s.source}\t{s.score:.2f}\t{_reason(s.source)}"
            f"\t{s.text!r}"
        )
    return "\n".join(lines)


def _finder(args: argparse.Namespace) -> Callable[[Iterator[Document]], Iterator[list[Span]]]:
    """The spans of each document of a stream, in order."""
    if args.model is None and args.pipeline in PIPELINES:
        if args.recall_bias is not None:
            raise UsageError("--recall-bias applies to a model, not to the rule pipelines")
        pipe = get_pipeline(args.pipeline)

        def rules(docs: Iterator[Document]) -> Iterator[list[Span]]:
            for i, doc in enumerate(docs):
                yield pipe.run(doc, disable=args.disable)
                if i == 0:  # the lazily loaded parts are loaded (see settle_heap)
                    settle_heap()

        return rules
    if args.disable:
        raise UsageError("--disable applies to the rule pipelines", hint="use --pipeline rules")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.model is not None and not Path(args.model).is_file():
        raise UsageError("the model file does not exist", path=args.model)
    settings = Settings(
        pipeline=args.pipeline, model=args.model, mode="tag", recall_bias=args.recall_bias
    )
    if args.jobs > 1:  # the workers load the model, this process does not
        from phiscrub.deid.batch import parallel_results

        return lambda docs: (
            list(r.spans) for r in parallel_results(settings, None, docs, args.jobs, 32)
        )
    deid = Deidentifier(settings)
    return lambda docs: (list(r.spans) for r in deid.pipe(docs))


def run(args: argparse.Namespace) -> int:
    if not args.output and not args.explain:
        raise UsageError("nothing to do", hint="pass -o OUTPUT, --explain, or both")
    find = _finder(args)
    kwargs: dict[str, Any] = {"format": args.format, "encoding": args.encoding}
    t0 = time.perf_counter()
    out: list[Document] = []
    chars = 0
    last = t0
    docs = list(iter_documents(args.input, **kwargs))
    for i, (doc, spans) in enumerate(zip(docs, find(iter(docs)), strict=True), 1):
        out.append(Document(doc.id, doc.text, doc.patient_id, dict(doc.metadata), {"gold": spans}))
        chars += len(doc.text)
        if args.explain:
            print(explain(doc, spans))
        now = time.perf_counter()
        if now - last > 2.0:
            print(f"phiscrub detect: {i} notes, {chars / 1e6:.1f} M chars", file=sys.stderr)
            last = now
    log.info("%d notes, %d characters in %.2f s", len(out), chars, time.perf_counter() - t0)
    if args.output:
        fmt = args.out_format or args.format or detect_format(args.input)
        write_corpus(out, args.output, format=fmt, layer="gold")
    return 0
