"""Nova's content blocks <-> canonical parts (canonical data, no model).

A block is a union by member name, as on every Bedrock block wire
(:mod:`chatcodec._providers.families.aws.blocks`). A block with exactly one member canonical
can hold where it stands becomes that part: ``text``; ``image`` and ``video`` from
``bytes`` (base64 text in the JSON body, as in Converse's) or an ``s3Location`` (the AWS
family's reader and writer, ``families/aws/media.py``, over Nova's :data:`~.markers.BODY`);
``toolUse`` (``families/aws/tool_use.py``: a server tool's call kept whole);
``toolResult`` of ``text``, ``json`` and ``image`` items; ``reasoningContent`` (Nova 2 Lite
sends ``[REDACTED]`` text: https://docs.aws.amazon.com/nova/latest/nova2-userguide/reasoning-capabilities.html;
the family's ``thinking.py``, which keeps signed or redacted reasoning whole for Nova).
Anything else (a ``document``, which InvokeModel does not take, ``audio``, a member added
later, a block of several members) is an opaque part holding the block verbatim. A
``cachePoint`` block marks the part before it (its ``cache_control``: ``messages.py``).

Encoding writes what Nova takes and reports the rest: no ``http(s)`` URL or file id
(Bedrock reads bytes or S3: the family's media writer), no document, no audio outside Nova
2 Omni's formats, thinking of another provider (Nova verifies no signature: the family's
``thinking.py`` sends it as reasoning text only when it is Nova's own or unsigned of
unknown origin). Tool ids and names follow the family's rules (``families/aws/tool_ids.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list, is_dict
from chatcodec._payloads import loads
from chatcodec._providers.bedrock_nova.markers import BODY, KIT, PROVIDER
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.media import Media
from chatcodec._providers.families.aws.thinking import decode_reasoning, encode_thinking
from chatcodec._providers.families.aws.tool_ids import restore_tool_use_id, tool_use_id
from chatcodec._providers.families.aws.tool_ids import tool_name as aws_tool_name
from chatcodec._providers.families.aws.tool_use import decode_tool_use, encode_tool_use
from chatcodec._providers.kit import Steps, compact_json, leftovers, restore_fields

MEDIA = Media(BODY)
"""Nova's images and videos (the AWS family's reader and writer)."""

# --- decode --------------------------------------------------------------------------------


def opaque(block: Mapping[str, Any]) -> dict[str, Any]:
    """A block kept whole, to go back out verbatim."""
    return {"type": "opaque", "provider": PROVIDER, "data": dict(block)}


def decode_block(block: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical part for one block (opaque when canonical cannot hold it exactly)."""
    if len(block) == 1:
        ((member, value),) = block.items()
        if member == "text" and isinstance(value, str):
            return {"type": "text", "text": value}
        fields = as_dict(value)
        decoded = _decode_member(member, fields) if fields is not None else None
        if decoded is not None:
            return decoded
    return opaque(block)


def _decode_member(member: str, fields: dict[str, Any]) -> dict[str, Any] | None:
    if member == "image":
        return MEDIA.decode_image(fields)
    if member == "video":
        return MEDIA.decode_video(fields)
    if member == "toolUse":
        return decode_tool_use(BODY, fields)
    if member == "toolResult":
        return _decode_tool_result(fields)
    if member == "reasoningContent":
        return decode_reasoning(BODY, fields, None)
    return None


def _decode_tool_result(result: Mapping[str, Any]) -> dict[str, Any] | None:
    content: list[dict[str, Any]] = []
    for item in result["content"]:
        decoded = _decode_result_item(item)
        if decoded is None:
            return None
        content.append(decoded)
    bag = leftovers(result, ("toolUseId", "content", "status"))
    part: dict[str, Any] = {"type": "tool_result", "tool_use_id": restore_tool_use_id(result["toolUseId"])}
    part["content"] = content
    status = result.get("status")
    if status == "error":
        part["is_error"] = True
    elif status == "success":
        bag["_status"] = True
    elif status is not None:
        return None
    return KIT.attach(part, bag)


def _decode_result_item(item: Mapping[str, Any]) -> dict[str, Any] | None:
    if len(item) != 1:
        return None
    if isinstance(item.get("text"), str):
        return {"type": "text", "text": item["text"]}
    if "json" in item:
        return {"type": "text", "text": compact_json(item["json"]), "provider_metadata": {PROVIDER: {"_json": True}}}
    image = as_dict(item.get("image"))
    return MEDIA.decode_image(image) if image is not None else None


# --- encode --------------------------------------------------------------------------------


def encode_part(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """The block for one canonical part (None: not carried, reported)."""
    kind = part["type"]
    if kind == "text":
        bag = KIT.claim(context.losses, part.get("provider_metadata"), at) if part.get("provider_metadata") else {}
        return {"text": part["text"]} if not bag else {"text": part["text"], **restore_fields(bag)}
    if kind == "image":
        return MEDIA.encode_image(part, context, at)
    if kind == "video":
        return MEDIA.encode_video(part, MEDIA.part_bag(part, context, at), context, at)
    if kind == "tool_use":
        return encode_tool_use(part, context, at)
    if kind == "tool_result":
        return _encode_tool_result(part, context, at)
    if kind == "thinking":
        return encode_thinking(part, context, at)
    if kind == "opaque":
        if part["provider"] == PROVIDER:
            return dict(part["data"])
        context.losses.add(at, f"opaque {part['provider']} block", "Nova cannot read another provider's block")
        return None
    if kind in ("audio", "document", "refusal"):
        why = {"audio": "Nova's InvokeModel body has no audio here", "document": "InvokeModel takes no documents"}
        context.losses.add(at, f"{kind} part", why.get(kind, "Nova has no refusal block"))
        return None
    raise AssertionError(f"unknown part type {kind!r}")  # canonical data is validated before a writer


def tool_name(name: str, context: EncodeContext, at: Steps) -> str:
    """A tool name Nova accepts (the family's rule, ``families/aws/tool_ids.py``)."""
    return aws_tool_name(name, context, at, PROVIDER)


def _encode_tool_result(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    bag = KIT.claim(context.losses, part.get("provider_metadata"), at) if part.get("provider_metadata") else {}
    status = bag.pop("_status", None)
    content = part["content"]
    items = [{"text": content}] if isinstance(content, str) and content else []  # "": no items
    for index, item in enumerate(content if not isinstance(content, str) else ()):
        if item.get("cache_control") is not None:
            why = "Nova's tool results hold no cache points (one goes after the result)"
            context.losses.add((*at, "content", index, "cache_control"), "cache_control", why, "setting")
        written = _encode_result_item(item, context, (*at, "content", index))
        if written is not None:
            items.append(written)
    result: dict[str, Any] = {**restore_fields(bag), "toolUseId": tool_use_id(part["tool_use_id"], context.losses, at)}
    result["content"] = items
    if part.get("is_error"):
        result["status"] = "error"
    elif status is True:
        result["status"] = "success"
    if part.get("name") is not None:
        context.losses.add((*at, "name"), "tool result name", "Nova pairs a result by its id only", "metadata")
    return {"toolResult": result}


def _encode_result_item(item: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    if item["type"] == "text" and KIT.marker(item.get("provider_metadata"), "_json") is True:
        try:
            return {"json": loads(item["text"])}
        except ValueError:
            pass  # not JSON after all (a caller's bag may say anything): sent as text
    if item["type"] == "image":
        return MEDIA.encode_image(item, context, at)
    if item["type"] == "text":
        return encode_part(item, context, at)
    context.losses.add(at, f"{item['type']} in a tool result", "Nova's tool results hold text, JSON and images")
    return None


def blocks_of(content: object) -> list[dict[str, Any]]:
    """A message's ``content`` as a list of block objects (already validated)."""
    return [block for block in as_list(content) or () if is_dict(block)]
