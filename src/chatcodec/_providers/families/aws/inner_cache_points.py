"""A cache point inside the text block it caches, for a body that takes it there (its
:attr:`~.body.Body.cache_inside`: Nova's InvokeModel body).

Converse's ``ContentBlock`` and ``SystemContentBlock`` are unions, one member per block, so
a ``cachePoint`` is a block of its own after what it marks. Nova's InvokeModel body takes
it as a member of the cached text block itself, in ``system`` and in message content::

    {"system": [{"text": "<system prompt>", "cachePoint": {"type": "default"}}],
     "messages": [{"role": "user", "content": [
         {"text": "<document>", "cachePoint": {"type": "default"}}, {"text": "<question>"}]}]}

(AWS's Nova prompt-caching example for InvokeModel,
https://github.com/aws-samples/amazon-bedrock-samples/blob/main/introduction-to-bedrock/prompt-caching/invoke_model_api/nova/README.md,
with https://docs.aws.amazon.com/nova/latest/userguide/prompt-caching.html).

Read: such a text block is a text part with that ``cache_control``; a point of a block of
its own stays readable, and one right after a text block marks that text part ``_cache_apart``
so the body's own round trip writes it apart again. Written: a text part's (or a message's)
cache point joins the text block it follows. Only non-blank text is joined (a blank one
meets the blank-text rule as a block of its own, and reads back kept whole); any other
block keeps its point after it, the form AWS shows for Converse (the guide shows the inner
form on text only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.aws.blocks import cache_marker
from chatcodec._providers.families.aws.body import Body

CACHE_APART = "_cache_apart"
"""Marker on a text part whose ``cachePoint`` came as a block of its own after it."""
_TEXT_AND_POINT = frozenset({"text", "cachePoint"})
_MARKED_TEXT = frozenset({"type", "text", "cache_control"})


def decode_inner(body: Body, block: Mapping[str, Any]) -> dict[str, Any] | None:
    """The text part for ``{"text", "cachePoint"}`` on a body that takes the point inside, or
    None (another block, a blank text, or a point canonical cannot hold: kept whole)."""
    if not body.cache_inside or len(block) != len(_TEXT_AND_POINT) or not block.keys() >= _TEXT_AND_POINT:
        return None
    text: Any = block["text"]
    if text.__class__ is not str or not text.strip():
        return None
    marker = cache_marker({"cachePoint": block.get("cachePoint")})
    if marker is None or ("ttl" in marker and not body.cache_ttl):
        return None
    return {"type": "text", "text": text, "cache_control": marker}


def mark_apart(body: Body, part: dict[str, Any]) -> None:
    """Note that ``part``'s cache point came as a block of its own, where the body would
    write it inside the part's (non-blank, plain) text block."""
    if body.cache_inside and part.keys() == _MARKED_TEXT and part["type"] == "text" and part["text"].strip():
        part["provider_metadata"] = {body.kit.name: {CACHE_APART: True}}


def joined(body: Body, content: list[dict[str, Any]], point: Mapping[str, Any], part: Mapping[str, Any] | None) -> bool:
    """Put ``point`` (a ``cachePoint`` block) inside the last block of ``content`` when the
    body takes it there and that block is non-blank text (``part``: the part that gave it,
    unless it came apart); whether it did."""
    if not body.cache_inside or not content:
        return False
    last = content[-1]
    if last.keys() != {"text"} or not last["text"].strip():
        return False
    if part is not None and body.kit.marker(part.get("provider_metadata"), CACHE_APART) is True:
        return False
    last["cachePoint"] = point["cachePoint"]
    return True
