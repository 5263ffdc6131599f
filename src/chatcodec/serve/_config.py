"""The settings of one ``chatcodec serve`` process (no third-party import, so the
command line can build them before the server's dependencies are checked).

Defaults, and why (the docs' gateway page says the same):

- ``max_body_bytes`` 32 MiB: the largest request body Anthropic's Messages API takes
  (https://docs.anthropic.com/en/api/overview#request-size-limits; OpenAI's and Gemini's
  inline limits are of the same order); a body above it is answered 413 before it is read
  whole, so a 300 MB body cannot take the process's memory.
- ``offload_bytes`` 256 KiB: a body or an answer above it is parsed and converted on a
  worker thread, so a small request does not wait behind a large one on the event loop.
- ``max_connections`` 100 (httpx's own default), ``max_queued`` 100 and ``pool_timeout``
  10 s: a request that finds every upstream call slot busy waits its turn in a queue of at
  most 100, for at most 10 s, and is otherwise answered 503 with ``Retry-After``, not left
  waiting unseen (:mod:`.admission`).
- ``connect_timeout`` 10 s and ``timeout`` 600 s (between two reads: a reasoning model can
  think for minutes before its first token) are answered 504.
- No client keys and ``allow_anonymous`` off: each caller's own key goes upstream, and a
  caller with no key is refused 401, never given the operator's key from the environment;
  ``--host 0.0.0.0`` therefore never makes an open relay (see :mod:`.auth`).
- ``head_timeout`` 10 s and ``body_timeout`` 60 s: a caller that opens a connection and
  sends no request head, or a head and then half a body, is cut off instead of holding a
  socket and a task forever (:mod:`.deadlines`).
- ``write_timeout`` 60 s: a stream's caller that accepts no write for that long (it
  stopped reading, its connection still open) loses its stream, and the upstream stream
  is closed, so it holds no upstream connection; ``shutdown_timeout`` 30 s: how long a
  shutdown waits for requests in flight.
- ``max_event_bytes`` 32 MiB and ``max_answer_bytes`` 128 MiB: one upstream stream event
  (a Gemini chunk with an inline image is a few MB) or one plain answer larger than that
  is a 502, so an upstream that never ends an event cannot take the process's memory.

Every value is checked against its declared type (:mod:`.setting_types`): a TOML
``allow_anonymous = "false"`` is an error, never a truthy string.
"""

from __future__ import annotations

import difflib
import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from chatcodec._errors import CodecNotAvailableError, ProviderLookupError
from chatcodec._losses import LOSS_KINDS, LossAction, LossKind
from chatcodec._narrow import as_dict, as_list, is_list
from chatcodec._option_table import named_options
from chatcodec._public_label import shown_as
from chatcodec._registry import get_codec, get_edge, is_available, providers_in_use
from chatcodec.serve._setting_types import check_fields
from chatcodec.serve._store_spelling import check_store_spelling
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS

_GLOB = frozenset("*?[")
WIRE_FIELDS = (
    "the caller's request body (a field of the front's API is passed on to an upstream of that API, "
    "and reported lost to another)"
)
"""Where a wire field to send goes through the gateway, which takes no ``extra_fields=``: the
option error of ``--option`` (and a route's ``options``) says so."""
_POSITIVE = (
    "max_connections",
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
)


def fronts() -> tuple[str, ...]:
    """The APIs the server can offer its callers: the providers in use whose edge has a front
    (an installed codec once named: :func:`check_side`)."""
    return tuple(name for name in providers_in_use() if _side(name, "front"))


def upstreams() -> tuple[str, ...]:
    """The APIs the server can call: the providers in use whose edge has an upstream side."""
    return tuple(name for name in providers_in_use() if _side(name, "upstream"))


def check_side(name: str, side: Literal["front", "upstream"], option: str) -> None:
    """Refuses ``name`` for ``option`` unless its codec's edge has ``side``: a provider in use,
    else a codec an installed distribution declares, imported only now (a broken one is
    refused naming its distribution)."""
    offered = fronts() if side == "front" else upstreams()
    if name in offered:
        return
    found = False
    try:
        if is_available(name):
            get_codec(name)  # an installed codec that cannot be loaded: refused naming its distribution
            found = _side(name, side)
    except ProviderLookupError as error:
        raise ValueError(f"{option} {name!r}: {error}") from None
    if not found:
        raise ValueError(f"{option} must be one of {', '.join(offered)}, not {name!r}{_nearest(name, offered)}")


def _side(name: str, side: str) -> bool:
    try:
        edge = get_edge(name)
    except ProviderLookupError:  # a codec without an edge: nothing to serve or call
        return False
    return getattr(edge, side) is not None


def _strict_front(api: str, validate: bool) -> None:
    """``--validate`` refused at start for a front whose codec cannot read strictly, rather
    than every request answered with the refusal."""
    from chatcodec._strict.check import refuse_unless_strict

    if not validate:
        return
    try:
        refuse_unless_strict(api)
    except CodecNotAvailableError as error:
        raise ValueError(f"--validate cannot check {api} requests: {error}") from None


@dataclass(frozen=True)
class Route:
    """Where requests for the models matching ``pattern`` go."""

    pattern: str
    """An ``fnmatch`` pattern over the model name after ``model_map`` (``claude-*``, ``*``)."""
    upstream: str
    """The API called (one of :func:`upstreams`)."""
    url: str
    """The upstream's base URL, as its official SDK takes ``base_url``: OpenAI's includes
    ``/v1`` (``https://api.openai.com/v1``), Anthropic's and Gemini's do not
    (``https://api.anthropic.com``, ``https://generativelanguage.googleapis.com``),
    Bedrock's is the runtime endpoint (``https://bedrock-runtime.us-east-1.amazonaws.com``)."""
    api_key_env: str | None = None
    """The environment variable holding the operator's key for this upstream (default:
    the upstream SDK's own, such as ``ANTHROPIC_API_KEY``)."""
    models: tuple[str, ...] = ()
    """Model names listed by ``GET /v1/models`` for this route (a pattern lists none)."""
    options: Mapping[str, object] = field(default_factory=lambda: {})
    """The upstream writer's options by name (``server=deepseek``); they win over what
    the URL implies (:meth:`ServeConfig.writer_options`)."""

    def __post_init__(self) -> None:
        check_fields(self, "[[route]] ")
        if self.upstream in TOKEN_UPSTREAMS:
            if self.options:
                raise ValueError(f"the {self.upstream} upstream takes no writer --option: chatcodec renders its prompt")
        else:
            check_side(self.upstream, "upstream", "an upstream")
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(f"an upstream URL must be http(s), not {self.url!r}")
        if not self.pattern:
            raise ValueError("a route's model pattern is empty")
        if self.options and self.upstream not in TOKEN_UPSTREAMS:  # a misspelt option is refused at start-up
            named_options(self.upstream, get_codec(self.upstream).options, self.options, wire_fields=WIRE_FIELDS)

    def matches(self, model: str) -> bool:
        """Whether ``model`` goes this way (case-sensitive, as model names are); the catch-all
        ``*`` that every default upstream has matches without a pattern match."""
        return self.pattern == "*" or fnmatchcase(model, self.pattern)

    @property
    def listed(self) -> tuple[str, ...]:
        """The models to list: the route's ``models``, or its pattern when it is one name."""
        if self.models:
            return self.models
        return () if _GLOB & set(self.pattern) else (self.pattern,)


DEFAULT_ALLOWED_LOSSES: tuple[LossKind, ...] = ("default", "required", "metadata", "spelling", "schema")
"""The loss kinds ``--on-loss error`` lets pass unless told otherwise (see :attr:`ServeConfig.allowed_losses`)."""


def _check_numbers(config: ServeConfig) -> None:
    """Every number finite and in range: ``nan`` passes no comparison (a ``--timeout nan``
    server answered every request 500) and ``inf`` would be no deadline at all."""
    for name in _POSITIVE:
        value = getattr(config, name)
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a positive finite number, not {value}")
    for name in ("offload_bytes", "max_queued"):
        if getattr(config, name) < 0:
            raise ValueError(f"{name} must be 0 or more, not {getattr(config, name)}")


def _check_inert_settings(config: ServeConfig) -> None:
    """A setting that would do nothing is refused rather than ignored: the operator meant
    something by it."""
    if config.seal_key_file is not None and not _seals_reasoning(config.api):
        sealing = ", ".join(name for name in fronts() if _seals_reasoning(name))
        raise ValueError(
            f"--seal-key-file (seal_key_file) only acts on a front that seals reasoning ({sealing}), not {config.api}"
        )
    if not config.keep_thinking and config.store is None:
        raise ValueError(
            "--no-keep-thinking (keep_thinking = false) only acts with --store: without one nothing is kept"
        )


def _check_token_upstreams(config: ServeConfig) -> None:
    """A token upstream needs a template to render its prompts with; a template with no
    token upstream would do nothing."""
    rendering = [route.upstream for route in config.all_routes if route.upstream in TOKEN_UPSTREAMS]
    if rendering and config.template is None:
        raise ValueError(f"--upstream {rendering[0]} needs --template: chatcodec renders its prompts")
    rendering_settings = (config.template, config.tokenizer, config.parser, config.reasoning_parser)
    if not rendering and any(setting is not None for setting in rendering_settings):
        raise ValueError(
            "--template, --tokenizer, --parser and --reasoning-parser only act on a token upstream "
            f"({', '.join(TOKEN_UPSTREAMS)}), whose prompts chatcodec renders and whose answers it parses"
        )
    if config.parser is None and config.reasoning_parser is None:
        return
    from chatcodec._training.gateway import REASONING_PARSERS, TOOL_CALL_PARSERS  # the room: only when named

    for option, name, known in (
        ("--parser", config.parser, TOOL_CALL_PARSERS),
        ("--reasoning-parser", config.reasoning_parser, REASONING_PARSERS),
    ):
        if name is not None and name not in known:
            vllm = option.replace("--parser", "--tool-call-parser")
            raise ValueError(f"{option}: unknown parser {name!r} (vLLM's {vllm} names: {', '.join(sorted(known))})")


def _check_recording(config: ServeConfig) -> None:
    """``--record`` refused at start when a route's upstream reports no token ids: its turns
    could not be recorded, and a record with holes is not what the operator asked for."""
    if config.record is None:
        if config.record_max_bytes is not None:
            raise ValueError("--record-max-bytes bounds what --record writes: give --record")
        return
    if config.record_max_bytes is not None and config.record_max_bytes <= 0:
        raise ValueError(f"--record-max-bytes must be a positive number of bytes, not {config.record_max_bytes}")
    for route in config.all_routes:
        if route.upstream in TOKEN_UPSTREAMS:
            continue  # chatcodec renders the prompt: the ids are its own
        side = get_edge(route.upstream).upstream
        server = config.writer_options(route).get("server")
        reporting = () if side is None else tuple(side.sampled_ids)
        if server not in reporting:
            named = f"server={server}" if isinstance(server, str) else "no server option"
            offered = ", ".join(f"--option server={name}" for name in reporting) or "none"
            raise ValueError(
                f"--record: the {route.upstream} upstream at {route.url} ({named}) reports no token ids to record; "
                f"an upstream that does: {route.upstream} with {offered}"
            )


def _seals_reasoning(api: str) -> bool:
    """Whether ``api``'s front answers with resources of its own, whose reasoning it seals."""
    offered = get_edge(api).front
    return offered is not None and offered.answering is not None and offered.answering.seals


@dataclass(frozen=True)
class ServeConfig:
    """What ``chatcodec serve`` was asked to do."""

    api: str
    """The API offered to callers (one of :func:`fronts`)."""
    upstream: str | None = None
    """The API called for a model no ``routes`` entry matches (one of :func:`upstreams`)."""
    upstream_url: str | None = None
    """That upstream's base URL (see :attr:`Route.url`)."""
    model_map: Mapping[str, str] = field(default_factory=lambda: {})
    """Caller model name -> upstream model name; a name not listed passes unchanged."""
    api_key_env: str | None = None
    """The environment variable holding the default upstream's key (default: the upstream SDK's own)."""
    validate: bool = False
    """``--validate``: read requests as the front's provider reads them
    (``decode_request(strict=True)``: an unknown field or a typo, a value out of range, and
    a turn order the routed upstream refuses, such as an orphan tool result, are a 400 in
    the front's error shape). What the official SDKs themselves send passes (their own
    output fields, documented in each edge's extensions). Losses are another question:
    :attr:`on_loss`."""
    on_loss: Literal["report", "error"] = "report"
    """``--on-loss``: what a request the upstream would get changed is answered with.
    ``report``: sent, its losses in the ``chatcodec-losses`` header and the log line;
    ``error``: refused 400 with the losses listed, unless every one is of a kind in
    :attr:`allowed_losses`."""
    allowed_losses: tuple[LossKind, ...] = DEFAULT_ALLOWED_LOSSES
    """The loss kinds (:data:`chatcodec.LossKind`) that pass under ``on_loss =
    "error"``, all of them (the command line's ``--allow-loss KIND`` adds one to these,
    ``--allow-only KIND`` or ``--allow-only none`` starts from none); by default what the
    model never sees or what only changes how a field is spelled, so ``content``,
    ``setting`` (``n=2`` to an API with one answer) and ``rule`` refuse. Set without
    ``on_loss = "error"`` it would do nothing, so it is refused at start."""
    strict: bool = False
    """``--strict``, kept for the servers started with it: ``validate`` and
    ``on_loss = "error"`` together."""
    timeout: float = 600.0
    """Seconds to wait for the upstream between two reads (then 504)."""
    routes: tuple[Route, ...] = ()
    """Upstreams by model, tried in order before the default ``upstream``."""
    client_keys: frozenset[str] = frozenset()
    """The keys callers present to this server; when set, only they are let in, and the
    upstream gets the operator's key from the environment, never the caller's."""
    allow_anonymous: bool = False
    """Let a caller with no key spend the operator's key from the environment (an open
    relay to whoever reaches the port; for a loopback-only or otherwise guarded server)."""
    max_connections: int = 100
    """Upstream calls (one connection each) at once, all upstreams together; more wait their turn."""
    max_queued: int = 100
    """Requests waiting for an upstream call when all ``max_connections`` are busy (one more is 503)."""
    pool_timeout: float = 10.0
    """Seconds a request waits in the queue for an upstream call (then 503 with ``Retry-After``)."""
    connect_timeout: float = 10.0
    """Seconds to open an upstream connection (then 504)."""
    max_body_bytes: int = 32 * 1024 * 1024
    """The largest request body taken (then 413)."""
    offload_bytes: int = 256 * 1024
    """Bodies and answers larger than this are converted on a worker thread."""
    otel: bool = False
    """Write an OpenTelemetry span per request (the ``otel`` extra; :mod:`.telemetry`)."""
    otel_content: bool = False
    """Put the input and output messages on the spans too (they hold what users wrote)."""
    store: str | None = None
    """Where answers are kept for a later request to continue (``previous_response_id``
    on the Responses front, ``GET /v1/responses/{id}``; ``previous_interaction_id`` on the
    Interactions front, ``GET /v1beta/interactions/{id}``): ``memory[:N]``, ``sqlite:PATH`` or
    ``redis://HOST:PORT/DB``, bounds as ``?max_answers=N&max_bytes=SIZE``; None keeps none,
    and a request continuing an answer is refused (:mod:`chatcodec.serve._response_store`)."""
    keep_thinking: bool = True
    """With a store: keep the signed thinking of answers and put it back on the next request
    whose assistant turn comes without it (:mod:`chatcodec.serve._kept_thinking`); turned
    off without a store, it is refused at start (it would do nothing)."""
    seal_key_file: str | None = None
    """A file holding the key the Responses front's sealed reasoning is authenticated with
    (the same on every replica; 16 characters or more, in a file of at most 4 KiB, as is
    ``CHATCODEC_SEAL_KEY``); None: ``CHATCODEC_SEAL_KEY``, else one kept in the store or the
    config directory (:mod:`chatcodec.serve._seals`). Refused at start on a front that seals nothing."""
    options: Mapping[str, object] = field(default_factory=lambda: {})
    """The default upstream's writer options by name (``--option server=deepseek``); they
    win over what its URL implies (:meth:`writer_options`; a route has its own)."""
    host: str = "127.0.0.1"
    """The address to listen on."""
    port: int = 8080
    """The port to listen on."""
    head_timeout: float = 10.0
    """Seconds a connection may take to send a request's head (then it is closed)."""
    body_timeout: float = 60.0
    """Seconds a request may take to send its whole body (then 408)."""
    max_event_bytes: int = 32 * 1024 * 1024
    """The largest upstream stream event taken (then the stream ends with an error event)."""
    max_answer_bytes: int = 128 * 1024 * 1024
    """The largest plain upstream answer taken (then 502)."""
    write_timeout: float = 60.0
    """Seconds a stream's caller may take to accept one write (a caller that stops reading
    while its connection stays open): then its stream ends, and the upstream stream is
    closed and its connection freed (:mod:`.deadlines`)."""
    shutdown_timeout: float = 30.0
    """Seconds a shutdown (SIGTERM, Ctrl-C) waits for requests in flight before it closes
    their connections."""
    template: str | None = None
    """``--template``: the chat template chatcodec renders prompts with for a token upstream
    (``vllm-generate``, ``sglang-generate``): a family it knows (``qwen3``) or a file holding
    the template's Jinja text; refused for any other upstream."""
    tokenizer: str | None = None
    """``--tokenizer``: the ``tokenizer.json`` those prompts are encoded and answers decoded
    with (read once, at start; an application may give :func:`~chatcodec.serve.create_app` a
    tokenizer object instead)."""
    parser: str | None = None
    """``--parser``: vLLM's ``--tool-call-parser`` name (``hermes``, ``qwen3_coder``, ...) a token
    upstream's completions are read with, as :func:`chatcodec.parse_completion` takes it: needed
    for a ``--template`` file of no family chatcodec knows (refused at start without it); by
    default the family's own."""
    reasoning_parser: str | None = None
    """``--reasoning-parser``: vLLM's ``--reasoning-parser`` name (``qwen3``, ``deepseek_r1``, ...)
    those completions' reasoning is split off with; by default the family's own, else the
    tool-call parser's."""
    record: str | None = None
    """``--record PATH``: a JSON Lines file each model turn is appended to when it ends (the
    session its caller names, the prompt and completion token ids, their logprobs, the messages
    and tools it saw: :func:`chatcodec.read_records` reads it back). Every route must report
    token ids: an OpenAI Chat upstream whose ``server`` option names one that does (vLLM,
    SGLang), or a token upstream (``vllm-generate``, ``sglang-generate``) that chatcodec
    renders for (:mod:`.turn_records`). An existing directory holds shards instead, one writer
    each, for many gateways (:mod:`.turn_shards`); a ``redis://HOST:PORT/N`` URL, a Redis
    Stream, for gateways on many machines (:mod:`.turn_stream`, the ``redis`` extra)."""
    record_max_bytes: int | None = None
    """``--record-max-bytes``: the bound of the record file (a turn past it is reported as
    unrecorded, as a full disk is) or of each shard of a directory (the next one is begun;
    default 256 MiB)."""

    def __post_init__(self) -> None:
        check_fields(self)
        if self.strict:
            object.__setattr__(self, "validate", True)
            object.__setattr__(self, "on_loss", "error")
        unknown = sorted(set(self.allowed_losses) - set(LOSS_KINDS))
        if unknown:
            raise ValueError(f"allowed_losses: unknown loss kind(s) {unknown} (kinds: {', '.join(LOSS_KINDS)})")
        if self.on_loss != "error" and set(self.allowed_losses) != set(DEFAULT_ALLOWED_LOSSES):
            raise ValueError(
                "--allow-loss/--allow-only (allowed_losses) only act with --on-loss error (or --strict): "
                "under --on-loss report every request is sent and its losses reported"
            )
        check_side(self.api, "front", "--api")
        _strict_front(self.api, self.validate)
        if (self.upstream is None) != (self.upstream_url is None):
            raise ValueError("--upstream and --upstream-url go together")
        if self.upstream is not None and self.upstream not in TOKEN_UPSTREAMS:
            check_side(self.upstream, "upstream", "--upstream")
            if not str(self.upstream_url).startswith(("http://", "https://")):
                raise ValueError(f"--upstream-url must be an http(s) URL, not {self.upstream_url!r}")
        check_store_spelling(self.store)  # refuses a spelling it does not know (nothing opened yet)
        _check_inert_settings(self)
        if not self.all_routes:
            raise ValueError("nothing to call: give --upstream and --upstream-url, or at least one --route")
        _check_numbers(self)
        _check_token_upstreams(self)
        _check_recording(self)
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0 to 65535, not {self.port}")

    @cached_property
    def loss_policy(self) -> dict[str, LossAction]:
        """The policy the request's losses are settled by (:func:`chatcodec._losses.loss_action`),
        built once: every request reads it twice."""
        if self.on_loss == "report":
            return {"*": "ignore"}
        return {"*": "error", **dict.fromkeys(self.allowed_losses, "ignore")}

    @cached_property
    def all_routes(self) -> tuple[Route, ...]:
        """The routes in the order tried: ``routes``, then the default upstream for any model."""
        if self.upstream is None or self.upstream_url is None:
            return self.routes
        return (*self.routes, Route("*", self.upstream, self.upstream_url, self.api_key_env, options=self.options))

    def writer_options(self, route: Route | None = None) -> dict[str, object]:
        """The options ``route``'s upstream writer gets (default: the default upstream's):
        what its URL implies (the OpenAI-compatible server it points at), then its own
        ``options`` (``--option`` for the default upstream)."""
        chosen = route if route is not None else self.all_routes[-1]
        if chosen.upstream in TOKEN_UPSTREAMS:
            return {}
        side = get_edge(chosen.upstream).upstream
        implied = side.options(chosen.url) if side is not None and side.options else {}
        return {**implied, **chosen.options}

    def route_for(self, model: str) -> Route | None:
        """The first route whose pattern matches ``model`` (the name after ``model_map``)."""
        return next((route for route in self.all_routes if route.matches(model)), None)

    @property
    def listed_models(self) -> tuple[str, ...]:
        """What ``GET /v1/models`` lists: the mapped names callers use, then each route's models."""
        names = [*self.model_map, *(name for route in self.all_routes for name in route.listed)]
        return tuple(dict.fromkeys(names))

    @property
    def upstream_names(self) -> tuple[str, ...]:
        """Every API called, once each (what the server warms up)."""
        return tuple(
            dict.fromkeys(route.upstream for route in self.all_routes if route.upstream not in TOKEN_UPSTREAMS)
        )


def check_given_settings(settings: Mapping[str, Any]) -> None:
    """Refuse settings given together that contradict each other, which :class:`ServeConfig`
    cannot see once its defaults are filled in: ``strict`` with ``on_loss = "report"`` or
    ``validate = false`` (``strict`` would silently win)."""
    if settings.get("strict") and (settings.get("on_loss") == "report" or settings.get("validate") is False):
        raise ValueError(
            "--strict is --validate --on-loss error: it cannot go with --on-loss report or validate = false"
        )


def parse_model_map(pairs: list[str]) -> dict[str, str]:
    """``["gpt-4o=claude-sonnet-4-6", ...]`` as a dict; a pair without ``=`` is refused."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        source, equals, target = pair.partition("=")
        if not equals or not source or not target:
            raise ValueError(f"--model-map takes FROM=TO, not {pair!r}")
        mapping[source] = target
    return mapping


def parse_route(text: str) -> Route:
    """``claude-*=anthropic@https://api.anthropic.com`` as a :class:`Route`."""
    pattern, equals, rest = text.partition("=")
    upstream, at, url = rest.partition("@")
    if not equals or not at:
        raise ValueError(f"--route takes PATTERN=FORMAT@URL, not {text!r}")
    return Route(pattern.strip(), upstream.strip(), url.strip())


_TABLES = frozenset(("model_map", "options"))
"""The settings that are TOML tables (the command line adds its own entries to them)."""
_ROUTE_KEYS = frozenset(("pattern", "upstream", "url", "api_key_env", "models", "options"))


def read_config_file(path: str | Path) -> dict[str, Any]:
    """A TOML file's settings as :class:`ServeConfig` keywords: any field by its name
    (``api``, ``max_connections``, ``[model_map]``, ``[options]``...), ``[[route]]`` tables
    with ``pattern``, ``upstream``, ``url`` and optional ``api_key_env``, ``models`` and
    ``options``, and
    ``client_key_file`` (keys one a line); an unknown key is refused, not ignored, with the
    nearest known one. Every error names the file (a TOML syntax error its line too)."""
    with Path(path).open("rb") as file:
        try:
            loaded = tomllib.load(file)
        except tomllib.TOMLDecodeError as error:  # "Expected '=' ... (at line 3, column 5)"
            raise ValueError(f"{path}: not valid TOML: {error}") from None
    known = {item.name for item in fields(ServeConfig)} - {"routes", "client_keys"}
    settings: dict[str, Any] = {}
    for key, value in loaded.items():
        if key == "route":
            tables = [as_dict(table) for table in as_list(value) or [None]]
            if not is_list(value) or None in tables:
                raise ValueError(f"{path}: route must be [[route]] tables, not {value!r}")
            settings["routes"] = tuple(_route(table or {}, path) for table in tables)
        elif key == "client_key_file":
            if not isinstance(value, str):
                raise ValueError(f"{path}: client_key_file must be a string, not {value!r}")
            from chatcodec.serve._auth import read_key_file

            settings["client_keys"] = read_key_file(Path(path).parent / value)
        elif key in _TABLES and as_dict(value) is None:
            raise ValueError(f"{path}: {key} must be a table ([{key}]), not {value!r}")
        elif key in known:
            settings[key] = _tuple(value)
        else:
            raise ValueError(f"{path}: unknown setting {key!r}{_nearest(key, {*known, 'route', 'client_key_file'})}")
    return settings


def _nearest(key: str, known: Iterable[str]) -> str:
    """``; did you mean 'NAME'?`` for the known setting nearest a misspelt ``key`` (else nothing)."""
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _route(table: Mapping[str, Any], path: str | Path) -> Route:
    unknown = set(table) - _ROUTE_KEYS
    if unknown:
        hints = "".join(_nearest(key, _ROUTE_KEYS) for key in sorted(unknown))
        raise ValueError(f"{path}: unknown route settings {sorted(unknown)}{hints}")
    try:
        return Route(
            table["pattern"],
            table["upstream"],
            table["url"],
            table.get("api_key_env"),
            _tuple(table.get("models", ())),
            table.get("options", {}),
        )
    except KeyError as error:
        raise ValueError(f"{path}: a [[route]] needs pattern, upstream and url (missing {error})") from None
    except ValueError as error:  # a route's own check ("an upstream must be one of ..."): in this file
        raise ValueError(f"{path}: [[route]] {table.get('pattern')!r}: {error}") from None


def _tuple(value: object) -> Any:
    """A TOML array as the tuple a setting holds; any other value as it is, for the type
    check to refuse (a string is not a list of names)."""
    return tuple(value) if is_list(value) else value


shown_as("chatcodec.serve", ServeConfig)
