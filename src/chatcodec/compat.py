"""Alternate input shapes, normalized to the one canonical form before validation.

Stored conversations come in a few dialects; each validates as-is and becomes canonical:

==========================================  ==========================================
Input shape                                 Canonical form
==========================================  ==========================================
assistant ``tool_calls=[{id,name,arguments}]``  ``tool_use`` parts after the content
(also OpenAI's nested ``{id,type,function}``)
assistant ``reasoning_content: str``        a ``thinking`` part before the content
assistant ``thinking_blocks=[...]``         ``thinking`` parts before the content (a
                                            ``reasoning_content`` equal to their joined
                                            text is the same reasoning, kept once)
assistant ``content: None``                 ``content: []``
``{role: tool, tool_call_id, content}``     ``ToolMessage`` with one ``tool_result``
user message with ``tool_result`` blocks    a ``ToolMessage`` with those results, then
(Anthropic shape)                           a ``UserMessage`` with the other blocks
``{type: image_url, image_url: {url}}``     ``image`` part; a ``data:`` URL becomes a
                                            base64 source
``{type: input_audio, input_audio: {...}}`` ``audio`` part with a base64 source
``{type: file, file: {...}}`` (OpenAI)      ``document`` part
``{type: tool_use, input: {...}}``          ``tool_use`` with ``arguments`` as JSON text
``{type: thinking, thinking: "..."}``       ``thinking`` with ``text``
``{type: redacted_thinking, data}``         ``thinking`` with ``encrypted``, ``redacted``
document source ``{type: text, data}``      text source with ``text``
==========================================  ==========================================

Every function here takes what pydantic was given and returns what it should validate;
anything it does not recognize passes through untouched, so the schema's own error
messages (with paths) still report real mistakes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic_core import PydanticCustomError

from chatcodec._narrow import as_dict as _mapping
from chatcodec._narrow import as_list as _sequence

_DATA_URL_HEAD = re.compile(r"data:(?P<media_type>[\w.+-]+/[\w.+-]+);base64")
_BASE64_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-"

# OpenAI's input_audio "format" <-> MIME type. Unlisted formats map to audio/<format>.
_AUDIO_MEDIA_TYPES = {"mp3": "audio/mpeg", "wav": "audio/wav", "pcm16": "audio/pcm"}
_AUDIO_FORMATS = {media_type: name for name, media_type in _AUDIO_MEDIA_TYPES.items()}

_PART_ALIASES = frozenset({"image_url", "input_audio", "file", "redacted_thinking"})


def media_type_for_audio_format(audio_format: str) -> str:
    """``"mp3"`` -> ``"audio/mpeg"``; unknown formats become ``audio/<format>``."""
    return _AUDIO_MEDIA_TYPES.get(audio_format, f"audio/{audio_format}")


def audio_format_from_media_type(media_type: str | None) -> str | None:
    """``"audio/mpeg"`` -> ``"mp3"``; the inverse of :func:`media_type_for_audio_format`."""
    if media_type is None:
        return None
    if media_type in _AUDIO_FORMATS:
        return _AUDIO_FORMATS[media_type]
    return media_type.removeprefix("audio/")


def source_from_url(url: str, media_type: str | None = None) -> dict[str, Any]:
    """A media source for ``url``: a base64 source for a ``data:`` URL, else a URL source.

    Only data URLs that :func:`data_url` rebuilds character for character are split,
    so encoding back to a URL-based provider is exact.
    """
    head, comma, data = url.partition(",")
    match = _DATA_URL_HEAD.fullmatch(head) if comma and head.startswith("data:") else None
    if match is not None and _is_base64_text(data):
        return {"type": "base64", "media_type": match["media_type"], "data": data}
    source: dict[str, Any] = {"type": "url", "url": url}
    if media_type is not None:
        source["media_type"] = media_type
    return source


def _is_base64_text(data: str) -> bool:
    # Deleting the alphabet with bytes.translate is a table lookup per byte in C, four
    # times faster than a regex over what may be megabytes of base64.
    return data.isascii() and not data.encode("ascii").translate(None, _BASE64_BYTES)


def data_url(media_type: str, data: str) -> str:
    """The ``data:`` URL for base64 ``data``."""
    return f"data:{media_type};base64,{data}"


def _carry(source: dict[str, Any], target: dict[str, Any]) -> dict[str, Any]:
    for key in ("cache_control", "provider_metadata"):
        if key in source:
            target[key] = source[key]
    return target


def _without(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in keys}


def normalize_image_part(data: object) -> object:
    part = _mapping(data)
    if part is None or part.get("type") != "image_url":
        return data
    image_url: object = part.get("image_url")
    if isinstance(image_url, str):
        image_url = {"url": image_url}
    fields = _mapping(image_url)
    if fields is None or not isinstance(fields.get("url"), str):
        return data  # let the schema report what is missing
    image: dict[str, Any] = {"type": "image", "source": source_from_url(fields["url"])}
    if "detail" in fields:
        image["detail"] = fields["detail"]
    return _carry(part, image)


def normalize_audio_part(data: object) -> object:
    part = _mapping(data)
    if part is None or part.get("type") != "input_audio":
        return data
    audio = _mapping(part.get("input_audio"))
    if audio is None or not isinstance(audio.get("format"), str):
        return data
    source = {"type": "base64", "media_type": media_type_for_audio_format(audio["format"]), "data": audio.get("data")}
    return _carry(part, {"type": "audio", "source": source})


def normalize_document_part(data: object) -> object:
    part = _mapping(data)
    if part is None:
        return data
    if part.get("type") == "file":
        return _openai_file_part(part)
    source = _mapping(part.get("source"))
    if source is not None and source.get("type") == "text" and "data" in source and "text" not in source:
        # Anthropic spells a plain-text document's body "data".
        return {**part, "source": {**_without(source, "data"), "text": source["data"]}}
    return data


def _openai_file_part(part: dict[str, Any]) -> object:
    file = _mapping(part.get("file"))
    if file is None:
        return part
    document: dict[str, Any] = {"type": "document"}
    if isinstance(file.get("file_data"), str):
        document["source"] = source_from_url(file["file_data"])
    elif isinstance(file.get("file_id"), str):
        document["source"] = {"type": "file", "file_id": file["file_id"]}
    else:
        return part
    if "filename" in file:
        document["filename"] = file["filename"]
    return _carry(part, document)


def normalize_thinking_part(data: object) -> object:
    part = _mapping(data)
    if part is None:
        return data
    kind = part.get("type")
    if kind == "redacted_thinking":
        return _carry(part, {"type": "thinking", "encrypted": part.get("data"), "redacted": True})
    if kind == "thinking" and "thinking" in part and "text" not in part:
        return {**_without(part, "thinking"), "text": part["thinking"]}
    return data


def normalize_tool_use_part(data: object) -> object:
    part = _mapping(data)
    if part is None or "input" not in part or "arguments" in part:
        return data
    arguments = _mapping(part["input"])
    if arguments is None:
        raise PydanticCustomError("tool_input_type", "tool_use input must be a JSON object")
    try:
        text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise PydanticCustomError(
            "tool_input_not_json", "tool_use input is not JSON: {reason}", {"reason": str(error)}
        ) from None
    return {**_without(part, "input"), "arguments": text}


def normalize_tool_result_part(data: object) -> object:
    part = _mapping(data)
    if part is None:
        return data
    if "tool_call_id" in part and "tool_use_id" not in part:
        part = {**_without(part, "tool_call_id"), "tool_use_id": part["tool_call_id"]}
    content = part.get("content")
    normalized = normalize_parts(content)
    if normalized is not content:
        part = {**part, "content": normalized}
    return part


_PART_NORMALIZERS = {
    "image_url": normalize_image_part,
    "input_audio": normalize_audio_part,
    "file": normalize_document_part,
    "redacted_thinking": normalize_thinking_part,
}


def _part_type(part: object) -> object:
    mapping = _mapping(part)
    return None if mapping is None else mapping.get("type")


def normalize_parts(content: object) -> object:
    """Rename alias part tags (``image_url``, ...) so the tagged union can dispatch.

    Runs before validation on every message's content list; it copies the list only
    when one of its parts needs renaming.
    """
    parts = _sequence(content)
    if parts is None:
        return content
    normalized: list[Any] | None = None
    for index, part in enumerate(parts):
        # inlined type test: this runs for every part of every message validated
        kind = part.get("type") if part.__class__ is dict else _part_type(part)
        if isinstance(kind, str) and kind in _PART_ALIASES:
            if normalized is None:
                normalized = list(parts)
            normalized[index] = _PART_NORMALIZERS[kind](part)
    return content if normalized is None else normalized


def normalize_message_content(data: object) -> object:
    """Message-level hook: part aliases inside ``content``."""
    message = _mapping(data)
    if message is not None and isinstance(message.get("content"), list):
        content = message["content"]
        normalized = normalize_parts(content)
        if normalized is not content:
            return {**message, "content": normalized}
    return data


_ASSISTANT_ALIASES = ("tool_calls", "reasoning_content", "thinking_blocks")


def normalize_assistant_message(data: object) -> object:
    """Fold Verifiers/OpenAI assistant fields into ordered content parts:
    thinking first, then the content, then the tool calls."""
    message = _mapping(data)
    if message is None:
        return data
    if "tool_calls" not in message and "reasoning_content" not in message and "thinking_blocks" not in message:
        if "content" in message and message["content"] is None:
            return {**message, "content": []}
        return normalize_message_content(message)
    content: object = message.get("content")
    if not isinstance(content, str | list | None):
        return {**_without(message, *_ASSISTANT_ALIASES), "content": content}  # the schema reports the type
    tool_calls = _checked_tool_calls(message.get("tool_calls"))
    parts = _thinking_parts(message.get("thinking_blocks"), message.get("reasoning_content"))
    listed = _sequence(message.get("content"))
    if listed is not None:
        parts.extend(listed)
    elif isinstance(content, str) and content:
        parts.append({"type": "text", "text": content})
    parts.extend(_tool_use_from_call(call) for call in tool_calls or ())
    folded = _without(message, *_ASSISTANT_ALIASES)
    if isinstance(content, str) and all(_part_type(part) == "text" for part in parts) and len(parts) <= 1:
        folded["content"] = content  # nothing was folded in: keep the string form
    else:
        folded["content"] = normalize_parts(parts)
    return folded


def _checked_tool_calls(tool_calls: object) -> list[Any]:
    """The ``tool_calls`` list, checked here because after folding, the schema could only
    point at content parts the caller never wrote."""
    if tool_calls is None:
        return []
    calls = _sequence(tool_calls)
    if calls is None:
        raise PydanticCustomError("tool_calls_type", "tool_calls must be a list of tool calls")
    for index, call in enumerate(calls):
        fields = _mapping(call)
        function = _mapping(fields.get("function")) if fields is not None else None
        named = function if function is not None else fields
        if fields is None or named is None:
            raise PydanticCustomError("tool_call_type", "tool_calls[{index}] must be an object", {"index": index})
        arguments = named.get("arguments", named.get("input", ""))
        if not isinstance(fields.get("id"), str) or not isinstance(named.get("name"), str):
            raise PydanticCustomError(
                "tool_call_fields", "tool_calls[{index}] needs a string id and name", {"index": index}
            )
        if not isinstance(arguments, str) and "input" not in named:
            raise PydanticCustomError(
                "tool_call_arguments", "tool_calls[{index}].arguments must be a string", {"index": index}
            )
    return calls


def _thinking_parts(blocks: object, reasoning_content: object) -> list[Any]:
    parts: list[Any] = []
    if reasoning_content is not None and not isinstance(reasoning_content, str):
        raise PydanticCustomError("reasoning_content_type", "reasoning_content must be a string")
    listed = _sequence(blocks)
    if listed is not None:
        parts.extend(normalize_thinking_part(block) for block in listed)
    elif blocks is not None:
        raise PydanticCustomError("thinking_blocks_type", "thinking_blocks must be a list of thinking blocks")
    joined = "".join(str(mapping.get("text", "")) for mapping in map(_mapping, parts) if mapping is not None)
    if reasoning_content is not None and reasoning_content not in ("", joined):
        parts.append({"type": "thinking", "text": reasoning_content})
    return parts


def _tool_use_from_call(call: object) -> object:
    fields = _mapping(call)
    if fields is None:
        return call
    function = _mapping(fields.get("function"))
    if function is not None:  # OpenAI's nested shape
        return {
            "type": "tool_use",
            "id": fields.get("id"),
            "name": function.get("name"),
            "arguments": function.get("arguments", ""),
        }
    return normalize_tool_use_part({**_without(fields, "type"), "type": "tool_use"})


def normalize_tool_message(data: object) -> object:
    """``{role: tool, tool_call_id, content}`` -> one ``tool_result`` part."""
    message = _mapping(data)
    if message is None or "tool_call_id" not in message:
        return data
    if not isinstance(message["tool_call_id"], str):
        raise PydanticCustomError("tool_call_id_type", "tool_call_id must be a string")
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": message["tool_call_id"]}
    content = message.get("content")
    result["content"] = "" if content is None else normalize_parts(content)
    for key in ("name", "is_error"):
        if key in message:
            result[key] = message[key]
    return {**_without(message, "tool_call_id", "content", "name", "is_error"), "content": [result]}


def split_tool_results(messages: object) -> object:
    """List-level hook: a user message holding ``tool_result`` blocks (Anthropic shape)
    becomes a tool message with the results, then a user message with the rest."""
    listed = _sequence(messages)
    if listed is None:
        return messages
    for index, message in enumerate(listed):
        if _tool_result_blocks(message):
            return _split_from(listed, index)
    return messages


def _tool_result_blocks(message: object) -> list[Any]:
    fields = _mapping(message)
    if fields is None or fields.get("role") != "user":
        return []
    content = _sequence(fields.get("content"))
    return [part for part in content or () if _part_type(part) == "tool_result"]


def _split_from(messages: list[Any], start: int) -> list[Any]:
    result = messages[:start]
    for message in messages[start:]:
        results = _tool_result_blocks(message)
        if not results:
            result.append(message)
            continue
        rest = [part for part in message["content"] if _part_type(part) != "tool_result"]
        if rest:
            result.append({"role": "tool", "content": results})
            result.append({**message, "content": rest})
        else:  # the tool message takes the user turn's place, markers included
            result.append({**_without(message, "role", "content"), "role": "tool", "content": results})
    return result
