"""``ModelMessage``s <-> canonical messages.

``system`` (its content a string), ``user``, ``assistant`` (a string or parts) and ``tool``
(``tool-result`` parts, :mod:`.results`) are the canonical roles; a message's
``providerOptions`` gives its ``cache_control`` (Anthropic's ``cacheControl``) and rides in
its bag otherwise. A tool message's ``tool-approval-response`` parts (the canonical tool
message holds results only) ride in its bag under ``approvals``, with their places.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.ai_sdk import pending_approvals
from chatcodec._frameworks.ai_sdk.bags import UNKEPT, claim, from_sibling, write_options
from chatcodec._frameworks.ai_sdk.media import placed
from chatcodec._frameworks.ai_sdk_model.markers import KIT, PROVIDER
from chatcodec._frameworks.ai_sdk_model.parts import OPTIONS, decode_part, encode_part, finish
from chatcodec._frameworks.ai_sdk_model.results import decode_result, encode_result
from chatcodec.codec_kit import as_dict, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Stored ``ModelMessage``s as canonical message dicts."""
    del context  # nothing shared between messages
    return pending_approvals.fold([decode_message(message) for message in wire])


def decode_message(message: dict[str, Any]) -> dict[str, Any]:
    """One ``ModelMessage`` (checked by :mod:`.wire`) as a canonical message dict."""
    role = message["role"]
    content = message["content"]
    canonical: dict[str, Any] = {"role": role}
    approvals: list[list[Any]] = []
    if role == "tool":
        results: list[dict[str, Any]] = []
        for index, part in enumerate(content):
            if part["type"] == "tool-result":
                results.append(decode_result(part))
            else:
                approvals.append([index, part])
        canonical["content"] = results
    elif isinstance(content, str):
        canonical["content"] = content
    else:
        canonical["content"] = [placed(decode_part(part), part, role, PROVIDER) for part in content]
    decoded = finish(canonical, message, ("role", "content"))
    if approvals:
        decoded.setdefault("provider_metadata", {}).setdefault(KIT.name, {})["approvals"] = approvals
    return decoded


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as ``ModelMessage``s (a result's tool name read from its call)."""
    names = {
        part["id"]: part["name"]
        for message in messages
        if not isinstance(message["content"], str)
        for part in message["content"]
        if part["type"] == "tool_use"
    }
    written: list[dict[str, Any]] = []
    for index, message in enumerate(messages[start:], start):
        answers: list[Any] = []
        wire = encode_message(message, names, context, ("messages", index), answers)
        if not _emptied(message, wire, context, ("messages", index)):
            written.append(wire)
        if answers:  # approval answers of calls not run yet: their own tool message (:mod:`..ai_sdk.pending_approvals`)
            written.append({"role": "tool", "content": answers})
    return written


def _emptied(message: Mapping[str, Any], wire: Mapping[str, Any], context: EncodeContext, at: Steps) -> bool:
    """Whether a user or assistant message none of whose parts could be written (a
    ``UIMessage`` of data parts only) is left out, reported: ``convertToModelMessages`` leaves
    out an assistant turn it has nothing to send of, and pydantic-ai's Vercel adapter any such
    turn, where an empty one would be sent to a provider that refuses it."""
    content = message["content"]
    if wire["role"] not in ("user", "assistant") or isinstance(content, str) or not content or wire["content"]:
        return False
    why = "none of its parts has a place in a ModelMessage: left out (a provider refuses an empty turn)"
    context.losses.add(at, f"{wire['role']} message", why)
    return True


def encode_message(
    message: Mapping[str, Any],
    names: Mapping[str, str],
    context: EncodeContext,
    at: Steps,
    answers: list[Any] | None = None,
) -> dict[str, Any]:
    """One canonical message as a ``ModelMessage``; the approval answers its bag holds for a
    tool message of their own after it go into ``answers`` (none given: reported)."""
    role = message["role"]
    losses = context.losses
    if role not in ("system", "user", "assistant", "tool"):
        written = "system" if role == "developer" else "user"
        losses.add((*at, "role"), f"{role} role", f"a ModelMessage has no {role} role; written as a {written} message")
        role = written
    if message.get("name") is not None:
        losses.add((*at, "name"), "name", "a ModelMessage has no name")
    bag = claim(KIT, losses, message.get("provider_metadata"), at)
    kept = bag.pop(OPTIONS, UNKEPT)
    pending = pending_approvals.take(bag)
    if pending and answers is None:
        losses.add((*at, "provider_metadata"), "tool approval answers", "an answer holds no tool message after it")
    elif pending and answers is not None:
        answers += pending
    content = message["content"]
    wire: dict[str, Any] = {"role": role}
    if role == "tool":
        parts: list[Any] = [
            encode_result(result, names, context, (*at, "content", index)) for index, result in enumerate(content)
        ]
        for index, part in bag.pop("approvals", None) or ():
            parts.insert(index, part)
        wire["content"] = parts
    elif isinstance(content, str):
        wire["content"] = content
    elif role == "system":
        wire["content"], cache, options = _system_text(content, context, at)
        if cache is not None and message.get("cache_control") is None:
            message = {**message, "cache_control": cache}
        own = as_dict(kept)
        if options and (kept is UNKEPT or own is not None):
            kept = {**options, **(own or {})}
    else:
        encoded = (encode_part(part, context, (*at, "content", index), role=role) for index, part in enumerate(content))
        wire["content"] = [part for part in encoded if part is not None]
    wire.update(wire_fields(bag))
    return write_options(wire, message, kept, context, at, key=OPTIONS)


def _system_text(
    content: Sequence[Mapping[str, Any]], context: EncodeContext, at: Steps
) -> tuple[str, dict[str, Any] | None, dict[str, Any]]:
    """A system message's parts as the one string a system ``ModelMessage`` holds, the cache
    marker of its one text part (the message's own, as Anthropic's prompt has it), and the
    provider options its parts kept from a ``UIMessage`` (merged into the message's, as
    ``convertToModelMessages`` merges a system ``UIMessage``'s parts' ``providerMetadata``).
    The list form itself reads back as the string form: a spelling loss. Several texts are
    joined with nothing between them, as ``convertToModelMessages`` joins them."""
    options: dict[str, Any] = {}
    if len(content) <= 1:
        why = "a system ModelMessage's content is one string: the list reads back as the string"
        context.losses.add((*at, "content"), "content list", why, "spelling")
    texts: list[str] = []
    cache = content[0].get("cache_control") if len(content) == 1 and content[0]["type"] == "text" else None
    for index, part in enumerate(content):
        where = (*at, "content", index)
        if part["type"] != "text":
            context.losses.add(where, f"{part['type']} part", "a system ModelMessage holds text only")
            continue
        metadata, carried = from_sibling(part.get("provider_metadata"), PROVIDER, "text")
        options.update(as_dict(carried.get(OPTIONS)) or {})
        if part.get("cache_control") is not None and cache is None:
            context.losses.add(where, "part options", "a system ModelMessage's text is one string: no part options")
        if wire_fields(claim(KIT, context.losses, metadata, where)):
            context.losses.add(where, f"{PROVIDER} data", "a system ModelMessage's text is one string: no part data")
        texts.append(part["text"])
    if len(texts) > 1:
        context.losses.add((*at, "content"), "text parts", "a system ModelMessage is one string: the parts joined")
    return "".join(texts), cache, options
