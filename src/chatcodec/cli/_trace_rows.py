"""A trace file's model-call spans as the rows ``convert --from otel-genai`` reads.

A file of span attributes holds one span a line, already a row. An OTLP JSON export (the
OpenTelemetry Collector's ``file`` exporter writes one a line; a saved OTLP/HTTP body is one
document) holds many spans in each object: each model-call span becomes a row of its
attributes (:mod:`chatcodec._frameworks.otel_genai.otlp`), so a trace gives one conversation per
model call. Only ``otel-genai`` input is looked at, so no other conversion parses a line twice.

A trace holds more than model calls: an agent run's span, a tool's (pydantic-ai's
``invoke_agent``, ``execute_tool``), which hold no conversation. They are skipped and counted,
in a file of span attributes as in an export (a skipped line stays a blank line, so every
other line keeps its number), and the run says how many it skipped.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from chatcodec._errors import ChatcodecError
from chatcodec._payloads import parse_json
from chatcodec.batch._json_dump import dump_json

FORMAT = "otel-genai"


@dataclass(slots=True)
class SkippedSpans:
    """How many spans of a trace were no model call (an agent's, a tool's), told at the end."""

    count: int = 0

    def tell(self, err: TextIO | None = None) -> None:
        """Say how many were skipped (nothing when none were), on ``err`` (standard error)."""
        if self.count:
            why = "no model call: an agent's or a tool's span holds no gen_ai.input.messages or gen_ai.output.messages"
            print(f"{self.count} span(s) skipped ({why})", file=err or sys.stderr)


_MESSAGE_KEYS = (
    b'"gen_ai.input.messages"',
    b'"gen_ai.output.messages"',
    # a call recorded as events (chatcodec._frameworks.otel_genai.events.NAMES, tested there)
    b'"gen_ai.system.message"',
    b'"gen_ai.user.message"',
    b'"gen_ai.assistant.message"',
    b'"gen_ai.tool.message"',
    b'"gen_ai.choice"',
    b'"gen_ai.client.inference.operation.details"',
)


def span_format(attributes: dict[str, Any]) -> str | None:
    """``otel-genai`` for a document of span attributes (``gen_ai.`` keys), what ``validate``
    reads one as when no format is named; else None."""
    return FORMAT if any(key.startswith("gen_ai.") for key in attributes) else None


def other_span(document: object) -> bool:
    """Whether a parsed document is a span of no model call (``gen_ai.`` attributes but no
    message attribute)."""
    from chatcodec._frameworks.otel_genai.events import has_events
    from chatcodec._frameworks.otel_genai.markers import INPUT, OUTPUT
    from chatcodec.codec_kit import as_dict

    attributes = as_dict(document)
    return (
        attributes is not None
        and span_format(attributes) is not None
        and not (INPUT in attributes or OUTPUT in attributes or has_events(attributes))
    )


def _other_span(line: bytes) -> bool:
    """Whether a line of span attributes is a span of no model call: ``gen_ai.`` attributes but
    no message attribute (a line that only looks so is converted, and refused by its reader)."""
    return b'"gen_ai.' in line and not any(key in line for key in _MESSAGE_KEYS)


def span_lines(lines: Iterable[bytes], skipped: SkippedSpans) -> Iterator[bytes]:
    """``lines`` with each OTLP export among them replaced by its model-call spans, a line each,
    and each span of no model call left blank (counted in ``skipped``)."""
    for line in lines:
        rows = span_rows(line, skipped) if b"resourceSpans" in line or b"resourceLogs" in line else None
        if rows is not None:
            yield from rows
        elif _other_span(line):
            skipped.count += 1
            yield b"\n"
        else:
            yield line


def export_spans(document: object, skipped: SkippedSpans | None = None) -> list[dict[str, Any]] | None:
    """The model-call spans' attributes of a parsed OTLP export (the others counted in
    ``skipped``); None for any other document."""
    from chatcodec._frameworks.otel_genai.otlp import is_export, model_call_spans, span_count

    if not is_export(document):
        return None
    spans = model_call_spans(document)
    if skipped is not None:
        skipped.count += span_count(document) - len(spans)
    return spans


def span_rows(text: bytes, skipped: SkippedSpans | None = None) -> list[bytes] | None:
    """An OTLP export's model-call spans as JSON lines; None for text that is no export."""
    try:
        document = parse_json(text)
    except ChatcodecError:  # not JSON: its own conversion says so
        return None
    spans = export_spans(document, skipped)
    return None if spans is None else [dump_json(attributes) + b"\n" for attributes in spans]
