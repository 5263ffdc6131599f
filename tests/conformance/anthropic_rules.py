"""What the conformance laws need to know about anthropic (entry in ``providers.py``).

The SDK oracles are the provider's own test helpers (``anthropic_support``): the request
TypedDict walk, the SDK's ``Message`` model and its ``RawMessageStreamEvent`` union.
Every recorded stream pairs with the message the anthropic SDK's own accumulator builds
from it: the non-streamed body the API would have returned.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from anthropic.lib.streaming._messages import accumulate_event

import chatcodec
from conformance.fixtures import JsonObject
from conformance.normal_forms import with_compact_arguments
from providers.anthropic.anthropic_support import (
    PREDATES_SDK,
    assert_valid_request,
    assert_valid_response,
    assert_valid_stream,
    with_web_fetch_count,
    without_null_markers,
)

if TYPE_CHECKING:
    from conformance.providers import Provider, StreamPair

check_request = assert_valid_request
check_response = assert_valid_response


def check_stream(events: list[JsonObject]) -> None:
    assert_valid_stream(events)


DEFAULT_MAX_TOKENS = 4096
"""Anthropic requires ``max_tokens``; the encoder writes this when a request has none."""

FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "pause_turn": "pause",
    "refusal": "refusal",
    "a_reason_added_in_2027": "other",  # spelled as Anthropic spells them: kept as sent
}


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``request.py`` and ``messages.py``):

    * ``max_tokens`` is required: a request without one gets :data:`DEFAULT_MAX_TOKENS`;
    * ``response_format`` of type ``text`` is the default output: it is left out;
    * a ``developer`` message is a system message (OpenAI's newer name for one);
    * ``parallel_tool_calls=False`` rides on ``tool_choice``, so without a choice it is sent
      with the default choice, ``auto``; ``parallel_tool_calls=True`` is the default, left
      out when there is no choice to carry it (none, or ``none``);
    * tool-call arguments are sent as the parsed ``input`` object: a JSON object's text
      reads back as compact JSON;
    * an image's ``detail="auto"`` is OpenAI's default: Anthropic has no such setting, and
      sending none says the same;
    * a user message right after tool results joins their user turn as blocks, so its
      string content reads back as one text part;
    * leading system messages are one ``system`` field: two or more read back as one
      system message holding their parts in order.
    """
    update: dict[str, Any] = {}
    choice = request.tool_choice
    if request.parallel_tool_calls is False and choice is None:
        update["tool_choice"] = chatcodec.ToolChoice(type="auto")
    if request.parallel_tool_calls is True and (choice is None or choice.type == "none"):
        update["parallel_tool_calls"] = None
    if request.max_tokens is None:
        update["max_tokens"] = DEFAULT_MAX_TOKENS
    if request.response_format is not None and request.response_format.type == "text":
        update["response_format"] = None
    messages = _leading_systems_joined(request.messages)
    messages = [
        _joined_to_results(_message_rewritten(message), previous)
        for previous, message in zip([None, *messages], messages, strict=False)
    ]
    rewritten = request.model_copy(update={**update, "messages": messages})
    return chatcodec.ChatRequest.model_validate(_without_auto_detail(rewritten.model_dump(mode="json")))


def _without_auto_detail(value: Any) -> Any:
    if isinstance(value, list):
        return [_without_auto_detail(item) for item in value]
    if not isinstance(value, dict):
        return value
    cleaned = {key: _without_auto_detail(item) for key, item in value.items()}
    if value.get("type") == "image" and value.get("detail") == "auto":
        cleaned["detail"] = None
    return cleaned


def _leading_systems_joined(messages: list[chatcodec.AnyMessage]) -> list[chatcodec.AnyMessage]:
    count = 0
    while count < len(messages) and isinstance(messages[count], chatcodec.SystemMessage):
        count += 1
    if count < 2:
        return messages
    parts = [part for message in messages[:count] for part in message.parts]
    return [chatcodec.SystemMessage(content=parts), *messages[count:]]


def _joined_to_results(message: chatcodec.AnyMessage, previous: chatcodec.AnyMessage | None) -> chatcodec.AnyMessage:
    after_results = isinstance(previous, chatcodec.ToolMessage)
    if (
        isinstance(message, chatcodec.UserMessage)
        and after_results
        and isinstance(message.content, str)
        and message.content
    ):
        return message.model_copy(update={"content": [chatcodec.TextPart(text=message.content)]})
    return message


def _message_rewritten(message: chatcodec.AnyMessage) -> chatcodec.AnyMessage:
    if isinstance(message, chatcodec.SystemMessage) and message.role == "developer":
        return message.model_copy(update={"role": "system"})
    if isinstance(message, chatcodec.AssistantMessage) and message.tool_calls:
        return message.model_copy(update={"content": [_compact(part) for part in message.parts]})
    return message


def _compact(part: Any) -> Any:
    if isinstance(part, chatcodec.ToolUsePart) and part.arguments_are_valid_json:
        parsed = part.parsed_arguments()
        if isinstance(parsed, dict):
            return part.model_copy(update={"arguments": json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))})
    return part


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    return copy.deepcopy(payload) | {"stop_reason": raw}


def for_sdk(name: str, body: JsonObject) -> JsonObject:
    """Recordings older than the SDK's required ``web_fetch_requests`` count get it."""
    return with_web_fetch_count(body) if name in PREDATES_SDK else body


def compact_arguments(response: chatcodec.ChatResponse) -> object:
    """A stream passes argument text through; a non-streamed body carries the parsed
    ``input`` object, which decodes to compact JSON."""
    return with_compact_arguments(response)


def sdk_accumulation(events: list[JsonObject]) -> JsonObject:
    """The ``Message`` the anthropic SDK's stream accumulator builds from ``events``."""
    snapshot = None
    buffers: dict[int, bytes] = {}
    for event in events:
        if event["type"] not in ("ping", "error"):
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
    assert snapshot is not None
    message: dict[str, Any] = snapshot.to_dict(mode="json")
    return message


def sdk_comparable(response: chatcodec.ChatResponse) -> object:
    """Against the SDK's accumulation: argument spelling (text versus parsed object) and
    the ``stop_details`` null/absent spelling (the SDK sets the attribute to null even
    when the stream never sent it) are the two documented differences."""
    return without_null_markers(with_compact_arguments(response))


def stream_pairs(provider: Provider) -> list[StreamPair]:
    from conformance.providers import StreamPair

    return [
        StreamPair(name, lambda name=name: sdk_accumulation(provider.stream_events(name)), sdk_comparable)
        for name in provider.recorded["stream"]
    ]
