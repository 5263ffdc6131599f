"""OpenAI Responses streams for the stream law (``test_accumulate_as_decoded.py``): a plain
stream, broken ones, one per decoder rule, and where each event field is."""

from __future__ import annotations

from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases, data_lines

_USAGE = {
    "input_tokens": 12,
    "input_tokens_details": {"cached_tokens": 2, "cache_write_tokens": 0},
    "output_tokens": 30,
    "output_tokens_details": {"reasoning_tokens": 8},
    "total_tokens": 42,
}


def response(status: str = "in_progress", output: list[JsonObject] | None = None, **fields: Any) -> JsonObject:
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1700000000,
        "model": "gpt-5",
        "status": status,
        "output": output or [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "error": None,
        "incomplete_details": None,
        "usage": None if status == "in_progress" else _USAGE,
    }
    return {**body, **fields}


def reasoning(summary: str = "Let me think.", encrypted: str = "gAAAA") -> JsonObject:
    return {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": summary}],
        "encrypted_content": encrypted,
    }


def message(text: str = "Calling.") -> JsonObject:
    return {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def call(arguments: str = '{"x": 1}', index: int = 1) -> JsonObject:
    return {
        "type": "function_call",
        "id": f"fc_{index}",
        "call_id": f"call_{index}",
        "name": "f",
        "arguments": arguments,
        "status": "completed",
    }


def event(kind: str, **fields: Any) -> JsonObject:
    return {"type": f"response.{kind}", **fields}


def plain_stream() -> list[JsonObject]:
    """A reasoning summary (with its encrypted content), text, and a function call whose
    arguments stream; the terminal event carries the whole response."""
    rs, msg, fc = reasoning(), message(), call()
    at_rs = {"item_id": "rs_1", "output_index": 0, "summary_index": 0}
    at_msg = {"item_id": "msg_1", "output_index": 1, "content_index": 0}
    at_fc = {"item_id": "fc_1", "output_index": 2}
    return [
        event("created", response=response()),
        event("output_item.added", output_index=0, item={**rs, "summary": [], "encrypted_content": None}),
        event("reasoning_summary_part.added", **at_rs, part={"type": "summary_text", "text": ""}),
        event("reasoning_summary_text.delta", **at_rs, delta="Let me "),
        event("reasoning_summary_text.delta", **at_rs, delta="think."),
        event("reasoning_summary_text.done", **at_rs, text="Let me think."),
        event("reasoning_summary_part.done", **at_rs, part={"type": "summary_text", "text": "Let me think."}),
        event("output_item.done", output_index=0, item=rs),
        event("output_item.added", output_index=1, item={**msg, "status": "in_progress", "content": []}),
        event("content_part.added", **at_msg, part={"type": "output_text", "text": "", "annotations": []}),
        event("output_text.delta", **at_msg, delta="Call", logprobs=[]),
        event("output_text.delta", **at_msg, delta="ing.", logprobs=[]),
        event("output_text.done", **at_msg, text="Calling.", logprobs=[]),
        event("content_part.done", **at_msg, part=msg["content"][0]),
        event("output_item.done", output_index=1, item=msg),
        event("output_item.added", output_index=2, item={**fc, "arguments": "", "status": "in_progress"}),
        event("function_call_arguments.delta", **at_fc, delta='{"x":'),
        event("function_call_arguments.delta", **at_fc, delta=" 1}"),
        event("function_call_arguments.done", **at_fc, arguments='{"x": 1}'),
        event("output_item.done", output_index=2, item=fc),
        event("completed", response=response("completed", [rs, msg, fc])),
    ]


def to_sse(events: list[JsonObject]) -> str:
    """SSE text as OpenAI sends it: ``event: <type>`` then ``data: <json>``, blank line."""
    return data_lines(events, named=True)


def broken() -> dict[str, list[Any]]:
    created = event("created", response=response())
    text_at = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    return {
        "negative-output-index": [created, event("output_text.delta", **{**text_at, "output_index": -1}, delta="a")],
        "bool-output-index": [created, event("output_text.delta", **{**text_at, "output_index": True}, delta="a")],
        "number-delta": [created, event("output_text.delta", **text_at, delta=5)],
        "item-without-type": [created, event("output_item.done", output_index=0, item={"id": "x"})],
        "call-without-name": [
            created,
            event("output_item.added", output_index=0, item={"type": "function_call", "call_id": "c", "arguments": ""}),
        ],
        "completed-without-output": [event("completed", response={"id": "resp_1", "status": "completed"})],
        "text-usage": [event("completed", response=response("completed", usage={"input_tokens": "1"}))],
        "no-type": [{"no": "type"}],
        "not-a-dict": [created, "not an event"],
        "empty": [],
    }


def rules() -> dict[str, list[JsonObject]]:
    """Streams that exercise one rule of the decoder each."""
    text_at = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    calls = [call('{"a":1}', 1), call('{"b":2}', 2)]
    entry = {"token": "Hi", "logprob": -0.1, "top_logprobs": [{"token": "Ho", "logprob": -2.0}]}
    spelled = {**entry, "bytes": [72, 105], "top_logprobs": [{"token": "Ho", "bytes": [72, 111], "logprob": -2.0}]}
    with_tokens = {
        **message("HiHi"),
        "content": [{**message()["content"][0], "text": "HiHi", "logprobs": [spelled] * 2}],
    }
    return {
        "logprobs-per-delta": [  # each delta's tokens on its text delta; the terminal's after them on the finish
            event("created", response=response()),
            event("output_text.delta", **text_at, delta="Hi", logprobs=[entry]),
            event("output_text.delta", **text_at, delta="Hi", logprobs=[]),
            event("output_item.done", output_index=0, item=with_tokens),
            event("completed", response=response("completed", [with_tokens])),
        ],
        "no-created": [
            event("output_text.delta", **text_at, delta="Hi"),
            event("output_item.done", output_index=0, item=message("Hi")),
        ],
        "cut-off": [event("created", response=response()), event("output_text.delta", **text_at, delta="Hi")],
        "parallel-calls-interleaved": [
            event("created", response=response()),
            event("output_item.added", output_index=0, item={**calls[0], "arguments": ""}),
            event("output_item.added", output_index=1, item={**calls[1], "arguments": ""}),
            event("function_call_arguments.delta", item_id="fc_2", output_index=1, delta='{"b":2}'),
            event("function_call_arguments.delta", item_id="fc_1", output_index=0, delta='{"a":1}'),
            event("output_item.done", output_index=0, item=calls[0]),
            event("output_item.done", output_index=1, item=calls[1]),
            event("completed", response=response("completed", calls)),
        ],
        "item-without-deltas": [
            event("created", response=response()),
            event("output_item.done", output_index=0, item=message("Whole")),
            event("completed", response=response("completed", [message("Whole")])),
        ],
        "built-in-tool-progress": [
            event("created", response=response()),
            event(
                "output_item.added",
                output_index=0,
                item={"type": "web_search_call", "id": "ws_1", "status": "in_progress"},
            ),
            event("web_search_call.searching", item_id="ws_1", output_index=0),
            event(
                "output_item.done",
                output_index=0,
                item={"type": "web_search_call", "id": "ws_1", "status": "completed"},
            ),
        ],
        "unknown-event": [event("created", response=response()), {"type": "response.added_in_2027", "x": 1}],
        "incomplete": [
            event("created", response=response()),
            event("incomplete", response=response("incomplete", incomplete_details={"reason": "max_output_tokens"})),
        ],
        "error-event": [
            event("created", response=response()),
            {"type": "error", "code": "server_error", "message": "boom"},
        ],
        "empty-reasoning": [
            event("created", response=response()),
            event("output_item.done", output_index=0, item={**reasoning(), "summary": []}),
        ],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "message", "reasoning", "function_call", "output_text", 0, 1, 2, -1),
    *(1.0, True, [], {}, {"type": "output_text"}, {"type": "message", "role": "assistant", "content": []}),
]
_ITEM_FIELDS = (
    "type",
    "id",
    "status",
    "role",
    "content",
    "summary",
    "encrypted_content",
    "call_id",
    "name",
    "arguments",
)
_RESPONSE_FIELDS = ("id", "object", "created_at", "model", "status", "output", "usage", "incomplete_details", "error")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` each field of each event kind is."""
    item: list[Path] = [("output_index",), ("item",), *[("item", key) for key in _ITEM_FIELDS]]
    delta: list[Path] = [("type",), ("output_index",), ("delta",), ("item_id",), ("x_extra",)]
    summary_delta: list[Path] = [*delta, ("summary_index",)]
    text_delta: list[Path] = [*delta, ("content_index",)]
    return {
        0: [("response",), *[("response", key) for key in _RESPONSE_FIELDS]],
        **dict.fromkeys((1, 7, 8, 14, 15, 19), item),
        2: [("summary_index",), ("part",), ("part", "type")],
        **dict.fromkeys((3, 4), summary_delta),
        9: [("content_index",), ("part",), ("part", "type")],
        **dict.fromkeys((10, 11), text_delta),
        **dict.fromkeys((16, 17), delta),
        20: [
            ("response",),
            *[("response", key) for key in _RESPONSE_FIELDS],
            *[("response", "usage", key) for key in _USAGE],
        ],
    }


MUTATION_KEYS = [
    *("type", "output_index", "content_index", "summary_index", "item", "item_id", "delta", "part", "response"),
    *("text", "arguments", "call_id", "name", "status", "usage", "encrypted_content", "error", "x_extra"),
]

CASES = StreamCases(
    plain=plain_stream,
    plain_parts=("thinking", "text", "tool_use"),
    text_fragment="ing.",
    to_sse=to_sse,
    broken=broken,
    rules=rules,
    field_paths=field_paths,
    odd_values=ODD_VALUES,
    mutation_keys=MUTATION_KEYS,
    mutation_values=ODD_VALUES[1:],
)
