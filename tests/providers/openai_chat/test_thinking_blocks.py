"""litellm's ``thinking_blocks``: Claude's signed thinking reaches an OpenAI Chat client in a
field it sends back unchanged, and the client's next request restores the signed block."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chatcodec
from chatcodec.streams._replay import events_from_response

from .openai_chat_support import assert_chunks_match_sdk, assert_response_matches_sdk

FIXTURES = Path(__file__).parents[2] / "fixtures"
MODEL = "claude-sonnet-4-20250514"


def _anthropic(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "anthropic/response" / name).read_text())
    return data


def _message(name: str) -> dict[str, Any]:
    wire = chatcodec.convert_response(_anthropic(name), source="anthropic", target="openai-chat", on_loss="ignore")
    assert_response_matches_sdk(wire)
    message: dict[str, Any] = wire["choices"][0]["message"]
    return message


def _next_request(message: dict[str, Any]) -> dict[str, Any]:
    results = [{"role": "tool", "tool_call_id": call["id"], "content": "ok"} for call in message.get("tool_calls", [])]
    return {"model": MODEL, "messages": [{"role": "user", "content": "Where am I?"}, message, *results]}


def test_claudes_thinking_comes_with_its_signature_in_thinking_blocks_beside_reasoning_content() -> None:
    original = _anthropic("thinking_text_tool_use.json")["content"][0]
    message = _message("thinking_text_tool_use.json")
    assert message["reasoning_content"] == original["thinking"]
    assert message["thinking_blocks"] == [original]


def test_the_next_request_restores_the_signed_block_before_the_tool_use() -> None:
    original = _anthropic("thinking_text_tool_use.json")["content"]
    losses: list[chatcodec.Loss] = []
    sent = chatcodec.convert_request(
        _next_request(_message("thinking_text_tool_use.json")),
        source="openai-chat",
        target="anthropic",
        on_loss="ignore",
        losses=losses,
    )
    turn = sent["messages"][1]["content"]
    assert turn[0] == original[0]
    assert [block["type"] for block in turn] == ["thinking", "text", "tool_use"]
    assert not [loss for loss in losses if "thinking" in loss.what]


def test_redacted_thinking_travels_as_a_redacted_block() -> None:
    original = [block for block in _anthropic("redacted_thinking.json")["content"] if "thinking" in block["type"]]
    message = _message("redacted_thinking.json")
    assert message["thinking_blocks"] == original
    sent = chatcodec.convert_request(_next_request(message), source="openai-chat", target="anthropic", on_loss="ignore")
    assert [block for block in sent["messages"][1]["content"] if "thinking" in block["type"]] == original


def test_a_request_with_thinking_blocks_round_trips_exactly_and_reads_strictly() -> None:
    request = _next_request(_message("thinking_text_tool_use.json"))
    decoded = chatcodec.decode_request("openai-chat", request, strict=True)
    thinking = decoded.messages[1].parts[0]
    assert isinstance(thinking, chatcodec.ThinkingPart)
    assert (thinking.provider, bool(thinking.signature)) == ("anthropic", True)
    assert len([part for part in decoded.messages[1].parts if part.type == "thinking"]) == 1
    assert chatcodec.encode_request("openai-chat", decoded)["messages"] == request["messages"]


def test_a_bedrock_claude_answer_gives_the_same_blocks() -> None:
    bedrock = json.loads((FIXTURES / "bedrock-converse/response/reasoning_cache_count_fields.json").read_text())
    reasoning = bedrock["output"]["message"]["content"][0]["reasoningContent"]["reasoningText"]
    wire = chatcodec.convert_response(bedrock, source="bedrock-converse", target="openai-chat", on_loss="ignore")
    block = {"type": "thinking", "thinking": reasoning["text"], "signature": reasoning["signature"]}
    assert wire["choices"][0]["message"]["thinking_blocks"] == [block]


def test_a_stream_sends_the_text_as_it_comes_and_the_signature_closing_the_block() -> None:
    converted = chatcodec.convert_stream(
        [(FIXTURES / "anthropic/stream/thinking_signature_delta.sse").read_bytes()],
        source="anthropic",
        target="openai-chat",
        on_loss="ignore",
    )
    text = b"".join(converted).decode()
    chunks = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: {")]
    assert_chunks_match_sdk(chunks)
    deltas = [choice["delta"] for chunk in chunks for choice in chunk["choices"]]
    fragments = [block for delta in deltas for block in delta.get("thinking_blocks", [])]
    reasoning = "".join(delta.get("reasoning_content", "") for delta in deltas)
    assert "".join(block.get("thinking", "") for block in fragments) == reasoning
    assert fragments[-1]["signature"]
    assert fragments[-1]["thinking"] == ""
    assert all("signature" not in block for block in fragments[:-1])


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": MODEL, "choices": [choice]}


def _response(message: dict[str, Any]) -> dict[str, Any]:
    choice = {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}
    return {"id": "c1", "object": "chat.completion", "created": 1, "model": MODEL, "choices": [choice]}


def test_a_streamed_thinking_block_reads_as_the_same_signed_part_as_the_whole_message() -> None:
    chunks = [
        _chunk({"role": "assistant", "reasoning_content": "Let me", "thinking_blocks": [{"thinking": "Let me"}]}),
        _chunk({"reasoning_content": " see", "thinking_blocks": [{"type": "thinking", "thinking": " see"}]}),
        _chunk({"thinking_blocks": [{"type": "thinking", "thinking": "", "signature": "c2ln"}]}),
        _chunk({"reasoning_content": "", "thinking_blocks": [{"type": "redacted_thinking", "data": "ZGF0YQ=="}]}),
        _chunk({"content": "Hi"}, "stop"),
    ]
    assert_chunks_match_sdk(chunks, fold=False)  # litellm's fragments: no index
    streamed = chatcodec.accumulate_stream("openai-chat", chunks)
    blocks = [
        {"type": "thinking", "thinking": "Let me see", "signature": "c2ln"},
        {"type": "redacted_thinking", "data": "ZGF0YQ=="},
    ]
    whole = chatcodec.decode_response(
        "openai-chat", _response({"content": "Hi", "reasoning_content": "Let me see", "thinking_blocks": blocks})
    )
    assert streamed.choices[0].message.parts == whole.choices[0].message.parts
    thinking, redacted, _text = streamed.choices[0].message.parts
    assert (thinking.text, thinking.signature, thinking.provider) == ("Let me see", "c2ln", "anthropic")
    assert (redacted.encrypted, redacted.redacted) == ("ZGF0YQ==", True)


def test_a_signed_thinking_block_with_no_text_survives_the_stream() -> None:
    message = {
        "content": "Hi",
        "reasoning_content": "",
        "thinking_blocks": [{"type": "thinking", "thinking": "", "signature": "c2ln"}],
    }
    whole = chatcodec.decode_response("openai-chat", _response(message))
    wire = list(chatcodec.encode_stream("openai-chat", events_from_response(whole)))
    assert_chunks_match_sdk(wire)
    streamed = chatcodec.accumulate_stream("openai-chat", wire)
    assert streamed.choices[0].message.parts == whole.choices[0].message.parts
    assert streamed.choices[0].message.parts[0].signature == "c2ln"


def test_an_unsigned_empty_thinking_block_survives_the_stream() -> None:
    message = {"content": "Hi", "reasoning_content": "", "thinking_blocks": [{"type": "thinking", "thinking": ""}]}
    whole = chatcodec.decode_response("openai-chat", _response(message))
    wire = list(chatcodec.encode_stream("openai-chat", events_from_response(whole)))
    streamed = chatcodec.accumulate_stream("openai-chat", wire)
    assert streamed.choices[0].message.parts == whole.choices[0].message.parts
    assert [part.type for part in streamed.choices[0].message.parts] == ["thinking", "text"]


def test_an_empty_signature_on_a_streamed_block_is_kept_as_the_whole_message_keeps_it() -> None:
    message = {
        "content": "Hi",
        "reasoning_content": "",
        "thinking_blocks": [{"type": "thinking", "thinking": "", "signature": ""}],
    }
    whole = chatcodec.decode_response("openai-chat", _response(message))
    wire = list(chatcodec.encode_stream("openai-chat", events_from_response(whole)))
    streamed = chatcodec.accumulate_stream("openai-chat", wire)
    assert streamed.choices[0].message.parts == whole.choices[0].message.parts
    assert streamed.choices[0].message.parts[0].signature == ""


def test_a_thinking_block_after_reasoning_of_its_own_streams_as_the_whole_message_reads() -> None:
    blocks = [{"type": "thinking", "thinking": "ab", "signature": "c2ln"}]
    message = {"content": "Hi", "reasoning_content": "abx", "thinking_blocks": blocks}
    whole = chatcodec.decode_response("openai-chat", _response(message))
    wire = list(chatcodec.encode_stream("openai-chat", events_from_response(whole)))
    streamed = chatcodec.accumulate_stream("openai-chat", wire)
    assert streamed.choices[0].message.parts == whole.choices[0].message.parts
    assert [part.text for part in streamed.choices[0].message.parts] == ["abx", "ab", "Hi"]


def test_the_index_the_sdk_stream_helper_leaves_on_a_block_is_written_back_and_no_loss_elsewhere() -> None:
    # client.chat.completions.stream() folds the streamed entries by index and keeps it on the message
    block = {"index": 0, "type": "thinking", "thinking": "Let me see", "signature": "c2ln"}
    message = {"role": "assistant", "content": "Hi", "reasoning_content": "Let me see", "thinking_blocks": [block]}
    request = {"model": MODEL, "messages": [{"role": "user", "content": "Hi"}, message]}
    back = chatcodec.encode_request("openai-chat", chatcodec.decode_request("openai-chat", request, strict=True))
    assert back["messages"][1]["thinking_blocks"] == [block]
    losses: list[chatcodec.Loss] = []
    anthropic = chatcodec.convert_request(
        request, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
    )
    assert anthropic["messages"][1]["content"][0] == {"type": "thinking", "thinking": "Let me see", "signature": "c2ln"}
    assert not [loss for loss in losses if "index" in loss.what]


def test_streamed_blocks_of_two_indexes_are_two_parts_even_unsigned() -> None:
    chunks = [
        _chunk({"role": "assistant", "thinking_blocks": [{"index": 0, "type": "thinking", "thinking": "a"}]}),
        _chunk({"thinking_blocks": [{"index": 1, "type": "thinking", "thinking": "b"}]}),
        _chunk({"content": "Hi"}, "stop"),
    ]
    assert_chunks_match_sdk(chunks)
    parts = chatcodec.accumulate_stream("openai-chat", chunks).choices[0].message.parts
    assert [(part.type, getattr(part, "text", None)) for part in parts] == [
        ("thinking", "a"),
        ("thinking", "b"),
        ("text", "Hi"),
    ]
    assert all("index" not in str(part.provider_metadata) for part in parts)


def test_two_unsigned_thinking_blocks_in_a_row_stay_two_through_the_stream() -> None:
    """No signature ends an unsigned block (a proxy that strips them, a canonical answer),
    so each fragment says which entry of the message's ``thinking_blocks`` it belongs to."""
    blocks = [{"type": "thinking", "thinking": "First"}, {"type": "thinking", "thinking": "Second"}]
    message = {"content": "Hi", "reasoning_content": "FirstSecond", "thinking_blocks": blocks}
    whole = chatcodec.decode_response("openai-chat", _response(message))
    wire = list(chatcodec.encode_stream("openai-chat", events_from_response(whole)))
    assert_chunks_match_sdk(wire)
    fragments = [
        block for chunk in wire for choice in chunk["choices"] for block in choice["delta"].get("thinking_blocks", [])
    ]
    assert [fragment["index"] for fragment in fragments] == [0, 1]
    streamed = chatcodec.accumulate_stream("openai-chat", wire)
    assert streamed.choices[0].message.parts == whole.choices[0].message.parts
    assert [getattr(part, "text", None) for part in streamed.choices[0].message.parts] == ["First", "Second", "Hi"]
    assert (
        chatcodec.accumulate_stream("openai-chat", wire, strict=True).choices[0].message.parts
        == streamed.choices[0].message.parts
    )


def test_two_unsigned_anthropic_thinking_blocks_reach_each_stream_as_two_or_reported() -> None:
    """Anthropic's stream opens each block with ``content_block_start`` at its own index
    (docs: Streaming Messages, "Event types"); a format with blocks keeps both, Ollama's one
    ``thinking`` field joins them and says so, as its whole-message writer does."""
    start: dict[str, Any] = {"id": "msg_1", "type": "message", "role": "assistant", "model": MODEL, "content": []}
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {**start, "stop_reason": None, "usage": {"input_tokens": 3, "output_tokens": 1}},
        }
    ]
    for index, text in enumerate(["First", "Second"]):
        events += [
            {"type": "content_block_start", "index": index, "content_block": {"type": "thinking", "thinking": ""}},
            {"type": "content_block_delta", "index": index, "delta": {"type": "thinking_delta", "thinking": text}},
            {"type": "content_block_stop", "index": index},
        ]
    events += [
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}},
        {"type": "message_stop"},
    ]
    for target in ("openai-chat", "openai-responses", "bedrock-converse", "anthropic"):
        wire = list(chatcodec.encode_stream(target, chatcodec.decode_stream("anthropic", events), on_loss="ignore"))
        parts = chatcodec.accumulate_stream(target, wire).choices[0].message.parts
        assert [part.text for part in parts if part.type == "thinking"] == ["First", "Second"], target
    losses: list[chatcodec.Loss] = []
    list(
        chatcodec.encode_stream("ollama", chatcodec.decode_stream("anthropic", events), on_loss="ignore", losses=losses)
    )
    assert [loss.what for loss in losses if loss.kind == "content"] == ["thinking parts"]
