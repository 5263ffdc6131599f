"""Media helpers shared by the canonical model and the codecs: data URLs and audio formats.

Reading alternate input shapes (the role this module once had) is
:mod:`chatcodec._dialects.reader`; the canonical models themselves accept canonical data only.
"""

from __future__ import annotations

import re
from typing import Any

from chatcodec._public_label import shown_as

_DATA_URL_HEAD = re.compile(r"data:(?P<media_type>[\w.+-]+/[\w.+-]+(?:;[\w.+-]+=[^;,]*)*);base64")
"""A base64 data URL's head (RFC 2397): its media type with any parameters
(``data:application/pdf;name=doc.pdf;base64``, as browsers and upload libraries write it)."""

# OpenAI's input_audio "format" <-> MIME type. Unlisted formats map to audio/<format>.
_AUDIO_MEDIA_TYPES = {"mp3": "audio/mpeg", "wav": "audio/wav", "pcm16": "audio/pcm"}
_AUDIO_FORMATS = {media_type: name for name, media_type in _AUDIO_MEDIA_TYPES.items()}


def media_type_essence(media_type: str) -> str:
    """``media_type`` without its parameters, lower case: what names the kind of data
    (``"application/PDF; name=doc.pdf"`` -> ``"application/pdf"``). Type and subtype are
    case-insensitive and parameters follow a ``;`` (RFC 2045, section 5.1; RFC 9110, section
    8.3.1), so a writer recognises a type by this and keeps the parameters where its format
    carries them. One with nothing before a ``;`` is returned as it is."""
    if media_type.islower() and ";" not in media_type:
        return media_type
    essential = media_type.split(";", 1)[0].strip().lower()
    return essential or media_type


def media_type_for_audio_format(audio_format: str) -> str:
    """``"mp3"`` -> ``"audio/mpeg"``; unknown formats become ``audio/<format>``."""
    return _AUDIO_MEDIA_TYPES.get(audio_format, f"audio/{audio_format}")


def audio_format_from_media_type(media_type: str | None) -> str | None:
    """``"audio/mpeg"`` -> ``"mp3"``; the inverse of :func:`media_type_for_audio_format`."""
    if media_type is None:
        return None
    if media_type in _AUDIO_FORMATS:
        return _AUDIO_FORMATS[media_type]
    return media_type.removeprefix("audio/")


def source_from_url(url: str, media_type: str | None = None) -> dict[str, Any]:
    """A media source for ``url``: a base64 source for a ``data:`` URL, else a URL source.

    Only data URLs that :func:`data_url` rebuilds character for character are split,
    so encoding back to a URL-based provider is exact. The data is carried as given, not
    proved base64 (:func:`fits_a_data_url`): a target that takes the same text sends it
    unchanged, and a writer that decodes it proves it.
    """
    split = _SPLIT.get(id(url))
    if split is not None and split[0] is url:  # the same text object, split before
        return {"type": "base64", "media_type": split[1], "data": split[2]}
    head, comma, data = url.partition(",")
    match = _DATA_URL_HEAD.fullmatch(head) if comma and head.startswith("data:") else None
    if match is not None and fits_a_data_url(data):
        _remember_split(url, match["media_type"], data)
        return {"type": "base64", "media_type": match["media_type"], "data": data}
    source: dict[str, Any] = {"type": "url", "url": url}
    if media_type is not None:
        source["media_type"] = media_type
    return source


def reads_back(media_type: str, data: str) -> bool:
    """Whether :func:`data_url` of ``media_type`` and ``data`` reads back, by
    :func:`source_from_url`, as that media type and data: a media type the head pattern
    takes whole (no comma to split at) and data that fits a data URL
    (:func:`fits_a_data_url`). Decided without building the URL and reading it again (a
    copy of what may be megabytes)."""
    return media_type_reads_back(media_type) and fits_a_data_url(data)


def media_type_reads_back(media_type: str) -> bool:
    """Whether a data URL of ``media_type`` reads back as that media type: the head pattern
    takes it whole (no comma to split at). :func:`reads_back` for data already known to fit
    a data URL."""
    if media_type.__class__ is str and media_type in _READS_BACK:  # the images every provider takes
        return True
    return _DATA_URL_HEAD.fullmatch(f"data:{media_type};base64") is not None


_READS_BACK = frozenset(
    media_type
    for media_type in ("image/png", "image/jpeg", "image/webp", "image/gif")
    if _DATA_URL_HEAD.fullmatch(f"data:{media_type};base64") is not None
)
"""Media types :func:`media_type_reads_back` answers without building a data URL's head and
matching it: the image types Anthropic, OpenAI and Gemini take (each matched once, here)."""


def fits_a_data_url(data: str) -> bool:
    """Whether ``data`` can be carried as a data URL's base64 text: ASCII. A lone surrogate
    (which no UTF-8 body can hold) or any other non-ASCII character is in no base64
    alphabet, and ``str.isascii`` answers without reading the text (CPython keeps the flag).

    The alphabet itself is not proved: where the target takes the same text (OpenAI Chat
    and Responses data URLs, Anthropic's base64 sources) it is the caller's text, sent
    unchanged, and proving it cost more than the whole conversion of a session with
    screenshots (``docs/performance-history.md``, "Images and one-time costs"); a bad
    payload is then named by the provider's 400. Writers that decode the data or send bytes
    (Gemini, Bedrock, a text document's decode) prove it in their own rule."""
    return data.isascii()


def is_local_file_url(url: str) -> bool:
    """Whether ``url`` is a ``file:`` URL (RFC 8089; a scheme is case-insensitive): a path on
    the caller's machine, which a hosted provider cannot fetch."""
    return url[:5].lower() == "file:"


def local_file_why(provider: str) -> str:
    """Why a ``file:`` URL sent to ``provider`` is reported: kept as given, not dropped (the
    writers' module docstrings say why)."""
    return f"a file: URL names a path on the caller's machine, which {provider} cannot fetch; sent as given"


def data_url(media_type: str, data: str) -> str:
    """The ``data:`` URL for base64 ``data`` (the URL it was split from, when it was: the
    same text, not a copy of what may be megabytes)."""
    split = _SPLIT.get(~id(data))
    if split is not None and split[2] is data and split[1] == media_type:
        return split[0]
    return f"data:{media_type};base64,{data}"


_SPLIT: dict[int, tuple[str, str, str]] = {}
"""The data URLs :func:`source_from_url` split, by the identity of the URL text and (negated)
of its data: ``(url, media type, data)``. An agent resends its screenshots every turn, the
same text objects when it holds its history (splitting a screenshot's data URL, a copy of
its data, and joining it again, another, cost more than a look-up). A
text is immutable, so the same object is the same text; each entry holds its texts, so
their identities stay theirs. At most :data:`_SPLIT_LIMIT` characters (of the URLs and of the
data split from them: an entry holds both), all forgotten when full."""
_SPLIT_LIMIT = 1 << 22
_split_characters = 0


def _remember_split(url: str, media_type: str, data: str) -> None:
    global _split_characters  # noqa: PLW0603 - one bounded memory per process
    size = len(url) + len(data)
    if _split_characters + size > _SPLIT_LIMIT:
        _SPLIT.clear()
        _split_characters = 0
    entry = (url, media_type, data)
    _SPLIT[id(url)] = entry
    _SPLIT[~id(data)] = entry
    _split_characters += size


shown_as("chatcodec.codec_kit", is_local_file_url, local_file_why, media_type_essence, source_from_url)
