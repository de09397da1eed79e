"""``phiscrub deid INPUT -o OUTPUT``: find the PHI of every note and replace it.

Any supported input format to any output format; keyed surrogates, tags, masks or
placeholders; worker processes; resumable; fail-closed. See docs/deid.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path

from phiscrub.api import DETECTORS, Settings
from phiscrub.deid.engine import MAX_NOTE_CHARS, Plan, run, say
from phiscrub.deid.formats import TABLES
from phiscrub.deid.report import EXIT_SOME_FAILED
from phiscrub.deid.work import check_output_free
from phiscrub.errors import UsageError
from phiscrub.io import FORMATS, detect_format
from phiscrub.surrogate.cli import KEY_ENV, _key, add_date_options, add_key_options
from phiscrub.surrogate.dates import DateShift
from phiscrub.surrogate.generator import SurrogateOptions
from phiscrub.surrogate.replace import MODES, Replacer

USAGE = "phiscrub deid INPUT -o OUTPUT [--key-file K | --random-key] [options]"
SPARK_HINT = 'install the Spark extra: pip install "phiscrub[spark]"'


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "deid",
        usage=USAGE,
        help="de-identify notes: find PHI and replace it (any format in, any format out)",
        description="Find the PHI of every note of INPUT and write the de-identified notes "
        "to OUTPUT. Surrogate mode (the default) needs a key: --key-file, "
        f"${KEY_ENV}, or --random-key. Exit codes: 0 done; 3 some notes, files or "
        "records failed (listed in OUTPUT.errors.jsonl, not in the output); 2 an error "
        "stopped the run; 130 interrupted. An interrupted run resumes when run again.",
    )
    p.add_argument("input", metavar="INPUT", help="a file or folder of notes (any format)")
    p.add_argument("-o", "--output", required=True, metavar="OUTPUT", help="file or folder")
    _replacement_options(p.add_argument_group("replacement"))
    det = p.add_argument_group("detection")
    det.add_argument(
        "--pipeline",
        choices=DETECTORS,
        default="default",
        help="default: the shipped model; rules, hd-baseline: rule pipelines",
    )
    det.add_argument("--model", metavar="PATH", help="a model archive (overrides --pipeline)")
    det.add_argument(
        "--recall-bias",
        type=float,
        metavar="T",
        help="a model's threshold: a token is PHI when P(O) < T (higher finds more)",
    )
    _io_options(p.add_argument_group("input and output"))
    _run_options(p.add_argument_group("running"))
    p.set_defaults(func=main)


def _replacement_options(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--mode", choices=MODES, default="surrogate", help="default: surrogate")
    add_key_options(g, ", and an interrupted run cannot be resumed")
    g.add_argument(
        "--keep",
        action="append",
        default=[],
        metavar="LABELS",
        help="comma-separated labels or categories left in clear (e.g. STATE,AGE)",
    )
    add_date_options(g)


def _io_options(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--format", choices=FORMATS, help="format of INPUT (default: detected)")
    g.add_argument("--out-format", choices=FORMATS, help="format of OUTPUT (default: INPUT's)")
    g.add_argument("--encoding", default="utf-8", help="text encoding of input and output")
    g.add_argument("--id-column", default="id", help="CSV/Parquet id column (default id)")
    g.add_argument("--text-column", default="text", help="CSV/Parquet text column (default text)")
    pat = g.add_mutually_exclusive_group()
    pat.add_argument(
        "--patient-column",
        metavar="NAME",
        help="CSV/Parquet patient id column (default patient_id)",
    )
    pat.add_argument(
        "--patient-from",
        metavar="REGEX",
        help="the patient id is the one group of REGEX searched in the note id",
    )
    g.add_argument(
        "--max-note-chars",
        type=int,
        default=MAX_NOTE_CHARS,
        metavar="N",
        help=f"notes longer than N characters are left out and reported (default "
        f"{MAX_NOTE_CHARS}; 0: no limit)",
    )
    g.add_argument("--errors", metavar="FILE", help="error report (default OUTPUT.errors.jsonl)")
    g.add_argument("--summary-json", metavar="FILE", help="write the run summary as JSON")
    g.add_argument("--overwrite", action="store_true", help="replace an existing OUTPUT")


def _run_options(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
    g.add_argument("--batch-size", type=int, default=32, metavar="N", help=argparse.SUPPRESS)
    g.add_argument(
        "--chunk-notes",
        type=int,
        default=1000,
        metavar="N",
        help="notes per resumable chunk (default 1000)",
    )
    g.add_argument(
        "--fresh", action="store_true", help="discard an unfinished run's work, do not resume it"
    )
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    g.add_argument(
        "--engine",
        choices=("local", "spark"),
        default="local",
        help="local (default), or spark: one Spark job, Parquet in and out",
    )
    g.add_argument("--spark-master", metavar="URL", help="Spark master URL (default local[*])")


def settings_of(args: argparse.Namespace) -> Settings:
    keep = {name.strip().upper() for item in args.keep for name in item.split(",") if name.strip()}
    low, high = args.shift_days
    options = SurrogateOptions(
        date_shift=DateShift(low, high), date_order=args.date_order, age_cap=args.age_cap
    )
    Replacer("tag", keep=keep)  # an unknown label is a usage error now, not in a worker
    if args.model is not None and not Path(args.model).is_file():
        raise UsageError("the model file does not exist", path=args.model)
    return Settings(
        pipeline=args.pipeline, model=args.model, mode=args.mode, keep=tuple(sorted(keep)),
        recall_bias=args.recall_bias, options=options,
    )  # fmt: skip


def _check_numbers(args: argparse.Namespace) -> None:
    for name in ("jobs", "batch_size", "chunk_notes"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    if args.max_note_chars < 0:
        raise UsageError("--max-note-chars must be 0 (no limit) or more")


def _patients(args: argparse.Namespace, fmt: str) -> tuple[re.Pattern[str] | None, str]:
    """The --patient-from pattern, and a description of where patient ids come from."""
    if args.patient_from is not None:
        try:
            pattern = re.compile(args.patient_from)
        except re.error as exc:
            raise UsageError(f"--patient-from is not a regular expression: {exc}") from None
        if pattern.groups != 1:
            raise UsageError(
                "--patient-from needs exactly one group", hint=r"e.g. --patient-from '^(\d+)-'"
            )
        return pattern, f"--patient-from {args.patient_from!r} on the note id"
    if args.patient_column is not None:
        if fmt not in TABLES:
            raise UsageError(
                "--patient-column applies to CSV and Parquet input",
                hint="use --patient-from REGEX on the note id for other formats",
            )
        return None, f"the {args.patient_column} column"
    source = {
        "jsonl": "the patient_id field",
        "csv": "the patient_id column",
        "parquet": "the patient_id column",
        "i2b2-2006": "the record ID (<patient>-<n>)",
    }.get(fmt, "the file name (<patient>-<n>)")
    return None, source


def _key_source(args: argparse.Namespace) -> str:
    if args.mode != "surrogate":
        return "none (no key needed)"
    if args.random_key:
        return "one-off random (--random-key)"
    return "from --key-file" if args.key_file else f"from ${KEY_ENV}"


def plan_of(args: argparse.Namespace) -> Plan:
    _check_numbers(args)
    source = Path(args.input)
    if not source.exists():
        raise UsageError("the input does not exist", path=args.input, hint="check the path")
    in_format = args.format or detect_format(source)
    pattern, patient_source = _patients(args, in_format)
    settings = settings_of(args)
    key = _key(args)
    return Plan(
        input=source, output=Path(args.output), in_format=in_format,
        out_format=args.out_format or in_format, settings=settings, key=key,
        key_source=_key_source(args), random_key=args.random_key, encoding=args.encoding,
        id_column=args.id_column, text_column=args.text_column,
        patient_column=args.patient_column or "patient_id", patient_from=pattern,
        patient_source=patient_source, jobs=args.jobs, batch_size=args.batch_size,
        chunk_notes=args.chunk_notes, max_note_chars=args.max_note_chars,
        errors_path=Path(args.errors) if args.errors else None,
        summary_path=Path(args.summary_json) if args.summary_json else None,
        overwrite=args.overwrite, fresh=args.fresh,
        progress=not args.quiet and sys.stderr.isatty(),
    )  # fmt: skip


def main(args: argparse.Namespace) -> int:
    if args.engine == "spark":
        return _spark(args)
    summary = run(plan_of(args))
    for line in summary.lines():
        say(line)
    return summary.exit_code


def _is_uri(path: str) -> bool:
    return "://" in path


def _spark(args: argparse.Namespace) -> int:
    """``--engine spark``: one Spark job, Parquet in and out, local paths or URIs (no
    resume and no error report: Spark retries failed tasks, failed notes are counted)."""
    local = not _is_uri(args.input)
    if local and not Path(args.input).exists():
        raise UsageError("the input does not exist", path=args.input, hint="check the path")
    in_format = args.format or (detect_format(Path(args.input)) if local else "parquet")
    if in_format != "parquet" or (args.out_format or in_format) != "parquet":
        raise UsageError(
            "--engine spark reads and writes Parquet only",
            hint="use --engine local (the default) for other formats",
        )
    if args.patient_from is not None:
        raise UsageError(
            "--patient-from is not supported with --engine spark",
            hint="put the patient ids in a column and pass --patient-column",
        )
    if not _is_uri(args.output):
        check_output_free(Path(args.output), overwrite=args.overwrite, ours=False)
    settings, key = settings_of(args), _key(args)
    if importlib.util.find_spec("pyspark") is None:
        raise UsageError("--engine spark needs pyspark, which is not installed", hint=SPARK_HINT)
    try:
        from phiscrub.spark import run_deid_spark
    except ImportError as exc:
        raise UsageError(
            f"the Spark engine cannot be loaded ({exc.name})", hint=SPARK_HINT
        ) from None
    result = run_deid_spark(
        args.input, args.output, settings, key, master=args.spark_master,
        text_col=args.text_column, id_col=args.id_column,
        patient_col=args.patient_column or "patient_id",
    )  # fmt: skip
    say(f"wrote {args.output} (parquet) with Spark")
    for name, value in result.items():
        say(f"{name}: {value}")
    if args.summary_json:
        Path(args.summary_json).write_text(json.dumps(result, indent=1, default=str) + "\n")
    return EXIT_SOME_FAILED if result.get("failures") else 0
