"""Gemini parts <-> canonical content parts.

A Gemini part is one of ``text`` (``thought: true`` for a thought summary),
``inlineData``, ``fileData``, ``functionCall``, ``functionResponse``,
``executableCode``, ``codeExecutionResult``... by the key it has, and any part may carry
a ``thoughtSignature``. The signature belongs to its part: it stays in that part's bag
(or is a thought part's ``signature``), and the encoder writes each part on its own,
never joining two parts, so a signature is sent back inside the part it came with
(joining adjacent text parts moves or drops signatures: Gemini 3 then answers 400).

Media map by MIME type: ``image/*`` to image parts, ``audio/*`` to audio parts, PDF and
``text/*`` to documents (in user turns); anything else (video...) and code execution
parts are kept whole as opaque parts. ``videoMetadata`` beside the media rides in the
part's bag.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, assert_never

import pydantic_core
from pydantic import ConfigDict, TypeAdapter

from chatcodec.content import (
    AnyPart,
    AudioPart,
    Base64Source,
    DocumentPart,
    FileSource,
    ImagePart,
    OpaquePart,
    RefusalPart,
    TextPart,
    TextSource,
    ThinkingPart,
    ToolResultPart,
    ToolUsePart,
    UrlSource,
)
from chatcodec.losses import LossRecorder
from chatcodec.providers.context import EncodeContext
from chatcodec.providers.gemini.call_ids import OpenCalls, synthesized_call_id
from chatcodec.providers.gemini.markers import KIT, NO_ARGS, PROVIDER, SKIP_SENTINEL, SKIPPED, SYNTHESIZED_ID, UNSIGNED
from chatcodec.providers.gemini.results import decode_result, encode_result
from chatcodec.providers.kit import Steps, kept_object, leftovers, restore_fields, unmapped
from chatcodec.providers.tool_names import GEMINI_TOOL_NAMES, tool_name

Turn = Literal["user", "model", "system"]
"""Which kind of content a part is read for: each canonical message takes other parts."""

_MEDIA_KEYS = {"inlineData": ("mimeType", "data"), "fileData": ("fileUri", "mimeType")}
_BASE64_BYTES: TypeAdapter[bytes] = TypeAdapter(bytes, config=ConfigDict(val_json_bytes="base64"))
"""pydantic's base64 reading, which the google-genai types use for ``bytes`` fields."""


def is_base64(text: str) -> bool:
    """Whether ``text`` reads as base64 bytes (standard or URL-safe alphabet, padding
    optional, no stray bits), as ``inlineData.data`` and ``thoughtSignature`` must."""
    try:
        _BASE64_BYTES.validate_json(json.dumps(text))
    except pydantic_core.ValidationError:
        return False
    return True


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


def media_kind(mime_type: str | None, turn: Turn) -> str:
    """The canonical part type for media of ``mime_type`` in a ``turn``, or ``opaque``."""
    if mime_type is None:
        return "document" if turn == "user" else "opaque"
    if mime_type.startswith("image/"):
        return "image"
    if mime_type.startswith("audio/"):
        return "audio"
    if turn == "user" and (mime_type == "application/pdf" or mime_type.startswith("text/")):
        return "document"
    return "opaque"


def decode_media(part: dict[str, Any], key: str, turn: Turn) -> dict[str, Any] | None:
    """The canonical media part for an ``inlineData`` / ``fileData`` part, or None when
    it must stay whole (another kind of media, or fields with no canonical home)."""
    blob: dict[str, Any] = part[key]
    if not set(blob) <= set(_MEDIA_KEYS[key]):
        return None
    mime_type = blob.get("mimeType")
    kind = media_kind(mime_type, turn)
    if kind == "opaque":
        return None
    if key == "inlineData":
        source: dict[str, Any] = {"type": "base64", "media_type": mime_type, "data": blob["data"]}
    else:
        source = {"type": "url", "url": blob["fileUri"]}
        if mime_type is not None:
            source["media_type"] = mime_type
    return KIT.attach({"type": kind, "source": source}, leftovers(part, (key,)))


def decode_part(part: dict[str, Any], turn: Turn, context: PartDecoding, index: int) -> dict[str, Any]:
    """The canonical part (as a dict) for wire ``part`` at ``index`` of a ``turn``."""
    if "text" in part and turn != "system" and part.get("thought") is True:
        if turn == "model":
            return _decode_thought(part, context)
    elif "text" in part:
        return KIT.attach({"type": "text", "text": part["text"]}, leftovers(part, ("text",)))
    for key in _MEDIA_KEYS:
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
    if call_id is None:
        call_id = synthesized_call_id(context.id_prefix, context.container, index)
        bag[SYNTHESIZED_ID] = True
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
    from chatcodec.providers.gemini.results import compact_json

    return compact_json(args)


# --- encoding ----------------------------------------------------------------------------


def encode_part(part: AnyPart, context: GeminiContext, at: Steps) -> dict[str, Any] | None:
    """The wire part for ``part``; None when it cannot be sent (the loss is recorded)."""
    bag = KIT.claim(context.losses, part.provider_metadata, at)
    if part.cache_control is not None:
        context.losses.add((*at, "cache_control"), "cache_control", "Gemini caches whole prompts (cachedContent)")
    match part:
        case TextPart():
            return {**restore_fields(bag), "text": part.text}
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
        source = part.provider or "an unknown provider"
        context.losses.add(at, "thinking", f"reasoning from {source} is not Gemini's thought; not sent")
        return None
    if part.encrypted is not None or part.redacted:
        context.losses.add(at, "encrypted reasoning", "Gemini thoughts carry no encrypted payload")
    wire: dict[str, Any] = {**restore_fields(bag), "text": part.text, "thought": True}
    if part.signature is not None and is_base64(part.signature):
        wire["thoughtSignature"] = part.signature
    elif part.signature is not None:
        context.losses.add((*at, "signature"), "signature", "not base64: not a Gemini thought signature")
    return wire


def encode_media(
    part: ImagePart | AudioPart | DocumentPart, bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    """``inlineData`` for base64, ``fileData`` for a URL; other sources are losses."""
    if isinstance(part, ImagePart) and part.detail not in (None, "auto"):
        losses.add((*at, "detail"), "image detail", "Gemini sets resolution per request (mediaResolution)")
    if isinstance(part, DocumentPart) and (part.title is not None or part.filename is not None):
        losses.add(at, "document title or file name", "Gemini media parts have neither")
    source = part.source
    kind = part.type if isinstance(source, TextSource) else media_kind(source.media_type, "user")
    if kind != part.type:
        losses.add(
            (*at, "source"),
            f"{part.type} media type",
            f"Gemini tells media apart by MIME type; it reads back as {kind}",
        )
    match source:
        case Base64Source():
            if not is_base64(source.data):
                losses.add((*at, "source", "data"), "media data", "not base64: Gemini cannot read it")
                return None
            return {**restore_fields(bag), "inlineData": {"mimeType": source.media_type, "data": source.data}}
        case UrlSource():
            file_data = {"fileUri": source.url}
            if source.media_type is not None:
                file_data["mimeType"] = source.media_type
            return {**restore_fields(bag), "fileData": file_data}
        case FileSource():
            losses.add((*at, "source"), "file id", "Gemini references files by URI, not another provider's file id")
            return None
        case TextSource():
            losses.add((*at, "source"), "text document", "Gemini has no document part; sent as text")
            return {**restore_fields(bag), "text": source.text}
        case _:
            assert_never(source)


def encode_call(part: ToolUsePart, bag: dict[str, Any], context: GeminiContext, at: Steps) -> dict[str, Any]:
    """A ``functionCall`` part; a made-up id is not written (:mod:`.call_ids`)."""
    from chatcodec.providers.gemini.results import parsed_object

    wire = restore_fields(bag)
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
    wire["functionCall"] = call
    if bag.get(SKIPPED):
        wire["thoughtSignature"] = SKIP_SENTINEL
    if bag.get(UNSIGNED):
        context.unsigned_by_gemini.append(wire)
    return wire
