"""Streams: the accumulation cases other libraries got wrong, errors, reasoning deltas, and
encoding canonical events (from any provider) as OpenAI chunks."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletionChunk

import chatcodec
from chatcodec import (
    ErrorEvent,
    FinishEvent,
    FinishReason,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingPart,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    ToolUsePart,
    UsageEvent,
)
from chatcodec._losses import LossRecorder
from chatcodec._model.stream_records import record_of
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.openai_chat.stream_encode import StreamEncoder
from chatcodec.streams._replay import events_from_response
from providers.openai_chat.openai_chat_support import FORMAT, assert_chunks_match_sdk, encode_events, load_stream


def chunk(*choices: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": list(choices),
        **fields,
    }


def delta(index: int = 0, finish_reason: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"index": index, "delta": fields, "finish_reason": finish_reason}


def fragment(index: int, arguments: str = "", call_id: str | None = None, name: str | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    call: dict[str, Any] = {"index": index, "function": function}
    if call_id is not None:
        call.update(id=call_id, type="function")
    return call


def accumulate(chunks: list[dict[str, Any]]) -> chatcodec.ChatResponse:
    return chatcodec.accumulate_stream(FORMAT, chunks)


def calls(response: chatcodec.ChatResponse, choice: int = 0) -> list[tuple[str, str, str]]:
    return [(part.id, part.name, part.arguments) for part in response.choices[choice].message.tool_calls]


# --- tool-call fragments -----------------------------------------------------------------


def test_interleaved_fragments_of_parallel_calls_stay_apart() -> None:
    chunks = [
        chunk(delta(role="assistant", content=None)),
        chunk(delta(tool_calls=[fragment(0, call_id="a", name="f"), fragment(1, call_id="b", name="g")])),
        chunk(delta(tool_calls=[fragment(1, '{"y"'), fragment(0, '{"x"')])),
        chunk(delta(tool_calls=[fragment(0, ":1}")])),
        chunk(delta(tool_calls=[fragment(2, '{"z":3}', call_id="c", name="h"), fragment(1, ":2}")])),
        chunk(delta(finish_reason="tool_calls")),
    ]
    assert calls(accumulate(chunks)) == [("a", "f", '{"x":1}'), ("b", "g", '{"y":2}'), ("c", "h", '{"z":3}')]


def test_a_new_id_at_a_used_index_is_a_new_call() -> None:
    # Some servers number every call 0; merging by index alone fused them (the langchain bug).
    chunks = [
        chunk(delta(tool_calls=[fragment(0, '{"q":1}', call_id="a", name="f")])),
        chunk(delta(tool_calls=[fragment(0, '{"q":2}', call_id="b", name="f")])),
        chunk(delta(finish_reason="tool_calls")),
    ]
    assert calls(accumulate(chunks)) == [("a", "f", '{"q":1}'), ("b", "f", '{"q":2}')]


def test_a_whole_call_in_one_delta() -> None:
    response = chatcodec.accumulate_stream(FORMAT, load_stream("groq_reasoning_channel_tool_call"))
    assert calls(response) == [
        ("fc_bfb39741-3748-4def-9886-a93fc9c64a90", "get_something_by_name", '{"name":"example"}')
    ]
    assert response.usage is not None
    assert response.usage.reasoning_tokens == 23


def test_repeated_id_and_name_continue_the_call() -> None:
    chunks = [
        chunk(delta(tool_calls=[fragment(0, "{", call_id="a", name="f")])),
        chunk(delta(tool_calls=[fragment(0, "}", call_id="a", name="f")])),
        chunk(delta(finish_reason="tool_calls")),
    ]
    assert calls(accumulate(chunks)) == [("a", "f", "{}")]


def test_a_fragment_for_an_index_never_started_is_an_error() -> None:
    chunks = [chunk(delta(content="hi")), chunk(delta(tool_calls=[fragment(3, '{"x":1}')]))]
    with pytest.raises(chatcodec.StreamError) as raised:
        accumulate(chunks)
    assert raised.value.event_index == 1
    assert raised.value.path == "$.choices[0].delta.tool_calls[0]"


def test_a_call_changing_its_name_is_an_error() -> None:
    chunks = [
        chunk(delta(tool_calls=[fragment(0, call_id="a", name="f")])),
        chunk(delta(tool_calls=[fragment(0, name="g")])),
    ]
    with pytest.raises(chatcodec.StreamError, match="changed its name"):
        accumulate(chunks)


def test_content_after_the_finish_is_an_error() -> None:
    chunks = [chunk(delta(content="a", finish_reason="stop")), chunk(delta(content="b"))]
    with pytest.raises(chatcodec.StreamError) as raised:
        accumulate(chunks)
    assert (raised.value.event_index, raised.value.path) == (1, "$.choices[0].delta")


def test_a_malformed_chunk_names_its_position_and_path() -> None:
    with pytest.raises(chatcodec.StreamError) as raised:
        accumulate([chunk(delta(content="a")), chunk(delta(content=5))])
    assert raised.value.event_index == 1
    assert raised.value.path == "$.choices[0].delta.content"
    with pytest.raises(chatcodec.StreamError) as raised:
        accumulate([{"id": "c1", "object": "chat.completion.chunk"}])
    assert raised.value.path == "$.choices"


# --- errors, usage, padding ----------------------------------------------------------------


def test_an_error_object_inside_a_200_stream_is_an_error_event() -> None:
    error = {"message": "The server had an error", "type": "server_error", "code": None}
    events = list(chatcodec.decode_stream(FORMAT, [chunk(delta(content="par")), {"error": error}]))
    assert events[-1] == ErrorEvent(message="The server had an error", error_type="server_error", body=error)
    with pytest.raises(chatcodec.ProviderAPIError, match="server_error"):
        accumulate([chunk(delta(content="par")), {"error": error}])


def test_an_error_sse_event_is_an_error_event() -> None:
    sse = 'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[]}\n\n'
    sse += 'event: error\ndata: {"message":"overloaded","code":529}\n\n'
    events = list(chatcodec.decode_stream(FORMAT, sse))
    assert events[-1] == ErrorEvent(message="overloaded", error_type="529", body={"message": "overloaded", "code": 529})


def test_openrouter_error_chunk_with_a_finishing_choice() -> None:
    error_chunk = chunk(
        delta(content="", finish_reason="error"), error={"code": 502, "message": "Provider returned error"}
    )
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(chatcodec.decode_stream(FORMAT, [chunk(delta(content="Hel")), error_chunk]))
    response = accumulator.response(allow_errors=True)
    assert response.finish_reason == FinishReason(unified="error", raw="error")
    assert accumulator.errors[0].message == "Provider returned error"


def test_usage_chunk_with_no_choices_and_obfuscation_padding() -> None:
    events = list(chatcodec.decode_stream(FORMAT, load_stream("text_with_usage_obfuscation")))
    usage = [event for event in events if isinstance(event, UsageEvent)]
    assert [event.usage.input_tokens for event in usage] == [14]
    assert "obfuscation" not in json.dumps([event.model_dump() for event in events])


# --- reasoning and refusals -------------------------------------------------------------


def test_reasoning_content_deltas() -> None:
    chunks = [
        chunk(delta(role="assistant", content="", reasoning_content="Think")),
        chunk(delta(reasoning_content="ing.")),
        chunk(delta(content="Answer.", reasoning_content=None)),
        chunk(delta(finish_reason="stop")),
    ]
    thinking, text = accumulate(chunks).message.parts
    assert thinking == ThinkingPart(
        text="Thinking.", provider=FORMAT, provider_metadata={FORMAT: {"field": "reasoning_content"}}
    )
    assert text == chatcodec.TextPart(text="Answer.")


def test_openrouter_reasoning_is_not_doubled_and_keeps_its_signature() -> None:
    response = chatcodec.accumulate_stream(FORMAT, load_stream("openrouter_reasoning"))
    thinking, text = response.message.parts
    assert isinstance(thinking, ThinkingPart)
    assert thinking.text == "This is a simple arithmetic question. 2+2 equals 4."
    assert thinking.signature is not None
    assert thinking.signature.startswith("Et0BCkgI")
    assert thinking.provider_metadata == {
        FORMAT: {"field": "reasoning_details", "type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0}
    }
    assert text == chatcodec.TextPart(text="2 + 2 = 4")


def test_groq_reasoning_deltas_keep_their_channel() -> None:
    events = list(chatcodec.decode_stream(FORMAT, load_stream("groq_reasoning_channel_tool_call")))
    deltas = [event for event in events if isinstance(event, ThinkingDeltaEvent)]
    assert all(event.provider_metadata == {FORMAT: {"delta": {"channel": "analysis"}}} for event in deltas)
    starts = [event for event in events if isinstance(event, ResponseStartEvent)]
    assert starts[0].provider_metadata is not None
    assert starts[0].provider_metadata[FORMAT]["x_groq"] == {"id": "req_01khrvt32ze9rb75za4xqmdz13", "seed": 1367355884}


def test_encrypted_reasoning_detail_arrives_whole() -> None:
    encrypted = {"type": "reasoning.encrypted", "data": "ENC", "format": "openai-responses-v1", "index": 0}
    response = accumulate(
        [chunk(delta(reasoning_details=[encrypted], content="ok")), chunk(delta(finish_reason="stop"))]
    )
    part = response.message.parts[0]
    assert isinstance(part, ThinkingPart)
    assert (part.encrypted, part.redacted) == ("ENC", True)


def test_mistral_thinking_parts_in_streamed_content() -> None:
    chunks = [
        chunk(delta(content=[{"type": "thinking", "thinking": [{"type": "text", "text": "Let "}]}])),
        chunk(delta(content=[{"type": "thinking", "thinking": [{"type": "text", "text": "me see."}]}])),
        chunk(delta(content="Four.")),
        chunk(delta(finish_reason="stop")),
    ]
    thinking, text = accumulate(chunks).message.parts
    assert thinking == ThinkingPart(
        text="Let me see.", provider=FORMAT, provider_metadata={FORMAT: {"field": "content"}}
    )
    assert text.text == "Four."  # type: ignore[union-attr]


def test_mistral_thinking_parts_stream_with_the_indexes_the_openai_sdk_merges_by() -> None:
    """The openai SDK's stream helpers (``client.chat.completions.stream()``) merge every
    list of dicts in a delta by its entries' ``index``, at any depth, and raise
    ``RuntimeError: Expected list delta entry to have an `index` key`` on one without:
    Mistral's ``content`` thinking parts and their ``thinking`` chunks carry one as written,
    and the reader takes it as framing (the events read back are the same)."""
    mistral = [
        chunk(delta(content=[{"type": "thinking", "thinking": [{"type": "text", "text": "Let "}]}])),
        chunk(delta(content=[{"type": "thinking", "thinking": [{"type": "text", "text": "me see."}]}])),
        chunk(delta(content="Four.")),
        chunk(delta(finish_reason="stop")),
    ]
    events = list(chatcodec.decode_stream(FORMAT, mistral))
    written, _ = encode_events(events)
    entries = [
        entry
        for written_chunk in written
        for choice in written_chunk["choices"]
        if isinstance(choice["delta"].get("content"), list)
        for entry in choice["delta"]["content"]
    ]
    assert [entry["index"] for entry in entries] == [0, 0]
    assert [[piece["index"] for piece in entry["thinking"]] for entry in entries] == [[0], [0]]
    state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
    with warnings.catch_warnings():  # the SDK types content as a string: pydantic warns on Mistral's list
        warnings.simplefilter("ignore", UserWarning)
        for written_chunk in written:
            list(state.handle_chunk(ChatCompletionChunk.construct(**written_chunk)))  # raised RuntimeError
    (folded,) = state.current_completion_snapshot.choices[0].message.content  # type: ignore[misc]
    assert folded["thinking"] == [{"index": 0, "type": "text", "text": "Let me see."}]  # type: ignore[index]
    assert list(chatcodec.decode_stream(FORMAT, written)) == events


def test_refusal_deltas() -> None:
    response = chatcodec.accumulate_stream(FORMAT, load_stream("refusal_deltas"))
    assert response.message.parts == [chatcodec.RefusalPart(text="I'm sorry, I can't assist with that request.")]


@pytest.mark.parametrize(
    ("chunks", "kinds"),
    [
        ([chunk(delta(content="")), chunk(delta(finish_reason="stop"))], ["text"]),
        ([chunk(delta(content="", reasoning="r")), chunk(delta(finish_reason="stop"))], ["thinking", "text"]),
        (
            [
                chunk(delta(content="", tool_calls=[fragment(0, "{}", "a", "f")])),
                chunk(delta(finish_reason="tool_calls")),
            ],
            ["text", "tool_use"],
        ),
        ([chunk(delta(content=None, refusal="")), chunk(delta(refusal="No.", finish_reason="stop"))], ["refusal"]),
        ([chunk(delta(content=None)), chunk(delta(finish_reason="stop"))], []),
    ],
    ids=["empty-text", "empty-text-after-reasoning", "empty-text-before-call", "refusal", "nothing"],
)
def test_empty_content_takes_its_non_streamed_place(chunks: list[dict[str, Any]], kinds: list[str]) -> None:
    assert [part.type for part in accumulate(chunks).message.parts] == kinds


# --- encoding --------------------------------------------------------------------------


def test_to_sse_renders_openai_framing() -> None:
    chunks = [chunk(delta(role="assistant", content="héllo"))]
    rendered = "".join(chatcodec.to_sse(FORMAT, chunks))
    assert rendered == f"data: {json.dumps(chunks[0], ensure_ascii=False, separators=(',', ':'))}\n\ndata: [DONE]\n\n"
    decoded = list(chatcodec.decode_stream(FORMAT, rendered, partial=True))  # the chunk alone has no finish
    assert decoded == list(chatcodec.decode_stream(FORMAT, chunks, partial=True))


def test_fixture_sse_round_trips_through_to_sse() -> None:
    events = list(chatcodec.decode_stream(FORMAT, load_stream("parallel_tool_calls")))
    wire, _ = encode_events(events)
    assert list(chatcodec.decode_stream(FORMAT, "".join(chatcodec.to_sse(FORMAT, wire)))) == events


def anthropic_events(**start_options: Any) -> list[chatcodec.AnyStreamEvent]:
    metadata = {FORMAT: start_options} if start_options else None
    return [
        ResponseStartEvent(id="msg_1", model="claude", provider_metadata=metadata),
        ThinkingStartEvent(index=0, provider="anthropic"),
        ThinkingDeltaEvent(index=0, delta="Plan"),
        ThinkingSignatureDeltaEvent(index=0, delta="sig"),
        ThinkingEndEvent(index=0),
        TextStartEvent(index=1),
        TextDeltaEvent(index=1, delta="Calling."),
        TextEndEvent(index=1),
        ToolCallStartEvent(index=2, id="toolu_1", name="get"),
        ToolCallDeltaEvent(index=2, delta='{"a"'),
        ToolCallDeltaEvent(index=2, delta=":1}"),
        ToolCallEndEvent(index=2),
        FinishEvent(finish_reason=FinishReason(unified="tool_calls", raw="tool_use")),
        UsageEvent(usage=chatcodec.Usage(input_tokens=10, output_tokens=5)),
    ]


def test_an_anthropic_stream_as_openai_chunks_with_reasoning_off() -> None:
    chunks, losses = encode_events(anthropic_events(), {"reasoning_field": None})
    assert_chunks_match_sdk(chunks)
    assert [loss.path for loss in losses] == ["$[0].created", "$[1]"]  # Anthropic gives no creation time
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert chunks[-1]["choices"] == []
    response = accumulate(chunks)
    assert response.message.parts == [
        chatcodec.TextPart(text="Calling."),
        ToolUsePart(id="toolu_1", name="get", arguments='{"a":1}'),
    ]
    assert (response.id, response.model) == ("msg_1", "claude")


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning_details"])
def test_the_option_sends_foreign_reasoning(field: str) -> None:
    chunks, losses = encode_events(anthropic_events(), {"reasoning_field": field})
    thinking = accumulate(chunks).message.parts[0]
    assert isinstance(thinking, ThinkingPart)
    assert thinking.text == "Plan"
    losses = [loss for loss in losses if loss.path != "$[0].created"]  # Anthropic gives no creation time
    if field == "reasoning_details":
        assert (thinking.signature, losses) == ("sig", [])
    else:  # Claude's signature closes its block in thinking_blocks, beside the text
        deltas = [choice["delta"] for chunk in chunks for choice in chunk["choices"]]
        blocks = [block for delta in deltas for block in delta.get("thinking_blocks", [])]
        assert blocks[-1] == {"index": 0, "type": "thinking", "thinking": "", "signature": "sig"}
        assert losses == []


def test_events_without_a_start_get_placeholders() -> None:
    chunks, losses = encode_events(
        [TextDeltaEvent(index=0, delta="hi"), FinishEvent(finish_reason=FinishReason(unified="stop"))]
    )
    # every chunk carries them; each is reported once, when the stream closes
    assert [(loss.path, loss.what, loss.kind) for loss in losses] == [
        ("$.id", "invented id", "default"),
        ("$.created", "invented created", "default"),
        ("$.model", "invented model", "default"),
    ]
    assert_chunks_match_sdk(chunks)
    assert {(part["id"], part["model"]) for part in chunks} == {("", "")}
    assert len({part["created"] for part in chunks}) == 1
    assert chunks[0]["created"] > 1_700_000_000  # stamped now, not 0


def test_two_text_parts_in_one_choice_run_together_with_a_loss() -> None:
    events = [
        TextStartEvent(index=0),
        TextDeltaEvent(index=0, delta="a"),
        TextStartEvent(index=1),
        TextDeltaEvent(index=1, delta="b"),
        FinishEvent(finish_reason=FinishReason(unified="stop")),
    ]
    chunks, losses = encode_events(events)
    assert [loss.path for loss in losses] == ["$[2]", "$.id", "$.created", "$.model"]  # no start event
    assert accumulate(chunks).message.text == "ab"


def test_error_events_encode_as_error_chunks() -> None:
    body = {"message": "boom", "type": "server_error"}
    chunks, _ = encode_events([ErrorEvent(message="boom", error_type="server_error", body=body)])
    assert chunks == [{"error": body}]
    chunks, _ = encode_events([ErrorEvent(message="bare")])
    assert chunks == [{"error": {"message": "bare", "type": "server_error", "param": None, "code": None}}]


def test_a_foreign_error_body_is_not_nested_in_an_openai_error() -> None:
    anthropic_body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    chunks, _ = encode_events([ErrorEvent(message="Overloaded", error_type="overloaded_error", body=anthropic_body)])
    assert chunks == [{"error": {"message": "Overloaded", "type": "overloaded_error", "param": None, "code": None}}]


def test_foreign_reasoning_streams_as_reasoning_content_by_default() -> None:
    chunks, _ = encode_events(anthropic_events())
    assert [chunk["choices"][0]["delta"].get("reasoning_content") for chunk in chunks[:1]] == ["Plan"]


NOT_WARNED: chatcodec.OnLoss = {"default": "ignore", "*": "warn"}
"""Anthropic's stream has no creation time: the one OpenAI's chunks require is invented,
reported (a ``default`` loss, not warned in the tests below, which are about usage)."""


def usage_events() -> list[chatcodec.AnyStreamEvent]:
    """Usage first and in two parts, as Anthropic reports it (message_start, message_delta)."""
    return [
        ResponseStartEvent(id="msg_1", model="claude"),
        UsageEvent(usage=chatcodec.Usage(input_tokens=10)),
        TextStartEvent(index=0),
        TextDeltaEvent(index=0, delta="hi"),
        TextEndEvent(index=0),
        FinishEvent(finish_reason=FinishReason(unified="stop")),
        UsageEvent(usage=chatcodec.Usage(output_tokens=5)),
    ]


def test_usage_is_one_chunk_last_with_no_choices() -> None:
    chunks = list(chatcodec.encode_stream(FORMAT, usage_events(), on_loss=NOT_WARNED, options={"include_usage": True}))
    usage_chunks = [chunk for chunk in chunks if "usage" in chunk]
    assert usage_chunks == [chunks[-1]]
    assert chunks[-1]["choices"] == []
    assert (chunks[-1]["usage"]["prompt_tokens"], chunks[-1]["usage"]["completion_tokens"]) == (10, 5)
    assert all(chunk["choices"] for chunk in chunks[:-1])


def test_no_usage_chunk_unless_include_usage() -> None:
    chunks = list(chatcodec.encode_stream(FORMAT, usage_events(), on_loss=NOT_WARNED, options={"include_usage": False}))
    assert all("usage" not in chunk and chunk["choices"] for chunk in chunks)


def test_include_usage_is_read_from_the_encode_context() -> None:
    """``include_usage`` is one of openai-chat's options
    (``markers.OPTIONS``), read from the context."""
    assert "include_usage" in chatcodec.get_codec(FORMAT).options
    context = EncodeContext(FORMAT, LossRecorder(), options={"include_usage": False}, for_request=False)
    encoder = StreamEncoder(context)
    assert encoder.stream_contract == 2  # the folder's encoder reads records (contract version 2)
    chunks = [chunk for event in usage_events() for chunk in encoder.feed(record_of(event))]
    chunks.extend(encoder.close())
    assert chunks
    assert all("usage" not in chunk and chunk["choices"] for chunk in chunks)


def test_stream_options_reach_the_encoder_by_argument_without_a_start_event() -> None:
    """Options go straight into the encoder's context: a stream with no start event obeys
    them, and the caller's events are not rewritten to carry them."""
    events = usage_events()[1:]  # no ResponseStartEvent
    before = [event.model_dump() for event in events]
    chunks = list(chatcodec.encode_stream(FORMAT, events, on_loss=NOT_WARNED, options={"include_usage": False}))
    assert chunks
    assert all("usage" not in chunk for chunk in chunks)
    assert [event.model_dump() for event in events] == before
    with pytest.raises(chatcodec.PayloadError, match="reasoning_field must be one of"):
        list(chatcodec.encode_stream(FORMAT, events, options={"reasoning_field": "thoughts"}))


def test_a_stream_converter_hands_its_options_to_the_encoder() -> None:
    converter = chatcodec.StreamConverter("anthropic", FORMAT, options={"include_usage": False}, on_loss="ignore")
    body = b"".join(
        converter.feed(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()) for event in _ANTHROPIC
    )
    body += converter.close()
    assert b'"usage"' not in body
    assert b'"content":"hi"' in body


_ANTHROPIC: list[dict[str, Any]] = [
    {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": [],
            "stop_reason": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    },
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}},
    {"type": "message_stop"},
]


def test_push_style_decoder() -> None:
    codec = chatcodec.get_codec(FORMAT)
    assert isinstance(codec, chatcodec.SupportsStreamDecoder)
    decoder = codec.stream_decoder()
    events = [
        event
        for item in (chunk(delta(content="a")), chunk(delta(finish_reason="stop")))
        for event in decoder.feed(item)
    ]
    assert [event.type for event in [*events, *decoder.close()]] == [
        "response_start",
        "text_start",
        "text_delta",
        "text_end",
        "finish",
    ]


# --- a choice's bag rides on its finish event ------------------------------------------------


def _two_choices(word: str) -> dict[str, Any]:
    """A compatible server's body: choice 0 stops, choice 1 ends with its own ``word``."""
    choice: dict[str, Any] = {"message": {"role": "assistant", "content": "Paris."}}
    return {
        "id": "gen-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {**choice, "index": 0, "finish_reason": "stop"},
            {**choice, "index": 1, "finish_reason": word, "native_finish_reason": "SAFETY"},
        ],
    }


@pytest.mark.parametrize("word", ["error", "insufficient_system_resource", "eos"])
def test_a_compatible_servers_finish_word_survives_replay_stream_encoding_and_accumulation(word: str) -> None:
    """The bug: the word was written back only with the ``_finish_reason`` marker of the
    choice's bag, which a replayed stream did not carry, so the stream said ``stop`` and
    reported a loss. The choice's bag now rides on its finish event's ``choice_metadata``."""
    response = chatcodec.decode_response(FORMAT, _two_choices(word))
    events = list(events_from_response(response))
    finishes = [event for event in events if isinstance(event, FinishEvent)]
    assert [event.choice_metadata for event in finishes] == [choice.provider_metadata for choice in response.choices]
    losses: list[chatcodec.Loss] = []
    chunks = list(chatcodec.encode_stream(FORMAT, events, on_loss="ignore", losses=losses))
    assert losses == []  # (no SDK check: its Literal knows only OpenAI's own words)
    finish_choices = [choice for each in chunks for choice in each["choices"] if choice["finish_reason"] is not None]
    assert [(choice["index"], choice["finish_reason"]) for choice in finish_choices] == [(0, "stop"), (1, word)]
    assert finish_choices[1]["native_finish_reason"] == "SAFETY"
    expected = [(choice.finish_reason, choice.provider_metadata) for choice in response.choices]
    assert expected[1][1] == {"openai-chat": {"native_finish_reason": "SAFETY", "_finish_reason": word}}
    replayed = chatcodec.StreamAccumulator()
    replayed.extend(events)
    for accumulated in (replayed.response(), accumulate(chunks)):
        assert [(choice.finish_reason, choice.provider_metadata) for choice in accumulated.choices] == expected
        assert accumulated.provider_metadata is None  # the choice's bag is not the response's
        body = chatcodec.encode_response(FORMAT, accumulated, on_loss="ignore", losses=losses)
        assert [choice["finish_reason"] for choice in body["choices"]] == ["stop", word]
        assert "native_finish_reason" not in body
    assert losses == []


def test_a_recorded_finish_chunks_choice_fields_land_in_the_choice_not_the_response() -> None:
    response = chatcodec.accumulate_stream(FORMAT, load_stream("openrouter_reasoning"))
    assert response.choices[0].provider_metadata == {"openai-chat": {"native_finish_reason": "stop"}}
    assert response.provider_metadata == {"openai-chat": {"provider": "Google"}}
    assert "native_finish_reason" not in chatcodec.encode_response(FORMAT, response)
    assert chatcodec.encode_response(FORMAT, response)["choices"][0]["native_finish_reason"] == "stop"


def test_another_providers_data_on_a_finish_event_is_reported_when_streamed_to_openai() -> None:
    # Anthropic's message_delta fields (container, stop_details) ride on the finish event's
    # provider_metadata; OpenAI chunks have no place for them, so they are a loss, not a
    # silent drop.
    events: list[chatcodec.StreamEvent] = [
        chatcodec.ResponseStartEvent(id="msg_1", model="claude"),
        chatcodec.TextStartEvent(index=0),
        chatcodec.TextDeltaEvent(index=0, delta="hi"),
        chatcodec.TextEndEvent(index=0),
        chatcodec.FinishEvent(
            finish_reason=chatcodec.FinishReason(unified="stop", raw="end_turn"),
            provider_metadata={"anthropic": {"container": {"id": "container_1"}}},
        ),
    ]
    losses: list[chatcodec.Loss] = []
    chunks = list(chatcodec.encode_stream(FORMAT, events, on_loss="ignore", losses=losses))
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$[0].created", "invented created"),  # Anthropic gives no creation time
        ("$[4].provider_metadata", "anthropic data ['container']"),
    ]


def test_the_stream_keys_are_the_wire_delta_fields() -> None:
    """``stream_keys.DELTA_KEYS`` is written out (the encoder imports no wire shape): it is
    every field ``wire.Delta`` types but ``thinking_blocks``, in the shape's order."""
    from chatcodec._providers.openai_chat import reasoning, stream_keys, wire
    from chatcodec.codec_kit import shape_fields

    assert tuple(key for key in shape_fields(wire.Delta) if key != reasoning.BLOCKS) == stream_keys.DELTA_KEYS
    assert reasoning.BLOCKS == "thinking_blocks"
