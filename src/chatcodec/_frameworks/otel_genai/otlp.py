"""The model-call spans of an OTLP JSON export, each as the attributes this format reads.

The OpenTelemetry Collector's ``file`` exporter (and OTLP/HTTP with JSON encoding) writes
``{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}``, a span's attributes a list of
``{"key", "value": AnyValue}``, an ``AnyValue`` one of ``stringValue``, ``boolValue``,
``intValue`` (a 64-bit integer, as a decimal string), ``doubleValue``, ``bytesValue`` (base64),
``arrayValue: {"values": [...]}`` and ``kvlistValue: {"values": [{"key", "value"}]}``
(https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding, ``opentelemetry-proto``'s
``common.proto``). A model call's span is one holding ``gen_ai.input.messages`` or
``gen_ai.output.messages``, or the events recording them (:mod:`.events`; a span's ``events``,
``{"name", "attributes"}`` each, are kept when they are the conventions'): the others (an agent
run's, a tool's) are no conversation of their own.

A logs export (``{"resourceLogs": [{"scopeLogs": [{"logRecords": [...]}]}]}``) holds the events of
the instrumentations that record a call's messages as log records: each record an event (its
``eventName``, or its ``event.name`` attribute; its ``body`` and ``attributes``). The records of one
call share its span's ``traceId`` and ``spanId``, which group them into a row; records without
them are grouped as they come, a call ending at its last ``gen_ai.choice``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chatcodec._frameworks.otel_genai.events import DETAILS, EVENTS, NAMES, ROLES, has_events
from chatcodec._frameworks.otel_genai.markers import INPUT, OUTPUT
from chatcodec.codec_kit import as_dict, as_list

SPAN_FIELDS = ("traceId", "spanId", "name")
"""The span's own fields each row keeps beside its attributes (under ``otlp.``), so a row says
which span it came from."""


def is_export(document: object) -> bool:
    """Whether ``document`` is an OTLP JSON export of spans or of log records."""
    fields = as_dict(document) or {}
    return isinstance(fields.get("resourceSpans"), list) or isinstance(fields.get("resourceLogs"), list)


def model_call_spans(document: object) -> list[dict[str, Any]]:
    """Each model call's row (a span's attributes, or a call's log records as its events), in
    the export's order."""
    rows = [*_span_attributes(document), *_log_rows(document)]
    return [row for row in rows if INPUT in row or OUTPUT in row or has_events(row)]


def span_count(document: object) -> int:
    """How many spans (and calls' log records) the export holds, model calls or not."""
    return sum(1 for _ in _span_attributes(document)) + len(_log_rows(document))


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
    attributes.update(_attributes(span))
    events = [
        {"name": event["name"], "attributes": _attributes(event)}
        for item in as_list(span.get("events")) or ()
        if (event := as_dict(item) or {}).get("name") in NAMES
    ]
    if events:
        attributes[EVENTS] = events
    return attributes


def _attributes(item: dict[str, Any]) -> dict[str, Any]:
    """A span's, event's or log record's ``attributes`` (``{"key", "value"}`` each) as plain values."""
    plain: dict[str, Any] = {}
    for attribute in as_list(item.get("attributes")) or ():
        entry = as_dict(attribute) or {}
        if isinstance(entry.get("key"), str):
            plain[entry["key"]] = any_value(entry.get("value"))
    return plain


def _log_rows(document: object) -> list[dict[str, Any]]:
    """The export's log records grouped into calls, each a row of its events."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    loose: list[dict[str, Any]] = []
    for record in _log_records(document):
        event: dict[str, Any] = {"attributes": _attributes(record)}
        if isinstance(record.get("eventName"), str) and record["eventName"]:
            event["name"] = record["eventName"]
        if "body" in record:
            event["body"] = any_value(record["body"])
        ids = tuple(record.get(key) for key in ("traceId", "spanId"))
        if all(isinstance(ident, str) and ident for ident in ids):
            key = (str(ids[0]), str(ids[1]))
            row = groups.setdefault(key, {"otlp.traceId": key[0], "otlp.spanId": key[1], EVENTS: []})
            row[EVENTS].append(event)
            continue
        if not loose or _starts(loose[-1][EVENTS][-1], event):
            loose.append({EVENTS: []})
        loose[-1][EVENTS].append(event)
    return [*groups.values(), *loose]


def _starts(previous: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether ``event`` starts another call than ``previous``'s: a message after an answer, and
    a details event (a call's whole record) either side."""
    before, name = _event_name(previous), _event_name(event)
    return DETAILS in (before, name) or (before not in ROLES and name in ROLES)


def _event_name(event: dict[str, Any]) -> object:
    return event.get("name") or event["attributes"].get("event.name")


def _log_records(document: object) -> Iterator[dict[str, Any]]:
    for resource in as_list((as_dict(document) or {}).get("resourceLogs")) or ():
        for scope in as_list((as_dict(resource) or {}).get("scopeLogs")) or ():
            for record in as_list((as_dict(scope) or {}).get("logRecords")) or ():
                entry = as_dict(record)
                if entry is not None:
                    yield entry


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
