"""Content parts of system, user and tool messages, both ways.

OpenAI spells media as ``image_url`` (a URL or a ``data:`` URL), ``input_audio`` (base64
plus a short format name) and ``file`` (a ``data:`` URL in ``file_data``, or a
``file_id``). What cannot be said that way (an image by file id, audio by URL, a PDF by
URL) is dropped with a loss. A video is the compatible servers' ``video_url`` part (vLLM,
SGLang, Kimi, Together: a URL or a ``data:`` URL, as ``image_url``), written for a server
named to take it (:mod:`.server_media`). ``prompt_cache_breakpoint`` (explicit prompt caching) maps
to the part's ``cache_control``; OpenAI offers the lifetimes ``30m`` and ``12h`` only.

Both ways work on canonical data (the JSON a part model dumps). A text part holding only
its ``type`` and ``text`` reads and writes the same on both sides, so it is taken over as
it is (the reader's input is a validated copy that belongs to the call); every other part
goes through the general reading or writing below it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec import _compat as compat
from chatcodec._providers.families.openai.cache_breakpoint import OPENAI_CACHE_TTLS, decode_prompt_cache_breakpoint
from chatcodec._providers.families.openai.file_names import write_filename
from chatcodec._providers.openai_chat import cache_control
from chatcodec._providers.openai_chat.common_shapes import IMAGE_DETAILS
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER, opaque
from chatcodec._providers.openai_chat.server_media import (
    FLAT_FILE_ID,
    STORAGE_URL,
    VIDEO_URL,
    clip_losses,
    document_url,
    file_url,
    file_url_source,
    flat_file_id,
    image_file_part,
    own_file_id,
    unfetched,
    untaken_file,
    video_document,
    video_target,
)
from chatcodec.codec_kit import PLAIN_TEXT, as_dict, encode_cache_control, leftovers, unmapped_fields, wire_fields

if TYPE_CHECKING:
    from chatcodec.contract import EncodeContext, LossRecorder, Steps

_TTLS = OPENAI_CACHE_TTLS
_BREAKPOINT = "prompt_cache_breakpoint"
NO_FILENAME = "_no_filename"
"""Marker on a decoded ``file`` part whose ``file_data`` came without a ``filename``."""
_FILE_WORDS = ("OpenAI file parts", "OpenAI requires one with file data; none was given,")
_AUDIO_FORMATS = frozenset({"wav", "mp3"})
"""The formats OpenAI's ``input_audio`` takes (``Literal["wav", "mp3"]`` in the SDK's
``ChatCompletionContentPartInputAudioParam``): OGG, FLAC, AAC or PCM, from any format
(an ``input_audio`` read with such a format too), is a loss, not a part the API refuses."""
_AUDIO_ALIASES = {"audio/mp3": "mp3", "audio/x-wav": "wav", "audio/wave": "wav"}
"""Media types other providers use for the two formats OpenAI's ``input_audio`` takes
(``Literal["wav", "mp3"]`` in the SDK's ``ChatCompletionContentPartInputAudioParam``):
Gemini documents ``audio/mp3`` for MP3 (ai.google.dev "Audio understanding", supported
formats), browsers and Python's ``mimetypes`` give ``audio/x-wav`` / ``audio/wave``; the
registered names are ``audio/mpeg`` and ``audio/wav``."""

# --- decode --------------------------------------------------------------------------


def decode_part(part: dict[str, Any]) -> dict[str, Any]:
    """A wire content part of a system, user or tool message, as a canonical part dict."""
    match part.get("type"):
        case "text":
            return decode_text_part(part)
        case "image_url":
            return _decode_image(part)
        case "input_audio":
            return _decode_audio(part)
        case "file":
            return _decode_file(part)
        case "video_url":
            return _decode_video(part)
        case _:
            return opaque(part)


def decode_parts(content: str | list[dict[str, Any]], *, split: bool = True) -> str | list[dict[str, Any]]:
    """Message content: a string stays a string, a list becomes canonical parts (a plain
    text part, most of them, is taken over without a call). ``split`` false: an image's
    ``data:`` URL is read as the URL source it is, not split into its media type and base64
    data (:func:`~chatcodec._compat.source_from_url`'s split is a copy of what may be
    megabytes), for a writer that sends either source as the same URL (a direct path's,
    :mod:`chatcodec._direct`)."""
    if isinstance(content, str):
        return content
    if not split:
        return [part if len(part) == 2 and part["type"] == "text" else _unsplit(part) for part in content]
    return [part if len(part) == 2 and part["type"] == "text" else decode_part(part) for part in content]


def _unsplit(part: dict[str, Any]) -> dict[str, Any]:
    """:func:`decode_part`, an image's URL read as given (``decode_parts``' ``split``)."""
    return _decode_image(part, split=False) if part.get("type") == "image_url" else decode_part(part)


def decode_text_part(part: dict[str, Any]) -> dict[str, Any]:
    """A text part: the canonical one as it is when it holds nothing else."""
    if len(part) == 2 and "text" in part:
        return part
    canonical: dict[str, Any] = {"type": "text", "text": part["text"]}
    return _finish(canonical, part, ("type", "text"))


def _finish(canonical: dict[str, Any], part: dict[str, Any], mapped: tuple[str, ...], **nested: Any) -> dict[str, Any]:
    """Add the cache marker and keep the unmapped keys (``nested`` holds sub-object rests)."""
    cache = decode_prompt_cache_breakpoint(part.get(_BREAKPOINT))
    if cache is not None:
        canonical["cache_control"] = cache
        mapped = (*mapped, _BREAKPOINT)
    bag = leftovers(part, mapped)
    bag.update({key: value for key, value in nested.items() if value})
    if cache is None:
        cache_control.take(bag, canonical)  # the OpenRouter / litellm spelling
    return KIT.attach(canonical, bag)


FILE_FORMAT = "_file_format"
"""Marker on a document by file id whose media type came as litellm's ``format``: written back so."""

IMAGE_URL_STRING = "_image_url"
"""Marker: ``"string"`` when ``image_url`` was the URL itself, not ``{"url": ...}``."""


def _media_source(url: str, *, split: bool = True) -> tuple[dict[str, Any], str | None]:
    """The source of a media URL, and the scheme of a server's file URL read as a file id
    (:func:`.server_media.file_url_source`), None for another URL (``split`` false: a
    ``data:`` URL kept as a URL source, :func:`decode_parts`)."""
    stored = file_url_source(url)
    if stored is not None:
        return stored
    return (compat.source_from_url(url) if split else {"type": "url", "url": url}), None


def _mark(decoded: dict[str, Any], marker: str, value: object) -> dict[str, Any]:
    """``decoded`` with a spelling marker in its bag (None: unchanged)."""
    if value is not None:
        decoded.setdefault("provider_metadata", {PROVIDER: {}})[PROVIDER][marker] = value
    return decoded


def _decode_image(part: dict[str, Any], *, split: bool = True) -> dict[str, Any]:
    if isinstance(part["image_url"], str):  # litellm's bare-string form (see wire.ImagePart)
        source, scheme = _media_source(part["image_url"], split=split)
        bare = _finish({"type": "image", "source": source}, part, ("type", "image_url"))
        return _mark(_mark(bare, IMAGE_URL_STRING, "string"), STORAGE_URL, scheme)
    image_url: dict[str, Any] = part["image_url"]
    source, scheme = _media_source(image_url["url"], split=split)
    canonical: dict[str, Any] = {"type": "image", "source": source}
    if len(part) == 2 and (len(image_url) == 1 or (len(image_url) == 2 and image_url.get("detail") in IMAGE_DETAILS)):
        if len(image_url) == 2:  # a url and a detail canonical has: nothing for a bag
            canonical["detail"] = image_url["detail"]
        return _mark(canonical, STORAGE_URL, scheme)
    mapped = ["url"]
    if image_url.get("detail") in IMAGE_DETAILS:  # "original" and future values stay in the bag
        canonical["detail"] = image_url["detail"]
        mapped.append("detail")
    decoded = _finish(canonical, part, ("type", "image_url"), image_url=unmapped_fields(image_url, mapped))
    return _mark(decoded, STORAGE_URL, scheme)


def _decode_audio(part: dict[str, Any]) -> dict[str, Any]:
    audio: dict[str, Any] = part["input_audio"]
    media_type = compat.media_type_for_audio_format(audio["format"])
    source = {"type": "base64", "media_type": media_type, "data": audio["data"]}
    nested = unmapped_fields(audio, ("data", "format"))
    canonical = _finish({"type": "audio", "source": source}, part, ("type", "input_audio"), input_audio=nested)
    if compat.audio_format_from_media_type(media_type) != audio["format"]:  # "mpeg" would come back as "mp3"
        canonical.setdefault("provider_metadata", {PROVIDER: {}})[PROVIDER]["_format"] = audio["format"]
    return canonical


def _decode_video(part: dict[str, Any]) -> dict[str, Any]:
    video_url = as_dict(part.get("video_url"))
    url = video_url.get("url") if video_url is not None else None
    if video_url is None or not isinstance(url, str) or not url:
        return opaque(part)
    source, scheme = _media_source(url)
    canonical: dict[str, Any] = {"type": "video", "source": source}
    decoded = _finish(canonical, part, ("type", "video_url"), video_url=unmapped_fields(video_url, ("url",)))
    return _mark(_mark(decoded, VIDEO_URL, True), STORAGE_URL, scheme)


def _decode_file(part: dict[str, Any]) -> dict[str, Any]:
    if "file" not in part:  # DeepSeek's spelling: the Files-API id beside the type (.server_media)
        if "file_id" not in part:
            return opaque(part)
        by_id = {"type": "document", "source": {"type": "file", "file_id": part["file_id"]}}
        return _mark(_finish(by_id, part, ("type", "file_id")), FLAT_FILE_ID, True)
    file: dict[str, Any] = part["file"]
    canonical: dict[str, Any] = {"type": "document"}
    if "file_data" in file:
        source = compat.source_from_url(file["file_data"])
        if source["type"] != "base64":
            return opaque(part)  # OpenAI wants a data URL here; anything else is kept verbatim
        canonical["source"] = source
        mapped = ["file_data"]
    elif "file_id" in file:
        canonical["source"] = {"type": "file", "file_id": file["file_id"]}
        mapped = ["file_id"]
        if isinstance(file.get("format"), str) and file["format"]:  # litellm's media type of a file by id
            canonical["source"]["media_type"] = file["format"]
            mapped.append("format")
    else:
        return opaque(part)
    if "filename" in file:
        canonical["filename"] = file["filename"]
        mapped.append("filename")
    decoded = _finish(canonical, part, ("type", "file"), file=unmapped_fields(file, mapped))
    if "file_data" in file and "filename" not in file:  # written back without one (see write_filename)
        decoded.setdefault("provider_metadata", {PROVIDER: {}})[PROVIDER][NO_FILENAME] = True
    return _mark(decoded, FILE_FORMAT, True if "format" in mapped else None)


# --- encode --------------------------------------------------------------------------

Part = Mapping[str, Any]
"""A canonical part's data (as a part model dumps it; a key holding its default may be absent)."""


def encode_part(part: Part, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The wire part for a canonical one, or ``None`` (with a loss) when OpenAI cannot hold
    it. Calls, results, reasoning and refusals are not content parts here: the message
    encoders place them in their own fields, so they never reach this function."""
    kind = part["type"]
    if kind == "text" and len(part) == PLAIN_TEXT:
        return dict(part)  # {"type": "text", "text": ...} is the wire part as it is
    if kind == "image" and len(part) == 2:  # its type and source: no bag to report
        return _encode_image(part, context, at)
    losses = context.losses
    KIT.report_foreign(losses, part.get("provider_metadata"), at)
    if kind == "text":
        return encode_text_part(part, losses, at)
    if kind == "image":
        return _encode_image(part, context, at)
    if kind == "audio":
        return _encode_audio(part, losses, at)
    if kind == "document":
        video = video_document(part, context, at)
        return _encode_document(part, context, at) if video is None else _encode_video(video, context, at)
    if kind == "video":
        return _encode_video(part, context, at)
    if kind == "opaque":
        return encode_opaque(part, losses, at)
    losses.add(at, f"{kind} part", "OpenAI Chat content holds no such part")  # thinking, tool_use, tool_result, refusal
    return None


def encode_text_part(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """A text part (another provider's bag on it is the caller's to report)."""
    if len(part) == PLAIN_TEXT:
        return dict(part)
    wire = {**wire_fields(KIT.own(part.get("provider_metadata"))), "type": "text", "text": part["text"]}
    return _with_breakpoint(wire, part, losses, at)


def encode_opaque(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    provider = part["provider"]
    if provider != PROVIDER:
        losses.add(at, f"{provider} block", f"{PROVIDER} cannot carry another provider's block")
        return None
    if part.get("cache_control") is not None:
        losses.add(
            (*at, "cache_control"), "cache_control", "the block is sent verbatim, without a breakpoint", "setting"
        )
    return dict(part["data"])


def _with_breakpoint(wire: dict[str, Any], part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """The part's cache marker: as ``cache_control`` when it was read so, else as OpenAI's
    ``prompt_cache_breakpoint``."""
    cache = part.get("cache_control")
    if cache is None:
        return wire
    if cache_control.spelled(part.get("provider_metadata")):
        wire[cache_control.KEY] = encode_cache_control(cache)
        return wire
    breakpoint: dict[str, Any] = {"mode": "explicit"}
    ttl = cache.get("ttl")
    if ttl in _TTLS:
        breakpoint["ttl"] = ttl
    elif ttl is not None:
        why = f"OpenAI cache breakpoints last {' or '.join(_TTLS)}; the default (30m) is used"
        losses.add((*at, "cache_control", "ttl"), f"cache ttl {ttl!r}", why, "setting")
    wire[_BREAKPOINT] = breakpoint
    return wire


def _nested(bag: dict[str, Any], key: str) -> dict[str, Any]:
    return dict(as_dict(bag.pop(key, None)) or {})


def _encode_image(part: Part, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    source = part["source"]
    kind = source["type"]
    losses = context.losses
    metadata = part.get("provider_metadata")
    if kind == "url":
        url = source["url"]
        if unfetched(url, "image", losses, at):
            return None
        _media_type_loss(source.get("media_type"), losses, at)
    elif kind == "base64":
        written = _data_url(source, losses, at)
        if written is None:
            return None
        url = written
    else:  # file
        if not own_file_id(source, losses, at):
            return None
        stored = file_url(part, KIT.own(metadata), context)
        image_file = image_file_part(part, context, at) if stored is None else None
        if stored is None and image_file is None:
            losses.add(at, "image by file id", "OpenAI chat images are URLs or data URLs")
            return None
        if image_file is not None:
            return _with_breakpoint(image_file, part, losses, at)
        url = stored
        _media_type_loss(source.get("media_type"), losses, at)
    detail = part.get("detail")
    if metadata is None and part.get("cache_control") is None:  # the usual image: no bag to read
        image_url = {"url": url} if detail is None else {"url": url, "detail": detail}
        return {"type": "image_url", "image_url": image_url}
    bag = KIT.own(metadata)
    image_url = {**_nested(bag, "image_url"), "url": url}
    if detail is not None:
        image_url["detail"] = detail
    bare = bag.get(IMAGE_URL_STRING) == "string" and image_url == {"url": url}  # still says nothing more
    wire = {**wire_fields(bag), "type": "image_url", "image_url": url if bare else image_url}
    return _with_breakpoint(wire, part, losses, at)


def _encode_audio(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    source = part["source"]
    if source["type"] != "base64":
        losses.add(at, f"audio by {source['type']}", "OpenAI input_audio is inline base64 only")
        return None
    media_type: str = source["media_type"]
    bag = KIT.own(part.get("provider_metadata"))
    spelled = bag.get("_format")
    alias = _AUDIO_ALIASES.get(media_type)
    if alias is not None:
        why = f"OpenAI names it {alias!r}, which reads back as {compat.media_type_for_audio_format(alias)}"
        losses.add((*at, "source", "media_type"), f"media type {media_type}", why)
        input_audio = {**_nested(bag, "input_audio"), "data": source["data"], "format": alias}
        return _with_breakpoint(
            {**wire_fields(bag), "type": "input_audio", "input_audio": input_audio}, part, losses, at
        )
    audio_format = compat.audio_format_from_media_type(media_type) or ""
    if isinstance(spelled, str) and compat.media_type_for_audio_format(spelled) == media_type:
        audio_format = spelled
    if compat.media_type_for_audio_format(audio_format) != media_type:
        losses.add(at, f"audio of type {media_type}", "it has no OpenAI input_audio format name")
        return None
    if compat.audio_format_from_media_type(media_type) not in _AUDIO_FORMATS:  # "mpeg", read as spelled, is mp3
        losses.add(at, f"audio of type {media_type}", "OpenAI input_audio takes wav and mp3 only")
        return None
    input_audio = {**_nested(bag, "input_audio"), "data": source["data"], "format": audio_format}
    wire = {**wire_fields(bag), "type": "input_audio", "input_audio": input_audio}
    return _with_breakpoint(wire, part, losses, at)


def _encode_video(part: Part, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """A ``video_url`` part, for a server that takes one (:func:`.server_media.video_target`)."""
    losses = context.losses
    bag = KIT.own(part.get("provider_metadata"))
    if not video_target(context, bag.get(VIDEO_URL) is True, at):
        return None
    source = part["source"]
    if source["type"] == "url":
        url = source["url"]
        if unfetched(url, "video", losses, at):
            return None
        _media_type_loss(source.get("media_type"), losses, at)
    elif source["type"] == "base64":
        url = _data_url(source, losses, at)
    else:
        url = file_url(part, bag, context) if own_file_id(source, losses, at) else ""
        if not url:
            if url is None:
                losses.add(at, "video by file id", "video_url takes a URL or a data URL (Kimi's ms://<file-id>)")
            return None
        _media_type_loss(source.get("media_type"), losses, at)
    clip_losses(part, losses, at)
    video_url = {**_nested(bag, "video_url"), "url": url}
    wire = {**wire_fields(bag), "type": "video_url", "video_url": video_url}
    return _with_breakpoint(wire, part, losses, at)


def _encode_document(part: Part, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    source = part["source"]
    kind = source["type"]
    losses = context.losses
    if kind == "base64":
        instead = untaken_file(source, context, at)
        if instead is not None:
            return _with_breakpoint(instead, part, losses, at) if instead else None
    elif kind == "url":
        written = document_url(part, context, at)
        if written is not None:
            return _with_breakpoint(written, part, losses, at)
    bag = KIT.own(part.get("provider_metadata"))
    file = _nested(bag, "file")
    if kind == "base64":
        file_data = _data_url(source, losses, at)
        if file_data is None:
            return None
        file["file_data"] = file_data
    elif kind == "file":
        if not own_file_id(source, losses, at):
            return None
        _file_media_type(source, file, bag, losses, at)
        if flat_file_id(part, context) and not file:
            return _flat_file(part, bag, losses, at)
        file["file_id"] = source["file_id"]
    elif kind == "text":
        losses.add(at, "plain-text document", "OpenAI has no text documents; sent as a text part")
        return _with_breakpoint({"type": "text", "text": source["text"]}, part, losses, at)
    else:  # url
        losses.add(at, "document by URL", "OpenAI files are data URLs or file ids")
        return None
    unnamed = KIT.marker(part.get("provider_metadata"), NO_FILENAME) is True
    write_filename(part, file, losses, at, unnamed=unnamed, words=_FILE_WORDS)
    wire = {**wire_fields(bag), "type": "file", "file": file}
    return _with_breakpoint(wire, part, losses, at)


def _file_media_type(
    source: Mapping[str, Any], file: dict[str, Any], bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> None:
    """A file id's media type: written back as litellm's ``format`` when it was read so
    (``_file_format``); else OpenAI has no place for it (reported)."""
    if bag.pop(FILE_FORMAT, None) and source.get("media_type") is not None:
        file["format"] = source["media_type"]
    else:
        _media_type_loss(source.get("media_type"), losses, at)


def _flat_file(part: Part, bag: dict[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """DeepSeek's file part by id (:func:`.server_media.flat_file_id`): the id beside the
    type, with no place for a title or file name (reported)."""
    for field in ("title", "filename"):
        if part.get(field) is not None:
            losses.add((*at, field), f"document {field}", "a file part by id spelled flat has no name")
    wire = {**wire_fields(bag), "type": "file", "file_id": part["source"]["file_id"]}
    return _with_breakpoint(wire, part, losses, at)


def _data_url(source: Mapping[str, Any], losses: LossRecorder, at: Steps) -> str | None:
    """The data URL of a base64 source; None (reported) when its data is not ASCII: no
    base64 text is, and a lone surrogate cannot even be written as a UTF-8 body. ASCII data
    is sent as given, its alphabet unproved (:func:`~chatcodec._compat.fits_a_data_url`
    says why): OpenAI's 400 names a bad one."""
    media_type, data = source["media_type"], source["data"]
    if not compat.fits_a_data_url(data):
        losses.add((*at, "source", "data"), "media data", "not base64: OpenAI cannot read it as a data URL")
        return None
    url = compat.data_url(media_type, data)
    if not compat.media_type_reads_back(media_type):  # the data fits a data URL: checked above
        why = "OpenAI sends it as a data URL, which does not read back as this media type and data"
        losses.add((*at, "source"), "base64 source", why)
    return url


def _media_type_loss(media_type: str | None, losses: LossRecorder, at: Steps) -> None:
    if media_type is not None:
        losses.add((*at, "source", "media_type"), "media type", "OpenAI sends no media type with a URL or file id")
