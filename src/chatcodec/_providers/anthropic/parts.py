"""Anthropic content blocks <-> canonical content parts.

Decoding: every wire block becomes exactly one part, so block ``i`` of a response is part
``i`` (the stream decoder relies on it). A block canonical cannot hold where it stands (a
server-tool call, a search result, a ``content``-sourced document, a ``tool_use`` in a
user turn, a type added after this was written) becomes an opaque part holding the block
verbatim, so nothing is lost and the same block goes back out.

Encoding follows the rules Anthropic rejects requests over:

* thinking is replayed only when Claude produced it and signed it (:mod:`.thinking`): a
  part from another provider or with no signature Anthropic can verify would get 400
  "Invalid signature", so it is dropped or sent as text, a loss either way. Redacted
  thinking goes back as ``redacted_thinking`` with its payload untouched, never as text.
* ``cache_control`` is never put on a thinking block (the API does not allow it there).
* ``tool_use.input`` must be an object: argument text that is not a JSON object is sent
  as ``{}`` and reported.
* tool ids go through :func:`~chatcodec._providers.anthropic.tool_ids.sanitize_tool_use_id`
  so calls and results still match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from chatcodec._providers.anthropic import wire as shapes
from chatcodec._providers.anthropic.encode_context import AnthropicContext, Part, cached, own_fields, restored_fields
from chatcodec._providers.anthropic.finish_reason import REFUSAL_SENT_AS_TEXT
from chatcodec._providers.anthropic.markers import KIT, PROVIDER
from chatcodec._providers.anthropic.media import document_source, image_source, media_source
from chatcodec._providers.anthropic.thinking import encode_thinking
from chatcodec._providers.anthropic.tool_ids import (
    MAPPING,
    SIGNATURE_SEPARATOR,
    restore_tool_use_id,
    signed_tool_use_id,
    split_signed_id,
)
from chatcodec._providers.families.google.thought_signatures import attach_signature, split_signature
from chatcodec.codec_kit import (
    COMMON_TOOL_NAMES,
    PLAIN_TEXT,
    PLAIN_TOOL_USE,
    as_list,
    closed_schema,
    compact_json,
    decode_cache_control,
    input_object,
    rule_error,
    sdk_kinds,
    shape_fields,
    split_fields,
    tool_name,
    with_unknown_nulls,
)
from chatcodec.contract import Steps

_SANITIZE = MAPPING.sanitize
_ACCEPTED = COMMON_TOOL_NAMES.accepted
"""The tool names found valid by :func:`~chatcodec._providers.kit.tool_names.tool_name`'s
rule, looked up before it is called."""

# --- decode ------------------------------------------------------------------------------

USER_KINDS = frozenset({"text", "image", "document"})
"""Block types a canonical user message (or tool result) holds as parts."""

ASSISTANT_KINDS = frozenset({"text", "image", "thinking", "redacted_thinking", "tool_use"})
"""Block types a canonical assistant message holds as parts."""

SYSTEM_KINDS = frozenset({"text"})
"""Block types a canonical system message holds as parts."""


def opaque(block: Mapping[str, Any]) -> dict[str, Any]:
    """The block kept whole, for Anthropic to get back verbatim."""
    return {"type": "opaque", "provider": PROVIDER, "data": dict(block)}


def arguments_text(tool_input: Mapping[str, Any] | closed_schema.WithFloats) -> str:
    """``tool_use.input`` as canonical argument text: compact JSON, non-ASCII kept, so that
    parsing it back gives the identical object (:func:`~chatcodec._providers.kit.compact_json`;
    an input the closed request schema marked as holding a float is unwrapped first)."""
    return compact_json(tool_input.value if type(tool_input) is closed_schema.WithFloats else tool_input)


def decode_part(block: Mapping[str, Any], allowed: frozenset[str], model: str | None = None) -> dict[str, Any]:
    """The canonical part for a wire block, opaque when ``allowed`` excludes its type."""
    kind = block["type"]
    if kind not in allowed:
        return opaque(block)
    decoded = _DECODERS[kind](block, model)
    return opaque(block) if decoded is None else decoded


def _decoded_part(
    canonical: dict[str, Any], block: Mapping[str, Any], mapped: frozenset[str], **markers: Any
) -> dict[str, Any]:
    """Attach the cache marker and the bag of unmapped fields (plus spelling ``markers``)."""
    if "cache_control" in block:
        marker = decode_cache_control(block["cache_control"])
        if marker is not None:
            canonical["cache_control"] = marker
            mapped = mapped | {"cache_control"}
    bag = split_fields(block, mapped)
    if markers:
        bag.update(markers)
    if bag:
        canonical["provider_metadata"] = {PROVIDER: bag}
    return canonical


_TEXT_FIELDS = frozenset({"type", "text"})


TEXT_KINDS = sdk_kinds(shapes.TextBlock)
"""The SDK kinds whose fields a text block's ``null`` is spelling in (in any other key, data:
:mod:`chatcodec._providers.kit.null_fields`)."""


def _decode_text(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    part = _decoded_part({"type": "text", "text": block["text"]}, block, _TEXT_FIELDS)
    if None in block.values():
        with_unknown_nulls(part.get("provider_metadata", {}).get(PROVIDER, {}), __package__, TEXT_KINDS)
    return part


_SOURCE_KEYS: dict[str, frozenset[str]] = {
    "base64": frozenset({"type", "media_type", "data"}),
    "url": frozenset({"type", "url"}),
    "file": frozenset({"type", "file_id"}),
    "text": frozenset({"type", "media_type", "data"}),
}


def _decode_source(source: Mapping[str, Any], kinds: frozenset[str]) -> dict[str, Any] | None:
    """The canonical source, or None when canonical cannot say it exactly (an unknown
    source type, extra keys, or an empty URL, file id or media type canonical forbids)."""
    kind = source["type"]
    if kind not in kinds or frozenset(source) != _SOURCE_KEYS[kind]:
        return None
    values = [source[key] for key in _SOURCE_KEYS[kind] if key != "type"]
    if not all(isinstance(value, str) for value in values):
        return None
    if kind == "text":
        return {"type": "text", "text": source["data"], "media_type": source["media_type"]}
    if not source.get("url", True) or not source.get("file_id", True) or not source.get("media_type", True):
        return None
    return dict(source)


_IMAGE_SOURCES = frozenset({"base64", "url", "file"})
_DOCUMENT_SOURCES = frozenset({"base64", "url", "file", "text"})
_IMAGE_FIELDS = frozenset({"type", "source"})
_DOCUMENT_FIELDS = frozenset({"type", "source", "title"})


def _decode_image(block: Mapping[str, Any], model: str | None) -> dict[str, Any] | None:
    source = block["source"]
    if len(block) == 2 and len(source) == 3 and source["type"] == "base64":
        # the common image (an agent's screenshot): no bag, a base64 source of its three
        # keys, which :func:`_decode_source` and :func:`_decoded_part` give as it is
        media_type, data = source.get("media_type"), source.get("data")
        if media_type.__class__ is str and data.__class__ is str and media_type:
            return {"type": "image", "source": dict(source)}
    source = _decode_source(source, _IMAGE_SOURCES)
    if source is None:
        return None
    return _decoded_part({"type": "image", "source": source}, block, _IMAGE_FIELDS)


def _decode_document(block: Mapping[str, Any], model: str | None) -> dict[str, Any] | None:
    source = _decode_source(block["source"], _DOCUMENT_SOURCES)
    if source is None:
        return None
    canonical: dict[str, Any] = {"type": "document", "source": source}
    if block.get("title") is not None:
        canonical["title"] = block["title"]
    return _decoded_part(canonical, block, _DOCUMENT_FIELDS)


_THINKING_FIELDS = frozenset(shape_fields(shapes.ThinkingBlock))
_REDACTED_FIELDS = frozenset(shape_fields(shapes.RedactedThinkingBlock))
"""The fields each thinking shape types (``wire.py``), all read here: any other is kept."""


def _decode_thinking(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    canonical: dict[str, Any] = {"type": "thinking", "text": block["thinking"], "provider": PROVIDER}
    if block.get("signature") is not None:
        canonical["signature"] = block["signature"]
    if model is not None:
        canonical["model"] = model
    return canonical if len(block) == 3 and "signature" in block else _decoded_part(canonical, block, _THINKING_FIELDS)


def _decode_redacted_thinking(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    # The payload stays opaque: it is encrypted reasoning, never readable text.
    canonical: dict[str, Any] = {
        "type": "thinking",
        "text": "",
        "encrypted": block["data"],
        "redacted": True,
        "provider": PROVIDER,
    }
    if model is not None:
        canonical["model"] = model
    return _decoded_part(canonical, block, _REDACTED_FIELDS)


_TOOL_USE_FIELDS = frozenset({"type", "id", "name", "input"})


def _decode_tool_use(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    wire_id, signature = split_signed_id(block["id"])  # a Gemini signature it carries (tool_ids.py)
    tool_use_id = restore_tool_use_id(wire_id)
    canonical = {
        "type": "tool_use",
        "id": tool_use_id,
        "name": block["name"],
        "arguments": arguments_text(block["input"]),
    }
    markers = _rejected_id(wire_id, tool_use_id)
    if signature is not None:
        markers[SIGNED] = True  # written back signed to Anthropic too (tool_ids.py)
    return attach_signature(_decoded_part(canonical, block, _TOOL_USE_FIELDS, **markers), signature)


REJECTED_ID = "_rejected_id"
"""Marker on a decoded ``tool_use`` / ``tool_result``: its wire id is one Anthropic rejects,
so the encoder's rewrite of it is a change to report (see :func:`_tool_id`)."""


def _rejected_id(wire_id: str, tool_use_id: str) -> dict[str, Any]:
    return {REJECTED_ID: True} if _SANITIZE(tool_use_id) != wire_id else {}


_TOOL_RESULT_FIELDS = frozenset({"type", "tool_use_id", "content", "is_error"})
SIGNED = "_signed"
"""Marker on a decoded ``tool_use`` (``True``) or ``tool_result`` (the signature): its id
carried a Gemini signature (``tool_ids.py``), so a request writes it back so, and a result
does even with no call in the body to take it from."""


def result_id(tool_use_id: str, context: AnthropicContext) -> str | None:
    """The id a call holding a Gemini signature, or renamed as a repeat, was written with in
    this body, for the result that answers it (the call comes first); None for any other."""
    if context.signed and tool_use_id in context.signed:
        return context.signed[tool_use_id]
    return context.renamed.get(tool_use_id) if context.renamed else None


def unique_call_id(sent: str, call_id: str, context: AnthropicContext, at: Steps) -> str:
    """``sent``, or, where an earlier call in the body was sent with it, a new id for this
    call and the results after it (``call_0-2``), reported at its ``id`` (``at``: the call's
    place, the id's built only for a report: every call of a body asks). Anthropic refuses a
    repeated ``tool_use`` id (400); an episode whose turns were parsed one by one holds such
    repeats (each completion's made ids start again), and the results that follow each call answer it."""
    ids = context.call_ids
    if sent not in ids:
        ids.add(sent)
        return sent
    count = 2
    while f"{sent}-{count}" in ids:
        count += 1
    unique = context.renamed[call_id] = f"{sent}-{count}"
    ids.add(unique)
    context.losses.add(
        (*at, "id"),
        f"tool call id {call_id!r}",
        f"an earlier call has it and Anthropic refuses a repeated tool_use id: sent as {unique!r},"
        " with the results after it",
        "metadata",
    )
    return unique


def decode_tool_result(block: dict[str, Any]) -> dict[str, Any]:
    """A ``tool_result`` block (a validated copy, taken over) as a canonical tool-result
    part (images and documents kept)."""
    wire_id = block["tool_use_id"]
    size = len(block)
    if (
        (size == 3 or (size == 4 and block.get("is_error") is True))
        and "content" in block
        and _SANITIZE(wire_id) == wire_id
        and SIGNATURE_SEPARATOR not in wire_id
    ):
        content = block["content"]  # the common result: its keys are the canonical ones
        return block if isinstance(content, str) else {**block, "content": decode_parts(content, USER_KINDS)}
    wire_id, signature = split_signed_id(wire_id)  # the call it answers has the signature
    tool_use_id = restore_tool_use_id(wire_id)
    canonical: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_use_id}
    content = block.get("content")
    listed = as_list(content)
    if listed is not None:
        canonical["content"] = decode_parts(listed, USER_KINDS)
    else:  # a string, or none (canonical's default, with the marker below)
        canonical["content"] = content if isinstance(content, str) else ""
    markers: dict[str, Any] = _rejected_id(wire_id, tool_use_id)
    if signature is not None:
        markers[SIGNED] = signature
    if block.get("is_error") is True:
        canonical["is_error"] = True
    elif block.get("is_error") is False:
        markers["_is_error"] = False  # spelled out (pydantic-ai always sends it)
    if "content" not in block:
        markers["_no_content"] = True
    return _decoded_part(canonical, block, _TOOL_RESULT_FIELDS, **markers)


_DECODERS: dict[str, Callable[[Mapping[str, Any], str | None], dict[str, Any] | None]] = {
    "text": _decode_text,
    "image": _decode_image,
    "document": _decode_document,
    "thinking": _decode_thinking,
    "redacted_thinking": _decode_redacted_thinking,
    "tool_use": _decode_tool_use,
}


def decode_parts(
    blocks: list[Any], allowed: frozenset[str], model: str | None = None, *, digits: int = 0
) -> list[dict[str, Any]]:
    """Canonical parts for a list of wire blocks, as validated copies (the one reader's,
    never the caller's objects): a plain text block (its type and text) is its canonical
    part and is taken over as it is; every other goes through :func:`decode_part`.
    ``digits``: set for blocks the closed request schema checked (``closed_schema.json_text``)."""
    parts: list[dict[str, Any]] = []
    append = parts.append
    calls = "tool_use" in allowed
    for block in blocks:
        kind = block["type"]
        if kind == "text" and len(block) == 2 and "text" in allowed:
            append(block)
        elif kind == "tool_use" and calls and (call := plain_call(block, digits)) is not None:
            append(call)
        else:
            append(decode_part(block, allowed, model))
    return parts


def plain_call(block: Mapping[str, Any], digits: int) -> dict[str, Any] | None:
    """The canonical part of the common call (a ``tool_use`` block of its four keys, no bag,
    an id kept as it is); None for any other (:func:`_decode_tool_use` reads it).
    ``digits``: as :func:`decode_parts` takes it."""
    if len(block) != 4 or _SANITIZE(wire_id := block["id"]) != wire_id or SIGNATURE_SEPARATOR in wire_id:
        return None
    tool_input = block["input"]
    arguments = closed_schema.json_text(tool_input, digits) if digits else arguments_text(tool_input)
    return {"type": "tool_use", "id": wire_id, "name": block["name"], "arguments": arguments}


# --- encode ------------------------------------------------------------------------------


def encode_part(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any] | None:
    """The wire block for canonical ``part`` data, or None where Anthropic cannot carry it."""
    match part["type"]:  # the most frequent kinds in agent sessions first
        case "tool_result":
            return _encode_tool_result(part, context, at)
        case "tool_use":
            return encode_tool_use(part, context, at)
        case "text":
            if len(part) == PLAIN_TEXT:
                return {"type": "text", "text": part["text"]}
            return cached({**own_fields(part, context, at), "type": "text", "text": part["text"]}, part, context, at)
        case "thinking":
            return encode_thinking(part, context, at)
        case "image":
            return _encode_image(part, context, at)
        case "document":
            return _encode_document(part, context, at)
        case "opaque":
            return _encode_opaque(part, context, at)
        case "refusal":
            context.losses.add(at, "refusal part", REFUSAL_SENT_AS_TEXT)
            return cached({**own_fields(part, context, at), "type": "text", "text": part["text"]}, part, context, at)
        case "audio":
            context.losses.add(at, "audio part", "Anthropic messages cannot hold audio")
            return None
        case "video":
            context.losses.add(at, "video part", "Anthropic messages cannot hold video")
            return None
        case kind:
            raise rule_error("Anthropic request", at, "part_type", "not a canonical content part type", kind)


def _encode_image(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any] | None:
    source = image_source(part, context.losses, at)
    if source is None:
        return None
    block = {**own_fields(part, context, at), "type": "image", "source": media_source(source, context.losses, at)}
    return cached(block, part, context, at)


def _encode_document(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any] | None:
    source = document_source(part["source"], context.losses, at)
    if source is None:
        return None
    context.holding("document")
    block = {**own_fields(part, context, at), "type": "document", "source": source}
    title, filename = part.get("title"), part.get("filename")
    if title is None:
        title = filename  # OpenAI's file name is the name shown
    if title is not None:
        block["title"] = title
    if filename not in (None, title):
        context.losses.add((*at, "filename"), "document file name", "Anthropic documents have one title, kept")
    return cached(block, part, context, at)


def encode_tool_use(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any]:
    """A call: its id as Anthropic takes it, its name as a request takes it, its argument
    text as the JSON object ``input`` must be, by the rule shared with Bedrock
    (:mod:`chatcodec._providers.kit.tool_arguments`: text that is not an object is wrapped,
    never sent as ``{}``, and reported)."""
    if len(part) != PLAIN_TOOL_USE or "arguments" not in part:  # a bag (a rejected id), a cache marker
        return _general_tool_use(part, context, at)  # (apart: code run a few times a request is
    # quickened by CPython in proportion to its size); its type, id, name, arguments alone: the usual call
    name = part["name"]
    sent = _SANITIZE(part["id"])
    ids = context.call_ids
    if sent in ids:  # a repeat: renamed and reported by the rule's one home
        sent = unique_call_id(sent, part["id"], context, at)
    else:  # the common call: noted as sent, without a call into the rule
        ids.add(sent)
    return {
        "type": "tool_use",
        "id": sent,
        "name": name
        if name in _ACCEPTED or not context.for_request
        else tool_name(name, context.losses, at, PROVIDER),  # a name found valid before: no call
        "input": input_object(part["arguments"], context.losses, at, "Anthropic"),
    }


def _general_tool_use(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any]:
    """:func:`encode_tool_use` of a call beyond its type, id, name and arguments: its bag
    claimed (a signature carried in its id, fields restored), its cache marker put."""
    name = part["name"]
    metadata = part.get("provider_metadata")
    signature, rest = split_signature(metadata)  # carried in the id: to a client, or back as it came
    if signature and (not context.for_request or KIT.marker(metadata, SIGNED) is True):
        metadata = rest
    else:
        signature = None
    block = restored_fields(KIT.claim(context.losses, metadata, at), context) if metadata else {}
    block["type"] = "tool_use"
    block["id"] = unique_call_id(_tool_id(part, part["id"], context, (*at, "id")), part["id"], context, at)
    if signature:
        block["id"] = context.signed[part["id"]] = signed_tool_use_id(block["id"], signature)
    block["name"] = tool_name(name, context.losses, at, PROVIDER) if context.for_request else name
    block["input"] = input_object(part.get("arguments", ""), context.losses, at, "Anthropic")
    return cached(block, part, context, at)


def _encode_tool_result(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any]:
    metadata = part.get("provider_metadata")
    bag = KIT.claim(context.losses, metadata, at) if metadata else {}
    tool_use_id = part["tool_use_id"]
    sent = result_id(tool_use_id, context) or _tool_id(part, tool_use_id, context, (*at, "tool_use_id"))
    signature = bag.pop(SIGNED, None)
    if isinstance(signature, str) and signature and sent == _SANITIZE(tool_use_id):  # its call is not in the body
        sent = signed_tool_use_id(sent, signature)
    block = {**restored_fields(bag, context), "type": "tool_result", "tool_use_id": sent}
    content = part.get("content", "")
    if isinstance(content, str):
        if content or not bag.get("_no_content"):
            block["content"] = content
    else:
        block["content"] = _result_content(content, context, at)
    if part.get("is_error"):
        block["is_error"] = True
    elif "_is_error" in bag:
        block["is_error"] = False
    name = part.get("name")
    if name is not None and context.tool_names().get(tool_use_id) != name:
        context.losses.add((*at, "name"), "tool name", "Anthropic results carry no name; no matching call names it")
    return cached(block, part, context, at)


def _result_content(content: list[Part], context: AnthropicContext, at: Steps) -> list[Part]:
    """A result's parts as blocks: plain text (its type and a text) written as it is, the
    rest by :func:`encode_part`; what cannot be carried, and empty text blocks, which
    Anthropic rejects ("text content blocks must be non-empty"), left out and reported."""
    blocks: list[Part] = []
    empty: list[int] = []
    for index, item in enumerate(content):
        if item["type"] == "text" and len(item) == PLAIN_TEXT and item["text"]:
            blocks.append(item)  # read the same on the wire
            continue
        block = encode_part(item, context, (*at, "content", index))
        if block is not None and block.get("type") == "text" and block.get("text") == "":
            empty.append(index)
        elif block is not None:
            blocks.append(block)
    for index in empty:  # after the parts' own losses
        context.losses.add((*at, "content", index), "empty text block", "Anthropic rejects empty text blocks")
    return blocks


def _tool_id(part: Part, tool_use_id: str, context: AnthropicContext, at: Steps) -> str:
    """The id Anthropic accepts; reported when the id came from an Anthropic payload that
    Anthropic itself would reject (``a.b``, empty): decoding the rewrite gives the
    canonical id back, but the wire id the payload had is gone."""
    sent = _SANITIZE(tool_use_id)
    if sent != tool_use_id and KIT.marker(part.get("provider_metadata"), REJECTED_ID) is True:
        context.losses.add(
            at, f"tool id {tool_use_id!r}", f"Anthropic ids match ^[a-zA-Z0-9_-]+$; sent as {sent!r}", "metadata"
        )
    return sent


def _encode_opaque(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any] | None:
    if part["provider"] != PROVIDER:
        context.losses.add(at, f"{part['provider']} block", "only Anthropic's own blocks can be sent to Anthropic")
        return None
    metadata = part.get("provider_metadata")
    if metadata:
        KIT.claim(context.losses, metadata, at)
    data: Mapping[str, Any] = part["data"]
    if not isinstance(data.get("type"), str):
        context.losses.add(at, "anthropic block without a type", "Anthropic cannot read a block without one")
        return None
    context.holding("document", "citations")  # a block kept whole may be either, or hold them
    return context.cache(dict(data), part.get("cache_control"), at)
