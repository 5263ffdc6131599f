"""Media parts whose writing depends on the server the body goes to (:mod:`.servers`).

**Video.** OpenAI's own Chat Completions API has no video part (the SDK's
``ChatCompletionContentPartParam`` is text, ``image_url``, ``input_audio`` and ``file``).
vLLM and SGLang take ``{"type": "video_url", "video_url": {"url": ...}}`` with an
``http(s)`` or ``data:`` URL (https://docs.vllm.ai/en/latest/features/multimodal_inputs.html,
"Video Inputs"; https://docs.sglang.ai/basic_usage/openai_api_vision.html), as do Kimi
K2.5+ and Together (their records). So a video part is written as ``video_url`` when the
body goes to a server named by the option ``server`` (or a model id only it serves); one
that does not take ``video_url`` for the model has it dropped by the server fitting (a
``rule`` loss naming the server's parts). With no server named (or OpenAI named) the
target is OpenAI: a video is a ``content`` loss, unless it was read from a ``video_url``
part (the ``_video_url`` marker), which goes back as it came. ``video_url`` has no clip
or frame rate: a part's ``start_offset``, ``end_offset`` and ``fps`` are reported.

**Documents.** A ``file`` part takes the MIME types its server's record lists
(:attr:`~.servers.server.Server.file_types`; OpenAI's Chat Completions "accepts only PDF
files as file content parts ... To use text from a file in Chat Completions, read the
file in your application and send its contents as a text content part",
https://developers.openai.com/api/docs/guides/file-inputs). So with no server named, a
base64 ``text/*`` document is written as the text it holds (UTF-8), and another type
OpenAI does not take is dropped, each reported; for a named server the fitting does the
same by its record (a ``rule`` loss naming it). A
document by URL goes as a ``document_url`` part to a server whose parts hold one
(Mistral: "document_url": a URL, https://docs.mistral.ai/capabilities/document_ai/basic_ocr/).

**Files by URL.** Kimi takes an image or video uploaded to Moonshot's Files API as the
URL ``ms://<file-id>`` (:attr:`~.servers.server.Server.file_url_scheme`). Such a URL is
read as a file id (the ``_storage_url`` marker keeps its spelling, so it goes back as it
came with no server named), and an image or video by file id is written so for Kimi.

**Storage no server fetches.** OpenAI fetches an ``image_url`` over ``http(s)`` (or takes
a ``data:`` URL), as the compatible servers do for ``video_url``; none reads an ``s3://``
location (Bedrock's own storage), so media there is reported, not sent, as Gemini's writer
does (https://developers.openai.com/api/docs/guides/images-vision, "Provide an image as
input": "a fully qualified URL to an image file" or "a Base64-encoded data URL").
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatcodec._providers.openai_chat.servers.server import Server
    from chatcodec.contract import EncodeContext, LossRecorder, Steps

VIDEO_URL = "_video_url"
"""Marker: the video was read from a ``video_url`` part (``markers.py``)."""
FLAT_FILE_ID = "_flat_file_id"
"""Marker: the document's Files-API id was read from DeepSeek's ``{"type": "file", "file_id"}``
spelling, written back so with no server named."""
STORAGE_URL = "_storage_url"
"""Marker: the image's or video's file id was read from a server's file URL (Kimi's
``ms://<file-id>``), the scheme kept, so it is written back as that URL."""
_SCHEMES = ("ms://",)
"""Every server's :attr:`~.servers.server.Server.file_url_scheme` (the reader knows no server)."""

CLIP = ("start_offset", "end_offset", "fps")

_NO_VIDEO = (
    "OpenAI Chat has no video part; video_url is a compatible server's "
    "(vLLM, SGLang, Kimi, Together: name it with the option 'server')"
)


def _model(context: EncodeContext) -> str | None:
    model = context.model if context.model is not None else context.option("model")
    return model if isinstance(model, str) else None


def target_server(context: EncodeContext) -> tuple[Server, bool]:
    """The server the body is written for, and whether something named it
    (:func:`~.servers.chosen_server`)."""
    from chatcodec._providers.openai_chat.servers import chosen_server

    return chosen_server(context.options, _model(context))


def video_target(context: EncodeContext, from_video_url: bool, at: Steps) -> bool:
    """Whether a video part is written as ``video_url``: for a named server, or as it came
    from such a part; otherwise it is not sent, a ``content`` loss."""
    from chatcodec._providers.openai_chat.servers import DEFAULT

    server, named = target_server(context)
    if from_video_url or (named and server is not DEFAULT):
        return True
    context.losses.add(at, "video part", _NO_VIDEO)
    return False


def clip_losses(part: Mapping[str, Any], losses: LossRecorder, at: Steps) -> None:
    """The clip fields of a video part, which ``video_url`` has no place for, reported."""
    for field in CLIP:
        if part.get(field) is not None:
            losses.add((*at, field), f"video {field}", "video_url has no clip or frame rate")


def untaken_file(source: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """For a base64 document of a type OpenAI's ``file`` part does not take, with no server
    named: the text part it is sent as (``text/*`` in UTF-8), or an empty dict when it is
    not sent (both reported, ``content`` losses); None when it is written as a file (OpenAI
    takes it, or a named server's fitting changes or drops it: :mod:`.servers.fitting`)."""
    server, named = target_server(context)
    media_type = str(source["media_type"]).partition(";")[0].strip().lower()
    if named or server.file_types is None or media_type in server.file_types:
        return None  # a named server's fitting changes or drops it, a rule loss naming the server
    takes = f"{server.title}'s file parts take {', '.join(sorted(server.file_types))} only"
    text = _utf8_text(source["data"]) if media_type.startswith("text/") else None
    if text is None:
        context.losses.add(at, f"{media_type} document", f"{takes}; not sent")
        return {}
    why = f"sent as the text it holds: {takes}"
    context.losses.add(at, f"{media_type} document", why)
    return {"type": "text", "text": text}


def _utf8_text(data: str) -> str | None:
    try:
        return base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None


def image_file_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The ``file`` part for an image by file id, for a server whose ``file`` part takes
    one for the model (:attr:`~.servers.server.Server.image_files`), in its spelling
    (:func:`flat_file_id`); None otherwise."""
    server, named = target_server(context)
    parts, _ = server.parts_for(_model(context))
    if not named or not server.image_files or "file" not in parts:
        return None
    if part.get("detail") is not None:
        context.losses.add((*at, "detail"), "image detail", "a file part has no resolution hint")
    return {"type": "file", "file_id": part["source"]["file_id"]}


def own_file_id(source: Mapping[str, Any], losses: LossRecorder, at: Steps) -> bool:
    """Whether a file id could be a Chat server's own: OpenAI's (``file-abc123``), DeepSeek's
    (``file-api-...``) and Kimi's are tokens, never a URI or a path. Gemini names an upload by
    its URI or ``files/<id>``; sent as a ``file_id`` it is refused, so it is reported, not sent."""
    if "/" not in source["file_id"]:
        return True
    why = "a URI or storage path (another provider's upload), not a file id an OpenAI Chat server gave; not sent"
    losses.add((*at, "source", "file_id"), "file id", why)
    return False


def flat_file_id(part: Mapping[str, Any], context: EncodeContext) -> bool:
    """Whether a part by Files-API id is written ``{"type": "file", "file_id": ...}``: for a
    named server whose file part spells it so (DeepSeek's, :attr:`~.servers.server.Server.image_files`:
    Vercel's ``@ai-sdk/deepseek`` ``DeepSeekContentPartFile`` is ``{type: 'file', file_id}``, and
    DeepSeek refuses OpenAI's ``file: {file_id}`` nesting), or as it was read (the ``_flat_file_id``
    marker) with no server named."""
    from chatcodec._providers.openai_chat.markers import KIT

    server, named = target_server(context)
    if named:
        return server.image_files
    return KIT.marker(part.get("provider_metadata"), FLAT_FILE_ID) is True


def video_document(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The video part to write for a document of a ``video/*`` type (OpenAI's ``file`` part of
    an ``.mp4``, read as a document) when the named server's parts for the model hold
    ``video_url`` (vLLM, SGLang, Together, Kimi K2.5+): its own part for video, not a
    ``file`` part it refuses. Reading back as video, and the name a ``video_url`` has no
    field for, are reported (issue 61); None for any other document."""
    media_type = part["source"].get("media_type")
    if not isinstance(media_type, str) or not media_type.lower().startswith("video/"):
        return None
    server, named = target_server(context)
    if not named or "video_url" not in server.parts_for(_model(context))[0]:
        return None
    losses = context.losses
    losses.add((*at, "source"), "video document", f"{server.title} takes video as video_url; it reads back as video")
    for field in ("title", "filename"):
        if part.get(field) is not None:
            losses.add((*at, field), f"video document {field}", "a video_url part has no name")
    return {"type": "video", "source": part["source"]}


def document_url(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The ``document_url`` part for a document by URL, when the server's parts hold one
    and its file types take the document's (a title or file name it has no field for is
    reported); None otherwise."""
    server, named = target_server(context)
    if not named:
        return None
    taken, _ = server.parts_for(_model(context))
    media_type = part["source"].get("media_type")
    if "document_url" not in taken or (server.file_types is not None and media_type not in (None, *server.file_types)):
        return None
    for field in ("title", "filename"):
        if part.get(field) is not None:
            context.losses.add((*at, field), f"document {field}", f"{server.title}'s document_url part has none")
    return {"type": "document_url", "document_url": part["source"]["url"]}


def file_url_source(url: str) -> tuple[dict[str, Any], str] | None:
    """A file source and the scheme for a server's file URL (``ms://<file-id>``); None for
    another URL or a scheme with no id after it."""
    for scheme in _SCHEMES:
        if url[: len(scheme)].lower() == scheme and len(url) > len(scheme):
            return {"type": "file", "file_id": url[len(scheme) :]}, url[: len(scheme)]
    return None


def file_url(part: Mapping[str, Any], bag: Mapping[str, Any], context: EncodeContext) -> str | None:
    """The URL an image or video by file id is written as: in the scheme it was read in
    (the ``_storage_url`` marker), else in the named server's
    :attr:`~.servers.server.Server.file_url_scheme`; None where the target has none."""
    scheme = bag.get(STORAGE_URL)
    if not isinstance(scheme, str):
        server, named = target_server(context)
        scheme = server.file_url_scheme if named else None
    if scheme is None:
        return None
    return f"{scheme}{part['source']['file_id']}"


def unfetched(url: str, kind: str, losses: LossRecorder, at: Steps) -> bool:
    """Whether ``url`` is a storage location no OpenAI-compatible server fetches
    (``s3://``), reported as not sent."""
    if url[:5].lower() != "s3://":
        return False
    why = "OpenAI Chat servers fetch http(s) URLs (or take data URLs), not S3 locations; not sent"
    losses.add((*at, "source"), f"{kind} in S3", why)
    return True
