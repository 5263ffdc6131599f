"""``_compat.media_type_reads_back`` answers the common image types from a set, and every other
by matching a data URL's head: either answer is whether the data URL written for that media type
reads back as it (:func:`_compat.source_from_url` of :func:`_compat.data_url`), which the OpenAI
Chat and Responses writers report when it does not."""

from __future__ import annotations

from typing import Any

import pytest

from chatcodec import _compat

_DATA = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"

_MEDIA_TYPES = [
    *sorted(_compat._READS_BACK),
    "image/svg+xml",
    "application/pdf",
    "IMAGE/PNG",
    "image/png;charset=x",
    "image/png,x",
    "image/png ",
    "image",
    "",
]


@pytest.mark.parametrize("media_type", _MEDIA_TYPES)
def test_the_answer_is_whether_the_data_url_reads_back(media_type: str) -> None:
    read = _compat.source_from_url("".join(["data:", media_type, ";base64,", _DATA]))  # a new text object
    reads_back = read == {"type": "base64", "media_type": media_type, "data": _DATA}
    assert _compat.media_type_reads_back(media_type) is reads_back
    assert _compat.reads_back(media_type, _DATA) is reads_back


def test_the_set_holds_the_images_every_provider_takes() -> None:
    assert {"image/png", "image/jpeg", "image/webp", "image/gif"} == _compat._READS_BACK


@pytest.mark.parametrize("media_type", [7, None, ["image/png"]])
def test_a_media_type_that_is_not_text_is_answered_as_before(media_type: Any) -> None:
    """Data given to a writer unchecked: answered by the head's match, never a TypeError."""
    assert _compat.media_type_reads_back(media_type) is False
