"""Responses content parts <-> canonical content parts.

Input parts (``input_text``, ``input_image``, ``input_file``, ``input_audio``) live in
user, system and developer messages and in function call outputs; output parts
(``output_text`` with its ``annotations`` and ``logprobs``, ``refusal``) in assistant
message items. A part canonical cannot hold where it stands is kept whole as an opaque
part. ``prompt_cache_breakpoint`` on an input part is the canonical cache marker.

Encoding rules from the API and its SDK types (``openai.types.responses``):

* ``input_image`` requires ``detail`` (``ResponseInputImageParam``): a canonical image
  with none is sent with ``"auto"``, the API's default, which is what it meant;
* audio: see :data:`INPUT_AUDIO`;
* images and files go by URL (a ``data:`` URL for base64), ``file_id``, or for files
  ``file_data`` (a data URL) and ``file_url``; text documents have no input part;
* assistant text is ``output_text``; an assistant image or audio clip has no part.

A URL, file id or file URL canonical cannot hold (empty, or text with a lone surrogate,
which canonical's non-empty strings refuse) leaves its part opaque, kept whole: the
reader gives canonical data by construction, with no model to refuse it later.

A ``file:`` URL (``file:///home/me/cat.png``) in ``image_url`` or ``file_url`` names a path
on the caller's machine, which OpenAI cannot fetch. It is kept as given and reported, not
dropped: a same-format round trip stays exact (a request the provider refuses is the
caller's to fix, sent as it came), a gateway in front of the provider may resolve it (vLLM
reads local files under ``--allowed-local-media-path``), and dropping it would change what
the model is asked about; the loss tells the caller to send the bytes inline instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from chatcodec import _compat as compat
from chatcodec._providers.families.openai.cache_breakpoint import (
    decode_prompt_cache_breakpoint,
    encode_prompt_cache_breakpoint,
)
from chatcodec._providers.families.openai.citation_keys import ORDER, in_order, keys_order
from chatcodec._providers.families.openai.file_names import write_filename
from chatcodec._providers.openai_responses import wire as shapes
from chatcodec._providers.openai_responses.agents_sdk import without_sdk_fields
from chatcodec._providers.openai_responses.carried_reasoning import SealedCalls
from chatcodec._providers.openai_responses.markers import EMPTY_LOGPROBS, KIT, NO_FILENAME, PROVIDER
from chatcodec.codec_kit import (
    ABSENT_MARKER,
    absent_keys,
    as_dict,
    as_list,
    restore_fields,
    sdk_kinds,
    split_fields,
    with_unknown_nulls,
)
from chatcodec.contract import EncodeContext, LossRecorder, Steps

_noted = SealedCalls.noted  # bound once: a class attribute is looked up per call
BREAKPOINT = "prompt_cache_breakpoint"
INPUT_AUDIO = "_input_audio"
"""Marker: an audio part read from an ``input_audio`` part. The API's message content
(``ResponseInputMessageContentListParam``) has no audio part, so only audio that came from
Responses goes back as ``input_audio``; other audio is reported."""
DETAILS = ("auto", "low", "high")
"""Image details canonical names; ``original`` and later values stay in the bag."""
_FILE_WORDS = ("Responses input files", "Responses requires one with file data;")

USER_KINDS = frozenset({"input_text", "input_image", "input_file", "input_audio"})
SYSTEM_KINDS = frozenset({"input_text"})
RESULT_KINDS = frozenset({"input_text", "input_image", "input_file"})
ASSISTANT_KINDS = frozenset({"output_text", "refusal"})
_TEXT_KINDS = ("input_text", "output_text")

# --- decode ------------------------------------------------------------------------------


def canonical_text(value: object) -> TypeGuard[str]:
    """Whether ``value`` is text a canonical non-empty string holds: pydantic-core reads
    such a field as UTF-8, so it refuses a lone surrogate (``string_unicode``), which JSON
    may hold."""
    if not isinstance(value, str) or not value:
        return False
    if value.isascii():
        return True
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def opaque(wire: Mapping[str, Any], bag: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A wire object kept whole, for this provider to get back verbatim."""
    return KIT.attach({"type": "opaque", "provider": PROVIDER, "data": dict(wire)}, bag or {})


def decode_parts(parts: list[Any], allowed: frozenset[str], calls: SealedCalls | None = None) -> list[dict[str, Any]]:
    """Canonical parts for a (validated) wire content list (``calls``: what a request's
    reading learns, each bag noted as written, :attr:`.SealedCalls.deep`)."""
    return [decode_part(part, allowed, calls) for part in parts]


def decode_part(part: Mapping[str, Any], allowed: frozenset[str], calls: SealedCalls | None = None) -> dict[str, Any]:
    """The canonical part for a wire part, opaque when ``allowed`` excludes its kind."""
    kind = part["type"]
    if kind not in allowed:
        return opaque(part)
    if kind in _TEXT_KINDS and (len(part) == 2 or _annotated(part)):  # the plain shapes
        text = {"type": "text", "text": part["text"]}
        if len(part) == 2 or _no_annotations(part):
            return text
        read = read_citations(part["annotations"]) if kind == "output_text" else None
        if read is not None:
            text["citations"], order = read
            _cited(calls)
            return text if order is None else KIT.attach(text, _noted(calls, {ORDER: order}))
        return KIT.attach(text, _noted(calls, {"annotations": part["annotations"]}))
    decoded: dict[str, Any] | None
    match kind:
        case "input_text" | "output_text":
            decoded = {"type": "text", "text": part["text"]}
            mapped: tuple[str, ...] = _EMPTY_ANNOTATIONS if _no_annotations(part) else ("type", "text")
            read = read_citations(part.get("annotations")) if kind == "output_text" else None
            if read is not None:
                (decoded["citations"], order), mapped = read, _EMPTY_ANNOTATIONS
                _cited(calls)
                if order is not None:
                    decoded["provider_metadata"] = {PROVIDER: {ORDER: order}}
            if kind == "output_text" and _no_tokens(part):  # the API's answer when none were asked for
                mapped = (*mapped, "logprobs")
                decoded.setdefault("provider_metadata", {PROVIDER: {}})[PROVIDER][EMPTY_LOGPROBS] = True
        case "refusal":
            decoded, mapped = {"type": "refusal", "text": part["refusal"]}, ("type", "refusal")
        case "input_image":
            decoded, mapped = _decode_image(part)
        case "input_file":
            decoded, mapped = _decode_file(part)
        case _:
            decoded, mapped = _decode_audio(part)
    return opaque(part) if decoded is None else _finish(decoded, part, mapped, calls)


_EMPTY_ANNOTATIONS = ("type", "text", "annotations")


def _no_tokens(part: Mapping[str, Any]) -> bool:
    """An ``output_text`` whose ``logprobs`` are ``[]``: spelling (:data:`.markers.EMPTY_LOGPROBS`),
    no data for another format to carry, given back as it came."""
    logprobs = part.get("logprobs")
    return logprobs.__class__ is list and not logprobs


def _cited(calls: SealedCalls | None) -> None:
    """Note in a request's reading that it read citations (:attr:`.SealedCalls.cited`)."""
    if calls is not None:
        calls.cited = True


def _no_annotations(part: Mapping[str, Any]) -> bool:
    """An ``output_text`` whose ``annotations`` are ``[]``: what the writer gives every one
    (the SDK's ``ResponseOutputText`` requires the field), so no data to carry in a bag."""
    return part["type"] == "output_text" and part.get("annotations") == []


_CITATION_KEYS = frozenset({"type", "url", "title", "start_index", "end_index"})
"""The keys of a ``url_citation`` annotation (the SDK's ``AnnotationURLCitation``)."""


_WRITTEN = ("type", "end_index", "start_index", "title", "url")
"""The order OpenAI sends a url citation's keys in (a recorded stream's
``response.output_text.annotation.added``), which the writer gives them."""


def read_citations(annotations: object) -> tuple[list[dict[str, Any]], list[str] | None] | None:
    """The canonical citations of an ``output_text``'s (non-empty) ``annotations``, when
    every one is a ``url_citation`` of exactly the SDK's fields (``AnnotationURLCitation``:
    ``type``, ``url``, ``title``, ``start_index``, ``end_index``), with their keys' order
    when it is not the writer's (:data:`~chatcodec._providers.kit.citations.ORDER`); else
    None, and the list stays whole in the part's bag (a file citation, a container file, a
    field added later, keys in orders that differ)."""
    entries = as_list(annotations)
    if not entries:
        return None
    citations: list[dict[str, Any]] = []
    found_entries: list[dict[str, Any]] = []
    for entry in entries:
        found = as_dict(entry)
        if found is None or found.keys() != _CITATION_KEYS or found["type"] != "url_citation":
            return None
        url, title, start, end = found["url"], found["title"], found["start_index"], found["end_index"]
        if not (type(url) is str and type(title) is str and type(start) is int and type(end) is int):
            return None
        citations.append({"type": "url_citation", "url": url, "title": title, "start_index": start, "end_index": end})
        found_entries.append(found)
    order = keys_order(found_entries, _WRITTEN)
    return None if order == [] else (citations, order)


def write_citations(citations: list[Any], order: object = None) -> list[dict[str, Any]]:
    """``url_citation`` annotations for canonical citations, keys in :data:`_WRITTEN` order
    or the ``order`` a reading kept."""
    return [
        in_order(
            {
                "type": "url_citation",
                "end_index": citation["end_index"],
                "start_index": citation["start_index"],
                "title": citation["title"],
                "url": citation["url"],
            },
            order,
        )
        for citation in citations
    ]


def with_annotations(metadata: Mapping[str, Any], citations: list[Any]) -> dict[str, Any]:
    """A streamed text's bag with its citations as the ``annotations`` its finished parts
    carry (``content_part.done``, ``output_item.done``): the stream writer writes a part's
    wire fields from its bag, so the end event's citations ride there."""
    kept: dict[str, Any] = dict(metadata.get(PROVIDER) or {})
    return {**metadata, PROVIDER: {"annotations": write_citations(citations, kept.get(ORDER)), **kept}}


def _annotated(part: Mapping[str, Any]) -> bool:
    """An ``output_text`` of its text and its (list of) annotations only."""
    return len(part) == 3 and type(part.get("annotations")) is list


def _finish(
    canonical: dict[str, Any], part: Mapping[str, Any], mapped: tuple[str, ...], calls: SealedCalls | None
) -> dict[str, Any]:
    cache = decode_prompt_cache_breakpoint(part.get(BREAKPOINT))
    if cache is not None:
        canonical["cache_control"] = cache
        mapped = (*mapped, BREAKPOINT)
    bag = split_fields(part, mapped)
    if part["type"] in _TEXT_SDK_KINDS and None in part.values():
        with_unknown_nulls(bag, __package__, _TEXT_SDK_KINDS[part["type"]])
    bag.update(KIT.own(canonical.pop("provider_metadata", None)))
    return KIT.attach(canonical, _noted(calls, bag))


_TEXT_SDK_KINDS = {"output_text": sdk_kinds(shapes.OutputText), "input_text": sdk_kinds(shapes.InputText)}
"""The SDK kinds of each text part: a ``null`` in one of its fields is spelling, in any other
key data (:mod:`chatcodec._providers.kit.null_fields`)."""


def _decode_image(part: Mapping[str, Any]) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    url, file_id = part.get("image_url"), part.get("file_id")
    mapped: tuple[str, ...]
    if canonical_text(url) and file_id is None:
        source, mapped = compat.source_from_url(url), ("type", "image_url")
    elif canonical_text(file_id) and url is None:
        source, mapped = {"type": "file", "file_id": file_id}, ("type", "file_id")
    else:
        return None, ()
    canonical: dict[str, Any] = {"type": "image", "source": source}
    if "detail" not in part:  # the SDK requires it; a payload without it gets none back
        canonical["provider_metadata"] = {PROVIDER: {ABSENT_MARKER: ["detail"]}}
    if part.get("detail") in DETAILS:
        canonical["detail"] = part["detail"]
        mapped = (*mapped, "detail")
    return canonical, mapped


_DATA_AND_ID = ["file_data", "file_id"]
"""An ``input_file`` with both its bytes and an uploaded file's id (the SDK's
``ResponseInputFileParam`` makes each optional, and neither excludes the other): read as
its bytes (what every target can send), the id kept for a Responses round trip."""


def _decode_file(part: Mapping[str, Any]) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    given = [key for key in ("file_data", "file_id", "file_url") if part.get(key) is not None]
    if given == _DATA_AND_ID:  # the file's bytes are its content, its id rides in the bag
        given = given[:1]
    if len(given) != 1 or not canonical_text(part[given[0]]):
        return None, ()
    key = given[0]
    if key == "file_data":
        source = compat.source_from_url(part[key])
        if source["type"] != "base64":
            return None, ()  # the API wants a data URL here; anything else stays verbatim
    elif key == "file_id":
        source = {"type": "file", "file_id": part[key]}
    else:
        source = {"type": "url", "url": part[key]}
    canonical: dict[str, Any] = {"type": "document", "source": source}
    mapped: tuple[str, ...] = ("type", key)
    if part.get("filename") is not None:
        canonical["filename"] = part["filename"]
        mapped = (*mapped, "filename")
    elif key == "file_data" and "filename" not in part:  # written back without one (see write_filename)
        canonical["provider_metadata"] = {PROVIDER: {NO_FILENAME: True}}
    return canonical, mapped


def _decode_audio(part: Mapping[str, Any]) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    audio = part["input_audio"]
    media_type = compat.media_type_for_audio_format(audio["format"])
    if set(audio) != {"data", "format"} or compat.audio_format_from_media_type(media_type) != audio["format"]:
        return None, ()  # a spelling canonical would not give back: kept whole
    if not canonical_text(media_type):
        return None, ()
    source = {"type": "base64", "media_type": media_type, "data": audio["data"]}
    canonical = {"type": "audio", "source": source, "provider_metadata": {PROVIDER: {INPUT_AUDIO: True}}}
    return canonical, ("type", "input_audio")


# --- encode ------------------------------------------------------------------------------

Part = Mapping[str, Any]
"""A canonical part, as data."""


def part_bag(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """This provider's bag on ``part`` (other providers' reported as lost)."""
    metadata = part.get("provider_metadata")
    if metadata is None:  # the common case
        return {}
    return without_sdk_fields(KIT.claim(losses, metadata, at), losses, at)


def encode_part(part: Part, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The input part for a user, system or tool-result part; None (a loss) when none fits."""
    losses = context.losses
    wire: dict[str, Any] | None
    match part["type"]:
        case "text":
            wire = {**restore_fields(part_bag(part, losses, at)), "type": "input_text", "text": part["text"]}
        case "image":
            wire = _encode_image(part, losses, at)
        case "document":
            wire = _encode_document(part, losses, at)
        case "audio":
            wire = _encode_audio(part, losses, at)
        case "opaque":
            return encode_opaque(part, losses, at)
        case kind:  # thinking, refusal, tool_use, tool_result
            losses.add(at, f"{kind} part", "a Responses input message has no such part")
            return None
    cache_control = part.get("cache_control")
    if wire is not None and cache_control is not None:
        wire[BREAKPOINT] = encode_prompt_cache_breakpoint(cache_control, losses, at)
    return wire


def _encode_image(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    own = part_bag(part, losses, at)
    bag = restore_fields(own)
    source = part["source"]
    match source["type"]:
        case "url":
            bag["image_url"] = _url(source["url"], losses, at)
            _media_type_loss(source.get("media_type"), losses, at)
        case "base64":
            bag["image_url"] = data_url(source, losses, at)
        case _:  # a file
            if not _own_file_id(source, losses, at):
                return None
            bag["file_id"] = source["file_id"]
            _media_type_loss(source.get("media_type"), losses, at)
    wire = {**bag, "type": "input_image"}
    detail = part.get("detail")
    if detail is not None:
        wire["detail"] = detail
    elif "detail" not in absent_keys(own):
        wire.setdefault("detail", "auto")
    return wire


def _own_file_id(source: Part, losses: LossRecorder, at: Steps) -> bool:
    """Whether a file id could be OpenAI's: its ids are tokens (``file-abc123``), never a URI
    or a path. Gemini names an upload by its URI or ``files/<id>``; sent as a ``file_id`` it
    is refused, so it is reported, not sent."""
    if "/" not in source["file_id"]:
        return True
    why = "a URI or storage path (another provider's upload), not an OpenAI file id; not sent"
    losses.add((*at, "source", "file_id"), "file id", why)
    return False


def _url(url: str, losses: LossRecorder, at: Steps) -> str:
    """A media URL as given; a ``file:`` one reported (see the module docstring)."""
    if compat.is_local_file_url(url):
        losses.add((*at, "source", "url"), "local file URL", compat.local_file_why("OpenAI"))
    return url


def _encode_document(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    bag = restore_fields(part_bag(part, losses, at))
    source = part["source"]
    match source["type"]:
        case "base64":
            bag["file_data"] = data_url(source, losses, at)
        case "file":
            if not _own_file_id(source, losses, at):
                return None
            bag["file_id"] = source["file_id"]
            _media_type_loss(source.get("media_type"), losses, at)
        case "url":
            bag["file_url"] = _url(source["url"], losses, at)
            _media_type_loss(source.get("media_type"), losses, at)
        case _:  # plain text
            losses.add(at, "plain-text document", "Responses has no text documents; sent as input_text")
            return {"type": "input_text", "text": source["text"]}
    unnamed = KIT.marker(part.get("provider_metadata"), NO_FILENAME) is True
    write_filename(part, bag, losses, at, unnamed=unnamed, words=_FILE_WORDS)
    return {**bag, "type": "input_file"}


def _encode_audio(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    if not KIT.marker(part.get("provider_metadata"), INPUT_AUDIO):
        why = "the Responses SDK's message content has no audio part; only one read from Responses goes back"
        losses.add(at, "audio part", why)
        return None
    source = part["source"]
    media_type = source.get("media_type")
    audio_format = compat.audio_format_from_media_type(media_type) or ""
    if source["type"] != "base64" or compat.media_type_for_audio_format(audio_format) != media_type:
        losses.add(at, f"audio by {source['type']} ({media_type})", "Responses input_audio is base64 wav or mp3")
        return None
    bag = restore_fields(part_bag(part, losses, at))
    return {**bag, "type": "input_audio", "input_audio": {"data": source["data"], "format": audio_format}}


def output_part(part: Part, bag: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """An assistant message item's part, with ``bag`` (its own, already claimed):
    ``output_text`` (annotations from the bag, or none) or ``refusal``."""
    fields = restore_fields(bag)
    if part.get("cache_control") is not None:
        losses.add(
            (*at, "cache_control"), "cache_control", "Responses output parts carry no cache breakpoint", "setting"
        )
    if part["type"] == "refusal":
        return {**fields, "type": "refusal", "refusal": part["text"]}
    if bag.get(EMPTY_LOGPROBS) is True and "logprobs" not in fields:
        fields["logprobs"] = []
    wire: dict[str, Any] = {"annotations": [], **fields, "type": "output_text", "text": part["text"]}
    citations = part.get("citations")
    if citations:  # the canonical citations over annotations kept in a bag
        if fields.get("annotations"):
            losses.add((*at, "provider_metadata"), "annotations", "replaced by the part's citations", "metadata")
        wire["annotations"] = write_citations(citations, bag.get(ORDER))
    return wire


def encode_opaque(part: Part, losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    """An opaque part back as the object it was, when it is this provider's."""
    provider = part.get("provider")
    if provider != PROVIDER:
        losses.add(at, f"{provider} block", f"{PROVIDER} cannot carry another provider's block")
        return None
    KIT.report_foreign(losses, part.get("provider_metadata"), at)
    if part.get("cache_control") is not None:
        losses.add(
            (*at, "cache_control"), "cache_control", "the item is sent verbatim, without a breakpoint", "setting"
        )
    return dict(part["data"])


def data_url(source: Mapping[str, Any], losses: LossRecorder, at: Steps) -> str:
    """The ``data:`` URL for a base64 source (a loss when it would not read back the same)."""
    media_type, data = source["media_type"], source["data"]
    url = compat.data_url(media_type, data)
    if not compat.reads_back(media_type, data):
        why = "Responses sends it as a data URL, which does not read back as this media type and data"
        losses.add((*at, "source"), "base64 source", why)
    return url


def _media_type_loss(media_type: str | None, losses: LossRecorder, at: Steps) -> None:
    if media_type is not None:
        losses.add((*at, "source", "media_type"), "media type", "Responses sends no media type with a URL or file id")
