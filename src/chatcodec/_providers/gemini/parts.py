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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chatcodec._providers.gemini.call_ids import OpenCalls, synthesized_call_id
from chatcodec._providers.gemini.markers import (
    EMPTY_ID,
    INCLUDE_THOUGHTS,
    KIT,
    NO_ARGS,
    NO_CACHE_MARKER,
    PROVIDER,
    SKIP_SENTINEL,
    SKIPPED,
    SYNTHESIZED_ID,
    UNSIGNED,
)
from chatcodec._providers.gemini.media import Turn, decode_media, encode_media, is_base64
from chatcodec._providers.gemini.results import decode_result, encode_result, parsed_object
from chatcodec._providers.gemini.tool_names import GEMINI_TOOL_NAMES
from chatcodec.codec_kit import (
    PLAIN_TEXT,
    closed_schema,
    compact_json,
    kept_object,
    leftovers,
    restore_fields,
    tool_name,
    unblank_tool_name,
    unmapped_fields,
)
from chatcodec.contract import EncodeContext, LossRecorder, Steps

_SIGNATURE = "thoughtSignature"
_CALL_FIELDS = ("name", "args", "id")
_CALL_KEYS = frozenset(_CALL_FIELDS)
_THOUGHT_FIELDS = ("text", "thought", _SIGNATURE)
_TAKEN, _TAKES = GEMINI_TOOL_NAMES.accepted, GEMINI_TOOL_NAMES.takes


@dataclass(slots=True)
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
    digits: int = 0
    """Set when the parts were checked by the closed request schema
    (``wire.checked_request``): its calls' ``args`` holding a float are marked
    (``closed_schema.WithFloats``), so the others are written by pydantic-core
    (``closed_schema.json_text``, which takes this limit of ``sys.get_int_max_str_digits()``);
    0: every ``args`` is written by ``kit.compact_json``."""


def _no_names() -> dict[str, str]:
    return {}  # a factory, not dict[str, str]: calling a generic alias raises and clears an error inside


def _no_parts() -> list[dict[str, Any]]:
    return []


@dataclass(slots=True, kw_only=True)
class GeminiContext(EncodeContext):
    """A Gemini encode's state beyond the shared context: the ids the decoder made up,
    tool names by call id, and the calls Gemini itself left unsigned."""

    synthesized: frozenset[str] = frozenset()
    """Ids the decoder made up: not written to the wire."""
    names: dict[str, str] = field(default_factory=_no_names)
    """Tool names by call id (a result needs its call's name)."""
    unsigned_by_gemini: list[dict[str, Any]] = field(default_factory=_no_parts)
    """Wire calls Gemini itself sent without a signature: the signature rule leaves them be."""


def decode_part(part: dict[str, Any], turn: Turn, context: PartDecoding, index: int) -> dict[str, Any]:
    """The canonical part (as a dict) for wire ``part`` at ``index`` of a ``turn``."""
    if "text" in part:
        if turn == "system" or part.get("thought") is not True:
            if len(part) == 1:
                return {"type": "text", "text": part["text"]}
            return KIT.attach({"type": "text", "text": part["text"]}, leftovers(part, ("text",)))
        if turn == "model":
            return _decode_thought(part, context)
        # a thought in a user turn: read by its other keys, else kept whole
    media_key = "inlineData" if "inlineData" in part else "fileData" if "fileData" in part else None
    if media_key is not None and turn != "system":
        media = decode_media(part, media_key, turn)
        if media is not None:
            return media
    if "functionCall" in part and turn == "model" and is_whole_call(part["functionCall"]):
        return decode_call(part, context, index)
    if "functionResponse" in part and turn == "user":
        return decode_result(part, context.open_calls, context.container, index)
    return {"type": "opaque", "provider": PROVIDER, "data": part}


def is_whole_call(call: dict[str, Any]) -> bool:
    """Whether a ``functionCall`` is a whole call (not a Vertex piece of streamed arguments)."""
    return "name" in call and "partialArgs" not in call and "willContinue" not in call


def _decode_thought(part: dict[str, Any], context: PartDecoding) -> dict[str, Any]:
    thinking: dict[str, Any] = {"type": "thinking", "text": part["text"], "provider": PROVIDER}
    if _SIGNATURE in part:
        thinking["signature"] = part[_SIGNATURE]
    if context.model:
        thinking["model"] = context.model
    return KIT.attach(thinking, leftovers(part, _THOUGHT_FIELDS))


def decode_call(part: dict[str, Any], context: PartDecoding, index: int) -> dict[str, Any]:
    """A tool-use part for a whole ``functionCall`` part (arguments as compact JSON text)."""
    call: dict[str, Any] = part["functionCall"]
    if len(part) == 1 and len(call) == 3 and context.digits and call["id"]:  # the usual call: name, args, id
        return {
            "type": "tool_use",
            "id": call["id"],
            "name": call["name"],
            "arguments": closed_schema.json_text(call["args"], context.digits),
            "provider_metadata": {PROVIDER: {UNSIGNED: True}},
        }
    bag = {} if len(part) == 1 else leftovers(part, ("functionCall",))
    if not call.keys() <= _CALL_KEYS:
        bag["functionCall"] = unmapped_fields(call, _CALL_FIELDS)
    call_id = call.get("id")
    if not call_id:  # none, or "" (some proxies and older Vertex builds send it): an id is made up
        call_id = synthesized_call_id(context.id_prefix, context.container, index)
        bag[SYNTHESIZED_ID] = True
        if "id" in call:
            bag[EMPTY_ID] = True
    if _SIGNATURE not in part:
        bag[UNSIGNED] = True
    elif part[_SIGNATURE] == SKIP_SENTINEL:
        del bag[_SIGNATURE]
        bag[SKIPPED] = True  # the sentinel is not a signature: kept as a marker only
    if "args" not in call:
        arguments = ""
        bag[NO_ARGS] = True
    elif context.digits:
        arguments = closed_schema.json_text(call["args"], context.digits)
    else:
        arguments = compact_json(call["args"])
    return {
        "type": "tool_use",
        "id": call_id,
        "name": call["name"],
        "arguments": arguments,
        "provider_metadata": {PROVIDER: bag},  # never empty: a call is signed, or marked unsigned
    }


# --- encoding ----------------------------------------------------------------------------


def encode_part(part: Mapping[str, Any], context: GeminiContext, at: Steps) -> dict[str, Any] | None:
    """The wire part for canonical part data; None when it cannot be sent (the loss is
    recorded). A text part with nothing beside its text is written as it is."""
    kind: str = part["type"]
    if kind == "text" and len(part) == PLAIN_TEXT:
        return {"text": part["text"]}
    losses = context.losses
    metadata = part.get("provider_metadata")
    bag = KIT.claim(losses, metadata, at) if metadata else {}
    if part.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", NO_CACHE_MARKER, "setting")
    if kind == "text":
        return checked_signature({**restore_fields(bag), "text": part["text"]}, losses, at)
    if kind == "tool_use":
        return encode_call(part, bag, context, at)
    if kind == "tool_result":
        tool_use_id: str = part["tool_use_id"]
        call = (context.names.get(tool_use_id), tool_use_id in context.synthesized)
        return encode_result(part, bag, call, losses, at)
    if kind == "thinking":
        return _encode_thought(part, bag, context, at)
    if kind in ("image", "audio", "video", "document"):
        return encode_media(part, bag, losses, at)
    if kind == "refusal":
        losses.add(at, "refusal part", "Gemini has no refusal part; sent as text")
        return {**restore_fields(bag), "text": part["text"]}
    if kind != "opaque":
        raise TypeError(f"not a canonical part type: {kind!r}")
    if part["provider"] != PROVIDER:
        losses.add(at, f"{part['provider']} block", "Gemini cannot take another provider's block")
        return None
    return dict(part["data"])


def _encode_thought(
    part: Mapping[str, Any], bag: dict[str, Any], context: GeminiContext, at: Steps
) -> dict[str, Any] | None:
    provider: str | None = part.get("provider")
    if provider != PROVIDER:
        if shows_foreign_thought(context, part.get("text")):
            foreign_signature(part.get("signature") or part.get("encrypted"), context.losses, at)
            return {"text": part.get("text", ""), "thought": True}
        drop_foreign_thought(provider, context.losses, at)
        return None
    if part.get("encrypted") is not None or part.get("redacted"):
        context.losses.add(at, "encrypted reasoning", "Gemini thoughts carry no encrypted payload")
    wire: dict[str, Any] = {**restore_fields(bag), "text": part.get("text", ""), "thought": True}
    signature: str | None = part.get("signature")
    if signature is not None and is_base64(signature):
        wire[_SIGNATURE] = signature
    elif signature is not None:
        context.losses.add((*at, "signature"), "signature", "not base64: not a Gemini thought signature")
    return wire


def shows_foreign_thought(context: EncodeContext, text: str | None) -> bool:
    """Whether reasoning from another provider is shown as a thought part: in an answer
    whose caller asked for thoughts (``include_thoughts``, what a server sets from
    ``thinkingConfig.includeThoughts``: Gemini sends thoughts only then), when it has text.
    A request never carries it: Gemini cannot read another provider's reasoning."""
    return not context.for_request and context.option(INCLUDE_THOUGHTS) is True and text != ""


def foreign_signature(signature: object, losses: LossRecorder, at: Steps) -> None:
    """A foreign thought shown to a caller goes without its signature, which means nothing to Gemini."""
    if signature:
        losses.add((*at, "signature"), "signature of another provider", "meaningless to Gemini clients; not sent")


def drop_foreign_thought(provider: str | None, losses: LossRecorder, at: Steps) -> None:
    """Reasoning from another provider is not a Gemini thought: it is not sent, reported."""
    source = provider or "an unknown provider"
    losses.add(at, "thinking", f"reasoning from {source} is not Gemini's thought; not sent")


def checked_signature(wire: dict[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """``wire`` without a ``thoughtSignature`` that is not base64: the API reads it as
    bytes (400 "Invalid value at 'contents[1].parts[0].thought_signature' (TYPE_BYTES)"),
    on a text or call part as on a thought part; reported."""
    signature = wire.get(_SIGNATURE)
    if signature is not None and not (isinstance(signature, str) and is_base64(signature)):
        del wire[_SIGNATURE]
        losses.add((*at, "signature"), "signature", "not base64: not a Gemini thought signature")
    return wire


def encode_call(part: Mapping[str, Any], bag: dict[str, Any], context: GeminiContext, at: Steps) -> dict[str, Any]:
    """A ``functionCall`` part; a made-up id is not written (:mod:`.call_ids`). A call with
    no bag, a name Gemini takes and an id of its own is written as it is."""
    name: str = part["name"]
    call_id: str = part["id"]
    text: str = part.get("arguments", "")
    args = parsed_object(text)
    plain = not bag and args is not None and call_id and call_id not in context.synthesized
    if plain and (name in _TAKEN or _TAKES(name)):
        return {"functionCall": {"name": name, "args": args, "id": call_id}}
    losses = context.losses
    wire = checked_signature(restore_fields(bag), losses, at)
    call = kept_object(wire, "functionCall", (*at, "provider_metadata", PROVIDER), PROVIDER, take=True)
    if context.for_request:
        call["name"] = tool_name(name, losses, at, PROVIDER, GEMINI_TOOL_NAMES)
    else:  # an answer's call keeps the name the model said, unless it said none, which Gemini's readers refuse
        call["name"] = name or unblank_tool_name(name, losses, at, "Gemini")
    if args is None:
        losses.add((*at, "arguments"), "tool-call arguments", "not a JSON object; Gemini takes an object")
        args = {}
    if text or not bag.get(NO_ARGS):
        call["args"] = args
    if not bag.get(SYNTHESIZED_ID) and call_id not in context.synthesized:
        call["id"] = call_id
        if not call_id and not bag.get(EMPTY_ID):
            why = 'Gemini reads an id "" as none: the call reads back with a made-up id'
            losses.add((*at, "id"), "empty tool call id", why)
    elif bag.get(EMPTY_ID):
        call["id"] = ""
    wire["functionCall"] = call
    if bag.get(SKIPPED):
        wire[_SIGNATURE] = SKIP_SENTINEL
    if bag.get(UNSIGNED):
        context.unsigned_by_gemini.append(wire)
    return wire
