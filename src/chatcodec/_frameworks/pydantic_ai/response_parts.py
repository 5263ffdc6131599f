"""A ``ModelResponse`` <-> a canonical assistant message.

``TextPart`` is a text part, ``ToolCallPart`` a ``tool_use`` (``args`` an object, written back as
one, or a JSON string, kept as the text it was: ``_args_text``), ``ThinkingPart`` a thinking part
whose ``signature`` goes where its provider's readers look for it: Claude's (``anthropic``,
``bedrock``) as the canonical ``signature`` (``id: "redacted_thinking"`` is Claude's redacted
thinking, its ``signature`` the encrypted payload), OpenAI's as ``encrypted`` (its
``encrypted_content``), and Gemini's thought signature, which pydantic-ai keeps in
``provider_details.thought_signature``, as the thought's ``signature``; an OpenAI thought's
``id`` is its Responses reasoning item's, kept where the Responses reader keeps one
(:mod:`.reasoning_items`), as a ``TextPart``'s ``id`` is its message item's and a
``ToolCallPart``'s its ``function_call`` item's (:mod:`.message_items`). The response's
``model_name`` names the model that signed it. A ``FilePart`` of an image or audio is that
part (:mod:`.files`); a built-in tool's call and return are the server call and result the
framework formats share (:mod:`.builtin_tools`). Other files, compaction and speech parts are
kept whole as opaque parts of this format.

Every field of a part or of the response without a canonical home (ids, ``provider_details``,
``citations``, ``usage``, ``model_name``, timestamps...) rides in its bag, written back as it
was and reported by any other format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.pydantic_ai.builtin_tools import CALL as BUILTIN_CALL
from chatcodec._frameworks.pydantic_ai.builtin_tools import RETURN as BUILTIN_RETURN
from chatcodec._frameworks.pydantic_ai.builtin_tools import decode_builtin, encode_builtin
from chatcodec._frameworks.pydantic_ai.files import KINDS as FILE_KINDS
from chatcodec._frameworks.pydantic_ai.files import decode_file, encode_file
from chatcodec._frameworks.pydantic_ai.markers import KIT, PROVIDER, RESPONSE_DEFAULTS
from chatcodec._frameworks.pydantic_ai.message_items import (
    read_call_id,
    read_message_ids,
    split_call_id,
    split_message_id,
    write_call_id,
    write_message_ids,
)
from chatcodec._frameworks.pydantic_ai.reasoning_items import attach_item_id, split_item_id
from chatcodec._frameworks.pydantic_ai.signers import CLAUDE, GEMINI, OPENAI, PROVIDER_NAMES, PROVIDERS
from chatcodec._providers.families.google.thought_signatures import attach_signature, split_signature
from chatcodec.codec_kit import as_dict, compact_json, restore_fields, split_fields
from chatcodec.contract import EncodeContext, Steps

_REDACTED = "redacted_thinking"
"""The ``id`` pydantic-ai gives Claude's redacted thinking."""

_DETAILS_SIGNATURE = "thought_signature"
"""Where pydantic-ai keeps a Gemini thought signature (``provider_details``)."""


def decode_response_message(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One ``ModelResponse`` as a canonical assistant message."""
    model = entry.get("model_name") if isinstance(entry.get("model_name"), str) else None
    parts = entry.get("parts") or ()
    decoded = [decode_part(part, model) for part in parts]
    _read_item_ids(parts, decoded)
    read_message_ids(parts, decoded)
    content: str | list[dict[str, Any]] = decoded or ""
    bag = split_fields(entry, ("parts", "kind"), RESPONSE_DEFAULTS)
    return KIT.attach({"role": "assistant", "content": content}, bag)


def decode_part(part: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    """One response part as a canonical part."""
    kind = part.get("part_kind")
    if kind == "text" and isinstance(part.get("content"), str):
        return _signed({"type": "text", "text": part["content"]}, split_fields(part, ("content", "part_kind")))
    if kind == "thinking" and isinstance(part.get("content"), str):
        return _thinking(part, model)
    if kind == "tool-call" and isinstance(part.get("tool_name"), str):
        call = {"type": "tool_use", "id": part.get("tool_call_id") or "", "name": part["tool_name"]}
        bag = split_fields(part, ("tool_name", "args", "tool_call_id", "part_kind"))
        args = part.get("args")
        if isinstance(args, str):
            call["arguments"], bag["_args_text"] = args, True
        else:
            call["arguments"] = "" if args is None else compact_json(args)
        signed = _signed(call, bag)
        read_call_id(part, signed)
        return signed
    if kind == "file":
        read = decode_file(part)
    else:
        read = decode_builtin(part) if kind in (BUILTIN_CALL, BUILTIN_RETURN) else None
    return read or {"type": "opaque", "provider": PROVIDER, "data": dict(part)}


def _signed(canonical: dict[str, Any], bag: dict[str, Any]) -> dict[str, Any]:
    """A text or call part with its bag; a Gemini thought signature in its ``provider_details``
    goes where canonical keeps a part's Gemini signature (its ``gemini`` bag), so the Gemini
    writer, and the formats that carry it elsewhere, send it back inside the same part."""
    details = as_dict(bag.get("provider_details"))
    signature = details.get(_DETAILS_SIGNATURE) if details is not None else None
    if details is None or not isinstance(signature, str):
        return KIT.attach(canonical, bag)
    rest = {key: value for key, value in details.items() if key != _DETAILS_SIGNATURE}
    if rest:
        bag["provider_details"] = rest
    else:
        del bag["provider_details"]
    return attach_signature(KIT.attach(canonical, bag), signature)


def _thinking(part: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    raw = part.get("provider_name")
    provider = PROVIDERS.get(raw, raw) if isinstance(raw, str) else None
    thinking: dict[str, Any] = {"type": "thinking", "text": part["content"]}
    bag = split_fields(part, ("content", "signature", "provider_name", "part_kind"))
    if provider is not None:
        thinking["provider"] = provider
        if PROVIDER_NAMES.get(provider) != raw:
            bag["_provider_name"] = raw
        if model is not None:
            thinking["model"] = model
    signature = part.get("signature")
    details = as_dict(part.get("provider_details"))
    if isinstance(signature, str) and provider in CLAUDE and part.get("id") == _REDACTED:
        thinking.update(redacted=True, encrypted=signature)
        del bag["id"]
    elif isinstance(signature, str) and provider == OPENAI:
        thinking["encrypted"] = signature
    elif isinstance(signature, str):
        thinking["signature"] = signature
    elif details is not None and isinstance(details.get(_DETAILS_SIGNATURE), str):
        thinking["signature"] = details[_DETAILS_SIGNATURE]
        rest = {key: value for key, value in details.items() if key != _DETAILS_SIGNATURE}
        bag["_details_signature"] = True
        if rest:
            bag["provider_details"] = rest
        else:
            del bag["provider_details"]
    return KIT.attach(thinking, bag)


def _read_item_ids(parts: Any, content: list[dict[str, Any]]) -> None:
    """Move OpenAI thinking ids where the Responses writer reads a reasoning item's id
    (:mod:`.reasoning_items`): pydantic-ai gives each summary of one item
    its id, so only the first of a run of one id starts an item; the rest continue it, and
    are given the id again on writing (:func:`_write_item_ids`)."""
    run: str | None = None
    for wire, part in zip(parts, content, strict=True):
        if part["type"] != "thinking" or part.get("provider") != OPENAI:
            run = None
            continue
        item_id = wire.get("id")
        if not isinstance(item_id, str):
            run = None
            continue
        bag = part["provider_metadata"][PROVIDER]
        del bag["id"]
        if not bag:
            del part["provider_metadata"][PROVIDER]
        if item_id != run:
            attach_item_id(part, item_id)
            run = item_id


def _write_item_ids(content: list[Mapping[str, Any]], written: list[dict[str, Any] | None]) -> None:
    """Each OpenAI thinking part's id: the reasoning item's it starts, or continues (the
    reverse of :func:`_read_item_ids`; a part whose id was ``null`` keeps it)."""
    run: str | None = None
    for part, wire in zip(content, written, strict=True):
        if wire is None or part["type"] != "thinking" or part.get("provider") != OPENAI:
            run = None
            continue
        item_id, _ = split_item_id(part.get("provider_metadata"))
        if item_id is not None:
            wire["id"] = run = item_id
        elif run is not None and "id" not in wire:
            wire["id"] = run
        else:
            run = None


def encode_response_message(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """One canonical assistant message as a ``ModelResponse``."""
    bag = KIT.claim(context.losses, message.get("provider_metadata"), at)
    response = restore_fields(bag, RESPONSE_DEFAULTS)
    for key in ("name", "cache_control"):
        if message.get(key) is not None:
            context.losses.add((*at, key), key, f"a pydantic-ai ModelResponse keeps no {key}")
    content = message["content"]
    if "model_name" not in response and not isinstance(content, str):  # the model that signed its thinking
        signers = [part["model"] for part in content if part["type"] == "thinking" and part.get("model")]
        if signers:
            response["model_name"] = signers[0]
    model = response.get("model_name")
    if not content and not isinstance(content, str):
        why = "a response without parts is read back as empty text"
        context.losses.add((*at, "content"), "empty part list", why, "spelling")
    if isinstance(content, str) and content:
        why = "a ModelResponse holds parts: the string reads back as a list of one text part"
        context.losses.add((*at, "content"), "content string", why, "spelling")
    if isinstance(content, str):
        parts = [{"content": content, "part_kind": "text"}] if content else []
    else:
        written = [write_part(part, model, context, (*at, "content", index)) for index, part in enumerate(content)]
        _write_item_ids(content, written)
        write_message_ids(content, written)
        parts = [part for part in written if part is not None]
    response.update(parts=parts, kind="response")
    return response


def write_part(part: Mapping[str, Any], model: object, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """One canonical part as a response part; None (with a loss) for one pydantic-ai has no part for."""
    kind = part["type"]
    if kind == "thinking":  # its reasoning item id, if any, is written by _write_item_ids
        signature, metadata = None, split_item_id(part.get("provider_metadata"))[1]
    else:  # a text part's message item id, if any, is written by write_message_ids
        signature, metadata = split_signature(part.get("provider_metadata"))
        split = split_message_id if kind == "text" else split_call_id if _function(part) else None
        metadata = metadata if split is None else split(metadata)[1]
    bag = KIT.claim(context.losses, metadata, at)
    foreign = not bag
    written = _written(part, bag, model, context, at)
    if written is not None and _function(part):
        write_call_id(part, written)
    if signature is not None and written is not None and kind in ("text", "tool_use", *FILE_KINDS):
        details = as_dict(written.get("provider_details")) or {}
        written["provider_details"] = {**details, _DETAILS_SIGNATURE: signature}
        if foreign:  # from another format: pydantic-ai sends a signature back to the provider named
            written["provider_name"] = PROVIDER_NAMES[GEMINI]
    elif signature is not None:
        context.losses.add(at, "thought signature", f"a pydantic-ai {kind} part keeps no Gemini signature")
    return written


def _function(part: Mapping[str, Any]) -> bool:
    """Whether ``part`` is a function call (whose Responses item id a ``ToolCallPart`` carries)."""
    return bool(part["type"] == "tool_use" and part.get("kind", "function") == "function")


def _written(
    part: Mapping[str, Any], bag: dict[str, Any], model: object, context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    if part.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", "a pydantic-ai response part keeps no cache marker")
    kind = part["type"]
    if kind == "text":
        return {**restore_fields(bag), "content": part["text"], "part_kind": "text"}
    if kind == "refusal":
        context.losses.add(at, "refusal", "pydantic-ai has no refusal part; written as text")
        return {"content": part["text"], "part_kind": "text"}
    if kind == "thinking":
        return _write_thinking(part, bag, model, context, at)
    if kind == "tool_use":
        return _call(part, bag, context, at)
    if kind in FILE_KINDS:
        return encode_file(part, bag, context, at)
    if kind == "opaque" and part["provider"] == PROVIDER:
        return dict(part["data"])
    built_in = encode_builtin(part, bag, context, at) if kind == "opaque" else None
    if built_in is not None:
        return built_in
    context.losses.add(at, f"{kind} part", f"a pydantic-ai ModelResponse has no part for a {kind} part")
    return None


def _call(part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    if part.get("kind", "function") != "function":
        context.losses.add((*at, "kind"), "custom tool call", "pydantic-ai calls take JSON arguments; sent as text")
    text: str = part.get("arguments") or ""
    as_text = bag.pop("_args_text", None)
    fields = restore_fields(bag)
    args: str | dict[str, Any] | None = text
    if not as_text and not (text == "" and "args" in fields):
        found = _object(text)
        args = text if found is None else found
    elif not as_text:
        args = None  # written as null: no arguments at all
    return {**fields, "tool_name": part["name"], "args": args, "tool_call_id": part["id"], "part_kind": "tool-call"}


def _object(text: str) -> dict[str, Any] | None:
    """The arguments as an object (``{}`` for none), or None when they are no JSON object."""
    if not text:
        return {}
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        return None
    return as_dict(parsed)


def _write_thinking(
    part: Mapping[str, Any], bag: dict[str, Any], model: object, context: EncodeContext, at: Steps
) -> dict[str, Any]:
    provider = part.get("provider")
    raw = bag.pop("_provider_name", None)
    in_details = bag.pop("_details_signature", None)
    fields = restore_fields(bag)
    if provider is not None:
        fields["provider_name"] = raw if raw is not None else PROVIDER_NAMES.get(provider, provider)
    if part.get("model") is not None and part["model"] != model:
        context.losses.add((*at, "model"), "thinking model", "a ThinkingPart is signed by its response's model")
    signature, encrypted = part.get("signature"), part.get("encrypted")
    if part.get("redacted"):
        fields.update(id=_REDACTED, signature=encrypted)
        encrypted = None
    elif encrypted is not None and provider == OPENAI:
        fields["signature"], encrypted = encrypted, None
    elif signature is not None and provider == GEMINI and (in_details or not bag):
        details = as_dict(fields.get("provider_details")) or {}
        fields["provider_details"] = {**details, _DETAILS_SIGNATURE: signature}
    elif signature is not None:
        fields["signature"] = signature
    if encrypted is not None:
        context.losses.add((*at, "encrypted"), "encrypted reasoning", "a ThinkingPart keeps one token: its signature")
    return {**fields, "content": part.get("text", ""), "part_kind": "thinking"}
