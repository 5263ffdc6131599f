"""``cache_control`` written into OpenAI-format messages: the OpenRouter / litellm convention.

OpenAI itself marks prompt-cache breakpoints with ``prompt_cache_breakpoint`` on a content
part (see :mod:`~chatcodec._providers.openai_chat.parts`). Gateways that send OpenAI-format
requests on to Claude take Anthropic's own ``cache_control`` instead, in the places an
Anthropic block would hold it (OpenRouter "Prompt caching" docs, litellm
``add_cache_control_to_content`` in ``prompt_templates/factory.py``):

- on a content part: ``{"type": "text", "text": ..., "cache_control": {"type": "ephemeral"}}``;
- on a message, typically one with string content (litellm turns the string into a text
  block that carries the marker), and on a ``tool`` message (its ``tool_result``);
- on a ``tool_calls`` entry (its ``tool_use``) and on a tool definition.

Such a marker decodes to the canonical ``cache_control`` of the part, message, tool result,
tool call or tool, so it reaches Anthropic (a message-level one lands on the message's last
block there), and the ``_cache`` spelling marker makes this encoder write it back as
``cache_control`` in the same place. A ``cache_control`` of another shape (an unknown
``type``, extra keys) is no canonical marker: it stays in the bag, as it is.

A message-level marker read elsewhere (Anthropic's caching places a message's breakpoint
on its last block; Bedrock's ``cachePoint`` follows the last block) has no message-level
place in OpenAI's own format, whose ``prompt_cache_breakpoint`` sits on text, image and
file parts (SDK ``chat_completion_content_part_text_param.py``; GPT-5.6, July 2026): it
goes on the message's last part, as :func:`onto_last_part` writes it; string content becomes
a one-part text list carrying it (as litellm turns a marked string into a marked text block),
and it is reported only where no part can take it (empty content, a last part of another kind).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.openai.cache_breakpoint import OPENAI_CACHE_TTLS
from chatcodec._providers.openai_chat.markers import KIT
from chatcodec.codec_kit import as_dict, as_list, decode_cache_control, encode_cache_control

if TYPE_CHECKING:
    from chatcodec.contract import LossRecorder, Steps

KEY = "cache_control"
"""The wire key, as the gateways spell it."""
SPELLING = "_cache"
"""Marker: the breakpoint came as ``cache_control`` (value ``"cache_control"``)."""


def take(bag: dict[str, Any], canonical: dict[str, Any]) -> None:
    """Move a ``cache_control`` of the canonical shape from the wire object's ``bag`` to
    ``canonical``, leaving the spelling marker in its place."""
    if KEY not in bag:
        return
    marker = decode_cache_control(bag[KEY])
    if marker is None:
        return
    canonical[KEY] = marker
    del bag[KEY]
    bag[SPELLING] = KEY


_CARRIERS = frozenset({"text", "image", "audio", "document"})
"""Canonical part types whose OpenAI part takes a breakpoint (``parts._with_breakpoint``)."""


def onto_last_part(message: Mapping[str, Any], losses: LossRecorder, at: Steps) -> Mapping[str, Any]:
    """``message`` with its message-level marker moved onto its last part, where OpenAI's
    breakpoint lives (string content becomes one text part carrying it); unchanged when the
    marker came as a message-level ``cache_control`` (written back there) or no part can take
    it (the writer then reports it).

    A last part with a marker of its own keeps it: the same marker says nothing more, a
    different one is reported."""
    cache = message.get(KEY)
    if cache is None or spelled(message.get("provider_metadata")):
        return message
    text = message.get("content")
    if isinstance(text, str) and text:
        moved = {key: value for key, value in message.items() if key != KEY}
        moved["content"] = [{"type": "text", "text": text, KEY: _kept_ttl(cache, losses, (*at, KEY))}]
        return moved
    content = as_list(text)
    last = as_dict(content[-1]) if content else None
    if content is None or last is None:
        return message
    if last["type"] not in _CARRIERS:
        return message
    moved = {key: value for key, value in message.items() if key != KEY}
    own = last.get(KEY)
    if own is None:
        moved["content"] = [*content[:-1], {**last, KEY: cache}]
    elif own != cache:
        losses.add((*at, KEY), KEY, "its last part has a different marker, kept", "setting")
    return moved


def _kept_ttl(cache: Mapping[str, Any], losses: LossRecorder, at: Steps) -> Mapping[str, Any]:
    """``cache`` without a ttl OpenAI's breakpoint cannot keep, reported here, at the message's
    marker: the text part it moves onto is no part of the message read, so a loss reported
    there would name a place the input does not have."""
    ttl = cache.get("ttl")
    if ttl is None or ttl in OPENAI_CACHE_TTLS:
        return cache
    why = f"OpenAI cache breakpoints last {' or '.join(OPENAI_CACHE_TTLS)}; the default (30m) is used"
    losses.add((*at, "ttl"), f"cache ttl {ttl!r}", why, "setting")
    return {key: value for key, value in cache.items() if key != "ttl"}


def spelled(metadata: Mapping[str, Any] | None) -> bool:
    """Whether the object was read with a ``cache_control`` key (the ``_cache`` marker)."""
    return KIT.marker(metadata, SPELLING) == KEY


def write(
    wire: dict[str, Any],
    cache: Mapping[str, Any] | None,
    metadata: Mapping[str, Any] | None,
    losses: LossRecorder,
    at: Steps,
    *,
    why: str,
) -> None:
    """Write ``cache`` back as ``cache_control`` where it was read from; a marker from
    elsewhere has no place in OpenAI's own format and is reported (``why``)."""
    if cache is None:
        return
    if spelled(metadata):
        wire[KEY] = encode_cache_control(cache)
    else:
        losses.add((*at, KEY), KEY, why, "setting")
