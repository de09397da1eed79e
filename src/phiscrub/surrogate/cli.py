"""``phiscrub surrogate CORPUS -o OUT``: replace the annotated spans of a corpus.

No detection: the spans read from the corpus (its gold layer) are replaced, and the
output is the same corpus with new texts and the carried-over spans as its annotations,
in the same format or ``--out-format``. See docs/surrogates.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

from phiscrub.errors import PhiscrubError, UsageError
from phiscrub.io import FORMATS, detect_format, iter_documents, write_corpus
from phiscrub.span import Document
from phiscrub.surrogate.corpus import AuditWriter, RunStats, replace_corpus
from phiscrub.surrogate.dates import DateShift
from phiscrub.surrogate.generator import SurrogateOptions
from phiscrub.surrogate.keys import SurrogateKeyError, load_key, random_key
from phiscrub.surrogate.replace import MODES, Replacer

KEY_ENV = "PHISCRUB_KEY"
KEY_HINT = (
    f"give a secret of at least 16 bytes in one of three ways: --key-file FILE, the "
    f"{KEY_ENV} environment variable, or --random-key for a one-off key whose mapping "
    "can never be reproduced"
)
TAG_STYLES = ("brackets", "i2b2-2006")
USAGE = """phiscrub surrogate CORPUS -o OUT [--key-file K | --random-key] [options]"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "surrogate",
        usage=USAGE,
        help="replace the annotated PHI of a corpus with surrogates, tags or masks",
        description="Replace the annotated spans of CORPUS (any supported format; no "
        "detection) and write the result with its carried-over annotations to OUT. "
        f"Surrogate mode needs a key: --key-file, ${KEY_ENV}, or --random-key.",
    )
    p.add_argument("corpus", metavar="CORPUS", help="annotated file or folder")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="output file or folder")
    add_key_options(p)
    p.add_argument("--mode", choices=MODES, default="surrogate", help="default: surrogate")
    p.add_argument(
        "--tag-style",
        choices=TAG_STYLES,
        default=None,
        help="tag mode: [**LABEL**] text (brackets, default), or i2b2 2006 XML with each "
        'tag inside <PHI TYPE="...">',
    )
    p.add_argument(
        "--keep",
        action="append",
        default=[],
        metavar="LABELS",
        help="comma-separated labels or categories left as they are (e.g. STATE,AGE)",
    )
    p.add_argument(
        "--reference-year",
        type=int,
        help="measure ages revealed by dates of birth at this year if it is later than "
        "the note's latest full date (e.g. the corpus's last year)",
    )
    p.add_argument(
        "--clinicians",
        choices=("patient", "corpus"),
        default="patient",
        help="clinician names consistent per patient (default) or across the corpus",
    )
    add_date_options(p)
    p.add_argument("--format", choices=FORMATS, help="format of CORPUS (default: detected)")
    p.add_argument("--out-format", choices=FORMATS, help="format of OUT (default: CORPUS's)")
    p.add_argument("--encoding", default="utf-8", help="text encoding of input and output")
    p.add_argument(
        "--audit",
        metavar="FILE",
        help="write the original -> replacement mapping (CSV, or JSONL for .jsonl): "
        "it contains PHI",
    )
    p.add_argument(
        "--progress", type=int, default=1000, metavar="N", help="report every N notes (0: never)"
    )
    p.set_defaults(func=run)


def add_key_options(
    p: argparse.ArgumentParser | argparse._ArgumentGroup, random_note: str = ""
) -> None:
    """``--key-file`` / ``--random-key`` (one or the other), shared by the commands that
    replace PHI (surrogate, deid, serve)."""
    key = p.add_mutually_exclusive_group()
    key.add_argument(
        "--key-file", metavar="K", help=f"file holding the secret key (else ${KEY_ENV})"
    )
    key.add_argument(
        "--random-key",
        action="store_true",
        help="use a one-off random key on purpose: the mapping can never be reproduced"
        + random_note,
    )


def add_date_options(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--date-order``, ``--age-cap``, ``--shift-days``: surrogate options of dates and ages."""
    p.add_argument("--date-order", choices=("mdy", "dmy"), default="mdy", help="for 3/4/2069")
    p.add_argument("--age-cap", choices=("90", "90+"), default="90", help="ages >= 90 become this")
    p.add_argument(
        "--shift-days",
        nargs=2,
        type=int,
        metavar=("MIN", "MAX"),
        default=(30, 365),
        help="range of the per-patient date shift in days, either way (default 30 365)",
    )


def warn(message: str) -> None:
    print(f"phiscrub: warning: {message}", file=sys.stderr)


def _key(args: argparse.Namespace) -> bytes | None:
    if args.mode != "surrogate":
        return None
    if args.random_key:
        warn(
            "--random-key: a one-off random key is used; this mapping can never be "
            "reproduced, and notes surrogated in another run will not match these"
        )
        return random_key()
    try:
        return load_key(args.key_file, env=KEY_ENV)
    except SurrogateKeyError as exc:
        raise SurrogateKeyError(exc.message, hint=KEY_HINT, path=exc.path) from None


def _out_format(args: argparse.Namespace, in_format: str) -> str:
    if args.tag_style is not None and args.mode != "tag":
        raise UsageError("--tag-style applies to --mode tag only")
    if args.tag_style == "i2b2-2006":
        if args.out_format not in (None, "i2b2-2006"):
            raise UsageError(
                "--tag-style i2b2-2006 writes the i2b2 2006 XML format",
                hint="drop --out-format, or use --tag-style brackets",
            )
        return "i2b2-2006"
    return str(args.out_format or in_format)


def _replacer(args: argparse.Namespace) -> Replacer:
    keep = {name.strip().upper() for item in args.keep for name in item.split(",") if name.strip()}
    low, high = args.shift_days
    options = SurrogateOptions(
        date_shift=DateShift(low, high),
        date_order=args.date_order,
        age_cap=args.age_cap,
        clinician_scope=args.clinicians,
        reference_year=args.reference_year,
    )
    return Replacer(
        args.mode, key=_key(args), keep=keep, options=options, audit=args.audit is not None
    )


def _check_paths(args: argparse.Namespace) -> None:
    corpus, output = Path(args.corpus).resolve(), Path(args.output).resolve()
    if not Path(args.corpus).exists():
        raise UsageError("the corpus does not exist", path=args.corpus)
    if output == corpus or (args.audit and Path(args.audit).resolve() in (corpus, output)):
        raise UsageError(
            "the output and the audit file must differ from the corpus and from each other",
            hint="choose another -o or --audit path",
        )


def run(args: argparse.Namespace) -> int:
    _check_paths(args)
    in_format = args.format or detect_format(Path(args.corpus))
    out_format = _out_format(args, in_format)
    replacer = _replacer(args)
    stats = RunStats()

    def skipped(where: str, error: PhiscrubError) -> None:
        stats.skipped.append((where, error.code))

    def progress(count: int) -> None:
        if args.progress > 0 and count % args.progress == 0:
            print(f"phiscrub: surrogate: {count} notes...", file=sys.stderr)

    docs: Iterator[Document] = iter_documents(
        args.corpus, format=in_format, encoding=args.encoding, on_skip=skipped
    )
    with ExitStack() as stack:
        audit = None
        if args.audit:
            audit = stack.enter_context(AuditWriter(args.audit, args.encoding))
            warn(f"the audit file {args.audit} contains PHI: store it like the notes")
        out = replace_corpus(docs, replacer, stats=stats, audit=audit, on_note=progress)
        write_corpus(out, args.output, format=out_format, encoding=args.encoding)
    for line in stats.summary():
        print(f"phiscrub: surrogate: {line}", file=sys.stderr)
    for where, code in stats.skipped:
        warn(f"skipped {where} ({code}): its notes are not in the output")
    return 1 if stats.skipped else 0
