"""Opt-in OpenTelemetry spans, one per proxied request (``--otel``, the ``otel`` extra).

Each span follows the GenAI semantic conventions for an inference call
(https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): named
``chat {gen_ai.request.model}``, kind ``CLIENT`` (the proxy is the client of the
upstream), with ``gen_ai.operation.name``, ``gen_ai.provider.name`` (the upstream edge's
``Upstream.semconv_name``), ``gen_ai.request.*`` from the request (model, max tokens,
temperature, top p, top k, stop sequences, seed, penalties), ``gen_ai.response.*`` and
``gen_ai.usage.*`` from the answer (plain, or gathered from a stream's events as they
pass), ``server.address``/``server.port`` of the upstream, and ``error.type`` (the HTTP
status) with an error status when the request failed. What the conversion could not
carry is one ``chatcodec.serve.loss`` span event per loss (its JSON path and what was lost).

The messages themselves (``gen_ai.system_instructions``, ``gen_ai.input.messages``,
``gen_ai.output.messages``, as JSON in the conventions' format: :mod:`.genai_messages`)
go on the span only with ``--otel-content``: they hold what users wrote, which the
conventions leave opt-in for the same reason.

Spans go to the global tracer provider, which the operator configures (the
``opentelemetry-instrument`` launcher, or ``OTEL_*`` variables with an SDK set up in
code); with telemetry off nothing here is imported and a request pays nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from chatcodec._narrow import as_dict
from chatcodec.serve import genai_messages
from chatcodec.serve.request_log import RequestRecord
from chatcodec.serve.upstream import upstream_side
from chatcodec.stream_events import (
    AnyStreamEvent,
    FinishEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    ThinkingDeltaEvent,
    ToolCallDeltaEvent,
    ToolCallStartEvent,
    UsageEvent,
)

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

_REQUEST_SETTINGS = {
    "max_tokens": "gen_ai.request.max_tokens",
    "temperature": "gen_ai.request.temperature",
    "top_p": "gen_ai.request.top_p",
    "top_k": "gen_ai.request.top_k",
    "seed": "gen_ai.request.seed",
    "frequency_penalty": "gen_ai.request.frequency_penalty",
    "presence_penalty": "gen_ai.request.presence_penalty",
    "stop": "gen_ai.request.stop_sequences",
}
"""Canonical request fields -> their span attributes."""


class Telemetry:
    """The spans of one server (a no-op when off)."""

    def __init__(self, enabled: bool, *, content: bool = False, tracer_provider: Any = None) -> None:
        self.content = content
        self._tracer: Tracer | None = None
        if enabled:
            from opentelemetry import trace  # the otel extra; checked by the command line

            from chatcodec import __version__

            self._tracer = trace.get_tracer("chatcodec.serve", __version__, tracer_provider)

    @property
    def enabled(self) -> bool:
        return self._tracer is not None

    def start(self, record: RequestRecord) -> None:
        """Open the request's span; the record ends it when it is written."""
        if self._tracer is None:
            return
        from opentelemetry.trace import SpanKind

        span = self._tracer.start_span("chat", kind=SpanKind.CLIENT, attributes={"gen_ai.operation.name": "chat"})
        record.span = RequestSpan(span, content=self.content)

    def requested(self, record: RequestRecord, canonical: Mapping[str, Any], url: str) -> None:
        """The request's attributes, once it is routed and converted."""
        if isinstance(record.span, RequestSpan):
            record.span.requested(record, canonical, url)

    def answered(self, record: RequestRecord, canonical: Callable[[], Mapping[str, Any]]) -> None:
        """A plain answer's attributes (``canonical()``: the response as canonical data,
        read only when a span wants it)."""
        if isinstance(record.span, RequestSpan):
            record.span.answered(canonical())

    def observe(self, record: RequestRecord, event: AnyStreamEvent) -> None:
        """A stream's canonical event on its way to the caller."""
        if isinstance(record.span, RequestSpan):
            record.span.observe(event)


class RequestSpan:
    """One request's span and what its stream has shown so far."""

    def __init__(self, span: Span, *, content: bool) -> None:
        self.span = span
        self.content = content
        self.finish_reasons: list[str] = []
        self.parts: dict[tuple[int, int], dict[str, Any]] = {}

    def requested(self, record: RequestRecord, canonical: Mapping[str, Any], url: str) -> None:
        model = record.upstream_model or ""
        self.span.update_name(f"chat {model}".strip())
        address = urlsplit(url)
        attributes: dict[str, Any] = {
            "gen_ai.request.model": model,
            "server.address": address.hostname or "",
            "server.port": address.port or (443 if address.scheme == "https" else 80),
        }
        if record.upstream is not None:
            attributes["gen_ai.provider.name"] = upstream_side(record.upstream).semconv_name or record.upstream
        for field, attribute in _REQUEST_SETTINGS.items():
            value = canonical.get(field)
            if isinstance(value, (int, float, str)) or (isinstance(value, list) and value):
                attributes[attribute] = value
        if self.content:
            messages = list(canonical.get("messages") or [])
            attributes["gen_ai.input.messages"] = json.dumps(genai_messages.input_messages(messages))
            system = genai_messages.system_instructions(messages)
            if system:
                attributes["gen_ai.system_instructions"] = json.dumps(system)
        self.span.set_attributes(attributes)

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
                genai_messages.output_message(choice.get("message") or {}, reason)
                for choice, reason in zip(choices, reasons, strict=True)
            ]
            self.span.set_attribute("gen_ai.output.messages", json.dumps(output))

    def observe(self, event: AnyStreamEvent) -> None:
        """Gather a stream's answer from its canonical events as they pass."""
        if isinstance(event, ResponseStartEvent):
            self._identity(event.id, event.model)
        elif isinstance(event, UsageEvent):
            self._usage(event.usage.model_dump(exclude_none=True))
        elif isinstance(event, FinishEvent):
            self.finish_reasons.append(genai_messages.finish_reason(event.finish_reason.unified) or "")
        elif self.content:
            self._gather(event)

    def _gather(self, event: AnyStreamEvent) -> None:
        if isinstance(event, (TextDeltaEvent, ThinkingDeltaEvent)):
            kind = "text" if isinstance(event, TextDeltaEvent) else "reasoning"
            part = self.parts.setdefault((event.choice, event.index), {"type": kind, "content": ""})
            part["content"] += event.delta
        elif isinstance(event, ToolCallStartEvent):
            self.parts[event.choice, event.index] = {
                "type": "tool_call",
                "id": event.id,
                "name": event.name,
                "arguments": "",
            }
        elif isinstance(event, ToolCallDeltaEvent) and (event.choice, event.index) in self.parts:
            self.parts[event.choice, event.index]["arguments"] += event.delta

    def end(self, record: RequestRecord) -> None:
        """Close the span with the request's outcome and its losses."""
        from opentelemetry.trace import Status, StatusCode

        if self.finish_reasons:
            self.span.set_attribute("gen_ai.response.finish_reasons", self.finish_reasons)
        if self.content and self.parts:
            parts = [part for _, part in sorted(self.parts.items())]
            message = {"role": "assistant", "parts": parts, "finish_reason": next(iter(self.finish_reasons), "")}
            self.span.set_attribute("gen_ai.output.messages", json.dumps([message]))
        for loss in record.losses:
            self.span.add_event(
                "chatcodec.serve.loss", {"chatcodec.loss.path": str(loss.path), "chatcodec.loss.what": loss.what}
            )
        status = record.stream_error_status or record.status
        if record.cancelled:
            self.span.set_attribute("error.type", "cancelled")
        elif status >= 400:
            self.span.set_attribute("error.type", str(status))
            self.span.set_status(Status(StatusCode.ERROR, record.error))
        self.span.end()

    def _identity(self, response_id: object, model: object) -> None:
        if isinstance(response_id, str):
            self.span.set_attribute("gen_ai.response.id", response_id)
        if isinstance(model, str):
            self.span.set_attribute("gen_ai.response.model", model)

    def _usage(self, usage: Mapping[str, Any]) -> None:
        for field in ("input_tokens", "output_tokens"):
            if isinstance(usage.get(field), int):
                self.span.set_attribute(f"gen_ai.usage.{field}", usage[field])
