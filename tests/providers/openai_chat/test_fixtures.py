"""openai-chat behaviour on its recorded fixtures beyond the conformance laws.

The laws every provider shares (exact round trips, SDK oracles, streamed ==
non-streamed for the recorded pairs) are in ``tests/conformance``; these are the
openai-chat specifics: null versus absent for every optional key, the n=3 recordings,
tool-call ids through accumulation, the oracle's own strictness.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

import chatcodec
from chatcodec import StreamAccumulator
from providers.openai_chat.openai_chat_support import (
    FORMAT,
    assert_response_matches_sdk,
    encode_request,
    encode_response,
    fixture_names,
    load_json,
    load_stream,
)
from sdk_oracle import check

REQUESTS = fixture_names("request")
RESPONSES = fixture_names("response")


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
