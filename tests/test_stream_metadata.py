"""Stream metadata the earlier notes left open (issue 10, item 26): per-chunk logprobs,
a cut-off server-tool block, a ``message_delta`` whose ``stop_reason`` is ``null``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chatcodec
from chatcodec.stream_replay import events_from_response

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_item26_per_chunk_logprobs_are_accumulated_as_the_non_streamed_choice_has_them() -> None:
    stream = (FIXTURES / "openai-chat" / "stream" / "content_logprobs.sse").read_text(encoding="utf-8")
    response = chatcodec.accumulate_stream("openai-chat", stream)
    logprobs = (response.choices[0].provider_metadata or {})["openai-chat"]["logprobs"]
    assert [entry["token"] for entry in logprobs["content"]] == ["Foo", "!"]
    assert logprobs["refusal"] is None
    events = list(chatcodec.decode_stream("openai-chat", stream))
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    assert accumulator.response() == response
    # encoded again, the logprobs stay on their chunks (none is repeated on the finish chunk)
    chunks = list(chatcodec.encode_stream("openai-chat", events, on_loss="error"))
    assert [chunk["choices"][0].get("logprobs") for chunk in chunks if chunk["choices"]][-1] is None
    assert list(chatcodec.decode_stream("openai-chat", chunks)) == events
    # and a response replayed as a stream carries them on its finish
    replayed = list(events_from_response(response))
    wire = list(chatcodec.encode_stream("openai-chat", replayed, on_loss="error"))
    assert chatcodec.accumulate_stream("openai-chat", wire) == response


def _anthropic_start() -> list[dict[str, Any]]:
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": []}
    usage = {"input_tokens": 5, "output_tokens": 1}
    return [
        {"type": "message_start", "message": {**message, "stop_reason": None, "stop_sequence": None, "usage": usage}}
    ]


SERVER_TOOL = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}


def test_item26_anthropic_close_gives_a_cut_off_server_tool_block() -> None:
    stream = [
        *_anthropic_start(),
        {"type": "content_block_start", "index": 0, "content_block": SERVER_TOOL},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"query": "otters"}'},
        },
    ]
    response = chatcodec.accumulate_stream("anthropic", stream)
    (part,) = response.choices[0].message.content
    assert isinstance(part, chatcodec.OpaquePart)
    assert part.data == {**SERVER_TOOL, "input": {"query": "otters"}}
    decoded = list(chatcodec.decode_stream("anthropic", stream))
    assert decoded[-1] == chatcodec.PartEvent(index=0, part=part)
    # cut mid-JSON: the block as it started
    cut = [*stream[:-1], {**stream[-1], "delta": {"type": "input_json_delta", "partial_json": '{"que'}}]
    (part,) = chatcodec.accumulate_stream("anthropic", cut).choices[0].message.content
    assert part.data == SERVER_TOOL  # type: ignore[union-attr]


def test_item26_message_delta_with_null_stop_reason_keeps_its_other_fields() -> None:
    container = {"id": "container_1", "expires_at": "2026-11-22T15:00:00Z"}
    stream = [
        *_anthropic_start(),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Working"}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": None, "stop_sequence": None, "container": container},
            "usage": {"output_tokens": 3},
        },
    ]
    response = chatcodec.accumulate_stream("anthropic", stream)
    assert response.choices[0].finish_reason is None
    assert (response.provider_metadata or {})["anthropic"]["container"] == container
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(chatcodec.decode_stream("anthropic", stream))
    assert accumulator.response() == response
