"""What a provider says on HTTP, as one record per provider: its folder's ``edge.py``.

A codec converts bodies; a server or a proxy also needs the facts around a body: the
paths an API answers and where a request path carries the model and the stream flag,
how to build the upstream URL, which header carries the key and the API version, how a
stream is framed, and what an error looks like, plain and inside a stream. Those facts
differ per provider and belong beside it, as rust-genai's ``Adapter`` trait holds
``default_auth``, ``default_endpoint`` and ``get_service_url`` per adapter and the
Vercel AI SDK keeps ``anthropic-error.ts`` in the Anthropic package. Each provider folder
writes ``EDGE = Edge(...)`` in its ``edge.py``, the codec's ``edge`` role
(``ProviderCodec.from_package`` names the module, imported on first read), and the core
(stream framing, error shapes, detection, strict mode, ``chatcodec serve``) reaches it
through ``registry.get_edge(name)``, the codec's ``edge``. No core module carries a
provider's HTTP facts, and a codec without an edge is refused with a
:class:`~chatcodec.ProviderLookupError` rather than given another provider's.

``edge.py`` files import nothing heavier than this module: detection (a conversion that
does not name its source) reads every edge, and loads no canonical model. A conversion
that names its formats imports no ``edge.py``: a codec reads its edge when first asked
(:attr:`~chatcodec._providers.contract.provider_codec.ProviderCodec.edge`; first use).

The stream framing (``Edge.framing``) is its own module,
:mod:`chatcodec._providers.contract.framing` (a folder's ``stream_framing.py``): a stream
conversion reads it without importing this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from chatcodec._narrow import as_dict, as_list
from chatcodec._providers.contract.detection import Detection
from chatcodec._providers.contract.extension import Extension
from chatcodec._providers.contract.framing import Framing, StreamFraming
from chatcodec._providers.contract.sampled_ids import SampledIds
from chatcodec._public_label import shown_as

if TYPE_CHECKING:
    from chatcodec._providers.contract.sampling_range import SamplingRange

__all__ = [
    "Answering",
    "Call",
    "CallReader",
    "CountFront",
    "CountUpstream",
    "Edge",
    "ErrorShape",
    "Extension",
    "Framing",
    "Front",
    "ModelList",
    "RouteError",
    "StreamFraming",
    "Upstream",
    "UpstreamModels",
    "bearer_headers",
    "bearer_key",
    "body_call",
    "model_in_path",
    "read_data_ids",
    "read_nested_error",
    "stream_flag_in_body",
]

# --- errors --------------------------------------------------------------------------------

ErrorWriter: TypeAlias = Callable[[str, int, str], dict[str, Any]]
"""``(message, HTTP status, the provider's error type for it)`` -> an error body or event."""
ErrorReader: TypeAlias = Callable[[object], tuple[str, str | None]]
"""An error body (parsed JSON, or the text when it is not JSON) -> its message (``""``
when it has none) and the error type it names (None when it names none)."""


@dataclass(frozen=True, slots=True)
class ErrorShape:
    """The provider's errors: its documented types by HTTP status, and its body and stream
    event, written and read. The HTTP status is the one vocabulary every provider shares,
    so a type is translated through it (Anthropic's ``overloaded_error`` is a 529, which
    an OpenAI client gets as ``server_error``)."""

    types: Mapping[int, str]
    """HTTP status -> the provider's error type, from its documented error list (every
    type here must read back to its status through :func:`chatcodec._error_statuses.error_status`)."""
    server_error: str
    """The type of a 5xx (or a status that is no error) the table does not list."""
    write: ErrorWriter
    """The plain (non-streamed) error body."""
    read: ErrorReader
    """The message and type of an error body the provider answered with."""
    write_event: ErrorWriter | None = None
    """The error inside a stream; None when the provider sends its error body as one more event."""
    type_header: str | None = None
    """The response header naming the error type, for a body that does not (Bedrock's
    ``x-amzn-ErrorType``)."""
    reads: Mapping[str, int] = field(default_factory=lambda: {})
    """Types and codes the provider sends beside its documented ones, with the HTTP status
    each stands for (OpenAI's ``code`` values, another spelling of a type): read, never
    written. With :attr:`types`, what :func:`chatcodec._error_statuses.error_status` reads."""
    typed_by_status: bool = False
    """The provider's error body names no type (Cohere's ``{"message"}``): an error read
    with its HTTP status known gets its type from :attr:`types` by that status
    (:meth:`type_for`), as the provider's own SDK types its exceptions by status."""
    overloaded: int = 503
    """The HTTP status the provider answers its own overload with, which its SDK retries after
    the ``Retry-After`` it carries: 503 (RFC 9110's "temporary overload", OpenAI's and Google's
    ``UNAVAILABLE``), Anthropic's 529 ``overloaded_error``. A gateway speaking this API answers
    its own overload so."""

    def statuses(self) -> dict[str, int]:
        """Every type this provider writes or sends -> its HTTP status."""
        return {**{kind: status for status, kind in self.types.items()}, **self.reads}

    def type_for(self, status: int) -> str:
        """The provider's error type for an HTTP status (its server error for an unknown one)."""
        if status in self.types:
            return self.types[status]
        if status >= 500 or status < 400:
            return self.server_error
        return self.types.get(400, "error")

    def body(self, message: str, status: int) -> dict[str, Any]:
        """The plain error body for ``message`` with ``status``."""
        return self.write(message, status, self.type_for(status))

    def event(self, message: str, status: int) -> dict[str, Any]:
        """The mid-stream error event for ``message`` with ``status``."""
        writer = self.write_event or self.write
        return writer(message, status, self.type_for(status))


def read_nested_error(body: object) -> tuple[str, str | None]:
    """The ``{"error": {"message", "type" | "status" | "code"}}`` shape OpenAI, Anthropic
    (inside its ``{"type": "error"}``) and Gemini share, a top-level ``message`` (or
    ``Message``) for servers that answer with one, or a text body as the message."""
    fields = as_dict(body)
    if fields is None:
        return (body if isinstance(body, str) else ""), None
    error = as_dict(fields.get("error"))
    if error is None:
        return _text(fields, "message", "Message"), None
    kind = error.get("type") or error.get("status") or error.get("code")
    return _text(error, "message"), None if kind is None else str(kind)


def _text(fields: Mapping[str, Any], *keys: str) -> str:
    for key in keys:
        if isinstance(fields.get(key), str):
            return str(fields[key])
    return ""


# --- the caller-facing side (a server offering the API) ------------------------------------


class RouteError(ValueError):
    """A request path the API does not answer (a Gemini path with an unknown method): 404."""


@dataclass(frozen=True, slots=True)
class Call:
    """One caller request, as its API says it: the body and what sits outside it."""

    payload: dict[str, Any]
    """The request body, with the model put in when the API keeps it in the path."""
    model: str | None
    """The model the caller named."""
    stream: bool
    """Whether the caller asked for a stream."""
    framing: Framing
    """How the caller's stream is to be framed (Gemini without ``alt=sse``: one JSON array)."""
    options: Mapping[str, Any] | None = None
    """Stream encoder options the caller chose in its request (OpenAI Chat's
    ``stream_options.include_usage``), for the stream written back to it."""
    conversation: str | None = None
    """The conversation (session, thread) the caller says the request belongs to (the
    Responses API's ``conversation``), for telemetry's ``gen_ai.conversation.id``."""
    choices: int | None = None
    """How many answers the caller asked for, where its API lets it ask for more than one
    (OpenAI Chat's ``n``, Gemini's ``generationConfig.candidateCount``), for telemetry's
    ``gen_ai.request.choice.count``."""


CallReader: TypeAlias = Callable[[dict[str, Any], str | None, Mapping[str, str]], Call]
"""``(body, the path's ``{target}``, the query)`` -> the :class:`Call`; raises
:class:`RouteError` for a path the API does not answer."""
KeyReader: TypeAlias = Callable[[Mapping[str, str], Mapping[str, str]], str | None]
"""``(headers, lower-cased names; query)`` -> the API key the caller's SDK sent."""


def count_written(value: object) -> int | None:
    """A count a caller wrote (an integer, not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def bearer_key(headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer`` header (the OpenAI SDKs' way)."""
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def body_call(payload: dict[str, Any], target: str | None, query: Mapping[str, str]) -> Call:
    """A call whose model and stream flag are in the body (``model``, ``stream: true``),
    streamed as SSE."""
    model = payload.get("model")
    return Call(payload, model if isinstance(model, str) else None, payload.get("stream") is True, "sse")


class Answering(Protocol):
    """What a server owes a caller of an API whose answers are resources of the server's
    own (the Responses API: a ``resp_`` id of the server, the request's settings echoed,
    an earlier answer continued by its id), beyond the converted answer."""

    @property
    def seals(self) -> bool:
        """Whether the answers seal another provider's reasoning for the caller to carry back
        (:meth:`seal_options`), so the server needs a seal key."""
        ...

    @property
    def streamed_whole(self) -> bool:
        """Whether a stream's terminal event holds the whole answer (the Responses API's
        ``response.completed``); if not, the answer kept is the streamed one written whole."""
        ...

    @property
    def reference(self) -> str:
        """The request field naming the earlier answer a request continues
        (``previous_response_id``), for the messages that refuse it."""
        ...

    def new_id(self) -> str:
        """A fresh id for one answer."""
        ...

    def server_options(self, payload: Mapping[str, Any], answer_id: str, stored: bool) -> dict[str, Any]:
        """The target encoder's options for the answer to ``payload`` (raises
        :class:`ValueError` for a request the server cannot answer: a 400)."""
        ...

    def continues(self, payload: Mapping[str, Any]) -> str | None:
        """The id of the earlier answer ``payload`` continues (None: it continues none; raises
        :class:`ValueError` for a reference of the wrong type: a 400)."""
        ...

    def wants_stored(self, payload: Mapping[str, Any]) -> bool:
        """Whether the caller lets the server keep the answer."""
        ...

    def detached(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """``payload`` with no reference to the answer it continues (the server puts that
        answer's kept conversation before its input, in canonical form)."""
        ...

    def carried_over(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The canonical messages of a request a later answer continuing it carries over
        (without the request's own instructions, which are not carried over)."""
        ...

    def final_answer(self, event: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The complete answer a stream event holds (its terminal event), else None."""
        ...

    @property
    def routes(self) -> tuple[str, ...]:
        """The ``GET`` paths a kept answer is read back from; ``{answer_id}`` names it."""
        ...

    def seal_options(self, key: str | None) -> dict[str, Any]:
        """The target encoder's options that authenticate what the answers seal under ``key``
        (None: the server has no key now, so its answers seal nothing)."""
        ...

    def unverified_seals(self, payload: Mapping[str, Any], key: str) -> tuple[dict[str, Any], list[str], bool]:
        """``payload`` without the sealed items whose MAC fails under ``key``, their JSON
        paths, and whether a sealed item stays."""
        ...


@dataclass(frozen=True, slots=True)
class ModelList:
    """How the API lists its models (``GET``), for a server listing the models it routes."""

    routes: tuple[str, ...]
    """The ``GET`` paths answered, as the official SDK builds them from its ``base_url``."""
    write: Callable[[Sequence[str]], dict[str, Any]]
    """Model names -> the list body the official SDK reads (one page, nothing after it)."""


@dataclass(frozen=True, slots=True)
class CountFront:
    """The API's input-token counting endpoint, as a server offers it."""

    routes: tuple[str, ...]
    """The ``POST`` paths answered; ``{model}`` stands for a model named in the path."""
    request: Callable[[dict[str, Any], str | None], dict[str, Any]]
    """``(count body, the path's model)`` -> a request body of the API (what its reader
    reads) with the model in it."""
    write: Callable[[int], dict[str, Any]]
    """The input token count -> the answer body."""


@dataclass(frozen=True, slots=True)
class CountUpstream:
    """The API's input-token counting endpoint, as a client calls it."""

    url: Callable[[str, str], str]
    """``(base URL without a trailing /, model)`` -> the count URL."""
    body: Callable[[dict[str, Any], str], dict[str, Any]]
    """``(a request body of the API as written, model)`` -> the count body."""
    read: Callable[[object], int | None]
    """The answer body -> the input token count (None when it holds none)."""


@dataclass(frozen=True, slots=True)
class Front:
    """The API as a server offers it to callers."""

    routes: tuple[str, ...]
    """The ``POST`` paths answered, as the official SDK builds them from its ``base_url``;
    ``{target}`` stands for the rest of the path (Gemini's ``{model}:{method}``)."""
    read_call: CallReader = body_call
    """Where the model, the stream flag and the framing are."""
    caller_key: KeyReader = bearer_key
    """Where the caller's SDK sends its key."""
    answering: Answering | None = None
    """What a server of this API owes beyond the converted answer (None: nothing)."""
    models: ModelList | None = None
    """How the API lists models (None: it has no list a server answers)."""
    count_tokens: CountFront | None = None
    """The API's token counting endpoint (None: it has none)."""
    provider_state: tuple[str, ...] = ()
    """Request fields naming state only this API's provider keeps (the Responses API's
    ``conversation`` and ``prompt``): a server refuses them for another upstream, which
    cannot read them, rather than send the request with that state silently missing."""
    own_reasoning_signature: str | None = None
    """The signature a server of this API writes on reasoning its own model sampled (a
    self-hosted model behind ``chatcodec serve``, whose prompts chatcodec renders): no one
    signed it, and the server verifies nothing when its caller sends it back (the template
    renders the reasoning's text), so writing it loses nothing. Anthropic's ``thinking``
    block requires the field: ``""``. None: the API's reasoning has no signature to write
    (a conversion outside the server reports a missing one as the API's writer does)."""


# --- the upstream side (a client calling the API) ------------------------------------------


def bearer_headers(key: str | None, caller_headers: Mapping[str, str]) -> dict[str, str]:
    """``Authorization: Bearer <key>`` (no header without a key)."""
    return {"authorization": f"Bearer {key}"} if key else {}


def stream_flag_in_body(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """The body with ``stream: true`` for a stream (the model stays in the body)."""
    return {**body, "stream": True} if stream else body


def model_in_path(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """The body without ``model``, ``modelId`` and ``stream``: the API takes the model and
    whether to stream in the URL."""
    return {key: value for key, value in body.items() if key not in ("model", "modelId", "stream")}


@dataclass(frozen=True, slots=True)
class UpstreamModels:
    """How a client lists the API's models (``GET``), for a server listing what its routes reach."""

    url: Callable[[str], str]
    """The base URL (without a trailing /) -> the list URL (one page, as large as the API allows)."""
    read: Callable[[object], list[str]]
    """The list body -> the model names a request takes."""


def read_data_ids(body: object) -> list[str]:
    """The ``data[].id`` of a list body (OpenAI's and Anthropic's ``GET /v1/models``)."""
    entries = [as_dict(entry) or {} for entry in as_list((as_dict(body) or {}).get("data")) or ()]
    return [entry["id"] for entry in entries if isinstance(entry.get("id"), str)]


@dataclass(frozen=True, slots=True)
class Upstream:
    """The API as a client calls it."""

    url: Callable[[str, str, bool], str]
    """``(base URL without a trailing /, model, stream)`` -> the request URL, built the way
    the official SDK builds it from its ``base_url``."""
    key_env: str
    """The environment variable the official SDK reads the key from."""
    headers: Callable[[str | None, Mapping[str, str]], dict[str, str]] = bearer_headers
    """``(key, the caller's headers, lower-cased)`` -> the auth and API-version headers
    (a caller's version or beta header passed on when it speaks the same API)."""
    body: Callable[[dict[str, Any], bool], dict[str, Any]] = stream_flag_in_body
    """``(body, stream)`` -> the body as sent (the stream flag in, or the model out)."""
    sign: Callable[[str, bytes, Mapping[str, str]], dict[str, str]] | None = None
    """``(url, body bytes, headers)`` -> signed headers, for a request sent with no key
    (Bedrock's SigV4); None when the API has no signing."""
    version_header: str | None = None
    """The header naming the API version the body follows (``anthropic-version``); None
    when the API has none. A caller's own is honoured; the body is written under that
    version's rules (the ``api_version`` option), so header and body agree."""
    default_version: Callable[[Mapping[str, object]], str] | None = None
    """``(the writer's options)`` -> the version sent when neither the caller nor the
    operator names one: the version the API's writer applies by default under those options
    (its target rules' default, or the version a compatible server requires), so a body
    sent through ``chatcodec serve`` follows the rules the library applies to the same
    request; None when the API has no version header."""
    options: Callable[[str], dict[str, object]] | None = None
    """``(base URL)`` -> the writer options the URL implies (OpenAI Chat's compatible
    ``server``: ``https://api.deepseek.com`` is DeepSeek's), or None when a URL says nothing."""
    count_tokens: CountUpstream | None = None
    """The API's token counting endpoint (None: it has none)."""
    models: UpstreamModels | None = None
    """How the API lists its models (None: it has no list a client reaches at the base URL)."""
    semconv_name: str = ""
    """The API's ``gen_ai.provider.name`` in the OpenTelemetry GenAI conventions
    (https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/); empty: the
    conventions list none, and the registry name is used."""
    answer_id_header: str | None = None
    """The response header naming the answer, for an API whose answer body holds no id
    (Bedrock's ``x-amzn-RequestId``): a server answering from it gives that id, and the
    model it called, to a caller whose API has both (lower-cased; None: the body has an id)."""
    server_semconv: Mapping[str, str] = field(default_factory=lambda: {})
    """The ``gen_ai.provider.name`` of each compatible server speaking the API, by its
    ``server`` option name (DeepSeek's OpenAI-compatible API is ``deepseek``, not
    ``openai``); a server the conventions list no name for is named by its option name."""
    sampled_ids: Mapping[str, SampledIds] = field(default_factory=lambda: {})
    """How each compatible server that reports token ids does it, by its ``server`` option name."""

    def provider_name(self, registry_name: str, server: object = None) -> str:
        """The ``gen_ai.provider.name`` of a call to this API, at ``server`` when the
        writer's options name one: the provider really answering."""
        if isinstance(server, str) and server:
            return self.server_semconv.get(server, server)
        return self.semconv_name or registry_name


# --- the record ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edge:
    """Everything a provider says on HTTP around its bodies (see the module docstring)."""

    provider: str
    """The registry name (the folder's ``PROVIDER``)."""
    response_name: str
    """How a message names one of its response bodies (``"an Anthropic response"``)."""
    framing: StreamFraming
    errors: ErrorShape
    front: Front | None = None
    """None: ``chatcodec serve`` cannot offer this API to callers."""
    upstream: Upstream | None = None
    """None: ``chatcodec serve`` cannot call this API."""
    detection: Detection | None = None
    """The format's wire description as :mod:`chatcodec._detect` reads it
    (:class:`~chatcodec._providers.contract.detection.Detection`: its top-level keys from the
    SDK kinds, wire shapes and extensions, its roles, its other marks); a body holding a
    mark this format does not hold is not in this format. None: detection does not know
    the format (its bodies pass unchecked)."""
    extensions: tuple[Extension, ...] = ()
    """Fields compatible servers document beyond the SDK types, for strict reading."""
    server_extensions: Mapping[str, tuple[Extension, ...]] = field(default_factory=lambda: {})
    """Per named server speaking this format, the extensions that server alone documents:
    strict reading of a body for one server (``schema_for(provider, server=...)``) accepts
    those and no other server's. Empty: the format names no servers."""
    server_ranges: Mapping[str, tuple[SamplingRange, ...]] = field(default_factory=lambda: {})
    """Per named server whose reference documents its own sampling ranges (vLLM takes a
    ``temperature`` above 2, Kimi none above 1; ``()``: it documents none), the ranges strict
    reading of a body for that server holds it to, in place of the format's own for the same
    keys; a server absent here documents the format's."""


shown_as(
    "chatcodec.contract",
    Call,
    CountFront,
    CountUpstream,
    Edge,
    ErrorShape,
    Front,
    ModelList,
    RouteError,
    Upstream,
    UpstreamModels,
)
shown_as(
    "chatcodec.codec_kit",
    bearer_headers,
    bearer_key,
    body_call,
    count_written,
    model_in_path,
    read_data_ids,
    read_nested_error,
)
