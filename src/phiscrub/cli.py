"""The ``phiscrub`` command. Each command lives in its own module and registers here."""

from __future__ import annotations

import argparse
import logging
import sys

from phiscrub import __version__
from phiscrub.errors import PhiscrubError


def build_parser() -> argparse.ArgumentParser:
    from phiscrub.corpus import cli as corpus_cli
    from phiscrub.deid import cli as deid_cli
    from phiscrub.detect import cli as detect_cli
    from phiscrub.evaluate import cli as eval_cli
    from phiscrub.serve import cli as serve_cli
    from phiscrub.surrogate import cli as surrogate_cli
    from phiscrub.synth import cli as synth_cli
    from phiscrub.taggers import cli as taggers_cli

    parser = argparse.ArgumentParser(
        prog="phiscrub",
        description="Find protected health information in clinical notes and replace it.",
    )
    parser.add_argument("--version", action="version", version=f"phiscrub {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    eval_cli.register(sub)
    detect_cli.register(sub)
    synth_cli.register(sub)
    corpus_cli.register(sub)
    surrogate_cli.register(sub)
    deid_cli.register(sub)
    taggers_cli.register(sub)
    serve_cli.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="phiscrub: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        code: int = args.func(args)
    except PhiscrubError as exc:
        print(f"phiscrub: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("phiscrub: interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
