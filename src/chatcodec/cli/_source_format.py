"""The format a file holds when ``convert`` is given no ``--from``: what a newcomer's first
command leaves out.

Only a regular file is looked at (standard input would be consumed), and only its first JSON
document: its first line, or the whole file when that line is no JSON on its own (a pretty
printed document, a JSON array). A trace (an OTLP export of spans or of log events, span
attributes with ``gen_ai.`` keys) is ``otel-genai``; a framework's history (a bare list, or ``{"messages": [...]}``) is
the framework whose stored message its first item is (LangChain, pydantic-ai, the AI SDK's
``UIMessage``, Google ADK, the conventions' messages), as ``validate_messages`` tells them; an
ADK ``Session`` dump is ``google-adk``; a ``RunAgentInput`` or a message list only AG-UI writes
(``toolCalls``, a ``reasoning`` role...) is ``ag-ui``; an MCP sampling request or result is ``mcp-sampling``
(:func:`~chatcodec.cli._whole_states.mcp_sampling_body`); a harness's session file (a Claude Code line, a Codex
rollout line) is ``claude-code`` or ``codex``; any other list of messages is ``canonical`` (which reads
every stored shape ``validate`` reads); any other body is the provider format its markers name.
None when nothing names one: ``--from`` is then asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.session_lines import harness_of
from chatcodec.cli._whole_states import mcp_sampling_body

_WHOLE_FILE_LIMIT = 64 * 1024 * 1024
"""The largest file read whole to find its first document (a pretty-printed one)."""


def source_format(path: Path) -> str | None:
    """The format ``path``'s first document is in, or None (not a regular file, not JSON, or
    no format's marks)."""
    document = _first_document(path)
    return None if document is None else document_format(document)


def document_format(document: object) -> str | None:
    """The format one parsed document is in, or None."""
    from chatcodec import _detect as detect
    from chatcodec._frameworks.ag_ui.detection import is_ag_ui
    from chatcodec.cli import _trace_rows as trace_rows

    if is_ag_ui(document):  # a RunAgentInput, or messages only AG-UI's wire spells so
        return "ag-ui"

    fields = as_dict(document)
    if fields is not None:
        exported = isinstance(fields.get("resourceSpans"), list) or isinstance(fields.get("resourceLogs"), list)
        if exported or trace_rows.span_format(fields):
            return trace_rows.FORMAT
        if "messages" not in fields and isinstance(fields.get("events"), list):
            return "google-adk"
        if mcp_sampling_body(fields):
            return "mcp-sampling"
        harness = harness_of(fields)
        if harness is not None:  # a session file's first line: the whole file is one conversation
            return harness
        listed = as_list(fields.get("messages"))
        framework = _framework(listed)
        return framework or detect.detect(fields)
    listed = as_list(document)
    if listed is not None:
        return _framework(listed) or "canonical"
    return None


def _framework(messages: list[Any] | None) -> str | None:
    from chatcodec._validation import framework_of

    first = as_dict(messages[0]) if messages else None
    return None if first is None else framework_of(first)


def _first_document(path: Path) -> object:
    if str(path) == "-" or not path.is_file():
        return None
    with path.open("rb") as stream:
        first = _parsed(stream.readline())
    if first is not None or path.stat().st_size > _WHOLE_FILE_LIMIT:
        return first
    return _parsed(path.read_bytes())


def _parsed(text: bytes) -> object:
    """``text`` parsed as JSON, or None when it is not JSON."""
    from chatcodec._errors import ChatcodecError
    from chatcodec._payloads import parse_json

    try:
        return parse_json(text)
    except ChatcodecError:
        return None
