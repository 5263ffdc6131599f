"""The Responses API's rules on encode, each a named test, and the failures
users of other bridges report: reasoning replayed without ``encrypted_content`` or
without the item that followed it, ``fc_`` item ids confused with ``call_id``, another
provider's thinking sent as Responses reasoning or as plain text, cache markers dropped
on the Chat bridge, parallel calls overwriting each other in a stream."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import chatcodec
from chatcodec import AssistantMessage, ChatRequest, TextPart, ThinkingPart, ToolUsePart, UserMessage
from chatcodec.streams._replay import events_from_response
from chatcodec.streams._sse import iter_sse_json
from providers.openai_responses.responses_support import (
    FIXTURES,
    FORMAT,
    assert_request_matches_sdk,
    assert_response_matches_sdk,
    assert_stream_matches_sdk,
    encode_request,
    encode_response,
    load_json,
)


def _replayed_turn(name: str) -> tuple[chatcodec.Conversation, dict[str, Any]]:
    """A conversation that replays a recorded Responses turn, as an agent loop builds it."""
    conversation = chatcodec.Conversation(messages=[UserMessage(content="Weather in Paris?")])
    body = load_json("response", name)
    conversation.append_response(FORMAT, body)
    return conversation, body


def test_reasoning_is_replayed_with_its_id_and_encrypted_content_next_to_its_following_item() -> None:
    conversation, body = _replayed_turn("reasoning_then_function_call")
    call = conversation.messages[-1].parts[-1]
    assert isinstance(call, ToolUsePart)
    conversation.add_tool_result(call.id, "18C")
    payload, losses = encode_request(conversation.to_request(model="gpt-5"))
    assert losses == []
    reasoning, function_call = body["output"]
    assert payload["input"][1] == reasoning  # id, summary and encrypted_content byte for byte
    assert payload["input"][2] == {key: function_call[key] for key in function_call}
    assert payload["input"][3] == {"type": "function_call_output", "call_id": function_call["call_id"], "output": "18C"}
    assert_request_matches_sdk(payload)


def test_a_function_call_keeps_call_id_as_the_tool_id_and_echoes_its_fc_item_id() -> None:
    conversation, body = _replayed_turn("function_call_no_reasoning")
    item = body["output"][0]
    call = conversation.messages[-1].parts[0]
    assert isinstance(call, ToolUsePart)
    assert call.id == item["call_id"] != item["id"]
    payload, _ = encode_request(conversation.to_request())
    assert payload["input"][1]["id"] == item["id"]
    assert payload["input"][1]["call_id"] == item["call_id"]


def test_encrypted_reasoning_replayed_from_canonical_asks_to_keep_getting_it() -> None:
    conversation, _ = _replayed_turn("reasoning_then_function_call")
    conversation.fill_missing_tool_results()
    payload, _ = encode_request(conversation.to_request(model="gpt-5", provider_options={FORMAT: {"store": False}}))
    assert payload["include"] == ["reasoning.encrypted_content"]
    assert payload["store"] is False


def test_a_request_read_from_the_wire_keeps_its_own_include() -> None:
    payload = load_json("request", "assistant_message_phase_replay")
    without_include = {key: value for key, value in payload.items() if key != "include"}
    again, losses = encode_request(chatcodec.decode_request(FORMAT, without_include))
    assert again == without_include
    assert losses == []


def _with_thinking(part: ThinkingPart) -> ChatRequest:
    call = ToolUsePart(id="call_1", name="get", arguments="{}")
    return ChatRequest(
        messages=[
            UserMessage(content="Hi"),
            AssistantMessage(content=[part, call]),
            chatcodec.ToolMessage(content=[chatcodec.ToolResultPart(tool_use_id="call_1", content="ok")]),
        ]
    )


@pytest.mark.parametrize(
    "part",
    [
        ThinkingPart(text="Let me think", signature="EqQBsig", provider="anthropic", model="claude-x"),
        ThinkingPart(text="", encrypted="opaque", redacted=True, provider="anthropic"),
        ThinkingPart(text="thought", signature="CiQB", provider="gemini"),
    ],
    ids=["anthropic-signed", "anthropic-redacted", "gemini-thought"],
)
def test_reasoning_from_another_provider_is_never_sent_as_a_reasoning_item(part: ThinkingPart) -> None:
    payload, losses = encode_request(_with_thinking(part))
    kinds = [item.get("type") for item in payload["input"]]
    assert "reasoning" not in kinds
    assert all(part.text not in str(item) for item in payload["input"] if part.text)  # nor as plain text
    assert [loss.path for loss in losses] == ["$.messages[1].content[0]"]
    assert "never sent as a Responses reasoning item" in losses[0].why
    with pytest.raises(chatcodec.LossError):
        chatcodec.encode_request(FORMAT, _with_thinking(part), on_loss="error")


def test_unsigned_plain_reasoning_text_is_dropped_and_reported() -> None:
    payload, losses = encode_request(_with_thinking(ThinkingPart(text="plain reasoning_content")))
    assert [item.get("type") for item in payload["input"]] == [None, "function_call", "function_call_output"]
    assert [loss.what for loss in losses] == ["unsigned reasoning text"]


def test_a_reasoning_item_left_without_its_following_item_is_dropped_and_reported() -> None:
    conversation, body = _replayed_turn("reasoning_then_function_call")
    turn = conversation.messages[-1]
    assert isinstance(turn, AssistantMessage)
    only_reasoning = turn.model_copy(update={"content": turn.parts[:1]})
    request = ChatRequest(messages=[UserMessage(content="Hi"), only_reasoning, UserMessage(content="Go on")])
    payload, losses = encode_request(request)
    assert [item.get("type") for item in payload["input"]] == [None, None]
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[1].content[0]", "reasoning item with nothing after it")
    ]
    assert body["output"][0]["type"] == "reasoning"


def test_cache_markers_survive_the_chat_bridge() -> None:
    chat = {
        "model": "gpt-5",
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "long prefix", "prompt_cache_breakpoint": {"mode": "explicit"}}],
            }
        ],
    }
    losses: list[chatcodec.Loss] = []
    payload = chatcodec.convert_request(chat, source="openai-chat", target=FORMAT, on_loss="ignore", losses=losses)
    assert payload["input"][0]["content"][0]["prompt_cache_breakpoint"] == {"mode": "explicit"}
    assert losses == []
    back = chatcodec.convert_request(payload, source=FORMAT, target="openai-chat", on_loss="ignore", losses=losses)
    assert back == chat
    assert losses == []


def test_anthropic_thinking_routed_to_responses_is_reported_not_turned_into_text() -> None:
    body = {
        "model": "claude-x",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "secret plan", "signature": "EqQB"},
                    {"type": "text", "text": "Hello"},
                ],
            },
        ],
    }
    losses: list[chatcodec.Loss] = []
    payload = chatcodec.convert_request(body, source="anthropic", target=FORMAT, on_loss="ignore", losses=losses)
    assert "secret plan" not in str(payload)
    assert payload["input"][1] == {"role": "assistant", "content": "Hello"}
    assert [loss.what for loss in losses] == ["reasoning from anthropic"]


def test_parallel_function_calls_stream_into_separate_parts() -> None:
    from providers.openai_responses.conformance_streams import rules

    response = chatcodec.accumulate_stream(FORMAT, rules()["parallel-calls-interleaved"])
    calls = response.message.tool_calls
    assert [(call.id, call.arguments) for call in calls] == [("call_1", '{"a":1}'), ("call_2", '{"b":2}')]
    assert response.finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="completed")


def test_unknown_stream_events_are_never_fatal() -> None:
    from providers.openai_responses.conformance_streams import plain_stream

    events = plain_stream()
    events.insert(3, {"type": "response.something_new", "output_index": 0, "payload": {"x": 1}})
    events.insert(9, {"type": "response.web_search_call.searching", "item_id": "ws", "output_index": 7})
    assert chatcodec.accumulate_stream(FORMAT, events) == chatcodec.accumulate_stream(FORMAT, plain_stream())


def test_a_response_from_another_provider_encodes_to_a_valid_responses_body_and_stream() -> None:
    anthropic = chatcodec.decode_response(
        "anthropic",
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [
                {"type": "text", "text": "Let me check."},
                {"type": "tool_use", "id": "toolu_1", "name": "get", "input": {"city": "Paris"}},
            ],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        },
    )
    body, losses = encode_response(anthropic)
    assert_response_matches_sdk(body, no_extra_keys=True)
    assert [item["type"] for item in body["output"]] == ["message", "function_call"]
    assert body["status"] == "completed"
    events = list(chatcodec.encode_stream(FORMAT, events_from_response(anthropic), on_loss="ignore"))
    assert_stream_matches_sdk(events, no_extra_keys=True)
    assert [event["sequence_number"] for event in events] == list(range(len(events)))
    streamed = chatcodec.accumulate_stream(FORMAT, events).message.tool_calls
    # the call item's made-up fc_ id is the non-streamed body's
    assert streamed == chatcodec.decode_response(FORMAT, body).message.tool_calls
    assert [(call.id, call.name, call.arguments) for call in streamed] == [
        (call.id, call.name, call.arguments) for call in anthropic.message.tool_calls
    ]
    # what Responses requires and an Anthropic message has no value for is invented, reported
    invented = [loss.path for loss in losses if loss.what.startswith("invented ")]
    assert invented == [
        "$.created",
        "$.usage.cache_read_tokens",
        "$.usage.cache_write_tokens",
        "$.usage.reasoning_tokens",
    ]
    assert all("anthropic" in loss.what for loss in losses if loss.path not in invented)


def test_conversation_dumps_to_and_appends_from_responses() -> None:
    conversation = chatcodec.Conversation(system="Be brief.")
    conversation.append({"role": "user", "content": "Capital of France?"})
    conversation.append_response(FORMAT, load_json("response", "output_text_logprobs"))
    conversation.append({"role": "user", "content": [TextPart(text="And Spain?")]})
    payload = conversation.dump(FORMAT, model="gpt-4o-mini", on_loss="error")
    assert [item.get("role") for item in payload["input"]] == ["system", "user", "assistant", "user"]
    assert payload["input"][2]["id"].startswith("msg_")
    assert_request_matches_sdk(payload)


def test_another_providers_refusal_is_sent_as_assistant_text_and_reported() -> None:
    request = ChatRequest(
        messages=[UserMessage(content="Hi"), AssistantMessage(content=[chatcodec.RefusalPart(text="No.")])]
    )
    payload, losses = encode_request(request)
    assert payload["input"][1] == {"role": "assistant", "content": "No."}
    assert [loss.what for loss in losses] == ["refusal"]
    assert_request_matches_sdk(payload)


def test_a_text_part_that_opens_a_message_item_streams_live() -> None:
    from chatcodec._model.stream_events import ResponseStartEvent, TextDeltaEvent, TextStartEvent

    wire = chatcodec.encode_stream(
        FORMAT,
        iter([ResponseStartEvent(id="resp_1"), TextStartEvent(index=0), TextDeltaEvent(index=0, delta="Hel")]),
        on_loss="ignore",
    )
    first = [next(wire)["type"] for _ in range(5)]
    assert first == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
    ]


def test_the_conversation_builder_appends_a_responses_stream_event_by_event() -> None:
    from providers.openai_responses.conformance_streams import plain_stream

    conversation = chatcodec.Conversation(messages=[UserMessage(content="Hi")])
    for event in plain_stream():
        conversation.append_chunk(FORMAT, event)
    message = conversation.finish_stream()
    assert message == chatcodec.accumulate_stream(FORMAT, plain_stream()).message
    assert conversation.unresolved_tool_calls() == message.tool_calls
    payload = conversation.dump(FORMAT, on_loss="error", model="m")
    assert [item.get("type") for item in payload["input"][1:]] == ["reasoning", "message", "function_call"]


@pytest.mark.parametrize(
    ("details", "key"), [("input_tokens_details", "cached_tokens"), ("output_tokens_details", "reasoning_tokens")]
)
@pytest.mark.parametrize("flag", [False, True])
def test_a_boolean_where_a_token_count_goes_is_kept_not_read_as_a_count(details: str, key: str, flag: bool) -> None:
    """Python's ``bool`` is an ``int``: read as a count, ``false`` reached the strict
    canonical model and was refused at ``$.usage.cache_read_tokens``, a path the input
    does not have (found by the long fuzz run). The value is kept and written back."""
    usage: dict[str, Any] = {"input_tokens": 5, "output_tokens": 1, "total_tokens": 6}
    usage[details] = {key: flag}
    payload = {"id": "r", "object": "response", "created_at": 1, "model": "m", "status": "completed", "output": []}
    payload["usage"] = usage
    response = chatcodec.decode_response("openai-responses", payload)
    assert response.usage is not None
    assert response.usage.cache_read_tokens is None
    assert response.usage.reasoning_tokens is None
    assert chatcodec.encode_response("openai-responses", response, on_loss="error")["usage"][details][key] is flag


@pytest.mark.parametrize(
    ("request_fields", "path"),
    [
        (
            {
                "messages": [
                    {
                        "role": "assistant",
                        "content": [
                            {
                                "type": "text",
                                "text": "a",
                                "provider_metadata": {"openai-responses": {"_item": "message", "item": 5}},
                            }
                        ],
                    }
                ]
            },
            "$.messages[0].content[0].provider_metadata['openai-responses'].item",
        ),
        (
            {
                "messages": [
                    {
                        "role": "assistant",
                        "content": [
                            {
                                "type": "thinking",
                                "text": "t",
                                "provider_metadata": {"openai-responses": {"id": "rs_1", "_item": True, "entry": []}},
                            }
                        ],
                    }
                ]
            },
            "$.messages[0].content[0].provider_metadata['openai-responses'].entry",
        ),
        (
            {"reasoning": {"effort": "low"}, "provider_options": {"openai-responses": {"reasoning": 7}}},
            "$.provider_options['openai-responses'].reasoning",
        ),
        ({"provider_options": {"openai-responses": {"text": 5}}}, "$.provider_options['openai-responses'].text"),
    ],
)
def test_a_kept_object_that_is_not_an_object_is_refused_at_its_path(request_fields: dict[str, Any], path: str) -> None:
    """A bag comes from the caller as well as from the decoder: ``item`` 5 raised
    AttributeError deep in the encoder (found by the long fuzz run), and ``text`` 5 or
    ``reasoning`` 7 in the request's options were silently replaced or dropped."""
    request = {"model": "m", "messages": [{"role": "user", "content": "q"}], **request_fields}
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.encode_request("openai-responses", request, on_loss="ignore")
    assert caught.value.paths == [path]


def test_a_tool_call_streams_its_arguments_as_they_come() -> None:
    """A proxy's client sees a call being written: each argument delta goes out before
    the call's end has arrived, on the item announced when the call began."""
    from chatcodec._model import stream_events as ev

    pulled: list[str] = []

    def canonical() -> Iterator[chatcodec.AnyStreamEvent]:
        for event in [
            ev.ResponseStartEvent(id="resp_1", model="m"),
            ev.ToolCallStartEvent(index=0, id="call_1", name="f"),
            ev.ToolCallDeltaEvent(index=0, delta='{"a":'),
            ev.ToolCallDeltaEvent(index=0, delta="1}"),
            ev.ToolCallEndEvent(index=0),
            ev.FinishEvent(finish_reason=chatcodec.FinishReason(unified="tool_calls")),
        ]:
            pulled.append(event.type)
            yield event

    seen: list[tuple[str, list[str]]] = []
    wires: list[dict[str, Any]] = []
    for wire in chatcodec.encode_stream(FORMAT, canonical(), on_loss="ignore"):
        seen.append((wire["type"], list(pulled)))
        wires.append(wire)
    assert_stream_matches_sdk(wires, no_extra_keys=True)
    deltas = [(kind, before) for kind, before in seen if kind == "response.function_call_arguments.delta"]
    assert len(deltas) == 2
    assert all("tool_call_end" not in before for _, before in deltas)
    added = next(before for kind, before in seen if kind == "response.output_item.added")
    assert "tool_call_delta" not in added


def test_a_responses_call_streamed_through_keeps_its_item_id_from_the_start() -> None:
    """Responses -> canonical -> Responses: the argument deltas name the call's item
    (``fc_...`` from OpenAI), as the original did (the decoder hands the item's id to the call's start)."""
    stream = (FIXTURES / "stream" / "deepseek_reasoning_and_function_call.sse").read_bytes()
    original = list(iter_sse_json(stream))
    ids = {event["item_id"] for event in original if event["type"] == "response.function_call_arguments.delta"}
    again = chatcodec.encode_stream(FORMAT, chatcodec.decode_stream(FORMAT, original), on_loss="ignore")
    resent = {event["item_id"] for event in again if event["type"] == "response.function_call_arguments.delta"}
    assert resent == ids
    assert ids  # the recording names its call item (DeepSeek's ids, not fc_ ones)
    assert all(ids)


def test_an_assistant_turns_own_bag_is_reported_in_a_request_too() -> None:
    """The decoder keeps an assistant turn's fields on its items' parts, never on the turn:
    a bag there (a caller's) has no place in the request, and was dropped unreported."""
    request = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": "a", "provider_metadata": {"openai-responses": {"phase": "final"}}},
        ],
    }
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(FORMAT, request, on_loss="ignore", losses=losses)
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1]", "openai-responses data ['phase']")]


def test_a_live_text_item_that_ends_with_string_content_takes_no_more_parts() -> None:
    """A message item whose ``output_item.done`` gives its content as one string (a
    request's spelling) holds no parts: a text part after it opens its own item. The
    stream encoder appended to the string and raised AttributeError (found by the long
    fuzz run)."""
    item = {"id": "msg_1", "type": "message", "role": "assistant"}
    where = {"item_id": "msg_1", "output_index": 0}
    done = {**item, "status": "completed", "content": "ab"}
    response = {"id": "r", "object": "response", "created_at": 1, "model": "m"}
    events = [
        {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "status": "in_progress", "content": []},
        },
        {
            "type": "response.content_part.added",
            **where,
            "content_index": 0,
            "part": {"type": "output_text", "text": ""},
        },
        {"type": "response.output_text.delta", **where, "content_index": 7, "delta": "b"},
        {"type": "response.output_text.delta", **where, "content_index": 0, "delta": "a"},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {**response, "status": "completed", "output": [done]}},
    ]
    again = list(chatcodec.encode_stream(FORMAT, chatcodec.decode_stream(FORMAT, events), on_loss="ignore"))
    texts = [part.text for part in chatcodec.accumulate_stream(FORMAT, again).message.parts]
    assert texts == [part.text for part in chatcodec.accumulate_stream(FORMAT, events).message.parts]


def test_a_message_part_kept_whole_streams_as_it_is() -> None:
    """A finished message item holding a content entry the decoder keeps whole (here an
    ``output_text`` without its text) is streamed as that entry, with no deltas; the
    encoder read its ``text`` and raised KeyError (found by the long fuzz run)."""
    item = {"type": "message", "id": "msg_1", "role": "assistant"}
    response = {"id": "r", "object": "response", "created_at": 1, "model": "m"}
    done = {**item, "type": "", "status": "completed", "content": [{"type": "output_text", "annotations": []}]}
    where = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    events = [
        {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "status": "in_progress", "content": []},
        },
        {
            "type": "response.content_part.added",
            **where,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        {"type": "response.output_text.delta", **where, "delta": "Hi"},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {**response, "status": "completed", "output": [done]}},
    ]
    again = list(chatcodec.encode_stream(FORMAT, chatcodec.decode_stream(FORMAT, events), on_loss="ignore"))
    kept = [event["part"] for event in again if event["type"] == "response.content_part.done"]
    assert {"type": "output_text", "annotations": []} in kept
