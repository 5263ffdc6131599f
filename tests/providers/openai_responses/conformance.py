"""What the conformance laws need to know about openai-responses: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The SDK oracles are the provider's own test helpers (``responses_support``): the
``ResponseCreateParams`` TypedDict walk, the SDK's ``Response`` model and its
``ResponseStreamEvent`` union. A recorded stream pairs with the response its terminal
event (``response.completed``) carries: the API's own non-streamed body for that turn,
which is also what the SDK's accumulator (``openai.lib.streaming.responses``) ends with.
The codec's own facts (its documented rewrites, single-hop normal form, marker requests)
are its ``chatcodec.laws`` entry's (``chatcodec.testing._laws.built_in.openai_responses``).
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._laws.built_in import openai_responses
from chatcodec.testing._laws.built_in.openai_responses import NAME
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from conformance.recordings import recordings_of
from providers.openai_responses.conformance_streams import CASES
from providers.openai_responses.responses_support import (
    assert_request_matches_sdk,
    assert_response_matches_sdk,
    assert_stream_matches_sdk,
    with_cache_write_count,
)

check_request = assert_request_matches_sdk


def check_response(payload: JsonObject) -> None:
    assert_response_matches_sdk(payload)


def check_stream(events: list[JsonObject]) -> None:
    """Recordings predate fields the SDK now requires (``cache_write_tokens``; the March
    2025 ones also ``sequence_number`` and a delta's ``logprobs``), and the live API sends
    a ``web_search_call`` without the ``action`` the SDK requires in ``output_item.added``:
    they are filled in where missing. The encoder writes all three, which its own tests check strictly."""
    assert_stream_matches_sdk([_newer_fields(position, event) for position, event in enumerate(events)])


def _newer_fields(position: int, event: JsonObject) -> JsonObject:
    patched = with_cache_write_count(event)
    patched.setdefault("sequence_number", position)
    item = patched.get("item")
    if isinstance(item, dict) and item.get("type") == "web_search_call":
        item.setdefault("action", {"type": "search"})  # the live API sends none at `added`
    if patched.get("type") in ("response.output_text.delta", "response.output_text.done"):
        patched.setdefault("logprobs", [])
    return patched


def for_sdk(_name: str, body: JsonObject) -> JsonObject:
    return with_cache_write_count(body)


FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "completed": "stop",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
    "max_output_tokens": "length",  # incomplete_details.reason
    "content_filter": "content_filter",  # incomplete_details.reason
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    changed = copy.deepcopy(payload)
    if raw in ("max_output_tokens", "content_filter"):
        changed.update(status="incomplete", incomplete_details={"reason": raw})
    else:
        changed.update(status=raw, incomplete_details=None)
    return changed


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: _terminal_response(provider, name), _same)
        for name in provider.recorded["stream"]
    ]


def _terminal_response(provider: ProviderEntry, name: str) -> JsonObject:
    events = provider.stream_events(name)
    terminal = [event for event in events if event.get("type") == "response.completed"]
    response: JsonObject = terminal[-1]["response"]
    return response


def _same(response: chatcodec.ChatResponse) -> object:
    return response.model_dump(mode="json")


# --- responses as this provider shapes them -------------------------------------------------

_WORD = st.text("abcdefgh xyz", min_size=1, max_size=8)


@st.composite
def _output_item(draw: st.DrawFn, index: int) -> JsonObject:
    kind = draw(st.sampled_from(["message", "reasoning", "function_call", "web_search_call"]))
    if kind == "message":
        texts = draw(st.lists(_WORD, min_size=1, max_size=2))
        content = [{"type": "output_text", "text": text, "annotations": []} for text in texts]
        return {"type": "message", "id": f"msg_{index}", "status": "completed", "role": "assistant", "content": content}
    if kind == "reasoning":
        summary = [{"type": "summary_text", "text": text} for text in draw(st.lists(_WORD, max_size=2))]
        return {"type": "reasoning", "id": f"rs_{index}", "summary": summary, "encrypted_content": draw(_WORD)}
    if kind == "function_call":
        arguments = draw(st.sampled_from(['{"a":1}', "{}", '{"city": "Paris"}']))
        return {
            "type": "function_call",
            "id": f"fc_{index}",
            "call_id": f"call_{index}",
            "name": draw(st.sampled_from(["get", "look_up"])),
            "arguments": arguments,
            "status": "completed",
        }
    return {"type": "web_search_call", "id": f"ws_{index}", "status": "completed", "action": {"type": "search"}}


@st.composite
def shaped_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    """Responses decoded from Responses bodies: exactly what the codec carries."""
    count = draw(st.integers(0, 4))
    output = [draw(_output_item(index)) for index in range(count)]
    status = draw(st.sampled_from(["completed", "incomplete", "failed"]))
    body: JsonObject = {
        "id": "resp_1",
        "object": "response",
        "created_at": draw(st.integers(0, 2**31)),
        "model": "gpt-5",
        "status": status,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": draw(st.integers(0, 10)), "cache_write_tokens": 0},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": draw(st.integers(0, 20))},
            "total_tokens": 30,
        },
    }
    return chatcodec.decode_response(NAME, body)


# --- the entry -----------------------------------------------------------------------------------


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """The decoder reads the response's fields from the terminal ``response.completed``:
    ``value`` goes into that event's ``response``."""
    last = {**events[-1], "response": {**events[-1]["response"], "x_extension": value}}
    return [*events[:-1], last], len(events) - 1


ENTRY = openai_responses.entry(
    fixtures=recordings_of(NAME),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 8, "response": 8, "stream": 3},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="output_text_logprobs.json",
    pair_streams=stream_pairs,
    stream_pair_count=3,
    streams=CASES,
    shaped_responses=shaped_responses,
    deep_kept_value=deep_kept_value,
    for_sdk=for_sdk,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.openai_responses``) and those of the
recordings and SDK."""
