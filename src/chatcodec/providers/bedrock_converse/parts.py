"""Bedrock Converse content blocks <-> canonical content parts.

Decoding: a block is a union by member name; a block with exactly one known member that
canonical can hold where it stands becomes that part (an assistant's ``citationsContent``
a text part: :mod:`.citations`), anything else (``video``,
``guardContent``, ``searchResult``, Nova's server-tool ``toolUse``
with ``type: "server_tool_use"`` and its ``toolResult`` inside the *assistant* turn, a
member added after this was written) an opaque part holding the block verbatim. A
``cachePoint`` block marks the part before it: it becomes that part's ``cache_control``
(:func:`cache_marker`; one with nothing before it, or with fields canonical has no word
for, is kept whole).

Encoding follows the rules Bedrock rejects requests over:

* images and documents go as ``bytes`` (base64 text here) or an ``s3Location``; Bedrock
  fetches no ``http(s)`` URL and has no file ids, so such a source is a loss (a warning or
  an error by the ``on_loss`` policy) and the part is not sent;
* a document needs a ``name`` of letters, digits, single spaces, hyphens, parentheses
  and square brackets, unique in the request: other characters become ``-``, repeated
  names get `` (2)``, `` (3)`` ..., and every changed name is reported;
* tool ids go through :mod:`.tool_ids` (64 characters, ``[a-zA-Z0-9_.:-]``), tool names
  are made to match ``[a-zA-Z0-9_-]{1,64}`` the same way everywhere (reported);
* ``toolResult.status`` is written when the source had it (``"error"`` for a failed
  result, ``"success"`` when it was spelled out), or always / never by the
  ``tool_result_status`` option (some model families reject the field);
* audio goes as an ``audio`` block, as an image does (:mod:`.audio`);
* thinking: replayed only where the target can verify it (:mod:`.thinking`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, assert_never

from chatcodec._narrow import as_dict
from chatcodec.content import (
    AnyPart,
    AudioPart,
    Base64Source,
    CacheControl,
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
from chatcodec.payloads import loads
from chatcodec.providers.bedrock_converse.audio import decode_audio, encode_audio
from chatcodec.providers.bedrock_converse.citations import decode_citations, encode_citations
from chatcodec.providers.bedrock_converse.context import BedrockContext, StatusPolicy
from chatcodec.providers.bedrock_converse.markers import KIT, PROVIDER
from chatcodec.providers.bedrock_converse.thinking import decode_reasoning, encode_thinking, is_base64
from chatcodec.providers.bedrock_converse.tool_ids import EMPTY_ID, MAPPING, restore_tool_use_id
from chatcodec.providers.kit import Steps, leftovers, restore_fields, tool_names
from chatcodec.providers.tool_arguments import input_object

# --- formats -------------------------------------------------------------------------------

IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
"""botocore ``ImageFormat`` -> media type."""

DOCUMENT_TYPES = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "html": "text/html",
    "txt": "text/plain",
    "md": "text/markdown",
}
"""botocore ``DocumentFormat`` -> media type."""

_IMAGE_FORMATS = {media: name for name, media in IMAGE_TYPES.items()} | {"image/jpg": "jpeg"}
_DOCUMENT_FORMATS = {media: name for name, media in DOCUMENT_TYPES.items()}

USER_KINDS = frozenset({"text", "image", "document", "audio"})
"""Members a canonical user message (or tool result) holds as parts."""
ASSISTANT_KINDS = frozenset({"text", "image", "toolUse", "reasoningContent", "citationsContent"})
"""Members a canonical assistant message holds as parts."""
SYSTEM_KINDS = frozenset({"text"})
"""Members a canonical system message holds as parts."""
RESULT_KINDS = frozenset({"text", "json", "image", "document"})
"""Members of a tool result's content that canonical holds as parts."""

_MEMBERS = frozenset(
    {"text", "image", "document", "video", "audio", "toolUse", "toolResult", "guardContent", "cachePoint"}
    | {"reasoningContent", "citationsContent", "searchResult", "json"}
)

# --- decode --------------------------------------------------------------------------------


def opaque(block: Mapping[str, Any]) -> dict[str, Any]:
    """A block kept whole, to go back out verbatim."""
    return {"type": "opaque", "provider": PROVIDER, "data": dict(block)}


def decode_blocks(blocks: list[Any], kinds: frozenset[str], model: str | None = None) -> list[dict[str, Any]]:
    """Canonical parts for a list of (validated) blocks; a ``cachePoint`` marks the part before it."""
    parts: list[dict[str, Any]] = []
    for block in blocks:
        marker = cache_marker(block)
        if marker is not None and parts and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = marker
        else:
            parts.append(decode_block(block, kinds, model))
    return parts


def cache_marker(block: Mapping[str, Any]) -> dict[str, Any] | None:
    """The canonical marker for a ``cachePoint`` block (among content, system or tools),
    or None when the block is another one or says more than canonical can (another
    ``type``, extra keys)."""
    point = as_dict(block.get("cachePoint"))
    if len(block) != 1 or point is None or point.get("type") != "default":
        return None
    if not set(point) <= {"type", "ttl"} or not isinstance(point.get("ttl", ""), str):
        return None
    return {"type": "ephemeral", **({"ttl": point["ttl"]} if "ttl" in point else {})}


def member_of(block: Mapping[str, Any]) -> str | None:
    """The block's one member, or None when it has none known, several, or extra keys."""
    if len(block) != 1:
        return None
    (member,) = block
    return member if member in _MEMBERS else None


def decode_block(block: Mapping[str, Any], kinds: frozenset[str], model: str | None = None) -> dict[str, Any]:
    """One block as a canonical part (an opaque part when canonical cannot hold it here)."""
    member = member_of(block)
    if member is None or member not in kinds:
        return opaque(block)
    value = block[member]
    decoded: dict[str, Any] | None
    if member == "text":
        decoded = {"type": "text", "text": value}
    elif member == "json":
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        decoded = KIT.attach({"type": "text", "text": text}, {"_json": True})
    elif member == "image":
        decoded = _decode_image(value)
    elif member == "document":
        decoded = _decode_document(value)
    elif member == "audio":
        decoded = decode_audio(value, _decode_source)
    elif member == "citationsContent":
        decoded = decode_citations(value)
    elif member == "toolUse":
        decoded = _decode_tool_use(value)
    else:
        decoded = decode_reasoning(value, model)
    return opaque(block) if decoded is None else decoded


def _decode_source(source: Mapping[str, Any], media_type: str | None) -> dict[str, Any] | None:
    if len(source) != 1:
        return None
    if isinstance(source.get("bytes"), str) and media_type is not None:
        return {"type": "base64", "media_type": media_type, "data": source["bytes"]}
    location = as_dict(source.get("s3Location"))
    if location is not None and set(location) == {"uri"} and location["uri"]:
        url: dict[str, Any] = {"type": "url", "url": location["uri"]}
        if media_type is not None:
            url["media_type"] = media_type
        return url
    return None


def _decode_image(image: Mapping[str, Any]) -> dict[str, Any] | None:
    media_type = IMAGE_TYPES.get(image["format"])
    source = _decode_source(image["source"], media_type)
    if media_type is None or source is None:
        return None
    return KIT.attach({"type": "image", "source": source}, leftovers(image, ("format", "source")))


def _decode_document(document: Mapping[str, Any]) -> dict[str, Any] | None:
    wire_format = document.get("format")
    media_type = DOCUMENT_TYPES.get(wire_format) if isinstance(wire_format, str) else None
    if wire_format is not None and media_type is None:
        return None
    source = document["source"]
    decoded_source: dict[str, Any] | None
    if isinstance(source.get("text"), str) and len(source) == 1:
        decoded_source = {"type": "text", "text": source["text"]}
        if media_type is not None:
            decoded_source["media_type"] = media_type
    else:
        decoded_source = _decode_source(source, media_type)
    if decoded_source is None:
        return None
    canonical: dict[str, Any] = {"type": "document", "source": decoded_source}
    bag = leftovers(document, ("format", "source", "name"))
    if isinstance(document.get("name"), str):
        canonical["filename"] = document["name"]
    else:
        bag["_no_name"] = True
    if wire_format is None:
        bag["_no_format"] = True
    return KIT.attach(canonical, bag)


def _decode_tool_use(call: Mapping[str, Any]) -> dict[str, Any] | None:
    if call.get("type", "tool_use") != "tool_use":
        return None  # a server tool's call (Nova ``server_tool_use``): kept whole
    canonical = {
        "type": "tool_use",
        "id": restore_tool_use_id(call["toolUseId"]),
        "name": call["name"],
        "arguments": json.dumps(call["input"], ensure_ascii=False, separators=(",", ":")),
    }
    bag = leftovers(call, ("toolUseId", "name", "input"))
    if call["toolUseId"] == "":  # a response gives it a made-up id (tool_ids.name_empty_calls)
        bag[EMPTY_ID] = True
    return KIT.attach(canonical, bag)


def decode_tool_result(result: Mapping[str, Any]) -> dict[str, Any]:
    """A ``toolResult`` block (in a user turn) as a canonical tool-result part."""
    canonical: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": restore_tool_use_id(result["toolUseId"]),
        "content": [decode_block(block, RESULT_KINDS) for block in result["content"]],
    }
    bag = leftovers(result, ("toolUseId", "content", "status"))
    status = result.get("status")
    if status == "error":
        canonical["is_error"] = True
    elif status == "success":
        bag["_status"] = "success"
    elif status is not None:
        bag["status"] = status
    return KIT.attach(canonical, bag)


# --- encode --------------------------------------------------------------------------------

Blocks = list[dict[str, Any]]


def cache_point(cache_control: CacheControl) -> dict[str, Any]:
    """The ``cachePoint`` block for a canonical marker."""
    point: dict[str, Any] = {"type": "default"}
    if cache_control.ttl is not None:
        point["ttl"] = cache_control.ttl
    return {"cachePoint": point}


def _with_cache(block: dict[str, Any], part: AnyPart, context: BedrockContext, at: Steps) -> Blocks:
    if part.cache_control is None:
        return [block]
    if not context.for_request:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Bedrock responses carry no cache points", "setting"
        )
        return [block]
    return [block, cache_point(part.cache_control)]


def encode_blocks(part: AnyPart, context: BedrockContext, at: Steps) -> Blocks:
    """The wire blocks for ``part`` (itself, then a ``cachePoint`` when it is marked: a
    Bedrock cache marker is a block of its own); none when Bedrock cannot carry it."""
    block = encode_part(part, context, at)
    return [] if block is None else _with_cache(block, part, context, at)


def encode_part(part: AnyPart, context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """The wire block for ``part``, without its cache point (see :func:`encode_blocks`);
    None when Bedrock cannot carry it (a loss)."""
    block: dict[str, Any] | None
    match part:
        case ToolResultPart():
            block = _encode_tool_result(part, context, at)
        case ToolUsePart():
            block = _encode_tool_use(part, context, at)
        case TextPart() | RefusalPart():
            if isinstance(part, RefusalPart):
                context.losses.add(at, "refusal part", "Bedrock has no refusal block; sent as text")
            bag = _bag(part, context, at)  # a text block has no other fields: only other providers' data is lost
            block = encode_citations(part.text, bag) or {"text": part.text}
        case ThinkingPart():
            block = encode_thinking(part, context, at)
        case ImagePart():
            block = _encode_image(part, context, at)
        case DocumentPart():
            block = _encode_document(part, context, at)
        case OpaquePart():
            block = _encode_opaque(part, context, at)
        case AudioPart():
            block = encode_audio(part, _bag(part, context, at), _source, context, at)
        case _:
            assert_never(part)
    return block


def _bag(part: AnyPart, context: BedrockContext, at: Steps) -> dict[str, Any]:
    if part.provider_metadata is None:
        return {}
    return KIT.claim(context.losses, part.provider_metadata, at)


def _format(
    media_type: str | None, formats: Mapping[str, str], what: str, context: BedrockContext, at: Steps
) -> str | None:
    found = formats.get((media_type or "").lower())
    if found is None:
        context.losses.add((*at, "source", "media_type"), f"{what} of type {media_type!r}", "Bedrock does not take it")
    return found


URL_WHY = "Bedrock takes media only as bytes or an S3 location; it fetches no URL, so it was not sent"
"""Why media by an ``http(s)`` URL is not sent (a loss)."""


def _source(
    source: UrlSource | Base64Source | FileSource | TextSource, what: str, context: BedrockContext, at: Steps
) -> dict[str, Any] | None:
    match source:
        case Base64Source() if is_base64(source.data):
            return {"bytes": source.data}
        case Base64Source():
            context.losses.add((*at, "source", "data"), f"{what} data", "not standard base64 (Bedrock bytes)")
        case UrlSource() if source.url.startswith("s3://"):
            return {"s3Location": {"uri": source.url}}
        case UrlSource():
            context.losses.add((*at, "source"), f"{what} by URL", URL_WHY)
        case FileSource():
            context.losses.add((*at, "source"), f"{what} by file id", "Bedrock has no file ids; not sent")
        case TextSource():
            return {"text": source.text}
        case _:
            assert_never(source)
    return None


def _encode_image(part: ImagePart, context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    if part.detail not in (None, "auto"):
        context.losses.add((*at, "detail"), f"image detail {part.detail!r}", "Bedrock has no resolution hint")
    source = _source(part.source, "image", context, at)
    if source is None:
        return None
    image_format = _format(part.source.media_type, _IMAGE_FORMATS, "image", context, at)
    if image_format is None:
        return None
    return {"image": {**restore_fields(_bag(part, context, at)), "format": image_format, "source": source}}


_NAME_CHARACTER = re.compile(r"[^A-Za-z0-9\s\-()\[\]]")
_SPACES = re.compile(r"\s+")


def document_name(wanted: str, context: BedrockContext) -> str:
    """A name Bedrock accepts (its allowed characters, single spaces, 1-200 long), unique
    among the request's documents."""
    name = _SPACES.sub(" ", _NAME_CHARACTER.sub("-", wanted)).strip()[:190] or "document"
    unique, count = name, 1
    while unique in context.document_names:
        count += 1
        unique = f"{name} ({count})"
    context.document_names.add(unique)
    return unique


def _encode_document(part: DocumentPart, context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    source = _source(part.source, "document", context, at)
    if source is None:
        return None
    bag = _bag(part, context, at)
    document: dict[str, Any] = restore_fields(bag)
    if not bag.get("_no_format"):
        document_format = _format(part.source.media_type or "text/plain", _DOCUMENT_FORMATS, "document", context, at)
        if document_format is None:
            return None
        document["format"] = document_format
    wanted = part.filename if part.filename is not None else part.title
    if part.title is not None:
        context.losses.add((*at, "title"), "document title", "Bedrock documents have a name, no title")
    if wanted is not None or not bag.get("_no_name"):
        name = document_name(wanted or "document", context)
        if name != part.filename:
            context.losses.add(
                (*at, "filename"), "document name", f"not one Bedrock accepts or not unique; sent {name!r}"
            )
        document["name"] = name
    document["source"] = source
    return {"document": document}


def tool_name(name: str, context: BedrockContext, at: Steps) -> str:
    """``name`` as Bedrock's ``ToolName`` allows it (OpenAI's rule: botocore's pattern
    ``[a-zA-Z0-9_-]+``, 1 to 64): the shared rewrite (:mod:`~chatcodec.providers.kit.tool_names`),
    reported, so two long names stay two names and calls, choices and definitions agree.
    A blank name is an error in a request and ``tool``, reported, in a response or stream."""
    if not name.strip() and not context.for_request:  # what the model called: no request to refuse
        context.losses.add((*at, "name"), "blank tool name", "Bedrock tool names are 1 to 64 characters; sent 'tool'")
        return "tool"
    return tool_names.tool_name(name, context.losses, at, PROVIDER)


def tool_use_id(original: str, context: BedrockContext, at: Steps) -> str:
    """The id sent for ``original``; a hashed one (too long to escape) is reported."""
    if MAPPING.hashed(original):
        context.losses.add(
            at, "tool call id", "longer than Bedrock's 64 characters once escaped; sent hashed", "metadata"
        )
    return MAPPING.sanitize(original)


def _encode_tool_use(part: ToolUsePart, context: BedrockContext, at: Steps) -> dict[str, Any]:
    bag = _bag(part, context, at)
    call = {
        **restore_fields(bag),
        "toolUseId": "" if bag.get(EMPTY_ID) else tool_use_id(part.id, context, (*at, "id")),
        "name": tool_name(part.name, context, at),
        "input": tool_input(part, context, at),
    }
    return {"toolUse": call}


def tool_input(part: ToolUsePart, context: BedrockContext, at: Steps) -> dict[str, Any]:
    """The arguments as the JSON object ``toolUse.input`` must be, by the rule shared with
    Anthropic (:mod:`chatcodec.providers.tool_arguments`: text that is not an object is
    wrapped, never sent as ``{}``, and reported)."""
    return input_object(part.arguments, context.losses, at, "Bedrock")


def _encode_tool_result(part: ToolResultPart, context: BedrockContext, at: Steps) -> dict[str, Any]:
    bag = _bag(part, context, at)
    result: dict[str, Any] = {**restore_fields(bag), "toolUseId": tool_use_id(part.tool_use_id, context, at)}
    if isinstance(part.content, str):
        result["content"] = [{"text": part.content}] if part.content else []
    else:
        result["content"] = [
            block
            for index, item in enumerate(part.content)
            for block in _result_content(item, context, (*at, "content", index))
        ]
    status = _status(part, bag, context.tool_result_status)
    if status is not None:
        result["status"] = status
    elif part.is_error:
        context.losses.add((*at, "is_error"), "tool error flag", "toolResult.status is off for this model family")
    if part.name is not None:
        context.losses.add((*at, "name"), "tool name", "Bedrock results carry no name (the call has it)")
    return {"toolResult": result}


def _status(part: ToolResultPart, bag: Mapping[str, Any], policy: StatusPolicy) -> str | None:
    if policy == "never":
        return None
    if part.is_error:
        return "error"
    if policy == "always" or bag.get("_status") == "success":
        return "success"
    return None


def _result_content(item: AnyPart, context: BedrockContext, at: Steps) -> Blocks:
    if isinstance(item, TextPart) and KIT.marker(item.provider_metadata, "_json") is True:
        try:
            return [{"json": loads(item.text)}]
        except ValueError:
            pass  # edited into text that is not JSON: sent as text
    blocks = encode_blocks(item, context, at)
    if len(blocks) > 1:  # a tool result's content has no cache points
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Bedrock has no cache point inside a tool result", "setting"
        )
    return blocks[:1]


def _encode_opaque(part: OpaquePart, context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    if part.provider != PROVIDER:
        context.losses.add(at, f"{part.provider} block", "only Bedrock's own blocks can be sent to Bedrock")
        return None
    if part.provider_metadata:
        KIT.claim(context.losses, part.provider_metadata, at)
    return dict(part.data)
