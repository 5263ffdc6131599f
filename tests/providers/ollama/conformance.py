"""What the conformance laws need to know about ollama: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``. Ollama's native ``/api/chat``: one answer per
response, JSON-lines streams, tool arguments as objects, text-only message content with
images beside it."""

from __future__ import annotations

import copy
from dataclasses import replace

import chatcodec
from chatcodec.testing._laws.built_in import ollama
from chatcodec.testing._laws.built_in.ollama import (
    streamed_form,
)
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from conformance.recordings import recordings_of
from providers.ollama.conformance_streams import CASES
from providers.ollama.ollama_support import assert_valid_request, assert_valid_response, assert_valid_stream
from providers.ollama.strategies import ollama_responses

check_request = assert_valid_request
check_response = assert_valid_response
check_stream = assert_valid_stream

FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "stop": "stop",
    "length": "length",
    "load": "other",
    "unload": "other",
}
"""Every ``done_reason`` the server writes (``llm.DoneReason``, ``server/routes.go``)."""


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    body = copy.deepcopy(payload)
    body["done_reason"] = raw
    return body


# --- streamed == non-streamed: the lines folded as the server folds them --------------------------


def server_accumulation(events: list[JsonObject]) -> JsonObject:
    """The body the server answers with ``stream: false`` for the same lines
    (``writeChatResponse`` in ``server/routes.go``): the last line, with the thinking and
    the content of every line joined, every line's calls and ``logprobs`` gathered."""
    body: JsonObject = copy.deepcopy(events[-1])
    message: JsonObject = body.setdefault("message", {"role": "assistant"})
    message["content"] = "".join(event.get("message", {}).get("content") or "" for event in events)
    thinking = "".join(event.get("message", {}).get("thinking") or "" for event in events)
    if thinking:
        message["thinking"] = thinking
    calls = [call for event in events for call in event.get("message", {}).get("tool_calls") or ()]
    if calls:
        message["tool_calls"] = calls
    logprobs = [item for event in events for item in event.get("logprobs") or ()]
    if logprobs:
        body["logprobs"] = logprobs
    return body


def separate_lines(response: chatcodec.ChatResponse) -> object:
    """The server's body takes ``created_at`` from the last line, a stream from the first,
    and calls without ids are named after it: ids and times aside, the same answer."""
    choices = [
        choice.model_copy(
            update={"message": choice.message.model_copy(update={"content": _renamed(choice.message.parts)})}
        )
        for choice in response.choices
    ]
    bag = dict((response.provider_metadata or {}).get("ollama") or {})
    bag.pop("created_at", None)
    metadata = {**(response.provider_metadata or {}), "ollama": bag} if bag else None
    kept = response.model_copy(update={"choices": choices, "created": None, "provider_metadata": metadata})
    return streamed_form(kept)


def _renamed(parts: list[chatcodec.AnyPart]) -> list[chatcodec.AnyPart]:
    """Calls with made-up ids (named after ``created_at``) by their position instead."""
    return [
        part.model_copy(update={"id": f"made_up_{position}"})
        if isinstance(part, chatcodec.ToolUsePart)
        and ((part.provider_metadata or {}).get("ollama") or {}).get("_synthesized_id")
        else part
        for position, part in enumerate(parts)
    ]


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: server_accumulation(provider.stream_events(name)), separate_lines)
        for name in provider.recorded["stream"]
    ]


# --- what passes through Ollama unreported ----------------------------------------------------------


# --- the single-hop loss law -----------------------------------------------------------------------


# --- the entry ----------------------------------------------------------------------------------------


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """A line keeps its unknown top-level fields: ``value`` goes into the first one."""
    return [{**events[0], "x_extension": value}, *events[1:]], 0


ENTRY = replace(
    ollama.entry(),
    fixtures=recordings_of("ollama"),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 15, "response": 9, "stream": 4},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="structured_output.json",
    pair_streams=stream_pairs,
    stream_pair_count=4,
    streams=CASES,
    shaped_responses=ollama_responses,
    deep_kept_value=deep_kept_value,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.ollama``) and those of the recordings and SDK."""
