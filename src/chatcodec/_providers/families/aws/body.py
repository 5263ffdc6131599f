"""What a Bedrock block body tells the family's shared readers and writers: its kit (the
registry name its bags and opaque blocks carry), the names its losses and errors use, and
the few members AWS documents for one body and not the other. Each body's ``markers.py``
holds its :class:`Body`; the shared functions take it, never a copy of themselves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec._providers.kit.provider_kit import share_markers
from chatcodec.codec_kit import ProviderKit

SIBLING_MARKERS = frozenset({"_json", "_bucket_owner"})
"""The markers of the shared block wire a body reads from its sibling's bags (:meth:`Body.marker`)."""


@dataclass(frozen=True, slots=True)
class Body:
    """One Bedrock block body (Converse, Nova's InvokeModel body)."""

    kit: ProviderKit
    """The body's kit: its bags, markers and opaque blocks are ``kit.name``'s."""
    name: str
    """The body named in losses and errors (``"Bedrock Converse"``, ``"Amazon Nova"``)."""
    short: str
    """The shorter name where a loss says whose blocks or tools these are (``"Bedrock"``, ``"Nova"``)."""
    response: str = "a Converse response"
    """The answer named in losses (``"a Converse response cannot contain it"``)."""
    tool_cache_points: bool = True
    """Whether a ``cachePoint`` may follow a tool in ``toolConfig.tools``: Bedrock's prompt
    caching caches ``tools`` for Claude models, and for Amazon Nova only ``system`` and
    ``messages`` (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html)."""
    strict_tools: bool = True
    """Whether a ``toolSpec`` takes ``strict`` (Converse's structured tool use); Nova's tool
    guide documents no such member."""
    claude: bool = True
    """Whether the body serves Claude: Claude's signed reasoning (``signature``,
    ``redactedContent``) is read and replayed, and a target model of None may be Claude.
    Nova's InvokeModel body serves Nova models only, whose reasoning carries no signature
    (https://docs.aws.amazon.com/nova/latest/nova2-userguide/reasoning-capabilities.html)."""
    system_turns: bool = True
    """Whether ``messages`` may hold a ``system`` turn (Converse's ``ConversationRole`` has
    it); Nova's turns are ``user`` and ``assistant``, its system prompt top-level only."""
    cache_ttl: bool = True
    """Whether a ``cachePoint`` takes a ``ttl`` (botocore's ``CachePointBlock``: ``5m`` |
    ``1h``); Nova's request schema documents none."""
    cache_inside: bool = False
    """Whether a text block's ``cachePoint`` goes inside it (``{"text", "cachePoint"}``), as
    Nova's InvokeModel body takes it, rather than as a block of its own after it, as
    Converse's one-member blocks need (:mod:`.inner_cache_points`)."""
    lacks: frozenset[str] = frozenset()
    """Block members AWS documents for Converse and not for this body: its reader keeps such
    a block whole, its writer reports the part (Nova's InvokeModel body: ``document``,
    "Document Support is limited to only Converse API"; ``audio``; ``guardContent``;
    ``citationsContent``)."""
    sibling: str | None = None
    """The other Bedrock block body's registry name (Converse's for Nova, Nova's for
    Converse): the two share the block wire, so a marker of that wire which the sibling's
    reader left (a tool result's ``json`` block, an S3 source's ``bucketOwner``) means the
    same here and is written back (:meth:`marker`), not dropped between the two."""

    def __post_init__(self) -> None:
        if self.sibling is not None:
            share_markers(self.sibling, self.kit.name, SIBLING_MARKERS)

    def marker(self, metadata: Mapping[str, Any] | None, key: str) -> object:
        """Marker ``key`` of the shared block wire: this body's own, else its sibling's."""
        found = self.kit.marker(metadata, key)
        if found is not None or not metadata or self.sibling is None:
            return found
        bag = as_dict(metadata.get(self.sibling))
        return bag.get(key) if bag is not None else None
