"""Helpers every provider codec uses to stay lossless.

The rule that makes a same-provider round trip exact: a decoder maps what has a canonical
field and keeps the *rest* of each wire object in ``provider_metadata[provider]``; the
encoder for that provider starts from the rest and writes the canonical fields back over
it. Another provider's encoder ignores the bag, and reports what it could not carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from chatcodec._base import ProviderMetadata
from chatcodec.errors import json_path
from chatcodec.losses import LossRecorder


def leftovers(wire: Mapping[str, Any], mapped: Iterable[str]) -> dict[str, Any]:
    """The fields of ``wire`` that the decoder did not map to canonical fields."""
    known = set(mapped)
    return {key: value for key, value in wire.items() if key not in known}


def metadata(provider: str, bag: Mapping[str, Any] | None) -> ProviderMetadata | None:
    """``{provider: bag}``, or ``None`` when there is nothing to keep."""
    if not bag:
        return None
    return {provider: dict(bag)}


def own_bag(provider: str, provider_metadata: ProviderMetadata | None) -> dict[str, Any]:
    """What ``provider`` kept on this object when it decoded it (a copy), or ``{}``."""
    if not provider_metadata:
        return {}
    return dict(provider_metadata.get(provider) or {})


def other_providers(provider: str, provider_metadata: ProviderMetadata | None) -> list[str]:
    """Providers other than ``provider`` with data on this object (for loss reports)."""
    return [name for name in provider_metadata or {} if name != provider]


def path(*steps: int | str) -> str:
    """A JSON path for loss reports: ``path("messages", 2, "content")`` -> ``$.messages[2].content``."""
    return json_path(steps)


def report_foreign_metadata(
    losses: LossRecorder, provider: str, provider_metadata: ProviderMetadata | None, at: str
) -> None:
    """Record a loss for every other provider's data on an object ``provider`` encodes.

    Keys starting with ``_`` are spelling markers (how a value was written, e.g. a
    ``null`` content), meaningless elsewhere, and are not reported.
    """
    for name in other_providers(provider, provider_metadata):
        assert provider_metadata is not None
        keys = sorted(key for key in provider_metadata[name] if not key.startswith("_"))
        if keys:
            losses.add(at, f"{name} data {keys}", f"{provider} has no field for it")
