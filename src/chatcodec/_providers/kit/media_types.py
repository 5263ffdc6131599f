"""A base64 source's media type in the lower case an API's list takes.

A media type is case-insensitive (RFC 2045, section 5.1: ``image/JPEG`` is a JPEG), but the
APIs check theirs against lower-case lists: a type of another case that one of them names
is written lower case and reported; one that no case of which they take is a loss. Called
only after the type missed the list as it is, so the common path pays nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from chatcodec._losses import LossRecorder, Steps


def lower_case_source(
    source: Mapping[str, Any], accepted: Collection[str], losses: LossRecorder, at: Steps, *, provider: str, takes: str
) -> Mapping[str, Any] | None:
    """``source`` with its media type lower-cased when ``accepted`` holds that (reported as
    ``provider`` taking it so), else None, reported with ``takes`` (what the API takes)."""
    media_type: str = source["media_type"]
    lowered = media_type.lower()
    if lowered not in accepted:
        losses.add(at, f"image of type {media_type}", takes)
        return None
    losses.add((*at, "source", "media_type"), f"media type {media_type}", f"{provider} takes it as {lowered}")
    return {**source, "media_type": lowered}
