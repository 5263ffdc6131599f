"""LangChain content blocks <-> canonical content parts: the folder's ``parts`` role (LangChain
calls content entries blocks).

LangChain keeps a message's content as a string or a list of blocks: its standard blocks
(``text``, ``reasoning``, ``image``, ``audio``, ``file`` with ``url``, ``base64`` +
``mime_type`` or ``file_id``, ``text-plain``), the OpenAI Chat shapes its chat models accept
(``image_url``, ``input_audio``, ``file`` holding ``file_data`` or ``file_id``: a ``data:``
URL read as inline data, split as the openai-chat reader splits one, so it is written back
character for character), and provider blocks it passes through untouched, of which
Anthropic's ``thinking`` (with its ``signature``) and ``redacted_thinking`` have a canonical
home: thinking a later Claude turn must send back signed. Every other block (``tool_call``
chunks in content, server tool blocks, ``non_standard``) is kept whole as an opaque part of
this format, which another format reports as lost. A block's ``cache_control`` (how
ChatAnthropic is told to cache, on any block it sends) is the part's cache marker. What a
block holds beyond its canonical fields (``id``, ``extras``, ``annotations``, ``index``)
rides in the part's bag, so a round trip is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# The openai-chat reader's data-URL split and audio formats, so a block reads as that reader
# reads it; the contract names no media helper of the kind yet (an internal import, as a built-in)
from chatcodec._compat import audio_format_from_media_type, data_url, media_type_for_audio_format, source_from_url
from chatcodec._frameworks.langchain.markers import KIT, PROVIDER
from chatcodec.codec_kit import (
    as_dict,
    decode_cache_control,
    encode_cache_control,
    leftovers,
    unmapped_fields,
    wire_fields,
)
from chatcodec.contract import EncodeContext, Steps

_MEDIA = {"image": "image", "audio": "audio", "file": "document"}
"""A standard media block's type -> the canonical part type."""

_BLOCK_OF = {part: block for block, part in _MEDIA.items()}

ANTHROPIC = "anthropic"
"""The provider whose thinking blocks LangChain passes through as they are."""


def decode_block(block: str | dict[str, Any]) -> dict[str, Any]:
    """One content item as a canonical part."""
    if isinstance(block, str):
        return {"type": "text", "text": block, "provider_metadata": {PROVIDER: {"_bare": True}}}
    part = _decoded(block)
    metadata = part.get("provider_metadata")
    if metadata is not None and ("cache_control" in metadata[PROVIDER] or "extras" in metadata[PROVIDER]):
        _take_cache_marker(part, metadata[PROVIDER])
    return part


def _take_cache_marker(part: dict[str, Any], bag: dict[str, Any]) -> None:
    """The block's ``cache_control`` as the part's cache marker, out of its bag (one of
    another shape stays in the bag, written back as it came). A standard block may hold it in
    its ``extras`` instead, where ChatAnthropic's ``_format_data_content_block`` reads it too:
    the ``_extras_cache`` marker writes it back there."""
    extras = as_dict(bag.get("extras"))
    if "cache_control" not in bag and extras is not None and "cache_control" in extras:
        marker = decode_cache_control(extras["cache_control"])
        if marker is None:
            return
        rest = {key: value for key, value in extras.items() if key != "cache_control"}
        bag["extras"], bag["_extras_cache"] = rest, True
        if not rest:
            del bag["extras"]
        part["cache_control"] = marker
        return
    marker = decode_cache_control(bag.get("cache_control"))
    if marker is None:
        return
    part["cache_control"] = marker
    del bag["cache_control"]
    if not bag:
        del part["provider_metadata"]


def _decoded(block: dict[str, Any]) -> dict[str, Any]:
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        return KIT.attach({"type": "text", "text": block["text"]}, leftovers(block, ("type", "text")))
    if kind == "reasoning" and isinstance(block.get("reasoning", ""), str):
        reasoning = {"type": "thinking", "text": block.get("reasoning", "")}
        return KIT.attach(reasoning, leftovers(block, ("type", "reasoning")))
    if kind == "thinking" and isinstance(block.get("thinking"), str):
        thinking = {"type": "thinking", "text": block["thinking"], "provider": ANTHROPIC}
        if isinstance(block.get("signature"), str):
            thinking["signature"] = block["signature"]
        return KIT.attach(thinking, leftovers(block, ("type", "thinking", "signature")))
    if kind == "redacted_thinking" and isinstance(block.get("data"), str):
        redacted = {"type": "thinking", "text": "", "redacted": True, "encrypted": block["data"], "provider": ANTHROPIC}
        return KIT.attach(redacted, leftovers(block, ("type", "data")))
    if isinstance(kind, str) and kind in _OPENAI_READERS and isinstance(block.get(kind), dict):
        return _OPENAI_READERS[kind](block)  # OpenAI's shape: the object under its type
    if kind == "text-plain":
        return _text_plain(block)
    if kind in _MEDIA and isinstance(block.get("source_type"), str):
        return _v0_media(block, kind)
    part_type = _MEDIA.get(kind) if isinstance(kind, str) else None
    source = _source(block) if part_type is not None else None
    if part_type is not None and source is not None:
        return _standard_media(block, part_type, source)
    return {"type": "opaque", "provider": PROVIDER, "data": block}


def _standard_media(block: dict[str, Any], part_type: str, source: dict[str, Any]) -> dict[str, Any]:
    """A standard media block as a part. A ``url`` that is a ``data:`` URL is inline data, as
    ChatAnthropic's ``_format_data_content_block`` sends it (base64), marked ``_data_url`` to
    be written back as the URL (``"mime_type"`` when the block also named its media type)."""
    part: dict[str, Any] = {"type": part_type, "source": source}
    mapped: tuple[str, ...] = ("type", "url", "base64", "file_id", "mime_type")
    bag: dict[str, Any] = {}
    if source["type"] == "url" and source["url"].startswith("data:"):
        inline = source_from_url(source["url"])
        if inline["type"] == "base64":
            part["source"], bag["_data_url"] = inline, True
            if block.get("mime_type") == inline["media_type"]:
                bag["_data_url"] = "mime_type"
            elif "mime_type" in block:  # another media type than the URL's: kept as it is
                mapped = ("type", "url", "base64", "file_id")
    if part_type == "document" and isinstance(block.get("filename"), str):
        part["filename"], mapped = block["filename"], (*mapped, "filename")
    return KIT.attach(part, {**leftovers(block, mapped), **bag})


_HELD_BY = {
    "system": frozenset({"text", "opaque"}),
    "developer": frozenset({"text", "opaque"}),  # a ChatMessage(role="developer"), read as a developer message
    "user": frozenset({"text", "image", "audio", "video", "document", "opaque"}),
    "tool": frozenset({"text", "image", "audio", "video", "document", "opaque"}),
    "assistant": frozenset({"text", "thinking", "tool_use", "refusal", "image", "audio", "opaque"}),
}
"""The canonical part types a message of each role holds (a tool role's: its result's)."""


def decode_block_in(role: str, block: str | dict[str, Any]) -> dict[str, Any]:
    """One content item of a message of canonical ``role``: a block whose canonical part the
    role cannot hold (an image in a ``SystemMessage``, a reasoning block in a ``HumanMessage``:
    LangChain's content lists take any block) is kept whole as an opaque part of this format,
    written back as it came and reported lost by another format, not refused by the canonical
    model at a place the history does not have; so is a block whose ``type`` is no string."""
    if not isinstance(block, str) and not isinstance(block.get("type"), str):  # a list type is not even hashable
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    part = decode_block(block)
    if part["type"] in _HELD_BY[role]:
        return part
    return {"type": "opaque", "provider": PROVIDER, "data": block}


_V0_KEYS = {"base64": "data", "url": "url", "id": "id"}
"""LangChain's v0 multimodal blocks (``source_type``, before the standard blocks of 1.0, still
in LangGraph checkpoints): where each source type keeps its value."""


def _v0_media(block: dict[str, Any], kind: str) -> dict[str, Any]:
    """A v0 media block (``{"type": "image", "source_type": "base64", "data": ..., "mime_type":
    ...}``, ``"url"`` with ``url``, ``"id"`` with ``id``) as a canonical part, marked to be
    written back in its shape; any other source type kept whole."""
    source_type = block["source_type"]
    key = _V0_KEYS.get(source_type)
    value, mime = block.get(key or ""), block.get("mime_type")
    if not isinstance(value, str) or not value or (source_type == "base64" and not (isinstance(mime, str) and mime)):
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    source: dict[str, Any]
    if source_type == "base64":
        source = {"type": "base64", "media_type": mime, "data": value}
    else:
        source = {"type": "url", "url": value} if source_type == "url" else {"type": "file", "file_id": value}
        if isinstance(mime, str) and mime:
            source["media_type"] = mime
    part: dict[str, Any] = {"type": _MEDIA[kind], "source": source}
    mapped: tuple[str, ...] = ("type", "source_type", key or "", "mime_type")
    if kind == "file" and isinstance(block.get("filename"), str):
        part["filename"], mapped = block["filename"], (*mapped, "filename")
    return KIT.attach(part, {**leftovers(block, mapped), "_v0": True})


def _source(block: Mapping[str, Any]) -> dict[str, Any] | None:
    mime = block.get("mime_type")
    if isinstance(block.get("base64"), str) and isinstance(mime, str) and mime:
        return {"type": "base64", "media_type": mime, "data": block["base64"]}
    for key, kind in (("url", "url"), ("file_id", "file")):
        if isinstance(block.get(key), str) and block[key]:
            source = {"type": kind, key: block[key]}
            if isinstance(mime, str) and mime:
                source["media_type"] = mime
            return source
    return None


def _image_url(block: dict[str, Any]) -> dict[str, Any]:
    inner = block["image_url"]
    url = inner.get("url")
    if not isinstance(url, str) or not url:
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    part: dict[str, Any] = {"type": "image", "source": source_from_url(url)}
    mapped: tuple[str, ...] = ("url",)
    if inner.get("detail") in ("auto", "low", "high"):
        part["detail"], mapped = inner["detail"], ("url", "detail")
    return _in_openai_shape(part, block, mapped, marker=True)


def _input_audio(block: dict[str, Any]) -> dict[str, Any]:
    """OpenAI's ``{"type": "input_audio", "input_audio": {"data", "format"}}`` as audio, its
    format as given the marker (``mpeg`` and ``mp3`` are one media type)."""
    inner = block["input_audio"]
    data, audio_format = inner.get("data"), inner.get("format")
    if not isinstance(data, str) or not data or not isinstance(audio_format, str) or not audio_format:
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    source = {"type": "base64", "media_type": media_type_for_audio_format(audio_format), "data": data}
    return _in_openai_shape({"type": "audio", "source": source}, block, ("data", "format"), marker=audio_format)


def _openai_file(block: dict[str, Any]) -> dict[str, Any]:
    """OpenAI's ``{"type": "file", "file": {"file_data" | "file_id", "filename"?}}`` as a
    document (``file_data`` a base64 ``data:`` URL)."""
    inner = block["file"]
    file_data, file_id = inner.get("file_data"), inner.get("file_id")
    source: dict[str, Any] | None = None
    key = "file_data" if isinstance(file_data, str) else "file_id"
    if isinstance(file_data, str):
        source = source_from_url(file_data)
    elif isinstance(file_id, str) and file_id:
        source = {"type": "file", "file_id": file_id}
    if source is None or source["type"] == "url":  # OpenAI takes file_data as a data URL only
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    part: dict[str, Any] = {"type": "document", "source": source}
    mapped: tuple[str, ...] = (key,)
    if isinstance(inner.get("filename"), str):
        part["filename"], mapped = inner["filename"], (key, "filename")
    return _in_openai_shape(part, block, mapped, marker=True)


def _in_openai_shape(
    part: dict[str, Any], block: dict[str, Any], mapped: tuple[str, ...], marker: object
) -> dict[str, Any]:
    """``part``, read from an OpenAI Chat block holding its object under its type, marked
    (``_image_url``, ``_input_audio``, ``_file``) to be written back so: the block's other
    keys in the bag, the object's other keys under its key (a wire value, which another
    format reports)."""
    kind = block["type"]
    bag = leftovers(block, ("type", kind))
    extra = unmapped_fields(block[kind], mapped)
    if extra:
        bag[kind] = extra
    bag[f"_{kind}"] = marker
    return KIT.attach(part, bag)


def _text_plain(block: dict[str, Any]) -> dict[str, Any]:
    """LangChain v1's ``text-plain`` block as a document: a text source for its ``text``
    (``mime_type`` its media type), else its ``base64``, ``url`` or ``file_id`` (marked
    ``_text_plain``); its ``title`` the document's."""
    text, mime = block.get("text"), block.get("mime_type")
    mapped: tuple[str, ...] = ("type", "mime_type")
    bag: dict[str, Any] = {}
    source: dict[str, Any] | None
    if isinstance(text, str):
        source, mapped = {"type": "text", "text": text}, (*mapped, "text")
        if isinstance(mime, str) and mime:
            source["media_type"] = mime
        else:
            mapped, bag["_no_mime_type"] = ("type", "text"), True
    else:
        source, mapped, bag["_text_plain"] = _source(block), (*mapped, "base64", "url", "file_id"), True
    if source is None:
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    part: dict[str, Any] = {"type": "document", "source": source}
    if isinstance(block.get("title"), str):
        part["title"], mapped = block["title"], (*mapped, "title")
    return KIT.attach(part, {**leftovers(block, mapped), **bag})


def encode_block(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> str | dict[str, Any] | None:
    """One canonical part as a content item; None (with a loss) for a part LangChain has no block for."""
    bag = KIT.claim(context.losses, part.get("provider_metadata"), at)
    block = _block(part, bag, context, at)
    cache = part.get("cache_control")
    if cache is None or block is None:
        return block
    if isinstance(block, str):  # a plain string has no place for it: the text block it stands for does
        block = {"type": "text", "text": block}
    if bag.get("_extras_cache"):  # where the block held it
        return {
            **block,
            "extras": {**(as_dict(block.get("extras")) or {}), "cache_control": encode_cache_control(cache)},
        }
    return {**block, "cache_control": encode_cache_control(cache)}


def _block(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
) -> str | dict[str, Any] | None:
    kind = part["type"]
    if kind == "text":
        return part["text"] if bag.get("_bare") else {"type": "text", "text": part["text"], **wire_fields(bag)}
    if kind == "thinking":
        return _thinking(part, bag, context, at)
    if kind in _BLOCK_OF:
        block = _media(part, bag)
        _report_unheld(part, block, context, at)
        return block
    if kind == "opaque" and part["provider"] == PROVIDER:
        return dict(part["data"])
    context.losses.add(at, f"{kind} part", f"LangChain has no block for a {kind} part")
    return None


_HELD = (("detail", "image detail"), ("title", "document title"), ("filename", "document filename"))
"""A media part's fields some block holds and another does not: OpenAI's ``image_url`` a detail,
a standard ``file`` block a filename, a ``text-plain`` block a title."""


def _report_unheld(part: Mapping[str, Any], block: dict[str, Any], context: EncodeContext, at: Steps) -> None:
    """A loss for each of :data:`_HELD` the part has and the block written keeps nowhere (OpenAI's
    shapes hold theirs in the object named by the block's type)."""
    held = as_dict(block.get(block["type"])) or block
    for key, what in _HELD:
        if part.get(key) is not None and key not in held:
            context.losses.add((*at, key), what, f"a LangChain {block['type']} block keeps none")


def _thinking(part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    if part.get("model") is not None:  # (Gemini's reader names the model a thought came from)
        context.losses.add((*at, "model"), "thinking model", "a LangChain reasoning block names no model")
    if part.get("provider") == ANTHROPIC or (part.get("signature") and not part.get("encrypted")):
        if part.get("redacted"):
            return {"type": "redacted_thinking", "data": part.get("encrypted", ""), **wire_fields(bag)}
        block = {"type": "thinking", "thinking": part.get("text", "")}
        if part.get("signature") is not None:
            block["signature"] = part["signature"]
        return {**block, **wire_fields(bag)}
    for key in ("signature", "encrypted"):
        if part.get(key) is not None:
            context.losses.add((*at, key), f"thinking {key}", "a LangChain reasoning block keeps no provider's token")
    if part.get("provider") is not None:  # (OpenAI's reasoning, read back as no one's)
        context.losses.add((*at, "provider"), "thinking provider", "a LangChain reasoning block names no provider")
    return {"type": "reasoning", "reasoning": part.get("text", ""), **wire_fields(bag)}


def _media(part: Mapping[str, Any], bag: dict[str, Any]) -> dict[str, Any]:
    source = part["source"]
    openai_block = _openai_media(part, bag)
    if openai_block is not None:
        return openai_block
    if source["type"] == "text" or bag.get("_text_plain"):
        return _plain_text(part, bag)
    block: dict[str, Any] = {"type": _BLOCK_OF[part["type"]]}
    as_url = bag.pop("_data_url", None) if source["type"] == "base64" else None
    if bag.pop("_v0", None) and source["type"] in ("base64", "url", "file"):
        block["source_type"] = {"base64": "base64", "url": "url", "file": "id"}[source["type"]]
        block[_V0_KEYS[block["source_type"]]] = source.get(
            {"base64": "data", "url": "url", "file": "file_id"}[source["type"]]
        )
    elif as_url:
        block["url"] = data_url(source["media_type"], source["data"])
    elif source["type"] == "base64":
        block["base64"] = source["data"]
    else:
        key = "url" if source["type"] == "url" else "file_id"
        block[key] = source[key]
    if source.get("media_type") is not None and as_url in (None, "mime_type"):
        block["mime_type"] = source["media_type"]
    if part.get("filename") is not None:
        block["filename"] = part["filename"]
    return {**block, **wire_fields(bag)}


def _openai_media(part: Mapping[str, Any], bag: dict[str, Any]) -> dict[str, Any] | None:
    """The OpenAI Chat block a part was read from (its marker), written back in that shape
    while its source still fits it; None for any other part."""
    kind = next((kind for kind in _OPENAI_READERS if f"_{kind}" in bag), None)
    if kind is None:
        return None
    source, marker = part["source"], bag.pop(f"_{kind}")
    inline = source["type"] == "base64"
    inner: dict[str, Any]
    if kind == "image_url" and (inline or source["type"] == "url"):
        inner = {"url": data_url(source["media_type"], source["data"]) if inline else source["url"]}
        if "detail" in part:
            inner["detail"] = part["detail"]
        inner.update(as_dict(marker) or {})  # the marker once held the object's other keys
    elif kind == "input_audio" and inline:
        audio_format = marker if isinstance(marker, str) else audio_format_from_media_type(source["media_type"])
        inner = {"data": source["data"], "format": audio_format}
    elif kind == "file" and (inline or source["type"] == "file"):
        inner = {"file_data": data_url(source["media_type"], source["data"])} if inline else {}
        inner.update({} if inline else {"file_id": source["file_id"]})
        if part.get("filename") is not None:
            inner["filename"] = part["filename"]
    else:
        return None
    inner.update(as_dict(bag.pop(kind, None)) or {})
    return {"type": kind, kind: inner, **wire_fields(bag)}


def _plain_text(part: Mapping[str, Any], bag: dict[str, Any]) -> dict[str, Any]:
    """A document of text (or one read from a ``text-plain`` block) as LangChain v1's
    ``text-plain`` block, the standard block for plain text."""
    source = part["source"]
    block: dict[str, Any] = {"type": "text-plain"}
    bag.pop("_text_plain", None)
    if source["type"] == "text":
        block["text"] = source["text"]
    elif source["type"] == "base64":
        block["base64"] = source["data"]
    else:
        key = "url" if source["type"] == "url" else "file_id"
        block[key] = source[key]
    if not bag.pop("_no_mime_type", None) and source.get("media_type") is not None:
        block["mime_type"] = source["media_type"]
    if part.get("title") is not None:
        block["title"] = part["title"]
    return {**block, **wire_fields(bag)}


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The part role: one canonical part as a block (a plain string item as a ``text`` block)."""
    block = encode_block(part, context, at)
    return {"type": "text", "text": block} if isinstance(block, str) else block


_OPENAI_READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "image_url": _image_url,
    "input_audio": _input_audio,
    "file": _openai_file,
}
"""The OpenAI Chat blocks LangChain's chat models take, by type (each holds its object under
its type: ``image_url``, ``input_audio``, ``file``) -> the reader of that shape."""
