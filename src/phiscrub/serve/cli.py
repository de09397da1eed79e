"""``phiscrub serve``: the HTTP service (FastAPI on uvicorn); see docs/serve.md.

``register`` imports nothing from FastAPI or uvicorn, so that ``phiscrub --help`` works
without the ``serve`` extra; ``run`` imports them and says what to install if they are
missing. The detector is loaded, and the key read, before the server starts listening.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys

from phiscrub.api import DETECTORS, Settings
from phiscrub.errors import UsageError
from phiscrub.serve.service import DEFAULT_MAX_NOTES, DEFAULT_MAX_REQUEST_BYTES, Limits
from phiscrub.surrogate.cli import KEY_ENV, add_key_options
from phiscrub.surrogate.keys import SurrogateKeyError, load_key, random_key
from phiscrub.surrogate.replace import MODES

KEY_HINT = (
    f"give a secret of at least 16 bytes with --key-file FILE or the {KEY_ENV} environment "
    "variable; or start with --mode tag, redact or placeholder (then requests cannot use "
    "surrogate mode); or --random-key for a one-off key whose mapping can never be reproduced"
)
USAGE = "phiscrub serve [--host H] [--port P] [--pipeline NAME | --model PATH] [options]"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        usage=USAGE,
        help="run the HTTP service (POST /v1/detect, /v1/deidentify; needs phiscrub[serve])",
        description="Serve detection and de-identification over HTTP (JSON). The model is "
        "loaded once at start-up. Binds to 127.0.0.1: put TLS and authentication in a "
        f"reverse proxy. Surrogate mode needs a key: --key-file, ${KEY_ENV} or --random-key.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    p.add_argument(
        "--pipeline", choices=DETECTORS, default="default", help="default: the shipped model"
    )
    p.add_argument("--model", metavar="PATH", help="a model archive (overrides --pipeline)")
    p.add_argument(
        "--recall-bias", type=float, metavar="T", help="a trained model's threshold (0, 1]"
    )
    p.add_argument(
        "--mode", choices=MODES, default="surrogate", help="mode of requests that name none"
    )
    p.add_argument(
        "--keep",
        action="append",
        default=[],
        metavar="LABELS",
        help="labels or categories left in clear when a request names none (e.g. STATE,AGE)",
    )
    add_key_options(p)
    p.add_argument(
        "--max-request-bytes",
        type=int,
        default=DEFAULT_MAX_REQUEST_BYTES,
        metavar="N",
        help=f"larger request bodies get 413 (default {DEFAULT_MAX_REQUEST_BYTES})",
    )
    p.add_argument(
        "--max-notes",
        type=int,
        default=DEFAULT_MAX_NOTES,
        metavar="N",
        help=f"more notes in one request get 413 (default {DEFAULT_MAX_NOTES})",
    )
    p.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="server log level (default info); logs never hold note text",
    )
    p.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="log one line per request: method, path (no query string), status",
    )
    p.set_defaults(func=run)


def say(message: str) -> None:
    print(f"phiscrub: serve: {message}", file=sys.stderr, flush=True)


def server_key(args: argparse.Namespace) -> bytes | None:
    """The surrogate key, or None where the default mode does not need one."""
    if args.random_key:
        say(
            "warning: --random-key: a one-off random key is used; its mapping can never be "
            "reproduced, and surrogates from another run of the server will not match"
        )
        return random_key()
    try:
        if args.key_file is not None or os.environ.get(KEY_ENV):
            return load_key(args.key_file, env=KEY_ENV)
    except SurrogateKeyError as exc:
        raise SurrogateKeyError(exc.message, hint=KEY_HINT, path=exc.path) from None
    if args.mode == "surrogate":
        raise SurrogateKeyError(
            "phiscrub serve refuses to start in surrogate mode without a key", hint=KEY_HINT
        )
    say(f"no key: requests asking for surrogate mode will get 400 (set {KEY_ENV} to allow it)")
    return None


def settings(args: argparse.Namespace) -> Settings:
    keep = tuple(
        dict.fromkeys(n.strip().upper() for item in args.keep for n in item.split(",") if n.strip())
    )
    return Settings(
        pipeline=args.pipeline, model=args.model, mode=args.mode, keep=keep,
        recall_bias=args.recall_bias,
    )  # fmt: skip


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from phiscrub.serve.app import create_app
        from phiscrub.serve.logs import log_config
    except ImportError as exc:
        raise UsageError(
            f"phiscrub serve needs FastAPI and uvicorn ({exc.name or 'a module'} is missing)",
            hint="pip install 'phiscrub[serve]'",
        ) from None
    from phiscrub.serve.service import Service

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is not a port number", hint="use 1 to 65535")
    limits = Limits(args.max_request_bytes, args.max_notes)
    config = settings(args)
    key = server_key(args)
    say(f"loading the detector ({config.detector_name})...")
    service = Service.start(config, key, limits)
    if not _is_loopback(args.host):
        say(
            f"warning: listening on {args.host}, beyond this machine: the service has no TLS "
            "and no authentication of its own; put it behind a reverse proxy that adds both"
        )
    say(
        f"default mode {config.mode}, key {'loaded' if key else 'absent'}; "
        f"limits {limits.max_request_bytes} bytes and {limits.max_notes} notes per request"
    )
    uvicorn.run(
        create_app(service), host=args.host, port=args.port, log_config=log_config(),
        log_level=args.log_level, access_log=args.access_log, server_header=False,
    )  # fmt: skip
    return 0
