"""One message event's body as the conventions' message it records.

Before the conventions put a call's messages on its span, instrumentations recorded each as an
event (``gen_ai.system.message``, ``gen_ai.user.message``, ``gen_ai.assistant.message``,
``gen_ai.tool.message``; each answer a ``gen_ai.choice``), its body the message in the provider's
own spelling (opentelemetry-python-contrib's ``opentelemetry-instrumentation-openai-v2``,
``-vertexai``, ``-google-genai`` and ``-botocore`` tests):

- ``content``: text, or the provider's parts: OpenAI's ``{"type": "text", "text"}`` and
  ``{"type": "image_url", "image_url": {"url", "detail"?}}`` (a ``uri`` part, data URLs too), Gemini's
  ``{"text"}`` (``thought: true`` for reasoning), ``{"function_call": {"name", "args", "id"?}}``,
  ``{"function_response": {"name", "response", "id"?}}``, Bedrock's ``{"text"}``,
  ``{"toolUse": {"toolUseId", "name", "input"}}`` and ``{"toolResult": {"toolUseId", "content"}}``;
- ``tool_calls``: OpenAI's ``[{"id", "type": "function", "function": {"name", "arguments"}}]``;
- ``role`` when it differs from the event's (Vertex AI writes ``model``, and ``user`` for a tool
  result), and a tool result's call ``id``;
- a choice: ``{"index", "finish_reason", "message": {...}}``.

Each becomes the conventions' parts; a part of another shape (a call naming no tool among them) is
kept whole as a generic part (its ``type`` the provider's own, or its only key), and a body's other
fields stay on the message (one the conventions' shape cannot hold there, a role or id of no
string, under ``event_fields``), so nothing the event held is dropped or refused. A body without
``content`` (content capture off) is a message without parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, as_list, leftovers

_MODALITIES = ("image", "audio", "video")


def event_message(body: object, role: str) -> dict[str, Any]:
    """A message event's body (the event's ``role``, unless the body names its own) as a
    conventions message."""
    fields = as_dict(body)
    if fields is None:  # a bare value: the content itself
        fields = {} if body is None else {"content": body}
    named = fields.get("role")
    message: dict[str, Any] = {"role": named if isinstance(named, str) else role}
    if role == "tool":
        result = _result(fields.get("id"), fields["content"]) if "content" in fields else _result(fields.get("id"))
        parts = [with_rest(result, {}, ())]  # an id of no string kept beside, not refused
        mapped: tuple[str, ...] = ("content", "id")
    else:
        parts = content_parts(fields.get("content"))
        parts += [_openai_call(call) for call in _calls(fields) or ()]
        mapped = ("content", *(("tool_calls",) * (_calls(fields) is not None)))
    message["parts"] = parts
    return with_rest(message, fields, (*mapped, *(("role",) if isinstance(named, str) else ())))


def choice_message(body: object) -> tuple[int | None, dict[str, Any]]:
    """A ``gen_ai.choice`` body as its index and its output message (with its finish reason)."""
    fields = as_dict(body)
    if fields is None:  # a bare value: the answer's content
        fields = {} if body is None else {"message": {"content": body}}
    inner: object = fields.get("message")
    message = event_message(inner if as_dict(inner) is not None or inner is None else {"content": inner}, "assistant")
    for call in _calls(fields) or ():  # some instrumentations put the calls beside the message
        message["parts"].append(_openai_call(call))
    index, reason = fields.get("index"), fields.get("finish_reason")
    if isinstance(reason, str):
        message["finish_reason"] = reason
    mapped = (
        "message",
        *(("tool_calls",) * (_calls(fields) is not None)),
        *(("index",) if type(index) is int else ()),
        *(("finish_reason",) * (reason is None or isinstance(reason, str))),
    )
    return (index if type(index) is int else None), with_rest(message, fields, mapped)


def _calls(fields: Mapping[str, Any]) -> list[Any] | None:
    """A body's ``tool_calls`` as the list they are (none for a null); ``None`` for a value of
    another kind, which stays beside the message as the body gave it rather than read as no calls."""
    calls = fields.get("tool_calls")
    return [] if calls is None else as_list(calls)


def content_parts(content: object) -> list[dict[str, Any]]:
    """A body's ``content`` as the conventions' parts."""
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "content": content}]
    listed = as_list(content)
    if listed is None:
        return [_generic(content)]
    return [_part(item, index) for index, item in enumerate(listed)]


def _part(item: object, index: int) -> dict[str, Any]:
    if isinstance(item, str):
        return {"type": "text", "content": item}
    part = as_dict(item)
    if part is None:
        return _generic(item)
    kind = part.get("type")
    if isinstance(kind, str):  # OpenAI's (or already the conventions')
        if kind == "text" and isinstance(part.get("text"), str) and "content" not in part:
            return with_rest({"type": "text", "content": part["text"]}, part, ("type", "text"))
        image = as_dict(part.get("image_url"))
        if kind == "image_url" and image is not None and isinstance(image.get("url"), str):
            uri = with_rest({"type": "uri", "modality": "image", "uri": image["url"]}, image, ("url",))
            return with_rest(uri, part, ("type", "image_url"))
        return dict(part)
    if isinstance(part.get("text"), str):
        kind = "reasoning" if part.get("thought") is True else "text"
        return with_rest({"type": kind, "content": part["text"]}, part, ("text", *(("thought",) * (kind != "text"))))
    for key, read in _KEYED.items():
        inner = as_dict(part.get(key))
        if inner is not None and len(part) == 1:
            return read(inner, index)
    return _generic(part)


def _gemini_id(part: Mapping[str, Any], index: int) -> object:
    """A Gemini call's or response's id; without one, ``<name>_<index in its content>``, the id
    the Vertex AI and Google GenAI instrumentations give it (their tool events and their
    ``gen_ai.input.messages`` carry it), so a call and its response pair."""
    ident = part.get("id")
    return f"{part['name']}_{index}" if ident is None and isinstance(part.get("name"), str) else ident


def _gemini_call(call: Mapping[str, Any], index: int) -> dict[str, Any]:
    written = {"type": "tool_call", "id": _gemini_id(call, index), "name": call.get("name")}
    if "args" in call:
        written["arguments"] = call["args"]
    return _call(written, call, ("id", "name", "args"), {"function_call": call})


def _gemini_response(response: Mapping[str, Any], index: int) -> dict[str, Any]:
    written = _result(_gemini_id(response, index), response.get("response"))
    return with_rest(written, response, ("id", "response"))


def _bedrock_call(call: Mapping[str, Any], index: int) -> dict[str, Any]:
    del index
    written = {"type": "tool_call", "id": call.get("toolUseId"), "name": call.get("name")}
    if "input" in call:
        written["arguments"] = call["input"]
    return _call(written, call, ("toolUseId", "name", "input"), {"toolUse": call})


def _bedrock_result(result: Mapping[str, Any], index: int) -> dict[str, Any]:
    del index
    return with_rest(_result(result.get("toolUseId"), result.get("content")), result, ("toolUseId", "content"))


def _inline_data(blob: Mapping[str, Any], index: int) -> dict[str, Any]:
    del index
    mime = blob.get("mime_type")
    written = {"type": "blob", "modality": _modality(mime), "mime_type": mime, "content": blob.get("data")}
    return with_rest(written, blob, ("mime_type", "data"))


def _file_data(file: Mapping[str, Any], index: int) -> dict[str, Any]:
    del index
    mime = file.get("mime_type")
    written = {"type": "uri", "modality": _modality(mime), "mime_type": mime, "uri": file.get("file_uri")}
    return with_rest(written, file, ("mime_type", "file_uri"))


_KEYED = {
    "function_call": _gemini_call,
    "function_response": _gemini_response,
    "inline_data": _inline_data,
    "file_data": _file_data,
    "toolUse": _bedrock_call,
    "toolResult": _bedrock_result,
}
"""The provider parts known by their only key (Gemini's, Bedrock's), each read as the
conventions' part."""


def _modality(mime: object) -> str:
    kind = mime.partition("/")[0] if isinstance(mime, str) else ""
    return kind if kind in _MODALITIES else "document"


def _openai_call(call: object) -> dict[str, Any]:
    """One of OpenAI's ``tool_calls`` as a ``tool_call`` part (its ``arguments`` JSON text, as it
    came, or absent when content capture was off)."""
    fields = as_dict(call)
    function = as_dict((fields or {}).get("function"))
    if fields is None or function is None or fields.get("type", "function") != "function":
        return _generic(call)
    written: dict[str, Any] = {"type": "tool_call", "id": fields.get("id"), "name": function.get("name")}
    if "arguments" in function:
        written["arguments"] = function["arguments"]
    return _call(with_rest(written, function, ("name", "arguments")), fields, ("id", "type", "function"), call)


def with_rest(written: dict[str, Any], source: Mapping[str, Any], mapped: tuple[str, ...]) -> dict[str, Any]:
    """``written`` with ``source``'s unmapped fields beside it; one whose name ``written`` uses, and
    an ``id`` or ``name`` the conventions' shape cannot hold (no string), under ``event_fields``
    instead, so a body's field is neither lost nor read as another (a message's role, a part's type)."""
    moved: dict[str, Any] = {}
    for key, value in leftovers(source, mapped).items():
        if key in written or key == _MOVED:
            moved[key] = value
        else:
            written[key] = value
    for key in ("id", "name"):
        value = written.get(key)
        if value is not None and not isinstance(value, str):
            moved[key] = value
            written.pop(key)
    if moved:
        written[_MOVED] = moved
    return written


_MOVED = "event_fields"


def _call(written: dict[str, Any], source: Mapping[str, Any], mapped: tuple[str, ...], whole: object) -> dict[str, Any]:
    """A call part, or the provider's part (``whole``) kept as it is when it names no tool."""
    if not isinstance(written.get("name"), str):
        return _generic(whole)
    return with_rest(written, source, mapped)


def _result(ident: object, *response: object) -> dict[str, Any]:
    """A tool result part (no ``response`` when the event recorded none)."""
    return {"type": "tool_call_response", "id": ident, **({"response": response[0]} if response else {})}


def _generic(value: object) -> dict[str, Any]:
    """A part of no shape read here, kept whole: typed by its only key when it has one."""
    fields = as_dict(value)
    if fields is not None and len(fields) == 1:
        return {"type": next(iter(fields)), **fields}
    return {"type": "event_content", "content": value}
