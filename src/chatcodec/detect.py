"""Telling wire formats apart, for the command line.

The decoders are tolerant readers, so a body in the wrong format often "decodes": an
OpenAI decoder given an Anthropic request drops its top-level ``system`` with only a
loss line. The CLI therefore looks for *markers*: things a body can hold in some formats
and not in others (a top-level ``system`` is Anthropic's, a ``role: "system"`` message is
never Anthropic's, a string ``finish_reason`` is OpenAI's). A body whose markers all
exclude a format is clearly not in it; the formats every marker allows are what it
looks like. A body with no marker (a bare list of messages, a request with only user
turns) is any format, and is read as given.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from chatcodec._narrow import as_dict, as_list

OPENAI, ANTHROPIC, CANONICAL = "openai-chat", "anthropic", "canonical"
RESPONSES, GEMINI, BEDROCK = "openai-responses", "gemini", "bedrock-converse"
KNOWN = (OPENAI, ANTHROPIC, RESPONSES, GEMINI, BEDROCK, CANONICAL)
"""The formats detection knows, in the order preferred when several fit."""


@dataclass(frozen=True, slots=True)
class Marker:
    """Something found in a body, and the formats that can hold it."""

    found: str
    """What and where, for messages (``"a top-level 'system'"``)."""
    formats: frozenset[str]
    """The formats a body holding it can be in."""


def _marker(found: str, *formats: str) -> Marker:
    return Marker(found, frozenset(formats))


_OPENAI_REQUEST_KEYS = ("max_completion_tokens", "n", "logit_bias", "logprobs", "stream_options")
_OPENAI_REQUEST_KEYS_MORE = ("reasoning_effort", "web_search_options", "modalities", "audio", "prediction")
_OPENAI_BOTH_KEYS = ("user", "top_logprobs")
"""Keys both OpenAI formats have."""
_ANTHROPIC_REQUEST_KEYS = (
    "stop_sequences",
    "thinking",
    "anthropic_version",
    "container",
    "mcp_servers",
    "output_config",
)
_CANONICAL_REQUEST_KEYS = ("provider_options", "provider_tools")
_RESPONSES_KEYS = ("input", "instructions", "max_output_tokens", "previous_response_id", "include")
_GEMINI_KEYS = (
    "contents",
    "systemInstruction",
    "system_instruction",
    "generationConfig",
    "generation_config",
    "candidates",
    "usageMetadata",
    "safetySettings",
)
_BEDROCK_KEYS = ("modelId", "inferenceConfig", "additionalModelRequestFields", "stopReason")
_OPENAI_PARTS = ("image_url", "input_audio", "file")
_ANTHROPIC_BLOCKS = ("redacted_thinking", "server_tool_use", "web_search_tool_result", "search_result")


def markers(data: object) -> list[Marker]:
    """The markers in a request or response body (empty for anything else)."""
    fields = as_dict(data)
    if fields is None:
        return []
    return list(_top_level(fields)) + list(_in_messages(fields))


def _top_level(fields: dict[str, Any]) -> Iterator[Marker]:
    if fields.get("object") == "chat.completion" or fields.get("object") == "chat.completion.chunk":
        yield _marker(f"'object': {fields['object']!r}", OPENAI)
    if fields.get("type") == "message" and fields.get("role") == "assistant":
        yield _marker("a response of 'type': 'message'", ANTHROPIC)
    if fields.get("type") == "error" and isinstance(fields.get("error"), dict):
        yield _marker("an error of 'type': 'error'", ANTHROPIC)
    for choice in map(as_dict, as_list(fields.get("choices")) or ()):
        reason = None if choice is None else choice.get("finish_reason")
        if isinstance(reason, str):
            yield _marker("a string 'finish_reason' in 'choices'", OPENAI)
        elif isinstance(reason, dict):
            yield _marker("a 'finish_reason' object in 'choices'", CANONICAL)
    if "system" in fields:
        yield _marker("a top-level 'system'", ANTHROPIC, BEDROCK, CANONICAL)
    if "stop" in fields:
        yield _marker("a top-level 'stop'", OPENAI, CANONICAL)
    for keys, formats in (
        (_OPENAI_REQUEST_KEYS + _OPENAI_REQUEST_KEYS_MORE, (OPENAI,)),
        (_ANTHROPIC_REQUEST_KEYS, (ANTHROPIC,)),
        (_CANONICAL_REQUEST_KEYS, (CANONICAL,)),
        (_RESPONSES_KEYS, (RESPONSES,)),
        (_GEMINI_KEYS, (GEMINI,)),
        (_BEDROCK_KEYS, (BEDROCK,)),
        (_OPENAI_BOTH_KEYS, (OPENAI, RESPONSES)),
        (("toolConfig",), (GEMINI, BEDROCK)),
    ):
        for key in keys:
            if key in fields:
                yield _marker(f"a top-level {key!r}", *formats)
    yield from _in_tools(fields.get("tools"))
    yield from _output(fields)


def _output(fields: dict[str, Any]) -> Iterator[Marker]:
    """A Responses answer's ``output`` is a list of items; a Bedrock answer's an object."""
    if fields.get("object") == "response" or isinstance(fields.get("output"), list):
        yield _marker("'object': 'response' or an 'output' list", RESPONSES)
    if isinstance(fields.get("output"), dict):
        yield _marker("an 'output' object", BEDROCK)


def _in_tools(tools: object) -> Iterator[Marker]:
    for tool in map(as_dict, as_list(tools) or ()):
        if tool is None:
            continue
        if "function" in tool:
            yield _marker("a tool with 'function'", OPENAI, CANONICAL)  # the dialect reads it too
            return
        if "input_schema" in tool:
            yield _marker("a tool with 'input_schema'", ANTHROPIC, CANONICAL)
            return
        if "parameters" in tool:
            yield _marker("a tool with top-level 'parameters'", RESPONSES, CANONICAL)
            return
        if "functionDeclarations" in tool or "function_declarations" in tool:
            yield _marker("a tool with 'functionDeclarations'", GEMINI)
            return
        kind = tool.get("type")
        if isinstance(kind, str) and kind[-8:].isdigit():  # server tools: ``web_search_20250305``
            yield _marker(f"a {kind!r} server tool", ANTHROPIC)
            return


def _in_messages(fields: dict[str, Any]) -> Iterator[Marker]:
    messages = as_list(fields.get("messages")) or []
    for choice in map(as_dict, as_list(fields.get("choices")) or ()):
        if choice is not None and isinstance(choice.get("message"), dict):
            messages = [*messages, choice["message"]]
    for index, message in enumerate(map(as_dict, messages)):
        if message is not None:
            yield from _in_message(message, index)


def _in_message(message: dict[str, Any], index: int) -> Iterator[Marker]:
    where = f"message {index}"
    role = message.get("role")
    if role in ("system", "developer", "tool"):
        yield _marker(f"a {role!r} role ({where})", OPENAI, CANONICAL)
    if role == "model" or "parts" in message:
        yield _marker(f"a 'model' role or 'parts' ({where})", GEMINI)
    if "tool_calls" in message:
        yield _marker(f"'tool_calls' ({where})", OPENAI)
    if role == "tool" and isinstance(message.get("content"), list) and "tool_call_id" not in message:
        yield _marker(f"tool results as parts ({where})", CANONICAL)
    for part in map(as_dict, as_list(message.get("content")) or ()):
        if part is not None:
            yield from _in_part(part, where)


def _in_part(part: dict[str, Any], where: str) -> Iterator[Marker]:
    kind = part.get("type")
    if kind is None and part and not part.keys() & {"role", "content"}:
        yield _marker(f"a content block with no 'type' ({where})", BEDROCK)
    elif kind in _OPENAI_PARTS:
        yield _marker(f"a {kind!r} part ({where})", OPENAI, CANONICAL)
    elif kind in _ANTHROPIC_BLOCKS or (kind == "thinking" and "thinking" in part):
        yield _marker(f"a {kind!r} block ({where})", ANTHROPIC, CANONICAL)
    elif kind == "tool_use":
        yield _marker(f"a 'tool_use' block ({where})", *((ANTHROPIC,) if "input" in part else (CANONICAL,)))
    elif kind == "tool_result":
        yield _marker(f"a 'tool_result' block ({where})", ANTHROPIC, CANONICAL)
    elif kind in ("image", "document") and isinstance(part.get("source"), dict):
        media_type = "media_type" in part["source"]
        yield _marker(f"an {kind!r} block with a 'source' ({where})", ANTHROPIC, *(() if media_type else (CANONICAL,)))


def fitting(found: list[Marker]) -> list[str]:
    """The known formats every marker allows, in :data:`KNOWN` order."""
    return [name for name in KNOWN if all(name in marker.formats for marker in found)]


def mismatch(source: str, data: object) -> str | None:
    """Why ``data`` is clearly not in the ``source`` format, naming what it looks like;
    ``None`` when nothing says so (formats detection does not know pass unchecked)."""
    if source not in KNOWN:
        return None
    found = markers(data)
    against = [marker for marker in found if source not in marker.formats]
    if not against:
        return None
    candidates = [name for name in fitting(found) if name != source]
    looks = f"it looks like {candidates[0]}" if candidates else "its markers fit no one known format"
    return f"this is not {source} input: it has {against[0].found}; {looks} (give that as --from)"


def detect(data: object) -> str | None:
    """The format ``data`` is in, when its markers say so; ``None`` when nothing does or
    they fit no one format (then the accepted dialects may still read it)."""
    found = markers(data)
    if not found:
        return None
    formats = fitting(found)
    return formats[0] if formats else None
