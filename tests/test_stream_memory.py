"""Memory of accumulating a long stream follows the size of the answer, not the number of
events: a million one-token deltas must not cost a gigabyte.

Measured with ``tracemalloc`` over lazily fed SSE (a generator of ``data:`` lines, as read
from a socket), after a warm-up so imports and caches are not counted. The answer is
100,000 deltas of 7 characters (700 KB); the peak may hold the text about three times (the
folded pieces, the joined text, the validated response) plus a fixed allowance. Before the
fix each delta kept its own string object (~72 bytes a delta, ~7 MB here)."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable, Iterator

import pytest

import chatcodec

DELTAS = 100_000
TOKEN = 7  # characters per delta


def openai_stream(count: int) -> Iterator[str]:
    envelope = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":'
    yield f'data: {envelope}[{{"index":0,"delta":{{"role":"assistant","content":""}},"finish_reason":null}}]}}\n\n'
    for number in range(count):  # a template, not json.dumps: the events are many
        yield f'data: {envelope}[{{"index":0,"delta":{{"content":"{number:0{TOKEN}d}"}},"finish_reason":null}}]}}\n\n'
    yield f'data: {envelope}[{{"index":0,"delta":{{}},"finish_reason":"stop"}}]}}\n\ndata: [DONE]\n\n'


def anthropic_stream(count: int) -> Iterator[str]:
    def event(fields: dict[str, object]) -> str:
        return f"event: {fields['type']}\ndata: {json.dumps(fields)}\n\n"

    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": []}
    yield event({"type": "message_start", "message": {**message, "usage": {"input_tokens": 1, "output_tokens": 1}}})
    yield event({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    for number in range(count):
        delta = (
            f'{{"type":"content_block_delta","index":0,"delta":{{"type":"text_delta","text":"{number:0{TOKEN}d}"}}}}'
        )
        yield f"event: content_block_delta\ndata: {delta}\n\n"
    yield event({"type": "content_block_stop", "index": 0})
    yield event({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}})
    yield event({"type": "message_stop"})


STREAMS: dict[str, Callable[[int], Iterator[str]]] = {"openai-chat": openai_stream, "anthropic": anthropic_stream}


def accumulated(provider: str, count: int) -> chatcodec.ChatResponse:
    return chatcodec.accumulate_stream(provider, STREAMS[provider](count))


def decoded_then_accumulated(provider: str, count: int) -> chatcodec.ChatResponse:
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(chatcodec.decode_stream(provider, STREAMS[provider](count)))
    return accumulator.response()


def peak_bytes(run: Callable[[str, int], chatcodec.ChatResponse], provider: str) -> tuple[int, int]:
    run(provider, 10)  # warm-up: imports, adapters, caches
    tracemalloc.start()
    try:
        response = run(provider, DELTAS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    (text,) = response.choices[0].message.content
    assert isinstance(text, chatcodec.TextPart)
    return peak, len(text.text)


@pytest.mark.parametrize(
    ("run", "provider"),
    [(accumulated, "openai-chat"), (accumulated, "anthropic"), (decoded_then_accumulated, "openai-chat")],
    ids=["accumulate_stream-openai-chat", "accumulate_stream-anthropic", "decode+accumulator-openai-chat"],
)
def test_accumulating_lazily_fed_sse_keeps_memory_proportional_to_the_answer(
    provider: str, run: Callable[[str, int], chatcodec.ChatResponse]
) -> None:
    peak, answer = peak_bytes(run, provider)
    assert answer == DELTAS * TOKEN
    assert peak < 4 * answer + 512 * 1024, f"peak {peak:,} bytes for a {answer:,}-character answer"


def test_folded_deltas_still_count_in_error_positions() -> None:
    events: list[chatcodec.AnyStreamEvent] = [chatcodec.TextStartEvent(index=0)]
    events += [chatcodec.TextDeltaEvent(index=0, delta="ab") for _ in range(3 * 4096)]
    events.append(chatcodec.TextDeltaEvent(index=5, delta="x"))
    accumulator = chatcodec.StreamAccumulator()
    with pytest.raises(chatcodec.StreamError) as raised:
        accumulator.extend(events)
    assert raised.value.event_index == len(events) - 1
    assert accumulator.part_so_far(0, 0)["text"] == "ab" * 3 * 4096
