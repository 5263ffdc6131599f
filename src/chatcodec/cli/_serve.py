"""``chatcodec serve``: the command line of the proxy in :mod:`chatcodec.serve`.

The arguments are read here; the server's own modules (Starlette, uvicorn, httpx, from
the ``serve`` extra) are imported only when the command runs, so the rest of the
command line works without them. A ``--config`` TOML file gives the same settings
(:func:`chatcodec.serve._config.read_config_file`); an option given on the command line
wins over the file, and ``--route``/``--model-map``/``--client-key`` add to it.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any, TextIO

from chatcodec._extras import missing_extra
from chatcodec._losses import LOSS_KINDS
from chatcodec.cli import _exit_codes as exit_codes
from chatcodec.cli._convert_arguments import encoder_option
from chatcodec.serve._config import ServeConfig, fronts, upstreams


def add_serve_command(commands: Any) -> None:
    """Add ``serve`` to the sub-commands."""
    serve = commands.add_parser(
        "serve",
        help="serve one provider's API in front of others (needs the serve extra)",
        description="Serve --api to callers and call the upstream each model routes to, converting requests, "
        "responses, streams and errors both ways.",
    )
    _add_routes(serve)
    _add_access(serve)
    _add_limits(serve)
    _add_checks(serve)
    _add_tracing(serve)
    _add_store(serve)
    _add_recording(serve)
    _add_writer_options(serve)
    serve.set_defaults(run=_run_serve)


def _add_tracing(serve: Any) -> None:
    """OpenTelemetry spans."""
    serve.add_argument(
        "--otel", action="store_true", default=None, help="an OpenTelemetry span per request (otel extra)"
    )
    serve.add_argument(
        "--otel-content",
        action="store_true",
        default=None,
        help="put the messages on the spans too (they hold user data)",
    )


def _add_store(serve: Any) -> None:
    """Where answers are kept for a Responses caller to continue, and the key that seals reasoning."""
    serve.add_argument(
        "--store",
        metavar="memory[:N]|sqlite:PATH|redis://HOST:PORT/DB",
        help="keep answers (memory: the last N, default 1000; sqlite: a file that outlives a restart; "
        "redis: shared by replicas; bounds as ?max_answers=N&max_bytes=64MB) so a Responses caller can "
        "continue one with previous_response_id or GET it (without it, such a request is refused with a 400)",
    )
    serve.add_argument(
        "--no-keep-thinking",
        dest="keep_thinking",
        action="store_false",
        default=None,
        help="with --store: do not keep answers' signed thinking for the clients that drop it (kept by default)",
    )
    serve.add_argument(
        "--seal-key-file",
        metavar="FILE",
        help="the key the Responses front's sealed reasoning is authenticated with, shared by replicas "
        "(default: CHATCODEC_SEAL_KEY, else one made and kept in the store, or in ~/.config/chatcodec/seal-key)",
    )


def _add_recording(serve: Any) -> None:
    """The turns recorded for training, and the template a token upstream's prompts are rendered with."""
    serve.add_argument(
        "--record",
        metavar="PATH",
        help="append one JSON line per model turn to PATH (its session, prompt and completion token ids, their "
        "logprobs, the messages and tools it saw; chatcodec.read_records reads it back), or to shards of one "
        "writer each when PATH is a directory (many gateways into one), or to a Redis Stream when PATH is a "
        "redis://HOST:PORT/N URL (gateways on many machines; the redis extra): every upstream must "
        "report token ids (a compatible server that does, named by --option server=..., or a token upstream)",
    )
    serve.add_argument(
        "--record-max-bytes",
        type=int,
        metavar="N",
        help="the bound of the --record file (a turn past it is reported as unrecorded) or, for a directory, of "
        "each shard (then the next is begun; default 256 MiB)",
    )
    serve.add_argument(
        "--template",
        metavar="FAMILY|FILE",
        help="the chat template a token upstream's prompts are rendered with: a family chatcodec knows (qwen3) "
        "or a file holding its Jinja text",
    )
    serve.add_argument(
        "--tokenizer",
        metavar="JSON",
        help="the tokenizer.json (or a model folder holding one) a token upstream's prompts are encoded and answers "
        "decoded with (tokenizers extra)",
    )
    serve.add_argument(
        "--parser",
        metavar="NAME",
        help="vLLM's --tool-call-parser name a token upstream's answers are read with (hermes, qwen3_coder, ...): "
        "needed for a --template file of no family chatcodec knows; by default the family's own",
    )
    serve.add_argument(
        "--reasoning-parser",
        metavar="NAME",
        help="vLLM's --reasoning-parser name those answers' reasoning is split off with (qwen3, deepseek_r1, ...); "
        "by default the family's own, else the tool-call parser's",
    )


def _add_writer_options(serve: Any) -> None:
    """What the upstream's request writer is given."""
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


def _add_routes(serve: Any) -> None:
    """The API offered, the upstreams called, and where the server listens."""
    # no choices: a codec an installed distribution declares is read only when named (ServeConfig checks)
    serve.add_argument("--api", metavar="API", help=f"the API offered to callers ({', '.join(fronts())})")
    serve.add_argument(
        "--upstream",
        metavar="API",
        help=f"the API called for a model no --route matches ({', '.join(upstreams())}), or a token endpoint "
        "chatcodec renders prompts for (vllm-generate, sglang-generate: with --template and --tokenizer)",
    )
    serve.add_argument(
        "--upstream-url",
        help="that upstream's base URL, as its SDK takes base_url (OpenAI's with /v1, Anthropic's without)",
    )
    serve.add_argument(
        "--route",
        action="append",
        default=[],
        metavar="PATTERN=FORMAT@URL",
        help="send models matching PATTERN (fnmatch, after --model-map) to that upstream; repeatable, first match wins",
    )
    serve.add_argument("--config", metavar="FILE.toml", help="settings and [[route]] tables in a TOML file")
    serve.add_argument("--host", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="the port to listen on (default 8080)")
    serve.add_argument(
        "--model-map", nargs="*", default=[], metavar="FROM=TO", help="rename models on the way upstream"
    )
    serve.add_argument(
        "--api-key-env",
        help="the variable holding the default upstream's key for client-key holders (default: the SDK's)",
    )


def _add_access(serve: Any) -> None:
    serve.add_argument(
        "--client-key",
        action="append",
        default=[],
        metavar="KEY",
        help="a key callers must present (then the upstream key comes from the environment); repeatable",
    )
    serve.add_argument("--client-key-file", metavar="FILE", help="client keys, one a line")
    serve.add_argument(
        "--allow-anonymous",
        action="store_true",
        default=None,
        help="let callers with no key spend the environment's upstream key (an open relay to whoever reaches the port)",
    )


def _add_checks(serve: Any) -> None:
    serve.add_argument(
        "--validate",
        action="store_true",
        default=None,
        help="refuse (400) what the front's provider would refuse: unknown fields and typos, values out of range, "
        "a turn order the upstream refuses (an orphan tool result); what the official SDKs send passes",
    )
    _add_loss_policy(serve)
    serve.add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="--validate --on-loss error (kept for servers started with it)",
    )


def _add_loss_policy(serve: Any) -> None:
    """What the gateway does with a request the upstream would get changed."""
    serve.add_argument(
        "--on-loss",
        choices=("report", "error"),
        help="a request the upstream would get changed: sent with its losses in the chatcodec-losses header "
        "(report, the default) or refused 400 listing them (error), unless every loss is of an allowed kind. "
        "The kinds: content (what the model reads was dropped or changed: a part, a tool call, thinking), "
        "setting (a setting the upstream has no field for: n=2, a penalty, a service tier), rule (the "
        "upstream's API version or model family refuses what was asked, so the body was changed), default "
        "(a required field the client left out was filled: max_tokens), required (a required field left out, "
        "the upstream will refuse), metadata (what the model never sees: ids, another provider's data), "
        "spelling (a field spelled another way), schema (a tool's JSON Schema rewritten)",
    )
    serve.add_argument(
        "--allow-loss",
        dest="added_losses",
        action="append",
        choices=LOSS_KINDS,
        metavar="KIND",
        help="a loss kind that also passes under --on-loss error (repeatable; added to the default kinds: default, "
        "required, metadata, spelling, schema; so content, setting and rule refuse unless added)",
    )
    serve.add_argument(
        "--allow-only",
        dest="only_losses",
        action="append",
        choices=(*LOSS_KINDS, "none"),
        metavar="KIND",
        help="the loss kinds that pass under --on-loss error, instead of the defaults (repeatable; "
        "--allow-only none: every loss refuses)",
    )


def _add_limits(serve: Any) -> None:
    serve.add_argument(
        "--max-connections", type=int, help="upstream calls (one connection each) at once; more wait (default 100)"
    )
    serve.add_argument(
        "--max-queued", type=int, help="requests waiting for an upstream call; one more is 503 (default 100)"
    )
    serve.add_argument(
        "--pool-timeout", type=float, help="seconds a request waits for an upstream call, then 503 (default 10)"
    )
    serve.add_argument("--connect-timeout", type=float, help="seconds to connect upstream, then 504 (default 10)")
    serve.add_argument("--timeout", type=float, help="seconds between two upstream reads, then 504 (default 600)")
    serve.add_argument("--max-body-bytes", type=int, help="the largest request body, then 413 (default 32 MiB)")
    serve.add_argument(
        "--head-timeout", type=float, help="seconds a caller has to send a request's head, then closed (default 10)"
    )
    serve.add_argument(
        "--body-timeout", type=float, help="seconds a caller has to send a request's body, then 408 (default 60)"
    )
    serve.add_argument(
        "--write-timeout",
        type=float,
        help="seconds a stream's caller may take to accept one write, then its stream ends and the upstream "
        "stream is closed (default 60)",
    )
    serve.add_argument(
        "--shutdown-timeout", type=float, help="seconds a shutdown waits for requests in flight (default 30)"
    )
    serve.add_argument(
        "--max-event-bytes", type=int, help="the largest upstream stream event, then an error event (default 32 MiB)"
    )
    serve.add_argument(
        "--max-answer-bytes", type=int, help="the largest plain upstream answer, then 502 (default 128 MiB)"
    )


_PLAIN_OPTIONS = (
    "api",
    "upstream",
    "upstream_url",
    "api_key_env",
    "store",
    "seal_key_file",
    "keep_thinking",
    "allow_anonymous",
    "max_connections",
    "max_queued",
    "pool_timeout",
    "connect_timeout",
    "timeout",
    "max_body_bytes",
    "head_timeout",
    "body_timeout",
    "max_event_bytes",
    "max_answer_bytes",
    "write_timeout",
    "shutdown_timeout",
    "host",
    "port",
    "validate",
    "on_loss",
    "strict",
    "otel",
    "otel_content",
    "record",
    "record_max_bytes",
    "template",
    "tokenizer",
    "parser",
    "reasoning_parser",
)


def settings_from(arguments: argparse.Namespace, config_module: Any) -> dict[str, Any]:
    """The :class:`~chatcodec.serve.ServeConfig` keywords of the command line over its ``--config`` file."""
    settings: dict[str, Any] = config_module.read_config_file(arguments.config) if arguments.config else {}
    for name in _PLAIN_OPTIONS:
        if getattr(arguments, name) is not None:
            settings[name] = getattr(arguments, name)
    routes = tuple(config_module.parse_route(text) for text in arguments.route)
    settings["routes"] = (*routes, *settings.get("routes", ()))
    settings["model_map"] = {**settings.get("model_map", {}), **config_module.parse_model_map(arguments.model_map)}
    settings["options"] = {**settings.get("options", {}), **dict(arguments.writer_options)}
    keys = set(settings.get("client_keys", ())) | set(arguments.client_key)
    if arguments.client_key_file:
        keys |= importlib.import_module("chatcodec.serve._auth").read_key_file(arguments.client_key_file)
    settings["client_keys"] = frozenset(keys)
    _allowed_losses(arguments, settings, config_module.DEFAULT_ALLOWED_LOSSES)
    if settings.get("strict") and (settings.get("on_loss") == "report" or settings.get("validate") is False):
        raise ValueError(
            "--strict is --validate --on-loss error: it cannot go with --on-loss report or validate = false"
        )
    if "api" not in settings:
        raise ValueError("--api is needed (on the command line or in --config)")
    return settings


def _allowed_losses(arguments: argparse.Namespace, settings: dict[str, Any], defaults: tuple[str, ...]) -> None:
    """``--allow-only`` (from none) and then ``--allow-loss`` (added) over the file's
    ``allowed_losses`` or the defaults."""
    if arguments.only_losses is None and arguments.added_losses is None:
        return
    kinds = list(settings.get("allowed_losses", defaults))
    if arguments.only_losses is not None:
        kinds = [kind for kind in arguments.only_losses if kind != "none"]
    kinds += [kind for kind in arguments.added_losses or () if kind not in kinds]
    settings["allowed_losses"] = tuple(dict.fromkeys(kinds))


def _where(error: ValueError, arguments: argparse.Namespace) -> str:
    """A settings error, naming the ``--config`` file when the setting it starts with
    (``port must be ...``, ``--api must be ...``) came from the file, not the command line."""
    import tomllib

    text = str(error)
    path: str | None = arguments.config
    if path is None or text.startswith(path):
        return text
    setting = text.split(maxsplit=1)[0].rstrip(":").removeprefix("--").replace("-", "_")
    with Path(path).open("rb") as file:
        in_file = setting in tomllib.load(file)
    return f"{path}: {text}" if in_file and getattr(arguments, setting, None) in (None, [], ()) else text


def _run_serve(arguments: argparse.Namespace, out: TextIO) -> int:
    try:
        config_module = importlib.import_module("chatcodec.serve._config")
        server = importlib.import_module("chatcodec.serve._server")
    except ImportError as error:
        print(missing_extra("chatcodec serve", "serve", error.name or "starlette"), file=sys.stderr)
        return exit_codes.UNAVAILABLE
    try:
        config = config_module.ServeConfig(**settings_from(arguments, config_module))
        if config.otel and importlib.util.find_spec("opentelemetry") is None:
            print(f"chatcodec serve: {missing_extra('--otel', 'otel', 'opentelemetry')}", file=sys.stderr)
            return exit_codes.UNAVAILABLE
        app = server.create_app(config)  # the store opened, the seal key read: before the banner
    except OSError as error:
        unreadable = arguments.config is not None and error.filename == arguments.config
        print(f"chatcodec serve: {error}", file=sys.stderr)
        return exit_codes.NO_INPUT if unreadable else exit_codes.USAGE
    except ValueError as error:
        print(f"chatcodec serve: {_where(error, arguments)}", file=sys.stderr)
        return exit_codes.USAGE
    if config.allow_anonymous and config.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"chatcodec serve: warning: --allow-anonymous on {config.host}: anyone who reaches the port "
            "spends the environment's upstream key",
            file=sys.stderr,
        )

    def listening(host: str, port: int) -> None:
        _announce(config, host, port, out)

    server.run(config, app=app, on_listening=listening)
    return 0


def _announce(config: ServeConfig, host: str, port: int, out: TextIO) -> None:
    """The start-up lines, once the socket listens (``serve._server``): the address it listens on
    (the port the system chose for ``--port 0``), the routes, and where callers' keys go."""
    shown = f"[{host}]" if ":" in host else host
    routes = ", ".join(f"{route.pattern} -> {route.upstream} at {route.url}" for route in config.all_routes)
    print(f"chatcodec serve: {config.api} API on http://{shown}:{port}, {routes}", file=out, flush=True)
    if not config.client_keys:
        print(
            "chatcodec serve: no --client-key: callers' own keys go upstream"
            + ("; callers with none spend the environment's key" if config.allow_anonymous else ""),
            file=out,
            flush=True,
        )
