"""The conventions' message parts <-> canonical content parts.

``text`` (``content``), ``reasoning`` (thinking, its text only), ``tool_call`` (``id``, ``name``,
``arguments`` as a JSON value) and the media parts ``blob`` (base64 ``content``), ``uri`` and
``file`` (``file_id``), each with its ``modality`` and ``mime_type``, have a canonical home; so
do what pydantic-ai writes instead (``thinking``, ``binary`` with ``media_type``, ``image-url``
and its siblings with ``url``). A built-in tool's call and response (``server_tool_call``,
``server_tool_call_response``, pydantic-ai's ``builtin: true``) are the canonical server call and
result (:mod:`.server_calls`). Every other part (a generic part) is kept whole as an opaque part
of this format, which another format reports. What a part
holds beyond its canonical fields rides in its bag. Writing, what the conventions have no field
for (a signature, a cache marker, a citation) is a reported loss
(``gen-ai-input-messages.json``, open-telemetry/semantic-conventions-genai ``model/gen-ai/``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.otel_genai.markers import KIT, PROVIDER
from chatcodec._frameworks.otel_genai.server_calls import decode_server_part, encode_server_part, is_server_part
from chatcodec.codec_kit import compact_json, leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps

MODALITIES = ("image", "audio", "video", "document")
"""The conventions' ``Modality`` values (``document`` since semantic-conventions-genai added it
to the enum); ``file``, what chatcodec's gateway wrote for a document before, is read as one."""

_URL_PARTS = {"image-url": "image", "audio-url": "audio", "video-url": "video", "document-url": "document"}
"""pydantic-ai's media URL parts (``_otel_messages.MediaUrlPart``, instrumentation versions 2 and 3)."""


def opaque(part: Mapping[str, Any]) -> dict[str, Any]:
    """A part with no canonical home, kept whole."""
    return {"type": "opaque", "provider": PROVIDER, "data": dict(part)}


def finish(
    canonical: dict[str, Any], wire: Mapping[str, Any], mapped: tuple[str, ...], **markers: object
) -> dict[str, Any]:
    """``canonical`` with the bag of what ``wire`` holds beyond ``mapped`` and the ``markers`` set."""
    bag = leftovers(wire, mapped)
    bag.update((f"_{key}", value) for key, value in markers.items() if value is not None)
    return KIT.attach(canonical, bag)


def decode_part(part: dict[str, Any], names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One part (its ``type`` a string, checked by :mod:`.wire`) as a canonical part; ``names``:
    the tool each call of its message names, by id (a server response names none)."""
    if is_server_part(part):
        return decode_server_part(part, names or {}) or opaque(part)
    kind = part["type"]
    content = part.get("content")
    if kind == "text" and isinstance(content, str):
        return finish({"type": "text", "text": content}, part, ("type", "content"))
    if kind in ("reasoning", "thinking") and isinstance(content, str):
        return finish(
            {"type": "thinking", "text": content}, part, ("type", "content"), thinking=kind == "thinking" or None
        )
    if kind == "tool_call" and isinstance(part.get("name"), str) and isinstance(part.get("id"), str | None):
        return _decode_call(part)
    if kind in ("blob", "binary", "uri", "file") or kind in _URL_PARTS:
        return decode_media(part) or opaque(part)
    return opaque(part)


def _decode_call(part: dict[str, Any]) -> dict[str, Any]:
    arguments = part.get("arguments")
    text = arguments if isinstance(arguments, str) else "" if arguments is None else compact_json(arguments)
    call = {"type": "tool_use", "id": part.get("id") or "", "name": part["name"], "arguments": text}
    markers = {"no_id": part.get("id") is None or None, "text_arguments": isinstance(arguments, str) or None}
    if arguments is None and "arguments" in part:
        markers["null_arguments"] = True
    return finish(call, part, ("type", "id", "name", "arguments"), **markers)


def _kind(modality: object, mime_type: object) -> str:
    if isinstance(modality, str) and modality in MODALITIES:
        return modality
    major = mime_type.partition("/")[0] if isinstance(mime_type, str) else ""
    return major if major in MODALITIES else "document"


def decode_media(part: dict[str, Any]) -> dict[str, Any] | None:
    """A media part as a canonical media part; None when it holds no source canonical takes (a
    ``blob`` without its content or MIME type, which instrumentation leaves out unless asked)."""
    kind, modality = part["type"], part.get("modality")
    mime_type = part.get("media_type") if kind == "binary" else part.get("mime_type")
    if not isinstance(mime_type, str | None) or (isinstance(mime_type, str) and not mime_type):
        return None
    source: dict[str, Any]
    if kind in ("blob", "binary") and isinstance(part.get("content"), str) and mime_type:
        source = {"type": "base64", "media_type": mime_type, "data": part["content"]}
        mapped = ("type", "modality", "media_type" if kind == "binary" else "mime_type", "content")
    elif kind == "uri" or kind in _URL_PARTS:
        url = part.get("uri" if kind == "uri" else "url")
        if not isinstance(url, str) or not url:
            return None
        source = {"type": "url", "url": url}
        mapped = ("type", "modality", "mime_type", "uri" if kind == "uri" else "url")
    elif kind == "file" and isinstance(part.get("file_id"), str) and part["file_id"]:
        source = {"type": "file", "file_id": part["file_id"]}
        mapped = ("type", "modality", "mime_type", "file_id")
    else:
        return None
    if mime_type and source["type"] != "base64":
        source["media_type"] = mime_type
    media_kind = _URL_PARTS.get(kind) or _kind(modality, mime_type)
    markers: dict[str, object] = {"spelt": kind if kind in _URL_PARTS or kind == "binary" else None}
    if kind not in _URL_PARTS and kind != "binary":
        written = media_kind if media_kind in MODALITIES else "file"
        markers["no_modality"] = "modality" not in part or None
        markers["modality"] = modality if "modality" in part and modality != written else None
    return finish({"type": media_kind, "source": source}, part, mapped, **markers)


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """One canonical part as a conventions part; None (with a loss) for one it has no part for."""
    bag = KIT.claim(context.losses, part.get("provider_metadata"), at)
    kind = part["type"]
    if kind == "opaque":
        if part["provider"] == PROVIDER:
            return dict(part["data"])
        server = encode_server_part(part, bag, context, at)
        if server is not None:
            return server
        context.losses.add(at, f"{part['provider']} part", "the GenAI conventions have no part for it")
        return None
    if part.get("cache_control") is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "the GenAI conventions have no cache marker", "setting"
        )
    wire: dict[str, Any]
    if kind == "text":
        wire = {"type": "text", "content": part["text"]}
        if part.get("citations"):
            context.losses.add((*at, "citations"), "citations", "a GenAI text part has no citations")
    elif kind == "refusal":
        wire = {"type": "text", "content": part["text"]}
        context.losses.add(at, "refusal", "the GenAI conventions have no refusal part: written as text")
    elif kind == "thinking":
        wire = {"type": "thinking" if bag.get("_thinking") else "reasoning", "content": part.get("text", "")}
        _report_thinking(part, context, at)
    elif kind == "tool_use":
        wire = _encode_call(part, bag, context, at)
    elif kind in ("image", "audio", "video", "document"):
        written = encode_media(part, bag, context, at)
        if written is None:
            return None
        wire = written
    else:
        context.losses.add(at, f"{kind} part", "the GenAI conventions have no part for it")
        return None
    wire.update(wire_fields(bag))
    return wire


_THINKING_FIELDS = (
    ("signature", "signature"),
    ("encrypted", "encrypted reasoning"),
    ("redacted", "redacted thinking"),
    ("provider", "thinking provider"),
    ("model", "thinking model"),
)


def _report_thinking(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> None:
    for key, what in _THINKING_FIELDS:
        if part.get(key):
            context.losses.add((*at, key), what, "a GenAI reasoning part holds its text only")


def _encode_call(part: Mapping[str, Any], bag: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    wire: dict[str, Any] = {"type": "tool_call"}
    if not (bag.get("_no_id") and not part["id"]):
        wire["id"] = part["id"]
    wire["name"] = part["name"]
    text: str = part.get("arguments", "")
    if bag.get("_null_arguments") and not text:
        wire["arguments"] = None
    elif bag.get("_text_arguments"):
        wire["arguments"] = text
    elif text:
        wire["arguments"] = arguments_value(text)
    if part.get("kind", "function") != "function":
        context.losses.add((*at, "kind"), f"{part['kind']} call", "a GenAI tool call is a function call")
    return wire


def arguments_value(text: str) -> object:
    """A call's argument text as the JSON value the conventions hold; text that is no JSON, or
    JSON of a string (which would read back as that string's text), stays text."""
    try:
        value: object = json.loads(text)
    except ValueError:
        return text
    return text if isinstance(value, str) else value


def encode_media(
    part: Mapping[str, Any], bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    """A media part as ``blob``, ``uri`` or ``file`` (or the pydantic-ai part it was read from)."""
    kind, source = part["type"], part["source"]
    for key in ("detail", "title", "filename", "start_offset", "end_offset", "fps"):
        if part.get(key) is not None:
            context.losses.add((*at, key), f"{kind} {key}", "a GenAI media part has no such field")
    spelt = bag.get("_spelt")
    if source["type"] == "text":
        context.losses.add(at, "text document", "a GenAI media part holds bytes, a URI or a file id, not text")
        return None
    wire: dict[str, Any]
    if spelt == "binary" and source["type"] == "base64":
        return {"type": "binary", "media_type": source["media_type"], "content": source["data"]}
    if isinstance(spelt, str) and spelt in _URL_PARTS and source["type"] == "url":
        return {"type": spelt, "url": source["url"]}
    if source["type"] == "base64":
        wire = {"type": "blob", "mime_type": source["media_type"], "content": source["data"]}
    elif source["type"] == "url":
        wire = {"type": "uri", "uri": source["url"]}
    else:
        wire = {"type": "file", "file_id": source["file_id"]}
    if source["type"] != "base64" and source.get("media_type") is not None:
        wire["mime_type"] = source["media_type"]
    if not bag.get("_no_modality"):
        modality = bag.get("_modality", kind if kind in MODALITIES else "file")
        wire = {"type": wire.pop("type"), "modality": modality, **wire}
    return wire
