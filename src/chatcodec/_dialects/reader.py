"""Dialects: the one step that reads alternate input shapes into canonical dicts.

The canonical models accept canonical data only, so their JSON Schema (``schemas/``)
is exactly what they validate. Stored conversations come in a few dialects; the API
boundary (:func:`~chatcodec.validate_messages`, :func:`~chatcodec.validate_message`,
:func:`~chatcodec.validate_model` for requests and responses, ``encode_request`` given a
dict, ``Conversation.append``, ``chatcodec validate``) reads them here first:

==============================================  ==============================================
Input shape                                     Canonical form (read by)
==============================================  ==============================================
assistant ``tool_calls=[{id,name,arguments}]``  ``tool_use`` parts after the content
(Verifiers; ``input`` or LangChain's ``args``   (the flat shape here; ``input`` by the
instead of ``arguments`` is an object)          anthropic ``tool_use`` decoder)
a flat call with ``type: custom``               ``tool_use`` with ``kind: custom``, its free
                                                text (``arguments`` or ``input``) kept
assistant OpenAI ``tool_calls`` (nested         ``tool_use`` parts after the content
``{id, type, function}``, or ``{id, type:       (openai-chat ``tool_calls.decode_tool_call``;
custom, custom: {name, input}}``)               a custom call with ``kind: custom``)
assistant ``reasoning_content``, ``reasoning``  ``thinking`` parts before the content,
(strings), ``reasoning_details`` (list)         ``provider="openai-chat"`` with the field in
                                                its metadata (openai-chat ``decode_reasoning``);
                                                empty strings are no reasoning
assistant ``thinking_blocks=[...]`` (LiteLLM)   ``thinking`` parts first (anthropic block
                                                decoder); a reasoning string equal to their
                                                joined text is the same reasoning, kept once
assistant ``content: None``                     ``content: []``
``{role: tool, tool_call_id, content}``         ``ToolMessage`` with one ``tool_result``
                                                (``name`` and ``is_error`` go on the result)
user message with ``tool_result`` blocks        a ``ToolMessage`` with those results, then a
(Anthropic shape)                               ``UserMessage`` with the other blocks
``tool_result`` part with ``tool_call_id``      ``tool_use_id``
``image_url``, ``input_audio``, OpenAI          ``image``, ``audio``, ``document`` parts
``file`` parts                                  (openai-chat ``decode_part``: a ``data:`` URL
                                                becomes a base64 source; a ``file_data`` that
                                                is not a data URL stays an opaque part)
``{type: tool_use, input: {...}}``              ``tool_use`` with ``arguments`` as JSON text
``{type: thinking, thinking: "..."}``           ``thinking`` with ``text``, ``provider=
``{type: redacted_thinking, data}``             "anthropic"`` (anthropic block decoder)
document source ``{type: text, data}``          text source with ``text`` (same decoder)
``ChatRequest`` mapping with ``system``         a leading system message
``ChatResponse`` mapping with ``message``       its single choice
(and ``finish_reason``)
an OpenAI response message (``refusal``,        the message as the openai-chat codec reads it
``annotations``, ``audio``)                     (``decode_assistant``)
Verifiers 0.4 ``provider_state``                thinking blocks, ``reasoning_details`` or
                                                opaque Responses items (:mod:`.dialect_state`)
``{type: tool_use, input: "<JSON text>"}``      ``tool_use`` with that text as ``arguments``
keys whose value is ``null``                    absent (but an assistant's ``content: null``)
tools in OpenAI's or Anthropic's shape          ``ToolDefinition`` (:mod:`.dialect_tools`)
==============================================  ==============================================

One reader per dialect: OpenAI shapes are read by the openai-chat codec's decoders and
Anthropic blocks by the anthropic codec's, so ``validate_messages`` and
``decode_request`` give the same parts for the same message. Canonical keys written on
an alias part (``cache_control``, ``provider_metadata``) are kept; keys neither dialect
nor canonical knows are left in place for the schema to report where the caller wrote
them. Canonical data passes through untouched: each message and part is checked with a
dict lookup or two, and nothing is copied unless something is read.

Malformed alias fields raise :class:`DialectError` with the location of the value the
caller wrote; the boundary turns it into a :class:`~chatcodec.ValidationError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from chatcodec._dialects.base import (
    ANTHROPIC,
    OPENAI_CHAT,
    REASONING_DETAILS,
    REASONING_FIELDS,
    REASONING_STRING_FIELDS,
    DialectError,
    Location,
    dialect_codec,
    reasoning_string_part,
    without_nulls,
)
from chatcodec._dialects.repeated_calls import calls_once
from chatcodec._dialects.state import with_provider_state
from chatcodec._dialects.tool_calls import checked_tool_calls, nested, plain, plain_calls
from chatcodec._dialects.tools import read_tools
from chatcodec._model.choice_shorthand import with_single_message_shorthand
from chatcodec._model.request import with_system_shorthand
from chatcodec._narrow import as_dict, as_list

_CARRIED = frozenset({"cache_control", "provider_metadata"})


def _without(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in keys}


def _decoded(decoder: Callable[[dict[str, Any]], dict[str, Any]], part: dict[str, Any], known: frozenset[str]) -> Any:
    """``decoder`` applied to the dialect's own keys of ``part``; every other key is put
    back on the result: canonical ones are kept, unknown ones are left for the schema."""
    wire = {key: value for key, value in part.items() if key in known}
    decoded = decoder(wire)
    for key, value in part.items():
        if key in known:
            continue
        theirs = as_dict(decoded.get(key)) if key == "provider_metadata" else None
        given = as_dict(value)
        decoded[key] = {**theirs, **given} if theirs is not None and given is not None else value
    return decoded


# --- parts ---------------------------------------------------------------------------


def _openai_part(part: dict[str, Any], known: frozenset[str]) -> Any:
    return _decoded(dialect_codec(OPENAI_CHAT).decode_part, part, known)


_IMAGE_KEYS = frozenset({"type", "image_url", "prompt_cache_breakpoint"})
_AUDIO_KEYS = frozenset({"type", "input_audio", "prompt_cache_breakpoint"})
_FILE_KEYS = frozenset({"type", "file", "prompt_cache_breakpoint"})


def _read_image_url(part: dict[str, Any], at: Location) -> Any:
    image_url: object = part.get("image_url")
    if isinstance(image_url, str):  # a bare URL, as some datasets store it
        part = {**part, "image_url": {"url": image_url}}
        image_url = part["image_url"]
    fields = as_dict(image_url)
    if fields is None or not isinstance(fields.get("url"), str):
        return part  # the schema reports the part
    return _openai_part(part, _IMAGE_KEYS)


def _read_input_audio(part: dict[str, Any], at: Location) -> Any:
    audio = as_dict(part.get("input_audio"))
    if audio is None or not isinstance(audio.get("format"), str) or not isinstance(audio.get("data"), str):
        return part
    return _openai_part(part, _AUDIO_KEYS)


def _read_file(part: dict[str, Any], at: Location) -> Any:
    file = as_dict(part.get("file"))
    if file is None or not (isinstance(file.get("file_data"), str) or isinstance(file.get("file_id"), str)):
        return part
    return _openai_part(part, _FILE_KEYS)


def _anthropic_block(block: dict[str, Any]) -> dict[str, Any]:
    return dialect_codec(ANTHROPIC).decode_part(block)


_THINKING_KEYS = frozenset({"type", "thinking", "signature"})
_REDACTED_KEYS = frozenset({"type", "data"})
_TOOL_USE_KEYS = frozenset({"type", "id", "name", "input"})
_DOCUMENT_KEYS = frozenset({"type", "source", "title"})


def _read_thinking(part: dict[str, Any], at: Location) -> Any:
    if "thinking" not in part or "text" in part:
        return part  # canonical (the schema reports a part that mixes both spellings)
    if not isinstance(part["thinking"], str) or not isinstance(part.get("signature", ""), str):
        return part
    return _decoded(_anthropic_block, part, _THINKING_KEYS)


def _read_redacted_thinking(part: dict[str, Any], at: Location) -> Any:
    if not isinstance(part.get("data"), str):
        # Without its payload it is still redacted thinking; the schema's rule reports it.
        return {**_without(part, ("type", "data")), "type": "thinking", "redacted": True}
    return _decoded(_anthropic_block, part, _REDACTED_KEYS)


def _read_tool_use(part: dict[str, Any], at: Location) -> Any:
    if "input" not in part or "arguments" in part:
        return part
    if isinstance(part["input"], str):
        # AskTable's internal format: ``input`` is the argument JSON *text*, built up
        # delta by delta as it streamed; it is the model's text, kept exactly.
        return {**_without(part, ("input",)), "arguments": part["input"]}
    arguments = as_dict(part["input"])
    if arguments is None:
        raise DialectError(at, "tool_input_type", "tool_use input must be a JSON object", part["input"])
    try:
        text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise DialectError(at, "tool_input_not_json", f"tool_use input is not JSON: {error}", part["input"]) from None
    if not isinstance(part.get("id"), str) or not isinstance(part.get("name"), str):
        return {**_without(part, ("input",)), "arguments": text}  # the schema reports id or name
    return _decoded(_anthropic_block, part, _TOOL_USE_KEYS)


def _read_document(part: dict[str, Any], at: Location) -> Any:
    source = as_dict(part.get("source"))
    if source is None or source.get("type") != "text" or "text" in source or not isinstance(source.get("data"), str):
        return part
    if set(source) - {"type", "data", "media_type"} or not isinstance(source.get("media_type", ""), str):
        return part
    return _decoded(_anthropic_block, {**part, "source": {"media_type": "text/plain", **source}}, _DOCUMENT_KEYS)


def _read_tool_result(part: dict[str, Any], at: Location) -> Any:
    if "tool_call_id" not in part and part.get("content").__class__ is not list:
        return part  # the canonical case
    read = part
    if "tool_call_id" in part and "tool_use_id" not in part:
        read = {**_without(part, ("tool_call_id",)), "tool_use_id": part["tool_call_id"]}
    content = read.get("content")
    content_read = read_parts(content, (*at, "content"))
    if content_read is not content:
        read = {**read, "content": content_read}
    return read


_PART_READERS: dict[str, Callable[[dict[str, Any], Location], Any]] = {
    "image_url": _read_image_url,
    "input_audio": _read_input_audio,
    "file": _read_file,
    "thinking": _read_thinking,
    "redacted_thinking": _read_redacted_thinking,
    "tool_use": _read_tool_use,
    "document": _read_document,
    "tool_result": _read_tool_result,
}


_ALWAYS = ""
# Per part type, the key whose presence means there is something to read ("": always read;
# those tags are not canonical). Canonical text, image, audio, refusal and opaque parts are
# not listed: they cost one dict lookup.
_READ_WHEN: dict[str, str] = {
    "image_url": _ALWAYS,
    "input_audio": _ALWAYS,
    "file": _ALWAYS,
    "redacted_thinking": _ALWAYS,
    "document": _ALWAYS,
    "tool_result": _ALWAYS,
    "thinking": "thinking",
    "tool_use": "input",
}


def read_part(part: object, at: Location = ()) -> Any:
    """The canonical dict for one content part; ``part`` itself when nothing is to be read."""
    fields = as_dict(part)
    if fields is None:
        return part
    fields = without_nulls(fields)
    part = fields
    kind = fields.get("type")
    reader = _PART_READERS.get(kind) if isinstance(kind, str) else None
    return part if reader is None else reader(fields, at)


def read_parts(content: object, at: Location = ()) -> Any:
    """A content list with every part read; the same list when no part needed it."""
    parts = as_list(content)
    if parts is None or not _any_to_read(parts):
        return content
    read = [read_part(part, (*at, index)) for index, part in enumerate(parts)]
    changed = any(new is not part for new, part in zip(read, parts, strict=True))
    return read if changed else content  # a canonical document or tool result reads as itself


def _any_to_read(parts: list[Any]) -> bool:
    """Whether some part needs reading: the check every canonical part pays, kept to a
    type test and a lookup or two (a tool result is read only when it has an alias key or
    parts of its own)."""
    for part in parts:
        if part.__class__ is not dict:
            continue
        if None in part.values():
            return True
        kind = part.get("type")
        if kind.__class__ is not str:
            continue
        marker = _READ_WHEN.get(kind)
        if marker is None:
            continue
        if kind == "tool_result":
            if "tool_call_id" in part or part.get("content").__class__ is list:
                return True
        elif not marker or marker in part:
            return True
    return False


def _with_content(message: dict[str, Any], at: Location) -> Any:
    content = message.get("content")
    if content.__class__ is not list:
        return message
    read = read_parts(content, (*at, "content"))
    return message if read is content else {**message, "content": read}


# --- assistant messages --------------------------------------------------------------

_ASSISTANT_FIELDS = ("tool_calls", "thinking_blocks", *REASONING_FIELDS)
_OPENAI_ONLY = frozenset({"refusal", "annotations", "audio"})
"""Fields only an OpenAI response message has (``choices[0].message``, or the SDK's
``ChatCompletionMessage``): such a message is read whole by the openai-chat codec. A legacy
``function_call`` is not among them: the boundary refuses it rather than keep it unused."""
_OPENAI_KEYS = frozenset({"role", "content", "name", "tool_calls", *_OPENAI_ONLY, *REASONING_FIELDS})
_ASSISTANT_FIELD_SET = frozenset((*_ASSISTANT_FIELDS, *_OPENAI_ONLY, "provider_state"))


def _read_assistant(message: dict[str, Any], at: Location) -> Any:
    if _ASSISTANT_FIELD_SET.isdisjoint(message):  # the canonical case, checked in C
        if "content" in message and message["content"] is None:
            return {**message, "content": []}
        return _with_content(message, at)
    if "provider_state" in message:
        message = with_provider_state(message, at)
    if not _OPENAI_ONLY.isdisjoint(message) and _is_openai_message(message, at):
        return _decoded(dialect_codec(OPENAI_CHAT).decode_assistant, message, _OPENAI_KEYS)
    content: Any = message.get("content")
    folded = _without(message, _ASSISTANT_FIELDS)
    if not isinstance(content, str | list | None):
        return {**folded, "content": content}  # the schema reports the type
    calls = plain_calls(message.get("tool_calls"))
    if calls is None:
        calls = [_tool_use_from_call(call, at) for call in checked_tool_calls(message.get("tool_calls"), at)]
    parts = _thinking_blocks(message.get("thinking_blocks"), at)
    parts.extend(_reasoning_parts(message, parts, at))
    if not parts and not calls and isinstance(content, str):
        folded["content"] = content  # nothing was folded in: keep the string form
        return folded
    listed = as_list(message.get("content"))
    if listed is not None:
        read = read_parts(listed, (*at, "content"))
        if calls:  # LangChain's AIMessage: a call both as a tool_use block and in tool_calls, sent once
            read, calls = calls_once(listed, list(read), calls)
        parts.extend(read)
    elif content:
        parts.append({"type": "text", "text": content})
    folded["content"] = [*parts, *calls]
    return folded


def _is_openai_message(message: dict[str, Any], at: Location) -> bool:
    """Whether an assistant message with OpenAI-only fields is OpenAI's shape through and
    through (string, null or list content; nested tool calls), so the codec reads it."""
    if not isinstance(message.get("content"), str | list | None) or "thinking_blocks" in message:
        return False
    calls = checked_tool_calls(message.get("tool_calls"), at)
    return all(nested(call) is not None for call in calls)


def _tool_use_from_call(call: dict[str, Any], at: Location) -> Any:
    function = nested(call)
    if function is not None:  # OpenAI's nested shape, read as the openai-chat codec reads it
        if "arguments" not in function and call.get("type") != "custom":
            call = {**call, "function": {**function, "arguments": ""}}
        # the call alone in an assistant message: its one part is the call's
        return dialect_codec(OPENAI_CHAT).decode_assistant({"role": "assistant", "tool_calls": [call]})["content"][0]
    if call.get("type") == "custom":  # a flat custom call: its free text in arguments (or input)
        return _read_tool_use({**call, "type": "tool_use", "kind": "custom"}, at)
    if "args" in call and "input" not in call and "arguments" not in call:  # LangChain's ToolCall: args parsed
        call = {**_without(call, ("args",)), "input": call["args"]}
    return _read_tool_use({**_without(call, ("type",)), "type": "tool_use"}, at)


def _thinking_blocks(blocks: object, at: Location) -> list[Any]:
    if blocks is None:
        return []
    listed = as_list(blocks)
    if listed is None:
        raise DialectError(at, "thinking_blocks_type", "thinking_blocks must be a list of thinking blocks", blocks)
    return [read_part(plain(block), at) for block in listed]


def _reasoning_parts(message: dict[str, Any], blocks: list[Any], at: Location) -> list[dict[str, Any]]:
    """The reasoning fields read as the openai-chat codec reads them (one string alone by its
    rule, :func:`.base.reasoning_string_part`, no codec asked); empty strings are no reasoning,
    and a string equal to the thinking blocks' joined text is those blocks again."""
    joined = (
        "".join(str(block.get("text", "")) for block in map(as_dict, blocks) if block is not None) if blocks else ""
    )
    fields: dict[str, Any] = {}
    for field in REASONING_STRING_FIELDS:
        value = message.get(field)
        if value is not None and not isinstance(value, str):
            raise DialectError(at, f"{field}_type", f"{field} must be a string", value)
        if value and not (blocks and value == joined):
            fields[field] = value
    details = message.get(REASONING_DETAILS)
    if details is not None:
        listed = as_list(details)
        if listed is None or not all(isinstance(detail, dict) for detail in listed):
            rule = f"{REASONING_DETAILS}_type"
            raise DialectError(at, rule, f"{REASONING_DETAILS} must be a list of objects", details)
        fields[REASONING_DETAILS] = listed
    if not fields:
        return []
    if len(fields) == 1 and REASONING_DETAILS not in fields:  # one string: the codec's own rule, no codec asked
        ((field, text),) = fields.items()
        return [reasoning_string_part(field, text)]
    # the fields alone in an assistant message: its parts are their thinking parts
    parts: list[dict[str, Any]] = dialect_codec(OPENAI_CHAT).decode_assistant({"role": "assistant", **fields})[
        "content"
    ]
    return parts


# --- tool messages and tool results in user turns -------------------------------------


def _read_tool(message: dict[str, Any], at: Location) -> Any:
    """``{role: tool, tool_call_id, content}`` -> one ``tool_result`` part."""
    if "tool_call_id" not in message:
        return _with_content(message, at)
    if not isinstance(message["tool_call_id"], str):
        raise DialectError(at, "tool_call_id_type", "tool_call_id must be a string", message["tool_call_id"])
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": message["tool_call_id"]}
    content = message.get("content")
    if content is None:
        content = ""
    elif content.__class__ is not str:  # a text is read as it is
        content = read_parts(content, (*at, "content"))
    result["content"] = content
    for key in ("name", "is_error"):
        if key in message:
            result[key] = message[key]
    return {**_without(message, ("tool_call_id", "content", "name", "is_error")), "content": [result]}


def _tool_result_blocks(message: object) -> list[Any]:
    fields = as_dict(message)
    if fields is None or fields.get("role") != "user":
        return []
    content = as_list(fields.get("content"))
    return [part for part in content or () if _is_tool_result(part)]


def _is_tool_result(part: object) -> bool:
    fields = as_dict(part)
    return fields is not None and fields.get("type") == "tool_result"


def _split_tool_results(messages: list[Any], start: int) -> list[Any]:
    """A user message holding ``tool_result`` blocks (Anthropic shape) becomes a tool
    message with the results, then a user message with the rest."""
    result = messages[:start]
    for message in messages[start:]:
        results = _tool_result_blocks(message)
        if not results:
            result.append(message)
            continue
        rest = [part for part in message["content"] if not _is_tool_result(part)]
        if rest:
            result.append({"role": "tool", "content": results})
            result.append({**message, "content": rest})
        else:  # the tool message takes the user turn's place, markers included
            result.append({**_without(message, ("role", "content")), "role": "tool", "content": results})
    return result


# --- messages, requests, responses ---------------------------------------------------

_MESSAGE_READERS: dict[str, Callable[[dict[str, Any], Location], Any]] = {
    "assistant": _read_assistant,
    "tool": _read_tool,
    "user": _with_content,
    "system": _with_content,
    "developer": _with_content,
}


_NULL_KEPT = frozenset({"content"})
"""Message keys where ``None`` means something (an assistant's ``content: null``)."""


def read_message(message: object, at: Location = ()) -> Any:
    """One message in any accepted shape as canonical data (a user turn holding tool
    results stays one message here: only :func:`read_messages` can split it)."""
    if message.__class__ is not dict:
        return message
    fields = as_dict(message)
    assert fields is not None
    role = fields.get("role")
    reader = _MESSAGE_READERS.get(role) if isinstance(role, str) else None
    return message if reader is None else reader(without_nulls(fields, _NULL_KEPT), at)


def read_messages(messages: object, at: Location = ()) -> Any:
    """A conversation in any accepted shape as canonical data; the same list when it
    already was."""
    listed = as_list(messages)
    if listed is None:
        return messages
    read: list[Any] | None = None
    split_from: int | None = None
    for index, message in enumerate(listed):
        # inlined checks: this runs for every message validated
        if message.__class__ is not dict:
            continue
        role = message.get("role")
        reader = _MESSAGE_READERS.get(role) if role.__class__ is str else None
        if reader is None:
            continue
        new = reader(message if None not in message.values() else without_nulls(message, _NULL_KEPT), (*at, index))
        if new is not message:
            if read is None:
                read = list(listed)
            read[index] = new
        if role == "user" and split_from is None and _tool_result_blocks(new):
            split_from = index
    result = listed if read is None else read
    return result if split_from is None else _split_tool_results(result, split_from)


def read_request(data: object) -> Any:
    """A ``ChatRequest`` mapping: ``system`` becomes a leading system message, and the
    messages and tools are read (tools in OpenAI's or Anthropic's shape, see
    :mod:`chatcodec._dialects.tools`)."""
    fields = as_dict(data)
    if fields is None:
        return data
    fields = with_system_shorthand(fields)
    messages = fields.get("messages")
    read = read_messages(messages, ("messages",))
    if read is not messages:
        fields = {**fields, "messages": read}
    tools = fields.get("tools")
    tools_read = read_tools(tools)
    return fields if tools_read is tools else {**fields, "tools": tools_read}


def read_response(data: object) -> Any:
    """A ``ChatResponse`` mapping: ``message`` (and ``finish_reason``) become its single
    choice, and each choice's message is read as an assistant message."""
    fields = as_dict(data)
    if fields is None:
        return data
    fields = with_single_message_shorthand(fields)
    choices = as_list(fields.get("choices"))
    if choices is None:
        return fields
    read: list[Any] | None = None
    for index, choice in enumerate(choices):
        new = _read_choice(choice, ("choices", index))
        if new is not choice:
            if read is None:
                read = list(choices)
            read[index] = new
    return fields if read is None else {**fields, "choices": read}


def _read_choice(choice: object, at: Location) -> Any:
    fields = as_dict(choice)
    message = None if fields is None else as_dict(fields.get("message"))
    if fields is None or message is None:
        return choice
    read = _read_assistant(message, (*at, "message"))
    return choice if read is message else {**fields, "message": read}
