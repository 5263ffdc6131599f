"""Content parts: the pieces a message is made of, tagged by ``type``.

One vocabulary for every provider. Each part carries an optional prompt-cache marker and
a ``provider_metadata`` bag for what a provider said that has no canonical field, so a
same-provider round trip is exact. The models accept canonical data only; alternate
input shapes (OpenAI ``image_url`` and ``input_audio`` parts, Anthropic-style
``tool_use`` with ``input``, ``thinking`` with ``thinking``/``data``) are read by
:mod:`chatcodec._dialects.reader` at the API boundary, before validation.
"""

import json
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal, Self, TypeAlias

from pydantic import (
    ConfigDict,
    Field,
    JsonValue,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_serializer,
    model_validator,
)
from typing_extensions import TypeAliasType

from chatcodec import _compat as compat
from chatcodec._errors import ToolArgumentsError
from chatcodec._model._base import (
    CanonicalModel,
    ProviderMetadata,
    TaggedOn,
    false_by_default,
    omitted_when_empty,
    omitted_when_none,
)
from chatcodec._model._field_docs import describe_fields
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import read_json_text
from chatcodec._public_label import shown_as


class CacheControl(CanonicalModel):
    """A prompt-cache breakpoint: the prompt up to and including this item is cached."""

    type: Literal["ephemeral"] = "ephemeral"
    """The cache kind; ``ephemeral`` is the only kind providers offer today."""
    ttl: str | None = omitted_when_none()
    """How long the entry lives (``"5m"``, ``"1h"``); ``None`` means the provider default."""


# --- Media sources -------------------------------------------------------------------


class UrlSource(CanonicalModel):
    """Media the provider fetches from a URL (``http(s)://``, ``gs://``, ``s3://``)."""

    type: Literal["url"] = "url"
    """Tag of this source kind."""
    url: str = Field(min_length=1)
    """Where the media lives."""
    media_type: str | None = omitted_when_none()
    """MIME type when known (``image/png``, ``application/pdf``)."""


class Base64Source(CanonicalModel):
    """Media sent inline as base64 text."""

    type: Literal["base64"] = "base64"
    """Tag of this source kind."""
    media_type: str = Field(min_length=1)
    """MIME type of the decoded bytes (``image/png``, ``audio/wav``, ``application/pdf``)."""
    data: str
    """The base64 text as the source format gave it (standard or URL-safe alphabet), never
    re-encoded; a framework history that stores pydantic's URL-safe alphabet (pydantic-ai) is
    read into the standard one, which the provider wires take."""


class FileSource(CanonicalModel):
    """Media uploaded beforehand and referenced by a provider's file id."""

    type: Literal["file"] = "file"
    """Tag of this source kind."""
    file_id: str = Field(min_length=1)
    """The provider's id for the uploaded file."""
    media_type: str | None = omitted_when_none()
    """MIME type when known."""


class TextSource(CanonicalModel):
    """A plain-text document given inline (documents only)."""

    type: Literal["text"] = "text"
    """Tag of this source kind."""
    text: str
    """The document's text."""
    media_type: str = "text/plain"
    """MIME type of the text."""


MediaSource = Annotated[UrlSource | Base64Source | FileSource, TaggedOn("type")]
"""Where an image or audio clip comes from."""

DocumentSource = Annotated[UrlSource | Base64Source | FileSource | TextSource, TaggedOn("type")]
"""Where a document comes from."""


# --- Parts ---------------------------------------------------------------------------


class _PartBase(CanonicalModel):
    cache_control: CacheControl | None = omitted_when_none()
    """Prompt-cache breakpoint placed after this part, if any."""
    provider_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data with no canonical field, keyed by provider name."""


class UrlCitation(CanonicalModel):
    """A web page the model cites for a span of its answer's text.

    OpenAI documents the same four fields in both its APIs: Chat Completions as
    ``message.annotations[]`` ``{"type": "url_citation", "url_citation": {"start_index",
    "end_index", "url", "title"}}`` (indices into the message's ``content``), Responses as
    ``output_text.annotations[]`` ``{"type": "url_citation", "start_index", "end_index",
    "url", "title"}`` (indices into that part's ``text``). The indices count characters
    (code points), as a recorded answer's do. A citation with no span (Anthropic's
    ``web_search_result_location``) has no such index and stays in its provider's bag.
    """

    type: Literal["url_citation"] = "url_citation"
    """Tag of this citation kind."""
    url: str
    """The cited page."""
    title: str
    """The cited page's title."""
    start_index: int
    """Where the cited span of the part's text starts (its first character)."""
    end_index: int
    """Where the cited span ends (one past its last character)."""


class TextPart(_PartBase):
    """Plain text, with the sources the model cites for spans of it."""

    type: Literal["text"] = "text"
    """Tag of this part kind."""
    text: str
    """The text."""
    citations: list[UrlCitation] = omitted_when_empty()
    """Web pages cited for spans of :attr:`text` (OpenAI's ``url_citation`` annotations), in
    the order given; empty (and left out of dumps) when none."""


class ImagePart(_PartBase):
    """An image, by URL, inline base64 or provider file id."""

    type: Literal["image"] = "image"
    """Tag of this part kind."""
    source: MediaSource
    """Where the image comes from."""
    detail: Literal["auto", "low", "high"] | None = omitted_when_none()
    """OpenAI's resolution hint; other providers ignore it."""


class AudioPart(_PartBase):
    """An audio clip, inline base64 (with its format) or by URL."""

    type: Literal["audio"] = "audio"
    """Tag of this part kind."""
    source: MediaSource
    """Where the audio comes from; ``media_type`` gives its format (``audio/wav``)."""

    @property
    def format(self) -> str | None:
        """Short format name as OpenAI spells it (``wav``, ``mp3``), from the media type."""
        return compat.audio_format_from_media_type(self.source.media_type)


class VideoPart(_PartBase):
    """A video clip, by URL (``https://``, a YouTube link, a storage location such as
    ``s3://`` or ``gs://``, a Gemini Files API URI), inline base64 or provider file id,
    with the part of it the model should watch.

    Gemini (``inlineData`` / ``fileData`` with ``videoMetadata``), Bedrock Converse
    (``video`` blocks) and OpenAI-compatible servers (``video_url``: vLLM, SGLang, Kimi,
    Together) carry it; elsewhere it is dropped and reported.
    """

    type: Literal["video"] = "video"
    """Tag of this part kind."""
    source: MediaSource
    """Where the video comes from; ``media_type`` gives its container (``video/mp4``)."""
    start_offset: float | None = omitted_when_none(ge=0)
    """Seconds into the video where the model starts watching (Gemini ``videoMetadata.startOffset``)."""
    end_offset: float | None = omitted_when_none(ge=0)
    """Seconds into the video where the model stops watching (Gemini ``videoMetadata.endOffset``)."""
    fps: float | None = omitted_when_none(gt=0)
    """Frames per second sampled from the video (Gemini ``videoMetadata.fps``; its default is 1)."""


class DocumentPart(_PartBase):
    """A document (PDF, plain text, ...), by URL, base64, file id or inline text."""

    type: Literal["document"] = "document"
    """Tag of this part kind."""
    source: DocumentSource
    """Where the document comes from."""
    title: str | None = omitted_when_none()
    """Human title the model sees (Anthropic ``title``)."""
    filename: str | None = omitted_when_none()
    """File name as uploaded (OpenAI ``filename``, Bedrock ``name``)."""


def _redacted_needs_payload_schema(schema: dict[str, Any], model: type[Any]) -> None:
    """State :class:`ThinkingPart`'s one cross-field rule in its JSON Schema too, so the
    schema accepts exactly what validation accepts."""
    describe_fields(schema, model)
    schema["if"] = {"properties": {"redacted": {"const": True}}, "required": ["redacted"]}
    schema["then"] = {"properties": {"encrypted": {"type": "string"}}, "required": ["encrypted"]}


class ThinkingPart(_PartBase):
    """Model reasoning: readable text, a signature, and/or an opaque encrypted payload.

    Signatures and payloads are kept byte for byte: providers reject replayed thinking
    whose signature changed. ``provider`` and ``model`` say who produced it, so a codec
    never replays one provider's signed thinking to another.
    """

    type: Literal["thinking"] = "thinking"
    """Tag of this part kind."""
    text: str = ""
    """The readable reasoning (or its summary); empty when only a payload came back."""
    signature: str | None = omitted_when_none()
    """Provider signature proving the text is unmodified (Anthropic, Gemini, Bedrock)."""
    encrypted: str | None = omitted_when_none()
    """Opaque payload: Anthropic ``redacted_thinking`` data, OpenAI ``encrypted_content``."""
    redacted: bool = false_by_default()
    """True when the provider withheld the text and sent only ``encrypted``."""
    provider: str | None = omitted_when_none()
    """Name of the provider that produced this reasoning, when known."""
    model: str | None = omitted_when_none()
    """Model that produced this reasoning, when known."""

    model_config: ClassVar[ConfigDict] = ConfigDict(json_schema_extra=_redacted_needs_payload_schema)

    @model_validator(mode="after")
    def _redacted_carries_payload(self) -> Self:
        if self.redacted and self.encrypted is None:
            raise ValueError("redacted thinking must carry its encrypted payload")
        return self


class RefusalPart(_PartBase):
    """The model declined; the text says why (OpenAI ``refusal``)."""

    type: Literal["refusal"] = "refusal"
    """Tag of this part kind."""
    text: str
    """The refusal message."""


ToolCallKind: TypeAlias = Literal["function", "custom"]
"""What a tool call is: a ``function`` call, whose ``arguments`` are a JSON object, or a
``custom`` (freeform) call, whose input is free text (OpenAI's custom tools: Chat
``{"type": "custom", "custom": {"name", "input"}}``, Responses ``custom_tool_call``)."""


def _is_function(value: object) -> bool:
    return value == "function"


def function_by_default() -> Any:
    """Field default for a tool call's kind: ``function``, and left out of dumps then."""
    return Field(default="function", exclude_if=_is_function)


class ToolUsePart(_PartBase):
    """A call the model made to a tool.

    ``arguments`` is the argument text exactly as the model produced it: possibly
    invalid or truncated JSON, which is information an agent needs (to retry, or to
    report the error back to the model), so it is never parsed away on input. A
    ``custom`` call's input is free text, kept in ``arguments`` too: it is no JSON, so
    :meth:`parsed_arguments` and :meth:`keyword_arguments` refuse it; read ``arguments``.
    """

    type: Literal["tool_use"] = "tool_use"
    """Tag of this part kind."""
    id: str
    """Call id that the matching tool result refers to."""
    name: str
    """Name of the tool called."""
    arguments: str = ""
    """Argument text exactly as the model produced it (normally a JSON object); a
    ``custom`` call's free-text input."""
    kind: ToolCallKind = function_by_default()
    """``custom`` for a freeform call (OpenAI custom tools), whose input is free text;
    left out of dumps for a ``function`` call. Formats without freeform calls drop one
    with its results, reported."""

    _KEY_HINTS: ClassVar[dict[str, str]] = {
        "function": "a canonical tool call is flat: use call['name'] and call['arguments'] (and call['id'])",
    }

    def parsed_arguments(self) -> Any:
        """The arguments parsed as JSON (a JSON value: an object for a well-formed call); an
        empty text is an empty object. Typed ``Any`` so ``tool(**call.parsed_arguments())``
        type-checks, as with ``json.loads``; :meth:`keyword_arguments` also checks at run
        time that they are an object.

        Raises :class:`~chatcodec.ToolArgumentsError` (a ``ValueError``) naming the call
        when the text is not JSON, or the call is a ``custom`` one (its input is free text).
        """
        if self.kind == "custom":
            raise ToolArgumentsError(
                self.id, self.name, self.arguments, "a custom tool's input is free text", what="are not JSON"
            )
        if not self.arguments.strip():
            return {}
        try:
            parsed: JsonValue = read_json_text(self.arguments)
        except json.JSONDecodeError as error:
            raise ToolArgumentsError(self.id, self.name, self.arguments, str(error)) from None
        return parsed

    def keyword_arguments(self) -> dict[str, Any]:
        """The arguments as keyword arguments, for ``tool(**call.keyword_arguments())``;
        an empty text is no argument.

        Raises :class:`~chatcodec.ToolArgumentsError` (a ``ValueError``) naming the call
        when the text is not JSON or not a JSON object (a model may produce ``[1, 2]`` or
        ``"x"``, which no function takes as keywords).
        """
        parsed: JsonValue = self.parsed_arguments()
        if not isinstance(parsed, dict):
            kind = "an array" if isinstance(parsed, list) else "a JSON scalar"
            raise ToolArgumentsError(
                self.id, self.name, self.arguments, f"{kind}, not an object", what="are not a JSON object"
            )
        return parsed

    @property
    def arguments_are_valid_json(self) -> bool:
        """Whether ``arguments`` parses as JSON (empty text counts as ``{}``)."""
        try:
            self.parsed_arguments()
        except ToolArgumentsError:
            return False
        return True


class OpaquePart(_PartBase):
    """A provider block with no canonical meaning, kept whole so nothing is dropped.

    Server-tool calls and results, and block types a provider adds after this library
    was written, land here; the codec for ``provider`` can send them back verbatim.
    """

    type: Literal["opaque"] = "opaque"
    """Tag of this part kind."""
    provider: str
    """The provider whose wire format ``data`` is in."""
    data: dict[str, JsonValue]
    """The block exactly as the provider sent it."""


ContentForm: TypeAlias = Literal["preserve", "list", "string"]
"""How a dump renders ``content``; pass it as ``context={"content_form": ...}``."""


def render_content(value: object, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
    """Dump ``content`` in the form the serialization context asks for."""
    context = as_dict(info.context)
    form = "preserve" if context is None else context.get("content_form", "preserve")
    if form not in ("preserve", "list", "string"):
        raise ValueError(f"unknown content_form {form!r}: use 'preserve', 'list' or 'string'")
    if form == "list" and isinstance(value, str):
        return handler([TextPart(text=value)] if value else [])
    parts = as_list(value)
    if form == "string" and parts is not None and _is_one_plain_text(parts):
        return parts[0].text if parts else ""
    return handler(value)


def _is_one_plain_text(parts: list[Any]) -> bool:
    if not parts:
        return True
    if len(parts) != 1:
        return False
    part = parts[0]
    return isinstance(part, TextPart) and part.cache_control is None and part.provider_metadata is None


ToolResultContentPart = TypeAliasType(
    "ToolResultContentPart",
    Annotated[TextPart | ImagePart | AudioPart | VideoPart | DocumentPart | OpaquePart, TaggedOn("type")],
)
"""What a tool result may contain."""


class ToolResultPart(_PartBase):
    """The outcome of one tool call, sent back to the model."""

    type: Literal["tool_result"] = "tool_result"
    """Tag of this part kind."""
    tool_use_id: str
    """Id of the :class:`ToolUsePart` this answers."""
    content: str | list[ToolResultContentPart] = ""
    """The result as text, or as parts (text, images, documents)."""
    is_error: bool = false_by_default()
    """True when the tool failed and ``content`` describes the error."""
    name: str | None = omitted_when_none()
    """Name of the tool that ran (Gemini needs it; others infer it from the call)."""

    @property
    def text(self) -> str:
        """The result's text parts joined (images and documents are left out)."""
        return content_text(self.content)

    @field_serializer("content", mode="wrap")
    def _serialize_content(self, value: object, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        return render_content(value, handler, info)

    def with_content(self, content: str | list[ToolResultContentPart]) -> Self:
        """A copy holding different content (for truncating or redacting results)."""
        return self.model_copy(update={"content": content})


UserContentPart = TypeAliasType(
    "UserContentPart",
    Annotated[TextPart | ImagePart | AudioPart | VideoPart | DocumentPart | OpaquePart, TaggedOn("type")],
)
"""What a user message may contain."""

AssistantContentPart = TypeAliasType(
    "AssistantContentPart",
    Annotated[
        TextPart | ThinkingPart | ToolUsePart | RefusalPart | ImagePart | AudioPart | OpaquePart,
        TaggedOn("type"),
    ],
)
"""What an assistant message may contain, in the order the model produced it."""

SystemContentPart = TypeAliasType("SystemContentPart", Annotated[TextPart | OpaquePart, TaggedOn("type")])
"""What a system message may contain."""

ContentPart = TypeAliasType(
    "ContentPart",
    Annotated[
        TextPart
        | ImagePart
        | AudioPart
        | VideoPart
        | DocumentPart
        | ThinkingPart
        | RefusalPart
        | ToolUsePart
        | ToolResultPart
        | OpaquePart,
        TaggedOn("type"),
    ],
)
"""Any content part."""

AnyPart = (
    TextPart
    | ImagePart
    | AudioPart
    | VideoPart
    | DocumentPart
    | ThinkingPart
    | RefusalPart
    | ToolUsePart
    | ToolResultPart
    | OpaquePart
)
"""Plain union of every part class, for ``match`` statements and annotations."""


def content_text(content: str | Sequence[AnyPart]) -> str:
    """Join the text parts of ``content`` (a string is returned as it is)."""
    if isinstance(content, str):
        return content
    return "".join(part.text for part in content if isinstance(part, TextPart))


shown_as(
    "chatcodec",
    AudioPart,
    Base64Source,
    CacheControl,
    DocumentPart,
    FileSource,
    ImagePart,
    OpaquePart,
    RefusalPart,
    TextPart,
    TextSource,
    ThinkingPart,
    ToolResultPart,
    ToolUsePart,
    UrlCitation,
    UrlSource,
    VideoPart,
)
