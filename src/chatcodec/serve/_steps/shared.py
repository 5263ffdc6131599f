"""What the steps of every request share: the server's config, its answering front and
store, its telemetry, the upstream HTTP client and the admission to it, each route's writer options and the key
seals are authenticated with. The app makes one and readies it in its lifespan, or, when
the lifespan does not run (the app mounted in another ASGI app, whose server runs only the
outer lifespan), before the first request that needs it (:meth:`Server.ready`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from chatcodec._training.gateway import TOOL_CALL_PARSERS, holds_object_arguments, template_link
from chatcodec._warm import warm_up
from chatcodec.serve._admission import Admission
from chatcodec.serve._config import Route as UpstreamRoute
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._fronts import answering, front
from chatcodec.serve._no_cookies import keeping_no_cookies
from chatcodec.serve._seals import KEY_RETRY_SECONDS, given_seal_key, seal_key
from chatcodec.serve._store_spelling import open_store
from chatcodec.serve._telemetry import Telemetry, default_provider
from chatcodec.serve._token_prompts import TokenPrompts
from chatcodec.serve._turn_chains import TurnChains
from chatcodec.serve._turn_records import TurnSink
from chatcodec.serve._turn_shards import open_turn_sink


class Server:
    """The parts of one server every request's steps use."""

    def __init__(
        self,
        config: ServeConfig,
        client: httpx.AsyncClient | None,
        tracer_provider: Any = None,
        meter_provider: Any = None,
        tokenizer: object = None,
    ) -> None:
        self.config: ServeConfig = config
        answers = front(config.api).answering
        seals = answers is not None and answers.seals  # a front whose answers seal reasoning
        self._seals = seals
        """Whether the front's answers seal reasoning (the Responses front's: :mod:`chatcodec.serve._seals`)."""
        self._given_seal_key = given_seal_key(config.seal_key_file) if seals else None
        """The key the operator gave, read first, so a bad one stops the server before it listens
        (and before the store is opened)."""
        self.answerer: answering.Answerer = answering.Answerer(config.api, open_store(config.store))
        self.turns: TurnSink | None = (
            None if config.record is None else open_turn_sink(config.record, config.record_max_bytes)
        )
        """Where turns are recorded (``--record``: a file, :mod:`chatcodec.serve._turn_records`, or a
        directory of shards, :mod:`chatcodec.serve._turn_shards`)."""
        self.turn_chains = TurnChains()
        """Each session's last complete line recorded, the one its next line extends
        (:mod:`chatcodec.serve._turn_chains`)."""
        self.token_prompts: TokenPrompts | None = _token_prompts(config, tokenizer)
        """The template and tokenizer a token upstream's prompts are rendered with
        (:mod:`chatcodec.serve._token_prompts`)."""
        self.client_given: bool = client is not None
        """Whether the upstream client was given (then it is not closed with the app)."""
        self._client = None if client is None else keeping_no_cookies(client)
        self.telemetry: Telemetry = Telemetry(
            config.otel,
            content=config.otel_content,
            tracer_provider=tracer_provider,
            meter_provider=meter_provider,
            provider=default_provider(config),
        )
        self.admission: Admission = Admission(
            config.max_connections, config.max_queued, config.pool_timeout, on_refused=self.telemetry.refused
        )
        """The slots upstream calls take, and the queue for them (:mod:`chatcodec.serve._admission`)."""
        self.keeps_thinking: bool = config.keep_thinking and self.answerer.store is not None
        """Whether answers' signed thinking is kept and put back (a store, and no ``--no-keep-thinking``)."""
        self.seal_key: str | None = None
        """The key sealed reasoning is authenticated with (:meth:`ready` sets it: :mod:`chatcodec.serve._seals`)."""
        self._ready = False
        self._warm = False
        self._next_key_read = 0.0
        """When the seal key may be asked of the store again (:func:`time.monotonic`)."""
        self._writer_options: dict[int, dict[str, object]] = {
            id(route): config.writer_options(route) for route in config.all_routes
        }
        """Each route's upstream writer options (the compatible server its URL points at,
        ``--option``), read once."""

    @property
    def client(self) -> httpx.AsyncClient:
        """The upstream HTTP client (:meth:`ready` opens it)."""
        assert self._client is not None, "Server.ready opens the client"
        return self._client

    async def ready(self) -> None:
        """Warm the codecs up, open the upstream client and read the seal key, once: the
        lifespan does it at start, and every request that needs them first asks, so an app
        whose lifespan never ran (mounted) neither fails nor skips a seal's check.
        Concurrent first requests may each read the key: they read the same one. A key its
        store could not give (unreachable) is asked for again at a later request, every
        :data:`~chatcodec.serve._seals.KEY_RETRY_SECONDS` at most, until it is read."""
        if self._ready:
            return
        if not self._warm:
            warm_up([self.config.api, *self.config.upstream_names])
            self.open_client()
            self._warm = True
        answerer = self.answerer
        if self._seals and self.seal_key is None:
            now = time.monotonic()
            if now < self._next_key_read:
                return
            self._next_key_read = now + KEY_RETRY_SECONDS
            self.seal_key = answerer.seal_key = await seal_key(self._given_seal_key, answerer.store)
            if self.seal_key is None:
                return
        self._ready = True

    @property
    def seals_unchecked(self) -> bool:
        """Whether the front seals reasoning and has no key to check a seal with (its store
        unreachable since the server started: :mod:`chatcodec.serve._seals`)."""
        return self.seal_key is None and self._seals

    def open_client(self) -> None:
        """Open the upstream client, its pool and timeouts from the config, keeping no cookie
        (:mod:`chatcodec.serve._no_cookies`), unless one was given."""
        if self._client is None:
            config = self.config
            timeout = httpx.Timeout(config.timeout, connect=config.connect_timeout, pool=config.pool_timeout)
            limits = httpx.Limits(
                max_connections=config.max_connections, max_keepalive_connections=config.max_connections
            )
            self._client = keeping_no_cookies(httpx.AsyncClient(timeout=timeout, limits=limits))

    def writer_options(self, route: UpstreamRoute) -> dict[str, object]:
        """The upstream writer options of ``route`` (one of the config's)."""
        return self._writer_options[id(route)]


class CanonicalData:
    """A request's canonical data, given, or read when a step first asks (one converted by the
    library's direct path is not read as canonical data unless a step needs it: a span's
    attributes). Here, not in a step, so a later step asks without calling back into one."""

    __slots__ = ("_data", "_read")

    def __init__(self, data: dict[str, Any] | None, read: Callable[[], dict[str, Any]] | None = None) -> None:
        self._data = data
        self._read = read

    def read(self) -> dict[str, Any]:
        """The data (read now, once, where it was not given)."""
        if self._data is None:
            assert self._read is not None, "data not given comes with its reading"
            self._data = self._read()
        return self._data


def _token_prompts(config: ServeConfig, tokenizer: object) -> TokenPrompts | None:
    """The prompts of a token upstream, its tokenizer read once (``tokenizer`` given, else
    ``--tokenizer``); None without a template (no token upstream)."""
    chosen = tokenizer if tokenizer is not None else config.tokenizer
    if config.template is None:
        return None
    if chosen is None:
        raise ValueError("a token upstream needs --tokenizer: chatcodec encodes its prompts and decodes its answers")
    prompts = TokenPrompts(
        config.template,
        chosen,
        object_arguments=holds_object_arguments(config.api),
        parser=config.parser,
        reasoning_parser=config.reasoning_parser,
    )
    if config.parser is None and template_link(prompts.template).parsers is None:
        raise ValueError(
            f"--template {config.template} is of no family chatcodec knows, so no parser reads its answers: name the "
            f"--tool-call-parser vLLM serves the model with, --parser NAME ({', '.join(sorted(TOOL_CALL_PARSERS))})"
        )
    return prompts
