"""Every recorded openai-chat fixture: exact round trips, SDK oracles, stream equivalence."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

import chatcodec
from chatcodec import StreamAccumulator, ToolUsePart
from providers.openai_chat.openai_chat_support import (
    FORMAT,
    assert_chunks_match_sdk,
    assert_request_matches_sdk,
    assert_response_matches_sdk,
    content_as_list,
    encode_events,
    encode_request,
    encode_response,
    fixture_names,
    load_json,
    load_stream,
)
from sdk_oracle import check

REQUESTS = fixture_names("request")
RESPONSES = fixture_names("response")
STREAMS = fixture_names("stream", ".sse")


def test_every_fixture_is_exercised() -> None:
    assert (len(REQUESTS), len(RESPONSES), len(STREAMS)) == (12, 12, 10)


@pytest.mark.parametrize("name", REQUESTS)
def test_request_fixture_round_trips_exactly(name: str) -> None:
    payload = load_json("request", name)
    encoded, losses = encode_request(chatcodec.decode_request(FORMAT, payload))
    assert encoded == payload
    assert losses == []
    assert_request_matches_sdk(encoded)


@pytest.mark.parametrize("name", RESPONSES)
def test_response_fixture_round_trips_exactly(name: str) -> None:
    payload = load_json("response", name)
    encoded, losses = encode_response(chatcodec.decode_response(FORMAT, payload))
    assert encoded == payload
    assert losses == []
    assert_response_matches_sdk(encoded)


@pytest.mark.parametrize("name", STREAMS)
def test_stream_fixture_decodes_and_accumulates(name: str) -> None:
    events = list(chatcodec.decode_stream(FORMAT, load_stream(name)))
    response = chatcodec.accumulate_stream(FORMAT, load_stream(name))
    assert isinstance(events[0], chatcodec.ResponseStartEvent)
    assert response.id == events[0].id
    assert all(choice.finish_reason is not None for choice in response.choices)


@pytest.mark.parametrize("name", STREAMS)
def test_stream_fixture_reencodes_to_the_same_events(name: str) -> None:
    events = list(chatcodec.decode_stream(FORMAT, load_stream(name)))
    chunks, losses = encode_events(events)
    assert losses == []
    assert_chunks_match_sdk(chunks)
    assert list(chatcodec.decode_stream(FORMAT, chunks)) == events


def _comparable(response: chatcodec.ChatResponse) -> dict[str, Any]:
    """What two separate recordings of one scenario share.

    Ids, timestamps and the system fingerprint differ between recordings, as do tool-call
    ids. Streams also carry no choice- or message-level metadata (the core
    ``StreamAccumulator`` has no event for it), so the non-streamed ``logprobs: null`` and
    ``refusal: null`` have nothing to match and are left out.
    """
    renamed = [
        choice.model_copy(
            update={
                "provider_metadata": None,
                "message": choice.message.model_copy(
                    update={
                        "provider_metadata": None,
                        "content": [
                            part.model_copy(update={"id": f"call_{index}"}) if isinstance(part, ToolUsePart) else part
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


@pytest.mark.parametrize(
    ("stream", "response"),
    [
        ("finish_length", "finish_length_max_tokens"),
        ("parallel_tool_calls_2024", "parallel_tool_calls_2024"),
    ],
)
def test_stream_accumulates_to_the_non_streamed_response(stream: str, response: str) -> None:
    streamed = chatcodec.accumulate_stream(FORMAT, load_stream(stream))
    whole = chatcodec.decode_response(FORMAT, load_json("response", response))
    assert _comparable(streamed) == _comparable(whole)
    if streamed.usage is not None:
        assert streamed.usage == whole.usage


def test_n3_stream_has_the_shape_of_the_n3_response() -> None:
    # Sampled at temperature > 0: the two recordings differ in their text, not in shape.
    streamed = chatcodec.accumulate_stream(FORMAT, load_stream("n3_choices_interleaved"))
    whole = chatcodec.decode_response(FORMAT, load_json("response", "n3_multiple_choices"))
    assert [choice.index for choice in streamed.choices] == [choice.index for choice in whole.choices] == [0, 1, 2]
    for streamed_choice, whole_choice in zip(streamed.choices, whole.choices, strict=True):
        assert streamed_choice.finish_reason == whole_choice.finish_reason
        assert streamed_choice.message.text.startswith('{"city":"San Francisco","temperature":')


def test_accumulated_stream_encodes_as_a_valid_response() -> None:
    streamed = chatcodec.accumulate_stream(FORMAT, load_stream("parallel_tool_calls"))
    encoded, losses = encode_response(streamed)
    assert losses == []
    assert_response_matches_sdk(encoded)
    assert [call["id"] for call in encoded["choices"][0]["message"]["tool_calls"]] == [
        "call_q2UyBRP7eXNTzAoR8lEhjc9Z",
        "call_b51ijcpFkDiTQG1bQzsrmtW5",
    ]


_REQUIRED_KEYS = frozenset(
    {"role", "content", "type", "text", "id", "function", "name", "arguments", "tool_call_id", "messages"}
    | {"choices", "index", "message", "url", "data", "format", "image_url", "input_audio", "file"}
)


def _optional_paths(value: object, at: tuple[int | str, ...] = ()) -> list[tuple[int | str, ...]]:
    """Paths to every object key the SDK does not require."""
    found: list[tuple[int | str, ...]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in _REQUIRED_KEYS:
                found.append((*at, key))
            found += _optional_paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _optional_paths(item, (*at, index))
    return found


def _mutated(payload: dict[str, Any], where: tuple[int | str, ...], *, remove: bool) -> dict[str, Any]:
    changed = copy.deepcopy(payload)
    node: Any = changed
    for step in where[:-1]:
        node = node[step]
    if remove:
        del node[where[-1]]
    else:
        node[where[-1]] = None
    return changed


@pytest.mark.parametrize("remove", [False, True], ids=["nulled", "removed"])
@pytest.mark.parametrize(
    ("kind", "name"), [("request", name) for name in REQUESTS] + [("response", name) for name in RESPONSES]
)
def test_fixture_with_any_optional_key_nulled_or_removed_still_round_trips(kind: str, name: str, remove: bool) -> None:
    # null versus absent is kept exactly, for every optional key of every recorded payload
    payload = load_json(kind, name)
    for where in _optional_paths(payload):
        mutated = _mutated(payload, where, remove=remove)
        try:
            decoded = (chatcodec.decode_request if kind == "request" else chatcodec.decode_response)(FORMAT, mutated)
        except chatcodec.ValidationError:
            continue  # refused with a path: the bad-input tests cover what it says
        encoded, _ = (encode_request if kind == "request" else encode_response)(decoded)  # type: ignore[operator]
        assert encoded == mutated, where


def test_oracle_catches_an_extra_key_nested_inside_a_message() -> None:
    payload = load_json("request", "image_url_after_tool_result")
    assert check(payload, CompletionCreateParamsNonStreaming).ok
    in_message = copy.deepcopy(payload)
    in_message["messages"][1]["tool_calls"][0]["function"]["surprise"] = 1
    in_part = copy.deepcopy(payload)
    in_part["messages"][3]["content"][1]["image_url"]["surprise"] = 1
    assert check(in_message, CompletionCreateParamsNonStreaming).problems == [
        "$.messages[1].tool_calls[0].function.surprise: not a field of Function"
    ]
    # content is ``str | Iterable[part]``: the oracle reports one branch's problem, and fails
    assert not check(in_part, CompletionCreateParamsNonStreaming).ok


def test_accumulator_keeps_what_the_stream_said_whatever_order_it_is_fed_in() -> None:
    events = list(chatcodec.decode_stream(FORMAT, load_stream("n3_choices_interleaved")))
    accumulator = StreamAccumulator()
    accumulator.extend(events)
    texts = [choice.message.text for choice in accumulator.response().choices]
    assert len(set(texts)) == 3  # three different answers, none merged into another
