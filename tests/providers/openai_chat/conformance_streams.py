"""openai-chat streams for the stream law (``test_accumulate_as_decoded.py``): a plain
stream, broken ones, one per decoder rule, and where each chunk field is."""

from __future__ import annotations

from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases, data_lines


def chunk(*choices: JsonObject, **fields: Any) -> JsonObject:
    envelope = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "system_fingerprint": "fp"}
    return {**envelope, "choices": list(choices), **fields}


def delta(index: int = 0, finish_reason: str | None = None, **fields: Any) -> JsonObject:
    return {"index": index, "delta": fields, "logprobs": None, "finish_reason": finish_reason}


def call(index: int, arguments: str, call_id: str | None = None, name: str | None = None) -> JsonObject:
    function = {"arguments": arguments} if name is None else {"name": name, "arguments": arguments}
    fragment: JsonObject = {"index": index, "function": function}
    return fragment if call_id is None else {**fragment, "id": call_id, "type": "function"}


def plain_stream() -> list[JsonObject]:
    """Reasoning, text and two parallel calls whose fragments interleave, then usage."""
    return [
        chunk(delta(role="assistant", content="", refusal=None)),
        chunk(delta(reasoning_content="Let me ")),
        chunk(delta(reasoning_content="think.")),
        chunk(delta(content="Cal")),
        chunk(delta(content="ling.")),
        chunk(delta(tool_calls=[call(0, "", "call_a", "f")])),
        chunk(delta(tool_calls=[call(1, '{"y"', "call_b", "g")])),
        chunk(delta(tool_calls=[call(0, '{"x":')])),
        chunk(delta(tool_calls=[call(1, ":2}")])),
        chunk(delta(tool_calls=[call(0, "1}")])),
        chunk(delta(finish_reason="tool_calls")),
        chunk(usage={"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12}),
    ]


def to_sse(chunks: list[JsonObject]) -> str:
    """The SSE text OpenAI sends: one compact ``data:`` line per chunk, then ``[DONE]``."""
    return data_lines(chunks, named=False) + "data: [DONE]\n\n"


def broken() -> dict[str, list[Any]]:
    return {
        "number-content": [chunk(delta(content="a")), chunk(delta(content=5))],
        "unknown-call": [chunk(delta(content="a")), chunk(delta(tool_calls=[call(3, "{}")]))],
        "renamed-call": [
            chunk(delta(tool_calls=[call(0, "", "a", "f")])),
            chunk(delta(tool_calls=[call(0, "", name="g")])),
        ],
        "after-finish": [chunk(delta(content="a", finish_reason="stop")), chunk(delta(content="b"))],
        "bool-index": [chunk(delta(content="a")), chunk(delta(index=True, content="b"))],
        "bool-created": [chunk(delta(content="a")), {"id": "c1", "choices": [delta(content="b")], "created": True}],
        "not-a-dict": [chunk(delta(content="a")), "not a chunk"],
        "negative-usage": [chunk(delta(content="a"), usage={"prompt_tokens": -1})],
        "error": [chunk(delta(content="a"), error={"message": "boom"})],
        "empty": [],
        "finish-conflicts": [chunk(delta(content="a", finish_reason="stop")), chunk(delta(finish_reason="length"))],
        "custom-call-never-started": [
            chunk(delta(tool_calls=[{"index": 0, "type": "custom", "custom": {"input": "x"}}]))
        ],
        "custom-input-number": [
            chunk(delta(tool_calls=[{"index": 0, "id": "c", "type": "custom", "custom": {"name": "sh", "input": 5}}]))
        ],
        "role-conflicts": [chunk(delta(role="assistant", content="a")), chunk(delta(role="user", content="b"))],
    }


def rules() -> dict[str, list[JsonObject]]:
    """Streams that exercise one rule of the decoder each."""
    start = chunk(delta(role="assistant", content=""))
    token = {
        "token": "a",
        "logprob": -0.1,
        "bytes": [97],
        "top_logprobs": [{"token": "b", "logprob": -2.0, "bytes": [98]}],
    }
    return {
        "logprobs-per-chunk": [  # each chunk's tokens on its text delta; one with no text, for the finish
            start,
            chunk({**delta(content="a"), "logprobs": {"content": [token], "refusal": None}}),
            chunk({**delta(content="a"), "logprobs": {"content": [token], "refusal": None}}),
            chunk({**delta(finish_reason="stop"), "logprobs": {"content": [token], "refusal": None}}),
        ],
        "repeated-reasoning": [
            chunk(delta(reasoning_content="r", reasoning="r")),
            chunk(delta(reasoning="s")),
            chunk(delta(reasoning_content="t")),
        ],
        "call-without-type": [chunk(delta(tool_calls=[{"index": 0, "id": "a", "function": {"name": "f"}}]))],
        "empty-text-then-finish": [start, chunk(delta(finish_reason="stop"))],
        "empty-text-then-call": [start, chunk(delta(tool_calls=[call(0, "{}", "a", "f")]))],
        "new-id-same-index": [
            chunk(delta(tool_calls=[call(0, "{", "a", "f")])),
            chunk(delta(tool_calls=[call(0, "}")])),
            chunk(delta(tool_calls=[call(0, "{}", "b", "f")])),
            chunk(delta(tool_calls=[{"index": 0, "id": "b", "function": {"name": "f", "arguments": "!"}}])),
            chunk(delta(tool_calls=[{"index": 0, "id": "", "function": {"name": "", "arguments": "?"}}])),
        ],
        "two-choices": [
            chunk(delta(0, content="a"), delta(1, content="b")),
            chunk(delta(1, content="c")),
            chunk(delta(0, finish_reason="length")),
            chunk(delta(1, content="d")),
            chunk(delta(0, content="")),
            chunk(delta(1, finish_reason="stop")),
        ],
        "own-finish-reason": [chunk(delta(content="a")), chunk(delta(finish_reason="insufficient_system_resource"))],
        "finish-with-usage": [
            chunk(delta(content="a")),
            chunk(delta(content="b", finish_reason="stop"), usage={"completion_tokens": 2, "prompt_tokens": 1}),
        ],
        "keepalive-and-two-usages": [
            chunk(delta(content="a")),
            chunk(),
            chunk(delta(content="b")),
            chunk(usage={"x_cost": 1, "prompt_tokens": 3, "prompt_tokens_details": {"audio": 0, "cached_tokens": 1}}),
            chunk(usage={"completion_tokens": 2, "total_tokens": 9}),
        ],
        "no-object": [{"id": "c", "choices": [delta(content="a")]}, {"id": "c", "choices": [delta(content="b")]}],
        "later-chunk-without-id": [chunk(delta(content="a")), {"choices": [delta(content="b")]}],
        "created-per-chunk": [chunk(delta(content="a")), chunk(delta(content="b"), created=2)],
        "service-tier-later": [chunk(delta(content="a")), chunk(delta(content="b"), service_tier="flex")],
        "finish-repeated-on-usage-chunk": [  # OpenRouter
            chunk(delta(role="assistant", content="a")),
            chunk(delta(role="assistant", content="b", finish_reason="stop")),
            chunk(delta(role="assistant", content="", finish_reason="stop"), usage={"prompt_tokens": 1}),
        ],
        "custom-tool-calls": [
            chunk(delta(content="Running.")),
            chunk(
                delta(tool_calls=[{"index": 0, "id": "c", "type": "custom", "custom": {"name": "sh", "input": "ls"}}])
            ),
            chunk(delta(tool_calls=[{"index": 0, "custom": {"input": " -l"}}])),
            chunk(delta(tool_calls=[call(1, "{}", "f", "g")])),
            chunk(delta(tool_calls=[{"index": 2, "id": "d", "type": "custom", "custom": {"name": "sh", "input": ""}}])),
        ],
        "finish-repeated-with-new-field": [
            chunk(delta(content="a", finish_reason="stop")),
            chunk({**delta(finish_reason="stop"), "native_finish_reason": "end_turn"}),
        ],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "f", "call_a", "stop", 0, 1, -1, 1.0, True, [], {}, [{}], {"message": "m"}),
    *("chat.completion", {"prompt_tokens": 1}, {"arguments": "x"}, {"name": "g", "arguments": "x"}),
]
_DELTA = ("choices", 0, "delta")
_FRAGMENT = (*_DELTA, "tool_calls", 0)
_ENVELOPE = ("error", "usage", "created", "model", "id", "object", "system_fingerprint", "service_tier", "choices")
_CHOICE = ("index", "finish_reason", "logprobs", "delta", "x_extra")
_DELTA_FIELDS = ("content", "role", "refusal", "reasoning_content", "reasoning", "reasoning_details", "tool_calls")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` the first chunk, a continuing one (reasoning, text,
    arguments), a call's start, the finish and the usage have each field."""
    calls: list[Path] = [
        (*_DELTA, "tool_calls"),
        _FRAGMENT,
        *[(*_FRAGMENT, key) for key in ("index", "id", "type", "function", "x_extra")],
        *[(*_FRAGMENT, "function", key) for key in ("name", "arguments", "x_extra")],
    ]
    chunks: list[Path] = [
        *[(key,) for key in _ENVELOPE],
        ("choices", 0),
        *[("choices", 0, key) for key in _CHOICE],
        *[(*_DELTA, key) for key in (*_DELTA_FIELDS, "channel")],
    ]
    usage: list[Path] = [
        ("usage",),
        *[("usage", key) for key in ("prompt_tokens", "completion_tokens", "total_tokens", "x_extra")],
    ]
    continuing: list[Path] = [
        (*_DELTA, key) for key in ("reasoning_content", "reasoning", "content", "role", "x_extra")
    ]
    return {0: chunks, 2: continuing, 4: chunks, 5: calls, 8: calls, 10: chunks, 11: usage}


MUTATION_KEYS = [
    *("error", "logprobs", "refusal", "role", "content", "reasoning_content", "reasoning", "reasoning_details"),
    *("tool_calls", "index", "id", "type", "function", "name", "arguments", "usage", "finish_reason", "delta"),
    *("choices", "object", "created", "model", "system_fingerprint", "x_extra"),
]
MUTATION_VALUES: list[object] = [
    *(None, "", "x", "stop", 0, 1, -1, 2, 1.5, True, [], {}, [{}], [None], {"index": 0}, {"arguments": "x"}),
]

CASES = StreamCases(
    plain=plain_stream,
    plain_parts=("thinking", "text", "tool_use", "tool_use"),
    text_fragment="ling.",
    to_sse=to_sse,
    broken=broken,
    rules=rules,
    field_paths=field_paths,
    odd_values=ODD_VALUES,
    mutation_keys=MUTATION_KEYS,
    mutation_values=MUTATION_VALUES,
)
