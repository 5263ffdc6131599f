"""What the conformance laws need to know about openai-chat: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The SDK oracles are the provider's own test helpers (``openai_chat_support``): the
request TypedDict walk with the compatible-server reasoning extensions removed, and the
SDK's ``ChatCompletion`` / ``ChatCompletionChunk`` models.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import chatcodec
from chatcodec.testing._laws.built_in import openai_chat
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from conformance.recordings import recordings_of
from providers.openai_chat.conformance_streams import CASES
from providers.openai_chat.openai_chat_support import (
    assert_chunks_match_sdk,
    assert_request_matches_sdk,
    assert_response_matches_sdk,
)
from providers.openai_chat.test_properties import content_as_list, openai_responses

__all__ = ["ENTRY", "FINISH_REASONS", "check_request", "check_response", "check_stream"]

check_request = assert_request_matches_sdk
check_response = assert_response_matches_sdk
check_stream = assert_chunks_match_sdk

FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
    "function_call": "tool_calls",  # the legacy function-calling word
    "error": "error",  # OpenRouter: a provider failed mid-generation
    "insufficient_system_resource": "error",  # DeepSeek: cut off for capacity
    "eos": "other",  # a compatible server's own word: kept as sent
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    changed = copy.deepcopy(payload)
    changed["choices"][0]["finish_reason"] = raw
    return changed


def separate_recordings(response: chatcodec.ChatResponse) -> dict[str, Any]:
    """What two separate live recordings of one scenario share.

    Ids, timestamps, usage and the system fingerprint differ between recordings, as do
    tool-call ids. Streams carry no choice- or message-level metadata (the non-streamed
    ``logprobs: null`` and ``refusal: null`` have nothing to match), and a stream builds
    message content as a list of parts.
    """
    renamed = [
        choice.model_copy(
            update={
                "provider_metadata": None,
                "message": choice.message.model_copy(
                    update={
                        "provider_metadata": None,
                        "content": [
                            part.model_copy(update={"id": f"call_{index}"})
                            if isinstance(part, chatcodec.ToolUsePart)
                            else part
                            for index, part in enumerate(choice.message.parts)
                        ],
                    }
                ),
            }
        )
        for choice in response.choices
    ]
    dumped = content_as_list(response.model_copy(update={"choices": renamed}))
    for key in ("id", "created", "provider_metadata", "usage"):
        dumped.pop(key, None)
    return dumped


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    """The scenarios recorded both ways (separate live recordings of one request)."""
    pairs = [
        ("finish_length.sse", "finish_length_max_tokens.json"),
        ("parallel_tool_calls_2024.sse", "parallel_tool_calls_2024.json"),
    ]
    # n3_choices_interleaved.sse / n3_multiple_choices.json were sampled at temperature > 0:
    # their texts differ, so tests/providers/openai_chat checks only that their shapes agree.
    return [
        StreamPair(stream, lambda response=response: provider.load("response", response), separate_recordings)
        for stream, response in pairs
    ]


# --- the single-hop loss law ----------------------------------------------------------------


# --- the entry -----------------------------------------------------------------------------------


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """A chunk keeps its unknown top-level fields: ``value`` goes into the first one."""
    return [{**events[0], "x_extension": value}, *events[1:]], 0


ENTRY = replace(
    openai_chat.entry(),
    fixtures=recordings_of("openai-chat"),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 12, "response": 12, "stream": 10},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="text_stop.json",
    pair_streams=stream_pairs,
    stream_pair_count=2,
    streams=CASES,
    shaped_responses=openai_responses,
    deep_kept_value=deep_kept_value,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.openai_chat``) and those of the recordings and SDK."""
