"""The ``messages`` list of a request, both ways.

An Ollama message is text with fields beside it, not a list of parts (:mod:`.parts`):

- **system and user**: ``content``, and for a user ``images``; a message with images
  decodes to a list (the images, then the text, as the server lays them out), one without
  to the text as a string. A system message's images have no canonical place: they stay
  in its bag.
- **assistant**: ``thinking``, ``content``, ``images`` and ``tool_calls`` decode to parts
  in that layout (thinking, images, text, calls); a message of text alone to a string.
  Encoding writes a list back in the same layout: parts in another order are reported
  (the model reads them in the layout), and two text (or thinking) parts are joined into
  one field, reported.
- **tool**: each ``role: "tool"`` message is one result (``content``, ``images``,
  ``tool_name``, ``tool_call_id``); consecutive ones decode into one
  :class:`~chatcodec.ToolMessage`, as OpenAI-style results do, and a tool message with N
  results encodes as N. A result's ``tool_name`` is taken from the call it answers when
  it has none (the templates show it to the model); a result without ``tool_call_id`` is
  paired with its call by name and order (:mod:`.call_ids`).

``content`` is written even when empty (the server always sends it), unless the payload
left it out or sent ``null`` (the kit's ``_absent`` / ``_nulls`` markers). A ``developer``
message is sent as ``system`` and a raw-text message as ``user``, both reported; a
message's ``name`` and cache breakpoints have no field and are reported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from chatcodec._providers.ollama.call_ids import OpenCalls, orphan_result_id, request_call_id
from chatcodec._providers.ollama.markers import KIT, NO_TOOL_NAME, SYNTHESIZED_ID, WITHOUT_ID
from chatcodec._providers.ollama.media import decode_image
from chatcodec._providers.ollama.parts import decode_call, decode_thinking, encode_call, encode_part
from chatcodec.codec_kit import absent_keys, as_list, mark_absent, present_keys, restore_fields, split_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps

Canonical = Mapping[str, Any]
"""A canonical message or part as a dict (the JSON the models validate)."""

_RANK = {"thinking": 0, "image": 1, "text": 2, "refusal": 2, "tool_use": 3}
"""Where each part kind stands in the layout the server gives the model."""

_LAYOUT = "Ollama lays a message out as thinking, images, text, tool calls"


# --- decode --------------------------------------------------------------------------


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Wire messages as canonical message dicts (consecutive tool results grouped)."""
    decoded: list[dict[str, Any]] = []
    open_calls = OpenCalls()
    for index, message in enumerate(wire):
        role = message["role"]
        if role == "tool":
            result = _decode_result(message, index, open_calls)
            if decoded and decoded[-1]["role"] == "tool":
                decoded[-1]["content"].append(result)
            else:
                decoded.append({"role": "tool", "content": [result]})
        elif role == "assistant":
            canonical = decode_assistant(message, partial(request_call_id, index))
            open_calls.reset([(part["id"], part["name"]) for part in _calls(canonical)])
            decoded.append(canonical)
        else:
            decoded.append(_decode_plain(message))
    return decoded


def _calls(message: Canonical) -> list[Canonical]:
    content = message["content"]
    return [] if isinstance(content, str) else [part for part in content if part["type"] == "tool_use"]


def _decode_plain(message: dict[str, Any]) -> dict[str, Any]:
    """A system or user message."""
    role = message["role"]
    images = message.get("images") or None if role == "user" else None  # [] stays in the bag, as it came
    bag = split_fields(message, ("role", "content", *(("images",) if images is not None else ())))
    _mark_absent_content(bag, message)
    text: str = message.get("content") or ""
    return KIT.attach({"role": role, "content": text if images is None else _images_then(images, text)}, bag)


def decode_assistant(message: Mapping[str, Any], made_up_id: Callable[[int], str]) -> dict[str, Any]:
    """An assistant message (of a request's history, or a response's answer): parts in the
    server's layout; ``made_up_id(position)`` names a call that came without an id."""
    mapped = ("role", "content", *present_keys(message, "thinking"), *_filled(message, "images", "tool_calls"))
    bag = split_fields(message, mapped)
    _mark_absent_content(bag, message)
    parts: list[dict[str, Any]] = []
    if message.get("thinking") is not None:
        parts.append(decode_thinking(message["thinking"]))
    parts.extend(decode_image(image) for image in message.get("images") or ())
    text: str = message.get("content") or ""
    if text:
        parts.append({"type": "text", "text": text})
    calls: list[dict[str, Any]] = message.get("tool_calls") or []
    parts.extend(decode_call(call, position, made_up_id(position)) for position, call in enumerate(calls))
    only_text = all(part["type"] == "text" for part in parts)
    return KIT.attach({"role": "assistant", "content": text if only_text else parts}, bag)


def _decode_result(message: dict[str, Any], index: int, open_calls: OpenCalls) -> dict[str, Any]:
    """One tool result for a ``role: "tool"`` message."""
    wire_id: str | None = message.get("tool_call_id")
    name: str | None = message.get("tool_name")
    images = message.get("images") or None
    mapped = ("role", "content", *present_keys(message, "tool_call_id", "tool_name"), *_filled(message, "images"))
    bag = split_fields(message, mapped)
    _mark_absent_content(bag, message)
    call_id = open_calls.answer(name, wire_id)
    if wire_id is None:
        bag[WITHOUT_ID] = True
    if name is None:
        bag[NO_TOOL_NAME] = True
    result: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": wire_id if wire_id is not None else call_id or orphan_result_id(index),
    }
    text: str = message.get("content") or ""
    result["content"] = text if images is None else _images_then(images, text)
    if name is not None:
        result["name"] = name
    return KIT.attach(result, bag)


def _images_then(images: list[str], text: str) -> list[dict[str, Any]]:
    """A message's images, then its text (none when empty), as the server lays them out."""
    content = [decode_image(image) for image in images]
    if text:
        content.append({"type": "text", "text": text})
    return content


def _filled(message: Mapping[str, Any], *keys: str) -> list[str]:
    """The list fields among ``keys`` that hold something (an empty list stays in the bag)."""
    return [key for key in keys if message.get(key)]


def _mark_absent_content(bag: dict[str, Any], message: Mapping[str, Any]) -> None:
    """A message without ``content`` (the server reads it as ``""``) is written back without it."""
    mark_absent(bag, message, "content")


# --- encode --------------------------------------------------------------------------


def encode_messages(messages: Sequence[Canonical], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as wire messages (Ollama keeps system messages in the list, so
    the request passes 0)."""
    calls = [call for message in messages if message["role"] == "assistant" for call in _calls(message)]
    names = {call["id"]: call["name"] for call in calls}
    made_up = frozenset(call["id"] for call in calls if KIT.marker(call.get("provider_metadata"), SYNTHESIZED_ID))
    wire: list[dict[str, Any]] = []
    for index, message in enumerate(messages[start:], start):
        at: Steps = ("messages", index)
        role = message["role"]
        if role == "tool":
            wire.extend(_encode_tool_message(message, names, made_up, context, at))
        elif role == "assistant":
            wire.extend(_encode_assistant_turns(message, context, at))
        else:
            wire.append(_encode_plain(message, context, at))
    return wire


def _encode_plain(message: Canonical, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A system, developer, user or raw-text message."""
    losses = context.losses
    role = message["role"]  # a developer message is reported by the shared history rule
    if role == "text":
        losses.add(at, "text message", "Ollama chat has no raw-text role; sent as a user message")
    wire = _message_head(message, "user" if role == "text" else "system" if role == "developer" else role, context, at)
    content = message["content"]
    if isinstance(content, str):
        _write_text(wire, content, message)
        return wire
    allowed = ("text", "image") if role == "user" else ("text",)
    fields = _layout(content, role, allowed, context, at)
    _write_text(wire, "".join(fields.get("content", ())), message)
    if fields.get("images"):
        wire["images"] = fields["images"]
    return wire


def _encode_assistant_turns(message: Canonical, context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """An assistant message of the history: one wire message, or one per run of parts
    that ends in tool calls when text or thinking follows a call (Responses' ``text, call,
    call, text, call`` items). An Ollama message has one ``content`` and its calls come
    after it, so such a message cannot keep its order; the server takes consecutive
    assistant messages and renders each in turn (its templates range over ``.Messages``,
    https://github.com/ollama/ollama/blob/main/docs/template.md), so the model reads the
    text between the calls where it was, not joined without a separator. Text after the
    last call (no result can stand between parts of one message) stays in that call's turn,
    as Ollama's own Responses layer and the OpenAI Chat writer keep it: one message, not a
    text-only assistant message between the calls and their results."""
    content = message.get("content", "")
    runs = [] if isinstance(content, str) else _runs_after_calls(content)
    if len(runs) < 2:
        return [encode_assistant(message, context, at)]
    why = f"text after its tool calls: sent as {len(runs)} consecutive assistant messages, read back as many"
    context.losses.add((*at, "content"), "assistant message", why, "spelling")
    first = encode_assistant({**message, "content": runs[0]}, context, at)
    return [first, *(encode_assistant({"role": "assistant", "content": run}, context, at) for run in runs[1:])]


def _runs_after_calls(parts: Sequence[Canonical]) -> list[list[Canonical]]:
    """``parts`` cut before each part (not an empty text) that follows a tool call and
    comes before another call: a last run without calls joins the run before it."""
    runs: list[list[Canonical]] = [[]]
    after_call = False
    for part in parts:
        if after_call and part["type"] != "tool_use" and not _empty_text(part):
            runs.append([])
            after_call = False
        runs[-1].append(part)
        after_call = after_call or part["type"] == "tool_use"
    if len(runs) > 1 and not after_call:
        runs[-2].extend(runs.pop())
    return runs


def encode_assistant(message: Canonical, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """An assistant message (of a request's history, or a response's answer)."""
    wire = _message_head(message, "assistant", context, at)
    content = message.get("content", "")
    if isinstance(content, str):
        _write_text(wire, content, message)
        return wire
    fields = _layout(content, "assistant", ("thinking", "image", "text", "refusal", "tool_use"), context, at)
    if "thinking" in fields:
        wire["thinking"] = "".join(fields["thinking"])
    _write_text(wire, "".join(fields.get("content", ())), message)
    if fields.get("images"):
        wire["images"] = fields["images"]
    if fields.get("tool_calls"):
        wire["tool_calls"] = fields["tool_calls"]
    return wire


def _message_head(message: Canonical, role: str, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The message's own bag restored, its role, and its unplaceable fields reported."""
    losses = context.losses
    bag = KIT.claim(losses, message.get("provider_metadata"), at)
    if message.get("name") is not None:
        losses.add((*at, "name"), "participant name", "Ollama messages have no name")
    if message.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", "Ollama has no prompt-cache breakpoints", "setting")
    return {**restore_fields(bag), "role": role}


def _write_text(wire: dict[str, Any], text: str, canonical: Canonical) -> None:
    """``content``: always, as the server sends it, unless it came ``null`` or left out
    and there is still no text."""
    bag = KIT.own(canonical.get("provider_metadata"))
    if text or ("content" not in wire and "content" not in absent_keys(bag)):
        wire["content"] = text


def _layout(
    parts: Sequence[Canonical], role: str, allowed: tuple[str, ...], context: EncodeContext, at: Steps
) -> dict[str, list[Any]]:
    """The message fields ``parts`` give, gathered by field; what the layout changes is
    reported (an order the server does not keep, texts or thoughts joined)."""
    losses = context.losses
    fields: dict[str, list[Any]] = {}
    rank = -1
    reordered = False
    for position, part in enumerate(parts):
        steps = (*at, "content", position)
        kind = part["type"]
        if _empty_text(part):
            continue  # says nothing: an empty content reads back as no text part
        if kind not in allowed and kind in _RANK:
            losses.add(steps, f"{kind} part", f"an Ollama {role} message cannot carry it")
            continue
        if kind == "tool_use":  # a call knows its position among the message's calls
            encoded: dict[str, Any] | None = {
                "tool_calls": [encode_call(part, len(fields.get("tool_calls", ())), context, steps)]
            }
        else:
            encoded = encode_part(part, context, steps)
        if encoded is None:
            continue
        if kind != "text" or part["text"]:  # an empty text (kept for its bag) reads back as nothing, so has no place
            reordered = reordered or _RANK[kind] < rank
            rank = max(rank, _RANK[kind])
        for key, value in encoded.items():
            listed = as_list(value)
            fields.setdefault(key, []).extend(listed if listed is not None else [value])
    if reordered:
        losses.add((*at, "content"), "order of the parts", f"{_LAYOUT}; read back in that order")
    for key, what in (("content", "text parts"), ("thinking", "thinking parts")):
        if sum(1 for text in fields.get(key, ()) if text != "") > 1:  # an empty one joins as nothing
            losses.add((*at, "content"), what, f"an Ollama message has one {key} field; sent joined")
    return fields


def _empty_text(part: Canonical) -> bool:
    """An empty text part with nothing else on it."""
    return (
        part["type"] == "text"
        and not part["text"]
        and part.get("cache_control") is None
        and part.get("provider_metadata") is None
    )


def _encode_tool_message(
    message: Canonical, names: Mapping[str, str], made_up: frozenset[str], context: EncodeContext, at: Steps
) -> list[dict[str, Any]]:
    """One ``role: "tool"`` message per result."""
    losses = context.losses
    KIT.report_unplaced(losses, message.get("provider_metadata"), at, "each result is an Ollama message of its own")
    if message.get("name") is not None:
        losses.add((*at, "name"), "tool message name", "Ollama tool messages name the tool in tool_name")
    if message.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", "Ollama has no prompt-cache breakpoints", "setting")
    results: Sequence[Canonical] = message["content"]
    return [
        _encode_result(result, names, made_up, context, (*at, "content", position))
        for position, result in enumerate(results)
    ]


def _encode_result(
    result: Canonical, names: Mapping[str, str], made_up: frozenset[str], context: EncodeContext, at: Steps
) -> dict[str, Any]:
    losses = context.losses
    bag = KIT.claim(losses, result.get("provider_metadata"), at)
    wire: dict[str, Any] = {**restore_fields(bag), "role": "tool"}
    content = result.get("content", "")
    if isinstance(content, str):
        _write_text(wire, content, result)
    else:
        fields = _layout(content, "tool", ("text", "image"), context, at)
        _write_text(wire, "".join(fields.get("content", ())), result)
        if fields.get("images"):
            wire["images"] = fields["images"]
    name = result.get("name")
    if name is None:
        name = names.get(result["tool_use_id"])
    if name is not None and not bag.get(NO_TOOL_NAME):
        wire["tool_name"] = name
    if not bag.get(WITHOUT_ID) and result["tool_use_id"] not in made_up:
        wire["tool_call_id"] = result["tool_use_id"]
    if result.get("is_error"):
        losses.add((*at, "is_error"), "tool error flag", "Ollama tool messages cannot mark an error (content is sent)")
    if result.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", "Ollama has no prompt-cache breakpoints", "setting")
    return wire
