"""Bedrock content blocks <-> canonical content parts (canonical data, no model), for both
block bodies: Converse's, and Amazon Nova's InvokeModel body (whose blocks are Converse's
with fewer members: its :class:`~.body.Body` says which it lacks, and that it serves no
Claude). Readers take the body; writers read it from their :class:`~.context.BedrockContext`.

Decoding: a block is a union by member name; a block with exactly one known member that
canonical can hold where it stands becomes that part (an assistant's ``citationsContent``
a text part: :mod:`.citations`), anything else (``guardContent``, ``searchResult``, Nova's server-tool ``toolUse``
with ``type: "server_tool_use"`` and its ``toolResult`` inside the *assistant* turn, a
member added after this was written) an opaque part holding the block verbatim. A
``cachePoint`` block marks the part before it: it becomes that part's ``cache_control``
(:func:`cache_marker`; one with nothing before it, or with fields canonical has no word
for, is kept whole); on Nova's body a point inside a text block marks that text
(:mod:`.inner_cache_points`). A plain ``text`` block, most of every conversation, is read first.

Encoding follows the rules Bedrock rejects requests over:

* images and documents go as ``bytes`` (base64 text here) or an ``s3Location`` (the family's ``media.py``); Bedrock
  fetches no ``http(s)`` URL and has no file ids, so such a source is a loss (a warning or
  an error by the ``on_loss`` policy) and the part is not sent (:mod:`.media`);
* a document needs a ``name`` Bedrock accepts, unique in the request (:mod:`.documents`);
* tool ids go through :mod:`.tool_ids` (64 characters, ``[a-zA-Z0-9_.:-]``), tool names
  are made to match ``[a-zA-Z0-9_-]{1,64}`` the same way everywhere (reported);
* ``toolResult.status`` is written when the source had it (``"error"`` for a failed
  result, ``"success"`` when it was spelled out), or always / never by the
  ``tool_result_status`` option (some model families reject the field);
* audio goes as an ``audio`` block, as an image does (:mod:`.audio`), and a video as a
  ``video`` block (the family's ``media.py``);
* thinking: replayed only where the target can verify it (the family's ``thinking.py``).

A plain text part (its ``type`` and ``text`` only) is written as it is, first.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Literal, assert_never

from chatcodec._narrow import as_dict
from chatcodec._payloads import read_json_text
from chatcodec._providers.families.aws.audio import decode_audio, encode_audio
from chatcodec._providers.families.aws.blocks import cache_marker, cache_point
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.citations import decode_citations, encode_citations
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.documents import decode_document, encode_document
from chatcodec._providers.families.aws.inner_cache_points import decode_inner, mark_apart
from chatcodec._providers.families.aws.media import Media
from chatcodec._providers.families.aws.thinking import decode_reasoning, encode_thinking
from chatcodec._providers.families.aws.tool_ids import (
    SENT_AS_IS,
    restore_tool_use_id,
    tool_use_id,
)
from chatcodec._providers.families.aws.tool_ids import tool_name as aws_tool_name
from chatcodec._providers.families.aws.tool_use import decode_tool_use, encode_tool_use
from chatcodec._providers.kit.closed_schema import WithFloats, json_text
from chatcodec._providers.kit.plain_shapes import PLAIN_TEXT
from chatcodec._providers.kit.tool_id_mapping import PREFIX
from chatcodec.codec_kit import compact_json, leftovers, restore_fields
from chatcodec.contract import Steps

USER_KINDS = frozenset({"text", "image", "document", "audio", "video"})
"""Members a canonical user message (or tool result) holds as parts."""
ASSISTANT_KINDS = frozenset({"text", "image", "toolUse", "reasoningContent", "citationsContent"})
"""Members a canonical assistant message holds as parts."""
SYSTEM_KINDS = frozenset({"text"})
"""Members a canonical system message holds as parts."""
RESULT_KINDS = frozenset({"text", "json", "image", "document", "video"})
"""Members of a tool result's content that canonical holds as parts."""

RESULT_PARTS = frozenset({"text", "image", "document", "video", "opaque"})
"""Canonical parts a tool result's content is written as: botocore's
``ToolResultContentBlock`` has the members ``json``, ``text``, ``image``, ``document``,
``video`` and ``searchResult`` (kept opaque), no ``audio``
(https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultContentBlock.html);
another part there is reported, not sent."""

_MEMBERS = frozenset(
    {"text", "image", "document", "video", "audio", "toolUse", "toolResult", "guardContent", "cachePoint"}
    | {"reasoningContent", "citationsContent", "searchResult", "json"}
)

# --- decode --------------------------------------------------------------------------------


def opaque(body: Body, block: Mapping[str, Any]) -> dict[str, Any]:
    """A block kept whole, to go back out verbatim (to its body only)."""
    return {"type": "opaque", "provider": body.kit.name, "data": dict(block)}


def decode_blocks(
    body: Body, blocks: list[Any], kinds: frozenset[str], model: str | None = None, *, closed: bool = False
) -> list[dict[str, Any]]:
    """Canonical parts for a list of (validated) blocks; a ``cachePoint`` marks the part
    before it. ``closed``: the blocks passed the closed schema (Converse's ``wire.py``), whose tool
    input is written by :func:`arguments_text` that way."""
    parts: list[dict[str, Any]] = []
    append = parts.append
    calls = "toolUse" in kinds
    for block in blocks:
        if len(block) == 1:  # the plain blocks first: text (every kind holds it), then a call
            text = block.get("text")
            if text is not None:
                append({"type": "text", "text": text})
                continue
            call = block.get("toolUse") if calls else None
            if call is not None:
                part = decode_tool_use(body, call, closed)
                append(opaque(body, as_sent(block) if closed else block) if part is None else part)
                continue
        marker = body_marker(body, block)
        if marker is not None and parts and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = marker
            mark_apart(body, parts[-1])
        else:
            append(
                (body.cache_inside and decode_inner(body, block))
                or decode_block(body, block, kinds, model, closed=closed)
            )
    return parts


def body_marker(body: Body, block: Mapping[str, Any]) -> dict[str, Any] | None:
    """The canonical marker for a ``cachePoint`` block (:func:`~.blocks.cache_marker`) on
    this body: one with a ``ttl`` the body's cache point lacks is kept whole instead (None)."""
    marker = cache_marker(block)
    return None if marker is not None and not body.cache_ttl and "ttl" in marker else marker


def member_of(block: Mapping[str, Any]) -> str | None:
    """The block's one member, or None when it has none known, several, or extra keys."""
    if len(block) != 1:
        return None
    (member,) = block
    return member if member in _MEMBERS else None


def arguments_text(value: object, *, closed: bool) -> str:
    """A tool input (or ``json`` block) as canonical argument text: compact JSON, byte for
    byte ``kit.compact_json``; past the closed schema, a value without floats is written by
    pydantic-core's writer, several times faster (:func:`~chatcodec._providers.kit.closed_schema.json_text`)."""
    return json_text(value, _max_digits()) if closed else compact_json(value)


_max_digits = sys.get_int_max_str_digits


def decode_block(
    body: Body, block: Mapping[str, Any], kinds: frozenset[str], model: str | None = None, *, closed: bool = False
) -> dict[str, Any]:
    """One block as a canonical part (an opaque part when canonical cannot hold it here, or
    the body lacks its member)."""
    member = member_of(block)
    if member in body.lacks:
        return opaque(body, as_sent(block) if closed else block)
    if member == "guardContent" and "text" in kinds:
        guarded = decode_guarded_text(body, block[member])
        if guarded is not None:
            return guarded
    if member is None or member not in kinds:
        return opaque(body, as_sent(block) if closed else block)
    value = block[member]
    decoded: dict[str, Any] | None
    if member == "text":
        decoded = {"type": "text", "text": value}
    elif member == "toolUse":
        decoded = decode_tool_use(body, value, closed)
    elif member == "reasoningContent":
        decoded = decode_reasoning(body, value, model)
    elif member == "json":
        decoded = {"type": "text", "text": arguments_text(value, closed=closed)}
        decoded["provider_metadata"] = {body.kit.name: {"_json": True}}
    elif member in _MEDIA:
        decoded = _decode_media(body, member, value)
    else:
        decoded = decode_citations(body, value)
    if decoded is None:  # kept whole
        return opaque(body, as_sent(block) if closed else block)
    return decoded


_MEDIA = frozenset({"image", "video", "document", "audio"})


def _decode_media(body: Body, member: str, value: Mapping[str, Any]) -> dict[str, Any] | None:
    """A media block's part (None: kept whole)."""
    if member == "image":
        return Media(body).decode_image(value)
    if member == "video":
        return Media(body).decode_video(value)
    if member == "document":
        return decode_document(body, value)
    return decode_audio(body, value)


GUARD = "_guard"
"""Marker on a text part read from a ``guardContent`` text block: the block's other fields
(``qualifiers``), so Bedrock gets the guarded block back."""


def decode_guarded_text(body: Body, guard: Mapping[str, Any]) -> dict[str, Any] | None:
    """A ``guardContent`` text block (``{"text": {"text", "qualifiers"}}``) as a text part.

    The text is what the model reads; ``guardContent`` only selects what a request's
    guardrail assesses ("Include a guardrail with the Converse API", Amazon Bedrock User
    Guide: "the guardrail only evaluates the content in the guardContent field"). So the
    text reaches every format, and the ``_guard`` marker (meaningful: another provider
    reports losing the guard) writes the block back for Bedrock. An image guard, or a
    block of another shape, is kept whole (None)."""
    text_block = as_dict(guard.get("text")) if len(guard) == 1 else None
    if text_block is None or not isinstance(text_block.get("text"), str):
        return None
    return body.kit.attach({"type": "text", "text": text_block["text"]}, {GUARD: leftovers(text_block, ("text",))})


def as_sent(value: Any) -> Any:
    """A value read past the closed schema as the wire had it: each tool input written
    ahead there (a :class:`~chatcodec._providers.kit.closed_schema.WithFloats`) given back as it came,
    for a block kept whole."""
    if value.__class__ is WithFloats:
        return value.value
    if value.__class__ is dict:
        return {key: as_sent(item) for key, item in value.items()}
    if value.__class__ is list:
        return [as_sent(item) for item in value]
    return value


def decode_tool_result(body: Body, result: Mapping[str, Any], *, closed: bool = False) -> dict[str, Any]:
    """A ``toolResult`` block (in a user turn) as a canonical tool-result part."""
    wire_id: str = result["toolUseId"]
    canonical: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": restore_tool_use_id(wire_id) if wire_id.startswith(PREFIX) else wire_id,
        "content": [
            {"type": "text", "text": block["text"]}
            if len(block) == 1 and "text" in block
            else decode_block(body, block, RESULT_KINDS, closed=closed)
            for block in result["content"]
        ],
    }
    if len(result) == 2:  # the id and content alone: nothing to keep
        return canonical
    bag = leftovers(result, ("toolUseId", "content", "status"))
    status = result.get("status")
    if status == "error":
        canonical["is_error"] = True
    elif status == "success":
        bag["_status"] = "success"
    elif status is not None:
        bag["status"] = status
    return body.kit.attach(canonical, bag)


# --- encode --------------------------------------------------------------------------------

Blocks = list[dict[str, Any]]

PartType = Literal[
    "text", "image", "audio", "video", "document", "thinking", "refusal", "tool_use", "tool_result", "opaque"
]
"""The canonical part tags (``content.AnyPart``), so a match over them is checked whole."""


def encode_blocks(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> Blocks:
    """The wire blocks for ``part`` (itself, then a ``cachePoint`` when it is marked: a
    Bedrock cache marker is a block of its own); none when Bedrock cannot carry it."""
    if len(part) == PLAIN_TEXT and part["type"] == "text":
        return [{"text": part["text"]}]
    block = encode_part(part, context, at)
    if block is None:
        return []
    marker = part.get("cache_control")
    if marker is None and part["type"] == "tool_result":
        marker = last_result_marker(part)
    return [block] if marker is None else marked(block, marker, context, at)


def last_result_marker(result: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The cache marker on the last part of a tool result's content.

    A ``toolResult`` holds no ``cachePoint`` (botocore's ``ToolResultContentBlock`` has no
    such member), but a ``cachePoint`` right after the ``toolResult`` block caches the same
    prefix: everything up to the result's end, which a marker on its last part (Anthropic
    puts ``cache_control`` on the blocks inside a ``tool_result``) asks for."""
    content: Any = result.get("content")  # per result: type tests inline, not TypeGuard frames
    last: Any = content[-1] if content.__class__ is list and content else None
    if last.__class__ is not dict:
        return None
    marker: Any = last.get("cache_control")
    return marker if marker.__class__ is dict else None


def marked(block: dict[str, Any], marker: Mapping[str, Any], context: BedrockContext, at: Steps) -> Blocks:
    """A part's block and the ``cachePoint`` after it for its ``cache_control`` (a response
    has none: reported)."""
    if not context.for_request:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Bedrock responses carry no cache points", "setting"
        )
        return [block]
    return [block, cache_point_for(marker, context, (*at, "cache_control"))]


def cache_point_for(marker: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    """The ``cachePoint`` block for a marker (at ``at``) on the context's body: a ``ttl`` the
    body's cache point lacks is reported and left out."""
    body = context.body
    if body.cache_ttl or marker.get("ttl") is None:
        return cache_point(marker)
    context.losses.add((*at, "ttl"), "cache ttl", f"{body.short}'s cache point has no ttl", "setting")
    return cache_point({})


def encode_part(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """The wire block for ``part`` (canonical part data), without its cache point (see
    :func:`encode_blocks`); None when Bedrock cannot carry it (a loss)."""
    kind: PartType = part["type"]
    match kind:
        case "tool_use":
            return encode_tool_use(part, context, at)
        case "tool_result":
            return _encode_tool_result(part, context, at)
        case "text" | "refusal":
            return _encode_text(part, context, at)
        case "thinking":
            return encode_thinking(part, context, at)
        case "image" | "document" | "audio" | "video":
            return _encode_media(kind, part, context, at)
        case "opaque":
            return _encode_opaque(part, context, at)
        case _:
            assert_never(kind)


def _encode_text(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    """A text (or refusal) part's block: ``text``, or the ``guardContent`` or
    ``citationsContent`` block it came as."""
    if part["type"] == "refusal":
        context.losses.add(at, "refusal part", "Bedrock has no refusal block; sent as text")
    metadata = part.get("provider_metadata")  # a text block has no other fields: only other providers' data is lost
    bag = context.body.kit.claim(context.losses, metadata, at) if metadata else {}
    guard = bag.get(GUARD)
    if isinstance(guard, dict):
        return {"guardContent": {"text": {"text": part["text"], **guard}}}
    return encode_citations(part["text"], bag) or {"text": part["text"]}


def _encode_media(kind: str, part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """An image, document, audio or video part's block (None: the body lacks the member,
    or cannot take the media; reported)."""
    body = context.body
    if kind in body.lacks:
        context.losses.add(at, f"{kind} part", f"{body.name}'s body has no {kind} blocks")
        return None
    if kind == "document" and Media.takes_video(part["source"].get("media_type")) and "video" not in body.lacks:
        return _encode_video_document(part, context, at)
    if kind == "document":
        return encode_document(part, context, at)
    media = Media(body)
    if kind == "image":
        return media.encode_image(part, context, at)
    if kind == "audio":
        return encode_audio(part, media.part_bag(part, context, at), context, at)
    return media.encode_video(part, media.part_bag(part, context, at), context, at)


def _encode_video_document(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """A document part holding a video (OpenAI's ``file`` part of an ``.mp4``, read as a
    document): a ``video`` block, the one Bedrock block for video (Converse ``VideoBlock``:
    https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_VideoBlock.html), not
    a dropped part; a ``DocumentBlock`` takes no video format. It reads back as a video part,
    and a video block has no name: both reported (issue 61)."""
    context.losses.add(
        (*at, "source"), "video document", "Bedrock takes video as a video block; it reads back as video"
    )
    for field in ("filename", "title"):
        if part.get(field) is not None:
            context.losses.add((*at, field), f"video document {field}", "a Bedrock video block has no name")
    media = Media(context.body)
    video = {"type": "video", "source": part["source"]}
    return media.encode_video(video, media.part_bag(part, context, at), context, at)


def tool_name(name: str, context: BedrockContext, at: Steps) -> str:
    """``name`` as Bedrock's ``ToolName`` allows it (the family's rule, :mod:`.tool_ids`)."""
    return aws_tool_name(name, context, at, context.body.kit.name)


_NO_BAG: Mapping[str, Any] = {}


def _encode_tool_result(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    metadata = part.get("provider_metadata")
    bag = context.body.kit.claim(context.losses, metadata, at) if metadata else _NO_BAG
    result = restore_fields(bag) if bag else {}
    call_id = part["tool_use_id"]
    result["toolUseId"] = call_id if call_id in SENT_AS_IS else tool_use_id(call_id, context.losses, at)
    content = part.get("content", "")
    if isinstance(content, str):
        result["content"] = [{"text": content}] if content else []
    else:
        blocks: Blocks = []
        for index, item in enumerate(content):
            if len(item) == PLAIN_TEXT and item["type"] == "text":
                blocks.append({"text": item["text"]})
            else:
                last = index == len(content) - 1 and part.get("cache_control") is None
                blocks.extend(_result_content(item, context, (*at, "content", index), last=last))
        result["content"] = blocks
    is_error = part.get("is_error") is True
    policy = context.tool_result_status
    if policy != "never" and (is_error or policy == "always" or (bag and bag.get("_status") == "success")):
        result["status"] = "error" if is_error else "success"
    elif is_error:
        context.losses.add((*at, "is_error"), "tool error flag", "toolResult.status is off for this model family")
    if part.get("name") is not None:
        context.losses.add((*at, "name"), "tool name", "Bedrock results carry no name (the call has it)")
    return {"toolResult": result}


def _result_content(item: Mapping[str, Any], context: BedrockContext, at: Steps, *, last: bool) -> Blocks:
    """An item of a result's content (``last``: its marker goes after the ``toolResult``
    block, :func:`last_result_marker`)."""
    if item["type"] == "text" and context.body.marker(item.get("provider_metadata"), "_json") is True:
        try:
            return [{"json": read_json_text(item["text"])}]
        except ValueError:
            pass  # edited into text that is not JSON: sent as text
    if item["type"] not in RESULT_PARTS:
        why = "Bedrock tool results hold text, JSON, images, documents and videos (ToolResultContentBlock)"
        context.losses.add(at, f"{item['type']} part", why)
        return []
    blocks = encode_blocks(item, context, at)
    if len(blocks) > 1 and not last:  # a tool result's content has no cache points
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Bedrock has no cache point inside a tool result", "setting"
        )
    return blocks[:1]


def _encode_opaque(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    kit = context.body.kit
    if part["provider"] != kit.name:
        context.losses.add(
            at,
            f"{part['provider']} block",
            f"only {context.body.short}'s own blocks can be sent to {context.body.short}",
        )
        return None
    metadata = part.get("provider_metadata")
    if metadata:
        kit.claim(context.losses, metadata, at)
    return dict(part["data"])
