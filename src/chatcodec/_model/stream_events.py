"""Canonical stream events, tagged by ``type``.

Provider stream decoders only *map* wire events to these; all accumulation happens once,
in :class:`~chatcodec.StreamAccumulator`. ``index`` is the position of the part in the
assistant message being built, ``choice`` the answer it belongs to (OpenAI ``n``).

A text, thinking or tool-call part is announced by a ``*_start`` event, grows through
``*_delta`` events and is closed by a ``*_end`` event; a part that arrives whole (an
image, redacted thinking, a server-tool block) is a single :class:`PartEvent`. An answer
ends with a :class:`FinishEvent` (carrying the choice's bag); a :class:`ChoiceMetadataEvent`
carries a choice's and its message's bags where no finish does.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, JsonValue, TypeAdapter

from chatcodec._model._base import (
    CanonicalModel,
    JsonInt,
    NonNegativeInt,
    ProviderMetadata,
    TaggedOn,
    deferred_adapter,
    omitted_when_empty,
    omitted_when_none,
)
from chatcodec._model.content import AssistantContentPart, ToolCallKind, UrlCitation, function_by_default
from chatcodec._model.response_fields import FinishReason, TokenLogprob, Usage
from chatcodec._public_label import shown_as


def _is_zero(value: object) -> bool:
    return value == 0


def _choice_field() -> Any:
    return Field(default=0, exclude_if=_is_zero)


class _EventBase(CanonicalModel):
    provider_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data with no canonical field; on part events it is merged into the part,
    on the response-start and finish events into the response."""


class _PartEventBase(_EventBase):
    index: NonNegativeInt
    """Position of the part in the assistant message."""
    choice: NonNegativeInt = _choice_field()
    """Which answer the part belongs to (0 unless several were requested)."""


class ResponseStartEvent(_EventBase):
    """The response began; carries what is known up front."""

    type: Literal["response_start"] = "response_start"
    """Tag of this event kind."""
    id: str | None = omitted_when_none()
    """The provider's response id."""
    model: str | None = omitted_when_none()
    """The model answering."""
    created: JsonInt | None = omitted_when_none()
    """Unix time of creation."""


class TextStartEvent(_PartEventBase):
    """A text part begins."""

    type: Literal["text_start"] = "text_start"
    """Tag of this event kind."""


class TextDeltaEvent(_PartEventBase):
    """More text for the part at ``index``."""

    type: Literal["text_delta"] = "text_delta"
    """Tag of this event kind."""
    delta: str
    """The new text."""
    logprobs: list[TokenLogprob] | None = omitted_when_none()
    """The tokens of this text with their log probabilities, when the stream gives them
    per delta (OpenAI Chat's chunk ``logprobs.content``, Responses'
    ``output_text.delta.logprobs``, Ollama's chunk ``logprobs``); the answer's tokens are
    the deltas' in order, then those of its :class:`FinishEvent`."""


class TextEndEvent(_PartEventBase):
    """The text part at ``index`` is complete."""

    type: Literal["text_end"] = "text_end"
    """Tag of this event kind."""
    citations: list[UrlCitation] = omitted_when_empty()
    """The part's citations (:attr:`TextPart.citations <chatcodec.TextPart.citations>`),
    known once its text is: a Responses stream gives them with the finished item."""


class RefusalDeltaEvent(_PartEventBase):
    """More refusal text; the first one for an ``index`` starts the refusal part."""

    type: Literal["refusal_delta"] = "refusal_delta"
    """Tag of this event kind."""
    delta: str
    """The new refusal text."""


class ThinkingStartEvent(_PartEventBase):
    """A thinking part begins."""

    type: Literal["thinking_start"] = "thinking_start"
    """Tag of this event kind."""
    provider: str | None = omitted_when_none()
    """Provider producing the reasoning."""
    model: str | None = omitted_when_none()
    """Model producing the reasoning."""


class ThinkingDeltaEvent(_PartEventBase):
    """More readable reasoning for the part at ``index``."""

    type: Literal["thinking_delta"] = "thinking_delta"
    """Tag of this event kind."""
    delta: str
    """The new reasoning text."""


class ThinkingSignatureDeltaEvent(_PartEventBase):
    """More of the thinking part's signature (kept byte for byte)."""

    type: Literal["thinking_signature_delta"] = "thinking_signature_delta"
    """Tag of this event kind."""
    delta: str
    """The new signature text."""


class ThinkingEndEvent(_PartEventBase):
    """The thinking part at ``index`` is complete."""

    type: Literal["thinking_end"] = "thinking_end"
    """Tag of this event kind."""
    encrypted: str | None = omitted_when_none()
    """Opaque reasoning payload delivered at the end (OpenAI ``encrypted_content``)."""


class ToolCallStartEvent(_PartEventBase):
    """A tool call begins; its id and name are known."""

    type: Literal["tool_call_start"] = "tool_call_start"
    """Tag of this event kind."""
    id: str
    """The call id."""
    name: str
    """The tool's name."""
    kind: ToolCallKind = function_by_default()
    """``custom`` for a freeform call, whose deltas are free text (see
    :class:`~chatcodec.ToolUsePart`); left out of dumps for a ``function`` call."""


class ToolCallDeltaEvent(_PartEventBase):
    """More argument text for the tool call at ``index``."""

    type: Literal["tool_call_delta"] = "tool_call_delta"
    """Tag of this event kind."""
    delta: str
    """The new argument text, appended exactly as received."""


class ToolCallEndEvent(_PartEventBase):
    """The tool call at ``index`` is complete."""

    type: Literal["tool_call_end"] = "tool_call_end"
    """Tag of this event kind."""


class PartEvent(_PartEventBase):
    """A part that arrives whole (image, redacted thinking, server-tool block ...)."""

    type: Literal["part"] = "part"
    """Tag of this event kind."""
    part: AssistantContentPart
    """The complete part."""


class UsageEvent(_EventBase):
    """Token counts so far; later values replace earlier ones field by field."""

    type: Literal["usage"] = "usage"
    """Tag of this event kind."""
    usage: Usage
    """The counts reported."""


class FinishEvent(_EventBase):
    """An answer ended, and why.

    Its ``provider_metadata`` is response-level data that arrived with the end (Anthropic's
    ``message_delta`` fields), merged into the response; ``choice_metadata`` is the ended
    answer's own data, merged into that choice, so a choice's bag survives a stream.
    """

    type: Literal["finish"] = "finish"
    """Tag of this event kind."""
    choice: NonNegativeInt = _choice_field()
    """Which answer ended."""
    finish_reason: FinishReason
    """Why it ended."""
    logprobs: list[TokenLogprob] | None = omitted_when_none()
    """The ended answer's tokens with their log probabilities that no text delta carried
    (all of them for a format that gives them only at the end, or a replayed response),
    when the stream carried any: the choice's ``logprobs`` are the text deltas' tokens,
    then these."""
    choice_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data of the choice that ended (its ``provider_metadata``: the raw finish
    word's spelling marker, OpenRouter ``native_finish_reason`` ...)."""


class ChoiceMetadataEvent(_EventBase):
    """Data of one answer that is neither a part nor its finish: the choice's own bag and
    its message's, merged into them as they come (later values replace earlier ones key by
    key, as on the other events).

    It needs no finish reason, so an answer cut off before its end keeps its bag, and it is
    the one event that carries the message's ``provider_metadata`` (OpenAI's
    ``annotations``, Gemini's ``content`` fields); on its own, with neither bag, it says
    the answer exists (a choice with nothing in it). Its ``provider_metadata`` is
    response-level, as on :class:`FinishEvent`.
    """

    type: Literal["choice_metadata"] = "choice_metadata"
    """Tag of this event kind."""
    choice: NonNegativeInt = _choice_field()
    """Which answer the data belongs to."""
    choice_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data of the choice (its ``provider_metadata``), as :class:`FinishEvent`
    carries it when the answer has a finish."""
    message_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data of the choice's message (``message.provider_metadata``)."""


class ErrorEvent(_EventBase):
    """The provider reported an error inside the stream."""

    type: Literal["error"] = "error"
    """Tag of this event kind."""
    message: str
    """The error message."""
    error_type: str | None = omitted_when_none()
    """The provider's error type or code."""
    body: JsonValue = omitted_when_none()
    """The error as the provider sent it."""


PartLifecycleEvent = (
    TextStartEvent
    | TextDeltaEvent
    | TextEndEvent
    | RefusalDeltaEvent
    | ThinkingStartEvent
    | ThinkingDeltaEvent
    | ThinkingSignatureDeltaEvent
    | ThinkingEndEvent
    | ToolCallStartEvent
    | ToolCallDeltaEvent
    | ToolCallEndEvent
    | PartEvent
)
"""Events that build one part of the assistant message."""

AnyStreamEvent = ResponseStartEvent | PartLifecycleEvent | UsageEvent | FinishEvent | ChoiceMetadataEvent | ErrorEvent
"""Plain union of every event class, for ``match`` statements and annotations."""

StreamEvent = Annotated[AnyStreamEvent, TaggedOn("type")]
"""Any stream event, told apart by ``type``."""

STREAM_EVENT_ADAPTER: TypeAdapter[AnyStreamEvent] = deferred_adapter(StreamEvent)
"""Validates one stream event of any kind."""

shown_as(
    "chatcodec",
    ChoiceMetadataEvent,
    ErrorEvent,
    FinishEvent,
    PartEvent,
    RefusalDeltaEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)
