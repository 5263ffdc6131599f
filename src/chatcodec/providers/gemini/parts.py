"""Gemini parts <-> canonical content parts.

A Gemini part is one of ``text`` (``thought: true`` for a thought summary),
``inlineData``, ``fileData``, ``functionCall``, ``functionResponse``,
``executableCode``, ``codeExecutionResult``... by the key it has, and any part may carry
a ``thoughtSignature``. The signature belongs to its part: it stays in that part's bag
(or is a thought part's ``signature``), and the encoder writes each part on its own,
never joining two parts, so a signature is sent back inside the part it came with
(joining adjacent text parts moves or drops signatures: Gemini 3 then answers 400).

Media and code execution parts are read and written by :mod:`.media`; results by
:mod:`.results`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, assert_never

from chatcodec.content import (
    AnyPart,
    AudioPart,
    DocumentPart,
    ImagePart,
    OpaquePart,
    RefusalPart,
    TextPart,
    ThinkingPart,
    ToolResultPart,
    ToolUsePart,
)
from chatcodec.losses import LossRecorder
from chatcodec.providers.gemini.call_ids import OpenCalls, synthesized_call_id
from chatcodec.providers.gemini.markers import (
    EMPTY_ID,
    KIT,
    NO_ARGS,
    PROVIDER,
    SKIP_SENTINEL,
    SKIPPED,
    SYNTHESIZED_ID,
    UNSIGNED,
)
from chatcodec.providers.gemini.media import MEDIA_KEYS, Turn, decode_media, encode_media, is_base64
from chatcodec.providers.gemini.results import decode_result, encode_result, parsed_object
from chatcodec.providers.kit import Steps, compact_json, kept_object, leftovers, restore_fields, unmapped
from chatcodec.providers.kit.context import EncodeContext
from chatcodec.providers.kit.tool_names import GEMINI_TOOL_NAMES, tool_name


@dataclass
class PartDecoding:
    """What decoding a part needs beyond the part."""

    model: str | None = None
    """The model that answered (thought parts record it)."""
    id_prefix: str = "gemini_call"
    """Prefix of made-up call ids (:mod:`.call_ids`)."""
    container: int = 0
    """Index of the content (or candidate) being read."""
    open_calls: OpenCalls = field(default_factory=OpenCalls)
    """Calls not answered yet, for pairing results."""


@dataclass(slots=True, kw_only=True)
class GeminiContext(EncodeContext):
    """A Gemini encode's state beyond the shared context: the ids the decoder made up,
    tool names by call id, and the calls Gemini itself left unsigned."""

    synthesized: frozenset[str] = frozenset()
    """Ids the decoder made up: not written to the wire."""
    names: dict[str, str] = field(default_factory=dict[str, str])
    """Tool names by call id (a result needs its call's name)."""
    unsigned_by_gemini: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    """Wire calls Gemini itself sent without a signature: the signature rule leaves them be."""


def decode_part(part: dict[str, Any], turn: Turn, context: PartDecoding, index: int) -> dict[str, Any]:
    """The canonical part (as a dict) for wire ``part`` at ``index`` of a ``turn``."""
    if "text" in part and turn != "system" and part.get("thought") is True:
        if turn == "model":
            return _decode_thought(part, context)
    elif "text" in part:
        return KIT.attach({"type": "text", "text": part["text"]}, leftovers(part, ("text",)))
    for key in MEDIA_KEYS:
        if key in part and turn != "system":
            media = decode_media(part, key, turn)
            if media is not None:
                return media
            break
    if "functionCall" in part and turn == "model" and _is_whole_call(part["functionCall"]):
        return decode_call(part, context, index)
    if "functionResponse" in part and turn == "user":
        return decode_result(part, context.open_calls, synthesized_call_id("gemini_result", context.container, index))
    return {"type": "opaque", "provider": PROVIDER, "data": part}


def _is_whole_call(call: dict[str, Any]) -> bool:
    return "name" in call and "partialArgs" not in call and "willContinue" not in call


def _decode_thought(part: dict[str, Any], context: PartDecoding) -> dict[str, Any]:
    thinking: dict[str, Any] = {"type": "thinking", "text": part["text"], "provider": PROVIDER}
    if "thoughtSignature" in part:
        thinking["signature"] = part["thoughtSignature"]
    if context.model:
        thinking["model"] = context.model
    return KIT.attach(thinking, leftovers(part, ("text", "thought", "thoughtSignature")))


def decode_call(part: dict[str, Any], context: PartDecoding, index: int) -> dict[str, Any]:
    """A tool-use part for a whole ``functionCall`` part (arguments as compact JSON text)."""
    call: dict[str, Any] = part["functionCall"]
    bag = leftovers(part, ("functionCall",))
    rest = unmapped(call, ("name", "args", "id"))
    if rest:
        bag["functionCall"] = rest
    call_id = call.get("id")
    if not call_id:  # none, or "" (some proxies and older Vertex builds send it): an id is made up
        call_id = synthesized_call_id(context.id_prefix, context.container, index)
        bag[SYNTHESIZED_ID] = True
        if "id" in call:
            bag[EMPTY_ID] = True
    if "thoughtSignature" not in part:
        bag[UNSIGNED] = True
    elif part["thoughtSignature"] == SKIP_SENTINEL:
        del bag["thoughtSignature"]
        bag[SKIPPED] = True  # the sentinel is not a signature: kept as a marker only
    arguments = arguments_text(call["args"]) if "args" in call else ""
    if "args" not in call:
        bag[NO_ARGS] = True
    return KIT.attach({"type": "tool_use", "id": call_id, "name": call["name"], "arguments": arguments}, bag)


def arguments_text(args: object) -> str:
    """Arguments as the compact JSON text a stream and a body both give."""
    return compact_json(args)


# --- encoding ----------------------------------------------------------------------------


def encode_part(part: AnyPart, context: GeminiContext, at: Steps) -> dict[str, Any] | None:
    """The wire part for ``part``; None when it cannot be sent (the loss is recorded)."""
    bag = KIT.claim(context.losses, part.provider_metadata, at)
    if part.cache_control is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Gemini caches whole prompts (cachedContent)", "setting"
        )
    match part:
        case TextPart():
            return checked_signature({**restore_fields(bag), "text": part.text}, context.losses, at)
        case ThinkingPart():
            return _encode_thought(part, bag, context, at)
        case ImagePart() | AudioPart() | DocumentPart():
            return encode_media(part, bag, context.losses, at)
        case ToolUsePart():
            return encode_call(part, bag, context, at)
        case ToolResultPart():
            call = (context.names.get(part.tool_use_id), part.tool_use_id in context.synthesized)
            return encode_result(part, bag, call, context.losses, at)
        case RefusalPart():
            context.losses.add(at, "refusal part", "Gemini has no refusal part; sent as text")
            return {**restore_fields(bag), "text": part.text}
        case OpaquePart():
            if part.provider != PROVIDER:
                context.losses.add(at, f"{part.provider} block", "Gemini cannot take another provider's block")
                return None
            return dict(part.data)
        case _:
            assert_never(part)


def _encode_thought(
    part: ThinkingPart, bag: dict[str, Any], context: GeminiContext, at: Steps
) -> dict[str, Any] | None:
    if part.provider != PROVIDER:
        drop_foreign_thought(part.provider, context.losses, at)
        return None
    if part.encrypted is not None or part.redacted:
        context.losses.add(at, "encrypted reasoning", "Gemini thoughts carry no encrypted payload")
    wire: dict[str, Any] = {**restore_fields(bag), "text": part.text, "thought": True}
    if part.signature is not None and is_base64(part.signature):
        wire["thoughtSignature"] = part.signature
    elif part.signature is not None:
        context.losses.add((*at, "signature"), "signature", "not base64: not a Gemini thought signature")
    return wire


def drop_foreign_thought(provider: str | None, losses: LossRecorder, at: Steps) -> None:
    """Reasoning from another provider is not a Gemini thought: it is not sent, reported
    (the one-pass encoder drops it the same way)."""
    source = provider or "an unknown provider"
    losses.add(at, "thinking", f"reasoning from {source} is not Gemini's thought; not sent")


def checked_signature(wire: dict[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """``wire`` without a ``thoughtSignature`` that is not base64: the API reads it as
    bytes (400 "Invalid value at 'contents[1].parts[0].thought_signature' (TYPE_BYTES)"),
    on a text or call part as on a thought part (issue 24 item 3); reported."""
    signature = wire.get("thoughtSignature")
    if signature is not None and not (isinstance(signature, str) and is_base64(signature)):
        del wire["thoughtSignature"]
        losses.add((*at, "signature"), "signature", "not base64: not a Gemini thought signature")
    return wire


def encode_call(part: ToolUsePart, bag: dict[str, Any], context: GeminiContext, at: Steps) -> dict[str, Any]:
    """A ``functionCall`` part; a made-up id is not written (:mod:`.call_ids`)."""
    wire = checked_signature(restore_fields(bag), context.losses, at)
    call = kept_object(wire, "functionCall", (*at, "provider_metadata", PROVIDER), PROVIDER, take=True)
    call["name"] = (
        tool_name(part.name, context.losses, at, PROVIDER, GEMINI_TOOL_NAMES) if context.for_request else part.name
    )
    args = parsed_object(part.arguments)
    if args is None:
        context.losses.add((*at, "arguments"), "tool-call arguments", "not a JSON object; Gemini takes an object")
        args = {}
    if part.arguments or not bag.get(NO_ARGS):
        call["args"] = args
    if not bag.get(SYNTHESIZED_ID) and part.id not in context.synthesized:
        call["id"] = part.id
        if not part.id and not bag.get(EMPTY_ID):
            why = 'Gemini reads an id "" as none: the call reads back with a made-up id'
            context.losses.add((*at, "id"), "empty tool call id", why)
    elif bag.get(EMPTY_ID):
        call["id"] = ""
    wire["functionCall"] = call
    if bag.get(SKIPPED):
        wire["thoughtSignature"] = SKIP_SENTINEL
    if bag.get(UNSIGNED):
        context.unsigned_by_gemini.append(wire)
    return wire
