"""Canonical content parts -> Anthropic content blocks, recording what cannot be carried.

The rules here are the ones Anthropic rejects requests over:

* thinking is replayed only when Anthropic produced it and signed it: a part from another
  provider (its signature means nothing here) or with no or an empty signature (OpenAI
  reasoning, an interrupted stream) would get 400 "Invalid signature", so it is dropped,
  or sent as plain text when ``provider_options["anthropic"]["unsigned_thinking"]`` is
  ``"text"``; either way it is a loss. Redacted thinking goes back as ``redacted_thinking``
  with its payload untouched, never as text.
* ``cache_control`` is never put on a thinking block (the API does not allow it there).
* ``tool_use.input`` must be an object: argument text that is not a JSON object is sent
  as ``{}`` and reported.
* tool ids go through :func:`~chatcodec.providers.anthropic.tool_ids.sanitize_tool_use_id`
  so calls and results still match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, assert_never

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
from chatcodec.losses import LossRecorder
from chatcodec.providers.anthropic.markers import KIT, PROVIDER
from chatcodec.providers.anthropic.tool_ids import sanitize_tool_use_id
from chatcodec.providers.kit import Steps, encode_cache_control, restore_fields

UnsignedThinking = Literal["drop", "text"]
"""What to do with thinking Anthropic cannot verify: drop it, or send its text as text."""


@dataclass
class Breakpoint:
    """A ``cache_control`` written into the output, in prompt order."""

    block: dict[str, Any]
    at: Steps


@dataclass
class EncodeContext:
    """What one encode carries along: the loss recorder and the rules in force."""

    losses: LossRecorder
    for_request: bool = True
    unsigned_thinking: UnsignedThinking = "drop"
    tool_names: dict[str, str] = field(default_factory=dict[str, str])
    breakpoints: list[Breakpoint] = field(default_factory=list[Breakpoint])

    def cache(self, block: dict[str, Any], cache_control: CacheControl | None, at: Steps) -> dict[str, Any]:
        """Put ``cache_control`` on ``block`` and remember the breakpoint (responses have none)."""
        if cache_control is not None and not self.for_request:
            self.losses.add((*at, "cache_control"), "cache_control", "Anthropic responses carry no cache markers")
        elif cache_control is not None:
            block["cache_control"] = encode_cache_control(cache_control)
        if "cache_control" in block:
            self.breakpoints.append(Breakpoint(block, at))
        return block


def encode_part(part: AnyPart, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The wire block for ``part``, or None when Anthropic cannot carry it (a loss)."""
    match part:
        case TextPart():
            block = {**_bag(part, context, at), "type": "text", "text": part.text}
            return context.cache(block, part.cache_control, at)
        case ImagePart():
            return _image(part, context, at)
        case DocumentPart():
            return _document(part, context, at)
        case ThinkingPart():
            return _thinking(part, context, at)
        case ToolUsePart():
            return _tool_use(part, context, at)
        case ToolResultPart():
            return _tool_result(part, context, at)
        case OpaquePart():
            return _opaque(part, context, at)
        case RefusalPart():
            context.losses.add(at, "refusal part", "Anthropic has no refusal block; sent as text")
            block = {**_bag(part, context, at), "type": "text", "text": part.text}
            return context.cache(block, part.cache_control, at)
        case AudioPart():
            context.losses.add(at, "audio part", "Anthropic messages cannot hold audio")
            return None
        case _:
            assert_never(part)


def _bag(part: AnyPart, context: EncodeContext, at: Steps) -> dict[str, Any]:
    return restore_fields(KIT.claim(context.losses, part.provider_metadata, at))


def _media_source(
    source: UrlSource | Base64Source | FileSource | TextSource, context: EncodeContext, at: Steps
) -> dict[str, Any]:
    match source:
        case Base64Source():
            return {"type": "base64", "media_type": source.media_type, "data": source.data}
        case UrlSource():
            wire = {"type": "url", "url": source.url}
        case FileSource():
            wire = {"type": "file", "file_id": source.file_id}
        case TextSource():
            return {"type": "text", "media_type": source.media_type, "data": source.text}
        case _:
            assert_never(source)
    if source.media_type is not None:
        context.losses.add((*at, "source", "media_type"), "media type", f"Anthropic {source.type} sources have none")
    return wire


def _image(part: ImagePart, context: EncodeContext, at: Steps) -> dict[str, Any]:
    if part.detail not in (None, "auto"):
        context.losses.add((*at, "detail"), f"image detail {part.detail!r}", "Anthropic has no resolution hint")
    block = {**_bag(part, context, at), "type": "image", "source": _media_source(part.source, context, at)}
    return context.cache(block, part.cache_control, at)


def _document(part: DocumentPart, context: EncodeContext, at: Steps) -> dict[str, Any]:
    block = {**_bag(part, context, at), "type": "document", "source": _media_source(part.source, context, at)}
    if part.title is not None:
        block["title"] = part.title
    if part.filename is not None:
        context.losses.add((*at, "filename"), "document file name", "Anthropic documents have a title, no file name")
    return context.cache(block, part.cache_control, at)


def _thinking(part: ThinkingPart, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    if part.cache_control is not None:
        context.losses.add((*at, "cache_control"), "cache_control on thinking", "not allowed on thinking blocks")
    ours = part.provider in (PROVIDER, None)
    if part.redacted and ours and part.encrypted:
        if part.text or part.signature:
            context.losses.add(at, "text or signature of redacted thinking", "redacted_thinking carries only data")
        return {**_bag(part, context, at), "type": "redacted_thinking", "data": part.encrypted}
    if part.redacted:
        context.losses.add(at, "redacted thinking", "its payload is not Anthropic's")
        return None
    if not context.for_request:
        return _response_thinking(part, ours, context, at)
    if ours and part.signature:
        _encrypted_loss(part, context, at)
        return {**_bag(part, context, at), "type": "thinking", "thinking": part.text, "signature": part.signature}
    why = "no signature Anthropic can verify" if ours else f"produced by {part.provider!r}, not Anthropic"
    if context.unsigned_thinking == "text" and part.text:
        context.losses.add(at, "thinking part", f"{why}; sent as plain text")
        return {"type": "text", "text": part.text}
    context.losses.add(at, "thinking part", f"{why}; replaying it would get 400 'Invalid signature'")
    return None


def _response_thinking(part: ThinkingPart, ours: bool, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A response may show reasoning from any source; only Anthropic's signature is kept."""
    _encrypted_loss(part, context, at)
    signature = part.signature or ""
    if not ours and signature:
        context.losses.add((*at, "signature"), f"{part.provider} signature", "meaningless to Anthropic clients")
        signature = ""
    return {**_bag(part, context, at), "type": "thinking", "thinking": part.text, "signature": signature}


def _encrypted_loss(part: ThinkingPart, context: EncodeContext, at: Steps) -> None:
    if part.encrypted is not None:
        context.losses.add((*at, "encrypted"), "encrypted reasoning", "Anthropic thinking blocks have no such payload")


def tool_input(part: ToolUsePart, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The arguments as the JSON object ``tool_use.input`` must be (``{}`` if they are not one)."""
    if not part.arguments.strip():
        return {}
    try:
        parsed: object = json.loads(part.arguments)
    except json.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict):
        return parsed  # pyright: ignore[reportUnknownVariableType]
    context.losses.add((*at, "arguments"), "tool arguments", "not a JSON object; Anthropic needs one, sent {}")
    return {}


def _tool_use(part: ToolUsePart, context: EncodeContext, at: Steps) -> dict[str, Any]:
    block = {
        **_bag(part, context, at),
        "type": "tool_use",
        "id": sanitize_tool_use_id(part.id),
        "name": part.name,
        "input": tool_input(part, context, at),
    }
    return context.cache(block, part.cache_control, at)


def _tool_result(part: ToolResultPart, context: EncodeContext, at: Steps) -> dict[str, Any]:
    bag = KIT.claim(context.losses, part.provider_metadata, at)
    block = {**restore_fields(bag), "type": "tool_result", "tool_use_id": sanitize_tool_use_id(part.tool_use_id)}
    if isinstance(part.content, str):
        if part.content or not bag.get("_no_content"):
            block["content"] = part.content
    else:
        content = [encode_part(item, context, (*at, "content", index)) for index, item in enumerate(part.content)]
        block["content"] = drop_empty_text(content, context, at)
    if part.is_error:
        block["is_error"] = True
    elif "_is_error" in bag:
        block["is_error"] = False
    if part.name is not None and context.tool_names.get(part.tool_use_id) != part.name:
        context.losses.add((*at, "name"), "tool name", "Anthropic results carry no name; no matching call names it")
    return context.cache(block, part.cache_control, at)


def drop_empty_text(blocks: list[dict[str, Any] | None], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """The blocks that could be carried, less empty text blocks, which Anthropic rejects
    ("text content blocks must be non-empty")."""
    kept: list[dict[str, Any]] = []
    for index, block in enumerate(blocks):
        if block is not None and block.get("type") == "text" and block.get("text") == "":
            context.losses.add((*at, "content", index), "empty text block", "Anthropic rejects empty text blocks")
        elif block is not None:
            kept.append(block)
    return kept


def _opaque(part: OpaquePart, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    if part.provider != PROVIDER:
        context.losses.add(at, f"{part.provider} block", "only Anthropic's own blocks can be sent to Anthropic")
        return None
    if part.provider_metadata:
        KIT.claim(context.losses, part.provider_metadata, at)
    if not isinstance(part.data.get("type"), str):
        context.losses.add(at, "anthropic block without a type", "Anthropic cannot read a block without one")
        return None
    return context.cache(dict(part.data), part.cache_control, at)
