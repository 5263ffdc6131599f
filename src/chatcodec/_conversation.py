"""A conversation under construction, provider-generic.

Agent loops all do the same bookkeeping: start from a system prompt, append what the
model sent (whole, or chunk by chunk while showing it to a user), run the tools it asked
for, append their results, notice calls that never got a result, and send the history to
whichever provider is next. :class:`Conversation` does that once, on canonical messages,
so switching providers mid-conversation is a change of one name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from chatcodec._api import SdkPayload, decode_request, decode_response, encode_request
from chatcodec._codec_protocols import StreamDecoder, decodes_messages, has_stream_decoder
from chatcodec._errors import CodecNotAvailableError, StreamError, ValidationError
from chatcodec._losses import Loss, OnLoss
from chatcodec._model.content import ToolResultContentPart, ToolResultPart, ToolUsePart
from chatcodec._model.messages import AnyMessage, AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage
from chatcodec._model.request import ChatRequest
from chatcodec._model.stream_events import (
    AnyStreamEvent,
    PartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from chatcodec._model.stream_records import AnyStreamRecord
from chatcodec._payloads import load_object
from chatcodec._providers.kit.stream_boundary import models_of
from chatcodec._public_label import shown_as
from chatcodec._registry import get_codec
from chatcodec._rendering import render_conversation
from chatcodec._sdk_objects import SdkObject, sdk_json_nested
from chatcodec._strict.check import check_messages, check_stream_event, wrong_entry_point
from chatcodec._validation import validate_message, validate_model
from chatcodec.streams._accumulator import StreamAccumulator
from chatcodec.streams._builder import StreamBuilder

_MESSAGE_CLASSES = (SystemMessage, UserMessage, AssistantMessage, ToolMessage, TextMessage)

MISSING_RESULT_TEXT = "Tool call was not executed: no result was recorded for it."
"""Text of the error result :meth:`Conversation.fill_missing_tool_results` inserts."""


class Conversation:
    """Canonical messages plus the bookkeeping an agent loop needs."""

    def __init__(self, system: str | None = None, messages: Iterable[AnyMessage | Mapping[str, Any]] = ()) -> None:
        self.messages: list[AnyMessage] = []
        """The conversation so far, in canonical form."""
        if system is not None:
            self.messages.append(SystemMessage(content=system))
        for message in messages:
            self.append(message)
        self._stream: _StreamInProgress | None = None

    # --- adding messages ---------------------------------------------------------------

    def append(self, message: AnyMessage | Mapping[str, Any] | SdkObject) -> AnyMessage:
        """Add a canonical message, or a dict or SDK message object in any accepted shape.

        Anything but a canonical message is validated first, so a bad message fails here,
        with its path, rather than later in :meth:`dump`.
        """
        if isinstance(message, _MESSAGE_CLASSES):
            validated: AnyMessage = message
        else:
            plain: object = sdk_json_nested(message)
            data = dict(cast("Mapping[str, Any]", plain)) if isinstance(plain, Mapping) else plain
            try:
                validated = validate_message(data)
            except ValidationError as error:
                raise wrong_entry_point(data) or error from None
        self.messages.append(validated)
        return validated

    def append_provider_messages(
        self, provider: str, messages: Sequence[Mapping[str, Any] | SdkObject], *, strict: bool = False
    ) -> list[AnyMessage]:
        """Add messages written in ``provider``'s wire format (e.g. OpenAI chat dicts or
        the SDK's message objects); ``strict`` refuses unknown fields, as in
        :func:`~chatcodec.decode_request`."""
        listed = [load_object(sdk_json_nested(message), f"{provider} message") for message in messages]
        if strict:
            check_messages(provider, listed, f"{provider} messages")
        codec = get_codec(provider)
        if decodes_messages(codec):
            added = codec.decode_messages(listed)
        else:
            added = decode_request(provider, {"messages": listed}).messages
        self.messages.extend(added)
        return added

    def append_response(self, provider: str, payload: SdkPayload, *, strict: bool = False) -> AssistantMessage:
        """Add the assistant message of a whole ``provider`` response (``strict`` as in
        :func:`~chatcodec.decode_response`)."""
        message = decode_response(provider, payload, strict=strict).message
        self.messages.append(message)
        return message

    def add_tool_result(
        self,
        tool_use_id: str,
        content: str | list[ToolResultContentPart],
        *,
        is_error: bool = False,
        name: str | None = None,
    ) -> ToolResultPart:
        """Record a tool's result; joins the tool message right after the call if any."""
        result = ToolResultPart(tool_use_id=tool_use_id, content=content, is_error=is_error, name=name)
        last = self.messages[-1] if self.messages else None
        if isinstance(last, ToolMessage):
            self.messages[-1] = last.model_copy(update={"content": [*last.content, result]})
        else:
            self.messages.append(ToolMessage(content=[result]))
        return result

    # --- streaming ---------------------------------------------------------------------

    def append_chunk(
        self, provider: str, chunk: Mapping[str, Any] | SdkObject, *, strict: bool = False
    ) -> list[AnyStreamEvent]:
        """Feed one wire stream event; returns the canonical events to show a user.

        Text and thinking deltas come back as they arrive; a tool call comes back once,
        complete, as a :class:`PartEvent` (a frontend cannot act on half its arguments).
        Call :meth:`finish_stream` when the stream ends. ``strict`` refuses a chunk
        holding a field the provider's API does not define.
        """
        if self._stream is None:
            self._stream = _StreamInProgress(provider)
        elif provider != self._stream.provider:
            raise StreamError(f"a {self._stream.provider} stream is in progress; finish it first")
        event = load_object(sdk_json_nested(chunk), f"{provider} stream chunk")
        if strict:
            check_stream_event(provider, event, f"{provider} stream chunk")
        return self._stream.feed(event)

    def finish_stream(self, *, partial: bool = False) -> AssistantMessage:
        """End the stream in progress and add the message it built.

        A stream that never sent its format's last event (Anthropic's ``message_stop``, a
        ``finish_reason`` for every OpenAI choice, ...: docs/streams.md) was cut between two
        events: that is a :class:`~chatcodec.StreamError` naming what is missing, as
        :func:`~chatcodec.accumulate_stream` raises, and the stream stays in progress, so
        ``finish_stream(partial=True)`` can still add what arrived (a finish that never
        came is then ``None``)."""
        if self._stream is None:
            raise StreamError("no stream in progress")
        message = self._stream.finish(partial=partial)
        self._stream = None
        self.messages.append(message)
        return message

    # --- tool-call bookkeeping ---------------------------------------------------------

    def unresolved_tool_calls(self) -> list[ToolUsePart]:
        """Tool calls with no result anywhere after them, in order."""
        answered = {
            result.tool_use_id
            for message in self.messages
            if isinstance(message, ToolMessage)
            for result in message.content
        }
        return [
            call
            for message in self.messages
            if isinstance(message, AssistantMessage)
            for call in message.tool_calls
            if call.id not in answered
        ]

    def fill_missing_tool_results(self, text: str = MISSING_RESULT_TEXT) -> list[ToolResultPart]:
        """Give every unanswered tool call an explicit error result, right after its turn.

        Providers reject a history where a call has no result (Anthropic: "tool_use ids
        were found without tool_result blocks"); an explicit error tells the model what
        happened instead of hiding the call.
        """
        missing = {call.id for call in self.unresolved_tool_calls()}
        added: list[ToolResultPart] = []
        rebuilt: list[AnyMessage] = []
        for index, message in enumerate(self.messages):
            rebuilt.append(message)
            if not isinstance(message, AssistantMessage):
                continue
            results = [
                ToolResultPart(tool_use_id=call.id, name=call.name, content=text, is_error=True)
                for call in message.tool_calls
                if call.id in missing
            ]
            if not results:
                continue
            added.extend(results)
            following = self.messages[index + 1] if index + 1 < len(self.messages) else None
            if isinstance(following, ToolMessage):
                self.messages[index + 1] = following.model_copy(update={"content": [*following.content, *results]})
            else:
                rebuilt.append(ToolMessage(content=results))
        self.messages = rebuilt
        return added

    # --- output -------------------------------------------------------------------------

    def to_request(self, **fields: Any) -> ChatRequest:
        """A :class:`ChatRequest` with these messages and any other request fields."""
        return validate_model(ChatRequest, {**fields, "messages": self.messages})

    def dump(
        self,
        provider: str,
        *,
        on_loss: OnLoss = "warn",
        losses: list[Loss] | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        """The request body for ``provider`` (``fields``: model, tools, max_tokens ...)."""
        return encode_request(provider, self.to_request(**fields), on_loss=on_loss, losses=losses)

    def render(self, width: int = 80) -> str:
        """One line per message, for logs."""
        return render_conversation(self.messages, width)


class _StreamInProgress:
    """One stream being fed: decode, accumulate, and hold tool calls until complete. The
    decoder drives a builder of its own, which says whether the stream ended as its
    format ends one (the cut check :func:`~chatcodec.decode_stream` makes)."""

    def __init__(self, provider: str) -> None:
        codec = get_codec(provider)
        if not has_stream_decoder(codec):
            raise CodecNotAvailableError(f"the {provider} codec cannot decode a stream incrementally")
        self.provider = provider
        self.builder = StreamBuilder(emit=True)
        self.decoder: StreamDecoder = codec.stream_decoder(self.builder)
        self.closed = False
        self.accumulator = StreamAccumulator()
        self.pending_calls: dict[tuple[int, int], ToolCallStartEvent] = {}

    def feed(self, chunk: dict[str, Any]) -> list[AnyStreamEvent]:
        if self.closed:
            why = "finish_stream found it cut off; finish_stream(partial=True) adds what arrived"
            raise StreamError(f"the {self.provider} stream in progress was closed: {why}")
        return self._take(self.decoder.feed(chunk))

    def finish(self, *, partial: bool) -> AssistantMessage:
        if not self.closed:
            self.closed = True
            self._take(self.decoder.close())
        if not partial:
            self.builder.refuse_cut(self.provider)
        return self.accumulator.response().message

    def _take(self, events: Sequence[AnyStreamRecord | AnyStreamEvent]) -> list[AnyStreamEvent]:
        shown: list[AnyStreamEvent] = []
        for event in models_of(events):  # the public models: a conversation shows them
            self.accumulator.add(event)
            if isinstance(event, ToolCallStartEvent):
                self.pending_calls[(event.choice, event.index)] = event
            elif isinstance(event, ToolCallDeltaEvent):
                continue
            elif isinstance(event, ToolCallEndEvent):
                shown.append(self._completed_call(event))
            else:
                shown.append(event)
        return shown

    def _completed_call(self, event: ToolCallEndEvent) -> PartEvent:
        self.pending_calls.pop((event.choice, event.index), None)
        built = self.accumulator.part_so_far(event.choice, event.index)
        call = ToolUsePart.model_validate(built)
        return PartEvent(index=event.index, choice=event.choice, part=call)


shown_as("chatcodec", Conversation)  # shown as chatcodec.Conversation (it is imported from there)
