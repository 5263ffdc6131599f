"""Content blocks <-> canonical parts: ``text``; a user's ``image_url`` (a ``data:`` URL read as
base64 bytes, any other as a URL source, ``detail`` the canonical one); an assistant's
``thinking``; a tool result's ``document``, read as a text part holding its data (the object's
compact JSON, or the text it was given as) with the meaningful ``_document`` marker, so the
data reaches every format and comes back here as the document it was.

A block's fields without a canonical home ride in the part's bag and are written back."""

from __future__ import annotations

from collections.abc import Mapping
from json import JSONDecodeError, loads
from typing import Any

from chatcodec.codec_kit import as_dict, compact_json, leftovers, source_from_url, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps
from chatcodec_cohere_chat.markers import DISPLAY, DOCUMENT, KIT

DOCUMENT_FIELDS = "document"
"""The bag key of a document's fields beside its ``data`` (its ``id``)."""


def decode_block(block: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """One validated content block as a canonical part."""
    del context
    kind = block["type"]
    if kind == "text":
        return KIT.attach({"type": "text", "text": block["text"]}, leftovers(block, ("type", "text")))
    if kind == "thinking":
        return KIT.attach({"type": "thinking", "text": block["thinking"]}, leftovers(block, ("type", "thinking")))
    if kind == "image_url":
        image = block["image_url"]
        part: dict[str, Any] = {"type": "image", "source": source_from_url(image["url"])}
        if "detail" in image:
            part["detail"] = image["detail"]
        bag = leftovers(block, ("type", "image_url"))
        extra = leftovers(image, ("url", "detail"))
        if extra:
            bag["image_url"] = extra
        return KIT.attach(part, bag)
    return _decode_document(block)


def _decode_document(block: dict[str, Any]) -> dict[str, Any]:
    document = block["document"]
    data = document["data"]
    bag = leftovers(block, ("type", "document"))
    bag[DOCUMENT] = "text" if isinstance(data, str) else "object"
    fields = leftovers(document, ("data",))
    if fields:
        bag[DOCUMENT_FIELDS] = fields
    return KIT.attach({"type": "text", "text": data if isinstance(data, str) else compact_json(data)}, bag)


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The content block for a canonical text, image or thinking part, or None for one the
    wire cannot carry here (a loss). Calls and results are written by :mod:`.messages`."""
    kind = part["type"]
    losses = context.losses
    if part.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache marker", f"{DISPLAY} has no cache markers", "metadata")
    own = KIT.claim(losses, part.get("provider_metadata"), at)
    if kind == "text":
        if own.get(DOCUMENT) in ("text", "object"):
            return _encode_document(part["text"], own, context, at)
        block = wire_fields(own)
        block.update(type="text", text=part["text"])
        return block
    if kind == "thinking":
        for key in ("signature", "encrypted"):
            if part.get(key) is not None:
                losses.add((*at, key), f"thinking {key}", f"{DISPLAY} thinking is readable text only")
        block = wire_fields(own)
        block.update(type="thinking", thinking=part.get("text", ""))
        return block
    if kind == "image":
        return _encode_image(part, own, context, at)
    losses.add(at, f"{kind} part", f"{DISPLAY} has no {kind} content here")
    return None


def _encode_image(
    part: Mapping[str, Any], own: dict[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    source = part["source"]
    if source["type"] == "url":
        url = source["url"]
    elif source["type"] == "base64":
        url = f"data:{source['media_type']};base64,{source['data']}"
    else:
        context.losses.add(at, f"image from a {source['type']} source", f"{DISPLAY} takes images by URL")
        return None
    image: dict[str, Any] = {**(as_dict(own.pop("image_url", None)) or {}), "url": url}
    if part.get("detail") is not None:
        image["detail"] = part["detail"]
    block = wire_fields(own)
    block.update(type="image_url", image_url=image)
    return block


def _encode_document(text: str, own: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A text part read from a document, written back as that document: its object parsed
    from the text (text that is no JSON object stays text, reported)."""
    fields = as_dict(own.pop(DOCUMENT_FIELDS, None)) or {}
    data: object = text
    if own.pop(DOCUMENT) == "object":
        try:
            data = loads(text)
        except JSONDecodeError:
            data = text
        if as_dict(data) is None:
            data = text
            context.losses.add(at, "document data", f"{DISPLAY} document data is an object; the text was sent")
    block = wire_fields(own)
    block.update(type="document", document={"data": data, **fields})
    return block
