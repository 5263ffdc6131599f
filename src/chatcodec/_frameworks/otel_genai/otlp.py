"""The model-call spans of an OTLP JSON export, each as the attributes this format reads.

The OpenTelemetry Collector's ``file`` exporter (and OTLP/HTTP with JSON encoding) writes
``{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}``, a span's attributes a list of
``{"key", "value": AnyValue}``, an ``AnyValue`` one of ``stringValue``, ``boolValue``,
``intValue`` (a 64-bit integer, as a decimal string), ``doubleValue``, ``bytesValue`` (base64),
``arrayValue: {"values": [...]}`` and ``kvlistValue: {"values": [{"key", "value"}]}``
(https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding, ``opentelemetry-proto``'s
``common.proto``). A model call's span is one holding ``gen_ai.input.messages`` or
``gen_ai.output.messages``: the others (an agent run's, a tool's) are no conversation of their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chatcodec._frameworks.otel_genai.markers import INPUT, OUTPUT
from chatcodec.codec_kit import as_dict, as_list

SPAN_FIELDS = ("traceId", "spanId", "name")
"""The span's own fields each row keeps beside its attributes (under ``otlp.``), so a row says
which span it came from."""


def is_export(document: object) -> bool:
    """Whether ``document`` is an OTLP JSON export of spans."""
    return isinstance((as_dict(document) or {}).get("resourceSpans"), list)


def model_call_spans(document: object) -> list[dict[str, Any]]:
    """Each model-call span's attributes, in the export's order."""
    return [attributes for attributes in _span_attributes(document) if INPUT in attributes or OUTPUT in attributes]


def span_count(document: object) -> int:
    """How many spans the export holds, model calls or not."""
    return sum(1 for _ in _span_attributes(document))


def _span_attributes(document: object) -> Iterator[dict[str, Any]]:
    for resource in as_list((as_dict(document) or {}).get("resourceSpans")) or ():
        for scope in as_list((as_dict(resource) or {}).get("scopeSpans")) or ():
            for span in as_list((as_dict(scope) or {}).get("spans")) or ():
                entry = as_dict(span)
                if entry is not None:
                    yield span_attributes(entry)


def span_attributes(span: dict[str, Any]) -> dict[str, Any]:
    """One span's attributes as plain values (its id fields kept under ``otlp.``)."""
    attributes: dict[str, Any] = {f"otlp.{key}": span[key] for key in SPAN_FIELDS if isinstance(span.get(key), str)}
    for item in as_list(span.get("attributes")) or ():
        entry = as_dict(item) or {}
        if isinstance(entry.get("key"), str):
            attributes[entry["key"]] = any_value(entry.get("value"))
    return attributes


def any_value(value: object) -> object:
    """An OTLP ``AnyValue`` as the plain value it holds (``None`` for an empty one)."""
    fields = as_dict(value) or {}
    if "stringValue" in fields:
        return fields["stringValue"]
    if "intValue" in fields:
        number = fields["intValue"]
        return int(number) if isinstance(number, str) and number.lstrip("-").isdigit() else number
    for key in ("boolValue", "doubleValue", "bytesValue"):
        if key in fields:
            return fields[key]
    if "arrayValue" in fields:
        return [any_value(item) for item in as_list((as_dict(fields["arrayValue"]) or {}).get("values")) or ()]
    if "kvlistValue" in fields:
        pairs = as_list((as_dict(fields["kvlistValue"]) or {}).get("values")) or ()
        return {
            entry["key"]: any_value(entry.get("value"))
            for pair in pairs
            if isinstance((entry := as_dict(pair) or {}).get("key"), str)
        }
    return None
