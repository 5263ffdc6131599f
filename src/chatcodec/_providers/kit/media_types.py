"""A base64 source's media type as an API's list takes it: its essence.

A media type is case-insensitive (RFC 2045, section 5.1: ``image/JPEG`` is a JPEG) and may
carry parameters after a ``;`` (``application/pdf; name=doc.pdf``, as browsers and upload
libraries write it), but the APIs check theirs against lists of lower-case types alone: a
type whose essence (:func:`chatcodec._compat.media_type_essence`) one of them names is
written as that essence and reported; one that no spelling of which they take is a loss.
Called only after the type missed the list as it is, so the common path pays nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from chatcodec._compat import media_type_essence
from chatcodec._losses import LossRecorder, Steps


def lower_case_source(
    source: Mapping[str, Any], accepted: Collection[str], losses: LossRecorder, at: Steps, *, provider: str, takes: str
) -> Mapping[str, Any] | None:
    """``source`` with its media type's essence (lower case, no parameters) when ``accepted``
    holds that (reported as ``provider`` taking it so), else None, reported with ``takes``
    (what the API takes)."""
    media_type: str = source["media_type"]
    essential = media_type_essence(media_type)
    if essential not in accepted:
        losses.add(at, f"image of type {media_type}", takes)
        return None
    if essential != media_type:
        losses.add((*at, "source", "media_type"), f"media type {media_type}", f"{provider} takes it as {essential}")
    return {**source, "media_type": essential}
