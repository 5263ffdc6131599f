"""A trace file's model-call spans as the rows ``convert --from otel-genai`` reads.

A file of span attributes holds one span a line, already a row. An OTLP JSON export (the
OpenTelemetry Collector's ``file`` exporter writes one a line; a saved OTLP/HTTP body is one
document) holds many spans in each object: each model-call span becomes a row of its
attributes (:mod:`chatcodec._frameworks.otel_genai.otlp`), so a trace gives one conversation per
model call. Only ``otel-genai`` input is looked at, so no other conversion parses a line twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from chatcodec._errors import ChatcodecError
from chatcodec._payloads import parse_json
from chatcodec.batch._convert import dump_json

FORMAT = "otel-genai"


def span_lines(lines: Iterable[bytes]) -> Iterator[bytes]:
    """``lines`` with each OTLP export among them replaced by its model-call spans, a line each."""
    for line in lines:
        rows = span_rows(line) if b"resourceSpans" in line else None
        if rows is None:
            yield line
        else:
            yield from rows


def export_spans(document: object) -> list[dict[str, Any]] | None:
    """The model-call spans' attributes of a parsed OTLP export; None for any other document."""
    from chatcodec._frameworks.otel_genai.otlp import is_export, model_call_spans

    return model_call_spans(document) if is_export(document) else None


def span_rows(text: bytes) -> list[bytes] | None:
    """An OTLP export's model-call spans as JSON lines; None for text that is no export."""
    try:
        document = parse_json(text)
    except ChatcodecError:  # not JSON: its own conversion says so
        return None
    spans = export_spans(document)
    return None if spans is None else [dump_json(attributes) + b"\n" for attributes in spans]
