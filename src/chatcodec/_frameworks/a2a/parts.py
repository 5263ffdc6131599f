"""A2A v1.0 parts <-> canonical parts.

v1.0 flattened the part kinds into one ``Part`` whose ``content`` is one of ``text``, ``raw``
(a file's bytes, base64 in JSON), ``url`` (a file by reference) and ``data`` (any JSON value),
beside ``filename``, ``mediaType`` and ``metadata``. Read:

- ``text``: a text part (its ``mediaType``, ``filename`` and ``metadata`` in its bag);
- ``raw`` / ``url``: a media part by the ``mediaType``'s family (``image/``, ``audio/``,
  ``video/``), else a document with its ``filename``: a base64 or URL source. A media part
  by URL whose type is unknown is written with its family's range (``image/*``), which reads
  back as that part with no media type. An agent's
  message holds no video or document in canonical data, so there such a file is an opaque
  part of this format, kept whole (written back here, reported by any other format);
- ``data``: the canonical home of structured data is the text a model is shown, so a data
  part is a text part holding the value's compact JSON, marked ``_data`` (meaningful: written
  back as the value here, reported when another format sends it as text).

Written, what a part cannot carry in A2A is a loss: a tool call, a result, thinking, a
refusal, a file uploaded by id, an image's detail, a video's clip, a document's title.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.a2a.markers import DATA, DISPLAY, KIT, NO_MEDIA_TYPE, OCTET_STREAM, PROVIDER
from chatcodec._frameworks.a2a.wire import content_key, is_base64
from chatcodec.codec_kit import compact_json, leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps

_FAMILIES = {"image": "image", "audio": "audio", "video": "video"}
"""A media type's family -> the canonical part a file of it is (any other: a document)."""

_AGENT_MEDIA = frozenset({"image", "audio"})
"""The file parts a canonical assistant message holds."""


def decode_part(part: dict[str, Any], agent: bool) -> dict[str, Any]:
    """One checked part as a canonical part (``agent``: the part is in an agent's message)."""
    key = content_key(part)
    if key == "text":
        return KIT.attach({"type": "text", "text": part["text"]}, leftovers(part, ("text",)))
    if key == "data":
        bag = leftovers(part, ("data",))
        bag[DATA] = True
        return KIT.attach({"type": "text", "text": compact_json(part["data"])}, bag)
    return _decode_file(part, key, agent)


def _decode_file(part: dict[str, Any], key: str, agent: bool) -> dict[str, Any]:
    media_type = part.get("mediaType") or None
    family, _, subtype = (media_type or "").partition("/")
    kind = _FAMILIES.get(family.strip().lower(), "document")
    if subtype == "*" and kind != "document" and key == "url":
        media_type = None  # the range :func:`_encode_file` writes for media of no known type
    if (agent and kind not in _AGENT_MEDIA) or (key == "url" and not part["url"]):
        return {"type": "opaque", "provider": PROVIDER, "data": dict(part)}
    mapped = [key, *(("mediaType",) if part.get("mediaType") else ())]
    bag: dict[str, Any] = {}
    if key == "raw":
        source = {"type": "base64", "media_type": media_type or OCTET_STREAM, "data": part["raw"]}
        if media_type is None:
            bag[NO_MEDIA_TYPE] = True
    else:
        source = {"type": "url", "url": part["url"], **({"media_type": media_type} if media_type else {})}
    canonical: dict[str, Any] = {"type": kind, "source": source}
    if kind == "document" and part.get("filename") is not None:
        canonical["filename"] = part["filename"]
        mapped.append("filename")
    bag.update(leftovers(part, tuple(mapped)))
    return KIT.attach(canonical, bag)


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The A2A part for a canonical part, or None for one A2A cannot carry (a loss)."""
    kind = part["type"]
    losses = context.losses
    if part.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache marker", f"{DISPLAY} has no cache markers", "metadata")
    if kind == "opaque" and part.get("provider") == PROVIDER:
        KIT.report_foreign(losses, part.get("provider_metadata"), at)
        return dict(part["data"])
    if kind not in ("text", "image", "audio", "video", "document"):
        losses.add(at, f"{kind} part", f"{DISPLAY} parts are text, files and data; it has no {kind}")
        return None
    bag = KIT.claim(losses, part.get("provider_metadata"), at)
    if kind == "text":
        if part.get("citations"):
            losses.add((*at, "citations"), "citations", f"{DISPLAY} text parts have no citations", "metadata")
        return {**_text_or_data(part["text"], bag.get(DATA) is True), **wire_fields(bag)}
    return _encode_file(part, bag, context, at)


def _text_or_data(text: str, data: bool) -> dict[str, Any]:
    """``{"data": value}`` for a text marked ``_data`` that is still its value's compact JSON,
    else ``{"text": text}``."""
    if data:
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        else:
            if compact_json(value) == text:
                return {"data": value}
    return {"text": text}


def _encode_file(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    kind, source, losses = part["type"], part["source"], context.losses
    wire: dict[str, Any]
    if source["type"] == "base64":
        if not is_base64(source["data"]):
            losses.add(at, f"{kind} data", f"{DISPLAY} file bytes are base64; this data is not")
            return None
        wire = {"raw": source["data"]}
    elif source["type"] == "url":
        wire = {"url": source["url"]}
    elif source["type"] == "text":
        wire = {"text": source["text"]}
        losses.add(at, "document text", f"{DISPLAY} has no text document: sent as a text part")
    else:
        losses.add(at, f"{kind} from a {source['type']} source", f"{DISPLAY} files are bytes or a URL")
        return None
    wire.update(wire_fields(bag))
    if part.get("filename") is not None:
        wire["filename"] = part["filename"]
    media_type = source.get("media_type")
    if media_type is None and source["type"] == "url" and kind != "document":
        wire["mediaType"] = f"{kind}/*"
    elif media_type is not None and not (bag.get(NO_MEDIA_TYPE) and media_type == OCTET_STREAM):
        wire["mediaType"] = media_type
    for key, what in (("detail", "image detail"), ("start_offset", "clip start"), ("end_offset", "clip end")):
        if part.get(key) is not None:
            losses.add((*at, key), what, f"{DISPLAY} file parts have no {key}", "setting")
    for key in ("fps", "title"):
        if part.get(key) is not None:
            losses.add((*at, key), key, f"{DISPLAY} file parts have no {key}", "metadata")
    return wire
