"""A turn that calls tools stops as one that calls tools, whatever word the server used.

OpenAI-compatible servers end such a turn with ``finish_reason: "stop"``: Gemini's OpenAI
endpoint (``generativelanguage.googleapis.com/v1beta/openai``, the response logged in
microsoft/autogen#4878), gpt-4o-mini at times (ENTERPILOT/GoModel#124), OSS servers
(Blaizzy/mlx-vlm#1014); litellm maps it to ``tool_calls`` (BerriAI/litellm#10485). Written
``end_turn`` for Anthropic (or Bedrock), an agent such as Claude Code stops without running
the tool: the Anthropic SDK's ``StopReason`` (anthropic 2.12) and botocore's Converse
``StopReason`` (1.44.5) say ``tool_use``. The Ollama and Gemini codecs read their own
``stop`` / ``STOP`` the same way.
"""

from __future__ import annotations

import copy
from typing import Any, get_args

import anthropic.types
import botocore.session
import pytest

import chatcodec

GEMINI_OPENAI_ANSWER: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1737330953,
    "model": "gemini-2.0-flash-exp",
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "web_search", "arguments": '{"query":"AutoGen"}'},
                    }
                ],
            },
        }
    ],
    "usage": {"prompt_tokens": 50, "completion_tokens": 6, "total_tokens": 56},
}

GEMINI_OPENAI_STREAM: list[dict[str, Any]] = [
    {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1737330953,
        "model": "gemini-2.0-flash-exp",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "web_search", "arguments": '{"query":"AutoGen"}'},
                        }
                    ],
                },
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1737330953,
        "model": "gemini-2.0-flash-exp",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    },
]


def _converse_stop_reasons() -> list[str]:
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    return list(model.shape_for("StopReason").enum)


def test_the_stop_of_a_turn_with_calls_is_tool_calls_with_the_word_kept() -> None:
    response = chatcodec.decode_response("openai-chat", GEMINI_OPENAI_ANSWER)
    reason = response.choices[0].finish_reason
    assert reason is not None
    assert (reason.unified, reason.raw) == ("tool_calls", "stop")


def test_the_same_format_round_trip_keeps_stop() -> None:
    losses: list[chatcodec.Loss] = []
    back = chatcodec.convert_response(
        copy.deepcopy(GEMINI_OPENAI_ANSWER), source="openai-chat", target="openai-chat", losses=losses
    )
    assert back == GEMINI_OPENAI_ANSWER
    assert losses == []


def test_a_plain_stop_stays_stop() -> None:
    answer = copy.deepcopy(GEMINI_OPENAI_ANSWER)
    answer["choices"][0]["message"] = {"role": "assistant", "content": "Hello."}
    reason = chatcodec.decode_response("openai-chat", answer).choices[0].finish_reason
    assert reason is not None
    assert reason.unified == "stop"


def test_anthropic_gets_tool_use() -> None:
    converted = chatcodec.convert_response(
        GEMINI_OPENAI_ANSWER, source="openai-chat", target="anthropic", on_loss="ignore"
    )
    assert converted["stop_reason"] == "tool_use"
    assert converted["stop_reason"] in get_args(anthropic.types.StopReason)
    assert anthropic.types.Message.model_validate(converted).stop_reason == "tool_use"


def test_bedrock_gets_tool_use() -> None:
    converted = chatcodec.convert_response(
        GEMINI_OPENAI_ANSWER, source="openai-chat", target="bedrock-converse", on_loss="ignore"
    )
    assert converted["stopReason"] == "tool_use"
    assert "tool_use" in _converse_stop_reasons()


@pytest.mark.parametrize(
    ("target", "field", "word"),
    [
        ("gemini", "finishReason", "STOP"),
        ("ollama", "done_reason", "stop"),
        ("openai-responses", "status", "completed"),
    ],
)
def test_the_other_targets_write_their_word_for_a_turn_that_calls(target: str, field: str, word: str) -> None:
    converted = chatcodec.convert_response(GEMINI_OPENAI_ANSWER, source="openai-chat", target=target, on_loss="ignore")
    wire = converted["candidates"][0] if target == "gemini" else converted
    assert wire[field] == word
    back = chatcodec.decode_response(target, converted).choices[0].finish_reason
    assert back is not None
    assert back.unified == "tool_calls"


def _stop_events(provider: str, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    events = chatcodec.decode_stream("openai-chat", chunks)
    return list(chatcodec.encode_stream(provider, events, on_loss="ignore"))


def test_an_anthropic_stream_stops_with_tool_use() -> None:
    written = _stop_events("anthropic", GEMINI_OPENAI_STREAM)
    stops = [event["delta"]["stop_reason"] for event in written if event["type"] == "message_delta"]
    assert stops == ["tool_use"]


def test_a_bedrock_stream_stops_with_tool_use() -> None:
    written = _stop_events("bedrock-converse", GEMINI_OPENAI_STREAM)
    stops = [event["messageStop"]["stopReason"] for event in written if "messageStop" in event]
    assert stops == ["tool_use"]


def test_the_stream_accumulates_to_tool_calls_and_writes_stop_back() -> None:
    response = chatcodec.accumulate_stream("openai-chat", GEMINI_OPENAI_STREAM)
    reason = response.choices[0].finish_reason
    assert reason is not None
    assert (reason.unified, reason.raw) == ("tool_calls", "stop")
    events = chatcodec.decode_stream("openai-chat", GEMINI_OPENAI_STREAM)
    chunks = list(chatcodec.encode_stream("openai-chat", events))
    words = [choice["finish_reason"] for chunk in chunks for choice in chunk["choices"] if choice.get("finish_reason")]
    assert words == ["stop"]


def test_another_formats_stop_on_a_turn_that_calls_is_written_tool_calls() -> None:
    # Ollama's /api/chat ends a tool-calling turn with done_reason "stop" (its raw word, read as
    # tool_calls by the Ollama codec); OpenAI's ChatCompletion.Choice.finish_reason for such a
    # turn is "tool_calls" (openai 3.54), so only a "stop" this codec read itself goes back as "stop".
    answer = {
        "model": "llama3.2",
        "created_at": "2024-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": {}}}]},
        "done": True,
        "done_reason": "stop",
    }
    written = chatcodec.convert_response(answer, source="ollama", target="openai-chat", on_loss="ignore")
    assert written["choices"][0]["finish_reason"] == "tool_calls"
