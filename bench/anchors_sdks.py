"""The official SDKs' own stream accumulators.

Both SDKs accumulate their typed event objects, which their HTTP layer builds while
reading the stream; here those objects are built from the same parsed dicts *before*
the clock starts, so only accumulation is timed (chatcodec and the floor start from the
dicts, so the SDKs are given a head start, not a handicap).
"""

from __future__ import annotations

from typing import Any

from bench.equivalence import anthropic_message_view, openai_completion_view
from bench.timing import Contender

FOOTNOTES = [
    "openai SDK: `ChatCompletionStreamState().handle_chunk` on `ChatCompletionChunk` objects validated beforehand, "
    "then `get_final_completion()`. anthropic SDK: `anthropic.lib.streaming._messages.accumulate_event` on "
    "`RawMessageStreamEvent` objects built beforehand; it appends text with `+=` on a model attribute and re-parses "
    "the whole tool-input buffer (partial JSON, in Rust) on every `input_json_delta`: quadratic in principle, "
    "though at these lengths the copying is cheap next to its per-event cost.",
]


def accumulate_openai(chunks: list[dict[str, Any]]) -> list[Contender]:
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    objects = [ChatCompletionChunk.model_validate(chunk) for chunk in chunks]

    def run() -> object:
        state: Any = ChatCompletionStreamState()
        for chunk in objects:
            state.handle_chunk(chunk)
        return state.get_final_completion()

    def view(completion: Any) -> object:
        return openai_completion_view(completion.model_dump())

    return [Contender("openai SDK ChatCompletionStreamState", run, view, "typed chunks prebuilt", scope="stream")]


def accumulate_anthropic(events: list[dict[str, Any]]) -> list[Contender]:
    from anthropic._models import construct_type
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import RawMessageStreamEvent

    objects = [construct_type(type_=RawMessageStreamEvent, value=event) for event in events]

    def run() -> object:
        snapshot: Any = None
        buffers: dict[int, bytes] = {}
        for event in objects:
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
        return snapshot

    def view(message: Any) -> object:
        return anthropic_message_view(message.model_dump())

    return [Contender("anthropic SDK accumulate_event", run, view, "typed events prebuilt", scope="stream")]
