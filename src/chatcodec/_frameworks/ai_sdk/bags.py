"""A part's bags when Gemini's thought signature rides beside the format's own: the
``gemini`` bag :mod:`.provider_options` fills must survive the format's bag being attached,
and must not be reported as lost by the format's own encoder, which writes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk.provider_options import foreign_metadata
from chatcodec.contract import LossRecorder, ProviderKit, Steps


def attach(kit: ProviderKit, canonical: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
    """``canonical`` with ``bag`` as its ``provider_metadata[kit.name]`` (kept beside a
    ``gemini`` bag already there) when ``bag`` is not empty."""
    if bag:
        canonical.setdefault("provider_metadata", {})[kit.name] = dict(bag)
    return canonical


def claim(kit: ProviderKit, losses: LossRecorder, metadata: Mapping[str, Any] | None, at: Steps) -> dict[str, Any]:
    """The format's own bag; other formats' bags reported, but for the Gemini signature it writes."""
    return kit.claim(losses, foreign_metadata(metadata), at)
