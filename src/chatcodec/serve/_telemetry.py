"""Opt-in OpenTelemetry spans, one per proxied request (``--otel``, the ``otel`` extra).

Each span follows the GenAI semantic conventions for an inference call
(https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): named
``chat {gen_ai.request.model}``, kind ``CLIENT`` (the proxy is the client of the
upstream), with ``gen_ai.operation.name``; ``gen_ai.provider.name``, the provider really
answering (the upstream edge's ``Upstream.provider_name``: DeepSeek for an OpenAI Chat
upstream at ``https://api.deepseek.com``), set from the start to the default upstream's,
so a request refused before it is routed carries one too; ``gen_ai.request.*`` from the
request (model, max tokens, temperature, top p, top k, stop sequences, seed, penalties,
``stream``), ``gen_ai.output.type`` (``json`` for a JSON response format, else ``text``),
``gen_ai.conversation.id`` (the caller's conversation: the Responses API's
``conversation``), ``gen_ai.response.*`` and ``gen_ai.usage.*`` from the answer (plain,
or gathered from a stream's events as they pass: the cache read and write and reasoning
token counts too), ``gen_ai.response.time_to_first_chunk`` (seconds from the request to a
stream's first event), ``server.address``/``server.port`` of the upstream, and
``error.type`` (the HTTP status) with an error status when the request failed. What the
conversion could not carry is one ``chatcodec.serve.loss`` span event per loss (its JSON
path and what was lost).

The messages themselves (``gen_ai.system_instructions``, ``gen_ai.input.messages``,
``gen_ai.output.messages``, as JSON in the conventions' format: :mod:`.genai_messages`)
and the tool definitions (``gen_ai.tool.definitions``) go on the span only with
``--otel-content``: they hold what users and developers wrote, which the conventions
leave opt-in for the same reason.

Every other text a caller (or an upstream) chooses is cut as the request log cuts it
(:func:`~chatcodec.serve._bounded.bounded`): the model in the span's name and attributes,
each stop sequence (and their list, past :data:`STOP_SEQUENCE_LIMIT`), the conversation id,
the answer's id and model, each loss event's path and text, the store error and the error
status's description. A 300,000-character model name or field name is a span of a few
hundred characters, as it is a log line of a few hundred, not a 300 kB export per request.

Besides the spans, the conventions' client metrics
(https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-metrics/):
``gen_ai.client.operation.duration`` (seconds, one per request, with ``error.type`` when it
failed) and ``gen_ai.client.token.usage`` (one per token type the answer counted, ``input``
and ``output``), each with the span's operation, provider, models and server; and the
server's own ``chatcodec.serve.admission.refused`` (requests answered 503 for overload, by
``chatcodec.serve.admission.reason``: ``queue_full`` or ``queue_wait``, :mod:`.admission`). The request's
``gen_ai.request.choice.count`` is set when it asks for more than one answer (the front's
edge reads the count: ``Call.choices``), and
``gen_ai.conversation.id`` is also the answer a Responses request continues
(``previous_response_id``). A request refused before it is routed still names the model
it asked for.

Spans and metrics go to the global providers, which the operator configures (the
``opentelemetry-instrument`` launcher, or ``OTEL_*`` variables with an SDK set up in
code); with telemetry off nothing here is imported and a request pays nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from chatcodec._api import decode_response
from chatcodec._frameworks.otel_genai import markers as genai_markers
from chatcodec._frameworks.otel_genai import request_settings
from chatcodec._model.stream_records import (
    AnyStreamRecord,
    FinishRecord,
    ResponseStartRecord,
    TextDeltaRecord,
    ThinkingDeltaRecord,
    ToolCallDeltaRecord,
    ToolCallStartRecord,
    UsageRecord,
)
from chatcodec._narrow import as_dict, as_list
from chatcodec.serve import _genai_messages as genai_messages
from chatcodec.serve._bounded import bounded
from chatcodec.serve._request_log import LOSS_EVENT, STORE_ERROR_EVENT, RequestRecord
from chatcodec.serve._secrets import NO_SECRETS, Secrets
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS
from chatcodec.serve._upstream import upstream_side

if TYPE_CHECKING:
    from opentelemetry.metrics import Counter, Histogram, Meter
    from opentelemetry.trace import Span, Tracer

    from chatcodec.serve._config import ServeConfig
    from chatcodec.serve._identity import Identity

_REQUEST_SETTINGS = {field: attribute for attribute, field in request_settings.SETTINGS.items()}
"""Canonical request fields -> their span attributes (the ``otel-genai`` format's table)."""
_USAGE = {field: attribute for attribute, field in genai_markers.USAGE.items()}
"""Canonical usage counts -> their span attributes (the ``otel-genai`` format's table)."""
_JSON_FORMATS = frozenset({"json_object", "json_schema"})
STOP_SEQUENCE_LIMIT = 64
"""The most stop sequences put on a span; a longer list is cut there, its last entry saying
how many there were (no API takes that many: OpenAI's takes 4, Gemini's 5)."""


def default_provider(config: ServeConfig) -> str:
    """The ``gen_ai.provider.name`` of a request not routed yet: the default upstream's, or
    the one every route shares (empty when routes differ and none is the default)."""
    routes = config.all_routes
    names = [provider_name(route.upstream, config.writer_options(route).get("server")) for route in routes]
    if config.upstream is not None and names:
        return names[-1]
    return names[0] if len(set(names)) == 1 else ""


def provider_name(upstream: str, server: object = None) -> str:
    """The ``gen_ai.provider.name`` of a call to ``upstream`` (at the compatible ``server``
    its writer options name, if any; a token upstream's server, by its option name)."""
    token = TOKEN_UPSTREAMS.get(upstream)
    if token is not None:
        return token.server
    return upstream_side(upstream).provider_name(upstream, server)


class Telemetry:
    """The spans of one server (a no-op when off)."""

    def __init__(
        self,
        enabled: bool,
        *,
        content: bool = False,
        tracer_provider: Any = None,
        meter_provider: Any = None,
        provider: str = "",
    ) -> None:
        self.content = content
        self.provider = provider
        """The ``gen_ai.provider.name`` a span carries until its request is routed (the
        default upstream's): a request refused before that names one too."""
        self._tracer: Tracer | None = None
        self._metrics: Metrics | None = None
        if enabled:
            from opentelemetry import metrics, trace  # the otel extra; checked by the command line

            from chatcodec import __version__

            self._tracer = trace.get_tracer("chatcodec.serve", __version__, tracer_provider)
            self._metrics = Metrics(metrics.get_meter("chatcodec.serve", __version__, meter_provider))

    @property
    def enabled(self) -> bool:
        return self._tracer is not None

    def start(self, record: RequestRecord) -> None:
        """Open the request's span; the record ends it when it is written."""
        if self._tracer is None:
            return
        from opentelemetry.trace import SpanKind

        attributes = {"gen_ai.operation.name": "chat"}
        if self.provider:
            attributes["gen_ai.provider.name"] = self.provider
        span = self._tracer.start_span("chat", kind=SpanKind.CLIENT, attributes=attributes)
        record.span = RequestSpan(
            span, content=self.content, started=record.started, metrics=self._metrics, attributes=attributes
        )

    def requested(
        self,
        record: RequestRecord,
        canonical: Callable[[], Mapping[str, Any]],
        url: str,
        *,
        server: object = None,
        conversation: str | None = None,
        choices: int | None = None,
    ) -> None:
        """The request's attributes, once it is routed and converted (``canonical``: gives its
        canonical data, asked only when a span wants it, as a request the direct path converted
        is read for it then; ``server``: the compatible server the route's writer options name;
        ``conversation``: the caller's; ``choices``: how many answers it asked for, as its
        front's edge read it)."""
        if isinstance(record.span, RequestSpan):
            record.span.requested(record, canonical(), url, server=server, conversation=conversation, choices=choices)

    def answered(self, record: RequestRecord, upstream: str, fields: Mapping[str, Any], identity: Identity) -> None:
        """A plain answer's attributes: ``fields``, the ``upstream``'s answer, read as
        canonical data (its missing id and model filled by ``identity``) only when a span
        wants it."""
        if isinstance(record.span, RequestSpan):
            canonical = decode_response(upstream, dict(fields)).model_dump(mode="json", exclude_none=True)
            record.span.answered(identity.fill(canonical))

    def refused(self, reason: str) -> None:
        """A request refused for overload (:mod:`.admission`), counted by ``reason``."""
        if self._metrics is not None:
            self._metrics.refused.add(1, {"chatcodec.serve.admission.reason": reason})

    def stream_watcher(self, record: RequestRecord) -> Callable[[AnyStreamRecord], None] | None:
        """What a stream's canonical events are shown to on their way to the caller for the
        request's span, or ``None`` when it has none (then no call is made per event)."""
        return record.span.observe if isinstance(record.span, RequestSpan) else None


class Metrics:
    """The GenAI client metrics: two histograms, with the bucket boundaries the
    conventions advise; and the server's own count of requests refused for overload."""

    def __init__(self, meter: Meter) -> None:
        self.duration: Histogram = meter.create_histogram(
            "gen_ai.client.operation.duration",
            unit="s",
            description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=_DURATION_BUCKETS,
        )
        self.tokens: Histogram = meter.create_histogram(
            "gen_ai.client.token.usage",
            unit="{token}",
            description="Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=_TOKEN_BUCKETS,
        )
        self.refused: Counter = meter.create_counter(
            ADMISSION_REFUSED, unit="{request}", description="Requests refused 503 for overload, by reason."
        )


ADMISSION_REFUSED = "chatcodec.serve.admission.refused"
"""The counter of requests refused for overload (:mod:`.admission`), with ``chatcodec.serve.admission.reason``."""
_DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]
_TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]
"""The boundaries the conventions give for each metric."""
_METRIC_ATTRIBUTES = (
    "gen_ai.operation.name",
    "gen_ai.provider.name",
    "gen_ai.request.model",
    "gen_ai.response.model",
    "server.address",
    "server.port",
)
"""The span attributes the metrics carry too."""


TURN_ATTRIBUTES = ("chatcodec.session", "chatcodec.turn", "chatcodec.session.parent")
"""A recorded turn's span attributes of chatcodec's own (no GenAI convention names them): its
session, its place in it, and the session it is a subagent of."""


class RequestSpan:
    """One request's span and what its stream has shown so far."""

    def __init__(
        self,
        span: Span,
        *,
        content: bool,
        started: float | None = None,
        metrics: Metrics | None = None,
        attributes: Mapping[str, Any] | None = None,
    ) -> None:
        self.span = span
        self.content = content
        self.metrics = metrics
        self.attributes: dict[str, Any] = dict(attributes or {})
        """What was set on the span, for the metrics (a span cannot be read back through the API)."""
        self.tokens: dict[str, int] = {}
        self.started: float = time.perf_counter() if started is None else started
        """When the request came in (``time.perf_counter``), for the time to the first chunk."""
        self.first_chunk_seen: bool = False
        self.finish_reasons: list[str] = []
        self.parts: dict[tuple[int, int], dict[str, Any]] = {}
        self.secrets: Secrets = NO_SECRETS
        """The request's credentials (known once it is written), kept out of every attribute
        (:mod:`.secrets`: an upstream may echo its key in an answer's id or text)."""

    def requested(
        self,
        record: RequestRecord,
        canonical: Mapping[str, Any],
        url: str,
        *,
        server: object = None,
        conversation: str | None = None,
        choices: int | None = None,
    ) -> None:
        self.secrets = record.secrets
        model = bounded(record.upstream_model or "")
        self.span.update_name(f"chat {model}".strip())
        address = urlsplit(url)
        attributes: dict[str, Any] = {
            "gen_ai.request.model": model,
            "server.address": address.hostname or "",
            "server.port": address.port or (443 if address.scheme == "https" else 80),
            "gen_ai.request.stream": record.stream,
            "gen_ai.output.type": "json" if _format_type(canonical) in _JSON_FORMATS else "text",
        }
        if record.upstream is not None:
            attributes["gen_ai.provider.name"] = provider_name(record.upstream, server)
        if conversation:
            attributes["gen_ai.conversation.id"] = bounded(conversation)
        if choices is not None and choices != 1:
            attributes["gen_ai.request.choice.count"] = choices
        for field, attribute in _REQUEST_SETTINGS.items():
            value = canonical.get(field)
            if isinstance(value, (int, float)):
                attributes[attribute] = value
            elif isinstance(value, str):
                attributes[attribute] = bounded(value)
            elif (values := as_list(value)) is not None and values:
                attributes[attribute] = _bounded_list(values)
        if self.content:
            messages = list(canonical.get("messages") or [])
            written = genai_messages.conversation(messages)
            attributes["gen_ai.input.messages"] = self._json(written["gen_ai.input.messages"])
            if written.get("gen_ai.system_instructions"):
                attributes["gen_ai.system_instructions"] = self._json(written["gen_ai.system_instructions"])
            tools = genai_messages.tool_definitions(canonical.get("tools") or ())
            if tools:
                attributes["gen_ai.tool.definitions"] = self._json(tools)
        self._set(attributes)

    def recorded_turn(
        self, session: str, turn: int, parent: str | None, prompt_ids: int | None, completion_ids: int
    ) -> None:
        """The recorded turn's place on the span (``--record``): its session as the GenAI
        conversation (unless the request named one), ``chatcodec.session``, ``chatcodec.turn`` and
        ``chatcodec.session.parent``, and, where the answer counted none, the prompt and
        completion ids as ``gen_ai.usage.input_tokens`` and ``gen_ai.usage.output_tokens``
        (the token path: chatcodec counted them)."""
        session_name, turn_name, parent_name = TURN_ATTRIBUTES
        attributes: dict[str, Any] = {session_name: bounded(session), turn_name: turn}
        if parent:
            attributes[parent_name] = bounded(parent)
        if "gen_ai.conversation.id" not in self.attributes:
            attributes["gen_ai.conversation.id"] = bounded(session)
        for token_type, count in (("input", prompt_ids), ("output", completion_ids)):
            if count is not None and token_type not in self.tokens:
                attributes[f"gen_ai.usage.{token_type}_tokens"] = count
                self.tokens[token_type] = count
        self._set(attributes)

    def _set(self, attributes: Mapping[str, Any]) -> None:
        """Set ``attributes``, their texts scrubbed (a JSON text was scrubbed as data: :meth:`_json`)."""
        if self.secrets:
            attributes = {name: self.secrets.scrub_data(value) for name, value in attributes.items()}
        self.span.set_attributes(attributes)
        self.attributes.update(attributes)

    def _json(self, value: Any) -> str:
        """``value`` as a JSON attribute, scrubbed as data (a JSON text is not scrubbed as text:
        :mod:`.secrets`)."""
        return json.dumps(self.secrets.scrub_data(value))

    def answered(self, canonical: Mapping[str, Any]) -> None:
        self._identity(canonical.get("id"), canonical.get("model"))
        self._usage(canonical.get("usage") or {})
        choices: list[Mapping[str, Any]] = list(canonical.get("choices") or [])
        reasons = [
            genai_messages.finish_reason((as_dict(choice.get("finish_reason")) or {}).get("unified"))
            for choice in choices
        ]
        self.span.set_attribute("gen_ai.response.finish_reasons", [reason or "" for reason in reasons])
        if self.content:
            output = [
                genai_messages.answer(choice.get("message") or {"role": "assistant", "content": ""}, reason)
                for choice, reason in zip(choices, reasons, strict=True)
            ]
            self._set({"gen_ai.output.messages": self._json(output)})

    def observe(self, event: AnyStreamRecord) -> None:
        """Gather a stream's answer from its canonical events as they pass."""
        if not self.first_chunk_seen:
            self.first_chunk_seen = True
            self.span.set_attribute("gen_ai.response.time_to_first_chunk", time.perf_counter() - self.started)
        if isinstance(event, ResponseStartRecord):
            self._identity(event.id, event.model)
        elif isinstance(event, UsageRecord):
            self._usage(event.usage)
        elif isinstance(event, FinishRecord):
            self.finish_reasons.append(genai_messages.finish_reason(event.finish_reason["unified"]) or "")
        elif self.content:
            self._gather(event)

    def _gather(self, event: AnyStreamRecord) -> None:
        if isinstance(event, (TextDeltaRecord, ThinkingDeltaRecord)):
            kind = "text" if isinstance(event, TextDeltaRecord) else "thinking"
            part = self.parts.setdefault((event.choice, event.index), {"type": kind, "text": ""})
            part["text"] += event.delta
        elif isinstance(event, ToolCallStartRecord):  # canonical parts, written by the format's writer at the end
            self.parts[event.choice, event.index] = {
                "type": "tool_use",
                "id": event.id,
                "name": event.name,
                "arguments": "",
            }
        elif isinstance(event, ToolCallDeltaRecord) and (event.choice, event.index) in self.parts:
            self.parts[event.choice, event.index]["arguments"] += event.delta

    def end(self, record: RequestRecord) -> None:
        """Close the span with the request's outcome and its losses, and record the metrics."""
        from opentelemetry.trace import Status, StatusCode

        if "gen_ai.request.model" not in self.attributes and (record.upstream_model or record.model):
            model = bounded(record.upstream_model or record.model or "")  # refused before it was routed
            self.span.update_name(f"chat {model}")
            self._set({"gen_ai.request.model": model})

        if self.finish_reasons:
            self.span.set_attribute("gen_ai.response.finish_reasons", self.finish_reasons)
        if self.content and self.parts:
            parts = [part for _, part in sorted(self.parts.items())]
            answer = {"role": "assistant", "content": parts}
            message = genai_messages.answer(answer, next(iter(self.finish_reasons), ""))
            self._set({"gen_ai.output.messages": self._json([message])})
        scrub = self.secrets.scrub
        for loss in record.losses:
            where, what = bounded(scrub(str(loss.path))), bounded(scrub(loss.what))
            self.span.add_event(LOSS_EVENT, {"chatcodec.loss.path": where, "chatcodec.loss.what": what})
        if record.store_error is not None:
            self.span.add_event(STORE_ERROR_EVENT, {"exception.message": bounded(scrub(record.store_error))})
        status = record.stream_error_status or record.status
        if record.cancelled:
            self._set({"error.type": "cancelled"})
        elif status >= 400:
            self._set({"error.type": str(status)})
            shown = None if record.error is None else bounded(record.secrets.scrub(record.error))
            self.span.set_status(Status(StatusCode.ERROR, shown))
        self.span.end()
        self._measured()

    def _measured(self) -> None:
        if self.metrics is None:
            return
        shared = {name: self.attributes[name] for name in _METRIC_ATTRIBUTES if name in self.attributes}
        failed = {"error.type": self.attributes["error.type"]} if "error.type" in self.attributes else {}
        self.metrics.duration.record(time.perf_counter() - self.started, {**shared, **failed})
        for token_type, count in self.tokens.items():
            self.metrics.tokens.record(count, {**shared, "gen_ai.token.type": token_type})

    def _identity(self, response_id: object, model: object) -> None:
        if isinstance(response_id, str):
            self._set({"gen_ai.response.id": bounded(response_id)})
        if isinstance(model, str):
            self._set({"gen_ai.response.model": bounded(model)})

    def _usage(self, usage: Mapping[str, Any]) -> None:
        for field, attribute in _USAGE.items():
            if isinstance(usage.get(field), int):
                self.span.set_attribute(attribute, usage[field])
        for field, token_type in (("input_tokens", "input"), ("output_tokens", "output")):
            if isinstance(usage.get(field), int):
                self.tokens[token_type] = usage[field]


def _bounded_list(values: list[Any]) -> list[Any]:
    """``values`` (a request's stop sequences) for a span attribute: each text cut by
    :func:`bounded`, and the list cut at :data:`STOP_SEQUENCE_LIMIT`, a last entry saying how
    many there were."""
    kept = [bounded(value) if isinstance(value, str) else value for value in values[:STOP_SEQUENCE_LIMIT]]
    if len(values) > STOP_SEQUENCE_LIMIT:
        kept[-1] = f"... ({len(values)} in all)"
    return kept


def _format_type(canonical: Mapping[str, Any]) -> object:
    return (as_dict(canonical.get("response_format")) or {}).get("type")
