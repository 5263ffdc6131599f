"""``chatcodec serve``: the command line of the proxy in :mod:`chatcodec.serve`.

The arguments are read here; the server's own modules (Starlette, uvicorn, httpx, from
the ``serve`` extra) are imported only when the command runs, so the rest of the
command line works without them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any, TextIO

from chatcodec.cli import exit_codes
from chatcodec.cli.convert import encoder_option
from chatcodec.serve.config import fronts, upstreams


def add_serve_command(commands: Any) -> None:
    """Add ``serve`` to the sub-commands."""
    serve = commands.add_parser(
        "serve",
        help="serve one provider's API in front of another (pip install 'chatcodec[serve]')",
        description="Serve --api to callers and call --upstream for them, converting requests, "
        "responses, streams and errors both ways.",
    )
    serve.add_argument("--api", required=True, choices=fronts(), help="the API offered to callers")
    serve.add_argument("--upstream", required=True, choices=upstreams(), help="the API called")
    serve.add_argument(
        "--upstream-url",
        required=True,
        help="the upstream's base URL, as its SDK takes base_url (OpenAI's with /v1, Anthropic's without)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="the port to listen on (default 8080)")
    serve.add_argument(
        "--model-map", nargs="*", default=[], metavar="FROM=TO", help="rename models on the way upstream"
    )
    serve.add_argument(
        "--api-key-env", help="the variable holding the upstream key when a caller sends none (default: the SDK's own)"
    )
    serve.add_argument(
        "--option",
        dest="writer_options",
        type=encoder_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting for the upstream's request writer, VALUE read as JSON when it is JSON (repeatable; e.g. "
        "--option server=deepseek for an OpenAI-compatible upstream the URL does not name)",
    )
    serve.set_defaults(run=_run_serve)


def _run_serve(arguments: argparse.Namespace, out: TextIO) -> int:
    try:
        config_module = importlib.import_module("chatcodec.serve.config")
        server = importlib.import_module("chatcodec.serve.server")
    except ImportError as error:
        print(f"chatcodec serve needs the serve extra: pip install 'chatcodec[serve]' ({error})", file=sys.stderr)
        return exit_codes.USAGE
    try:
        config = config_module.ServeConfig(
            api=arguments.api,
            upstream=arguments.upstream,
            upstream_url=arguments.upstream_url,
            model_map=config_module.parse_model_map(arguments.model_map),
            api_key_env=arguments.api_key_env,
            options=dict(arguments.writer_options),
        )
    except ValueError as error:
        print(f"chatcodec serve: {error}", file=sys.stderr)
        return exit_codes.USAGE
    print(
        f"chatcodec serve: {arguments.api} API on http://{arguments.host}:{arguments.port}, "
        f"calling {arguments.upstream} at {arguments.upstream_url}",
        file=out,
        flush=True,
    )
    server.run(config, host=arguments.host, port=arguments.port)
    return 0
