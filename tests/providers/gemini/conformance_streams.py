"""Gemini streams for the stream law (``test_accumulate_as_decoded.py``): a plain stream,
broken ones, one per decoder rule, and where each chunk field is."""

from __future__ import annotations

from typing import Any

from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.stream_law import GONE, Path, StreamCases, data_lines

HEAD = {"modelVersion": "gemini-x", "responseId": "r1"}


def chunk(*parts: JsonObject, finish: str | None = None, usage: JsonObject | None = None, index: int = 0) -> JsonObject:
    candidate: JsonObject = {"content": {"parts": list(parts), "role": "model"}, "index": index}
    if finish is not None:
        candidate["finishReason"] = finish
    body: JsonObject = {"candidates": [candidate], **HEAD}
    if usage is not None:
        body["usageMetadata"] = usage
    return body


def plain_stream() -> list[JsonObject]:
    """A signed thought, text in two chunks, and a signed call, then usage."""
    return [
        chunk({"text": "Let me ", "thought": True}, usage={"promptTokenCount": 40, "totalTokenCount": 40}),
        chunk({"text": "think.", "thought": True, "thoughtSignature": "EqQB"}),
        chunk({"text": "Call"}),
        chunk({"text": "ing."}),
        chunk(
            {"functionCall": {"name": "f", "args": {"x": 1}}, "thoughtSignature": "c2ln"},
            finish="STOP",
            usage={"promptTokenCount": 40, "candidatesTokenCount": 9, "thoughtsTokenCount": 3, "totalTokenCount": 52},
        ),
    ]


def to_sse(events: list[JsonObject]) -> str:
    """SSE text as Gemini sends it with ``alt=sse``: ``data: <json>`` and a blank line."""
    return data_lines(events, named=False)


def broken() -> dict[str, list[Any]]:
    return {
        "number-text": [chunk({"text": 5})],
        "text-thought": [chunk({"text": "a", "thought": "yes"})],
        "negative-usage": [chunk({"text": "a"}, usage={"promptTokenCount": -1})],
        "text-usage": [chunk({"text": "a"}, usage={"promptTokenCount": "1"})],
        "negative-index": [chunk({"text": "a"}, index=-1)],
        "number-finish": [{"candidates": [{"finishReason": 5}]}],
        "parts-not-a-list": [{"candidates": [{"content": {"parts": {"text": "a"}}}]}],
        "call-args-not-an-object": [chunk({"functionCall": {"name": "f", "args": [1]}})],
        "bad-partial-path": [
            chunk({"functionCall": {"name": "f", "willContinue": True}}),
            chunk(
                {"functionCall": {"partialArgs": [{"jsonPath": "location", "stringValue": "x"}], "willContinue": True}}
            ),
        ],
        "error-body": [chunk({"text": "a"}), {"error": {"code": 500, "message": "internal", "status": "INTERNAL"}}],
        "not-a-dict": [chunk({"text": "a"}), "not a chunk"],
        "empty": [],
    }


def rules() -> dict[str, list[JsonObject]]:
    """Streams that exercise one rule of the decoder each."""
    signature_only = {"text": "", "thoughtSignature": "c2ln"}
    return {
        "trailing-signature": [chunk({"text": "Hi"}), chunk(signature_only, finish="STOP")],
        "two-signed-texts": [
            chunk({"text": "a", "thoughtSignature": "s1"}),
            chunk({"text": "b", "thoughtSignature": "s2"}),
        ],
        "two-parts-one-chunk": [chunk({"text": "a"}, {"text": "b"})],
        "thought-then-text": [chunk({"text": "hm", "thought": True}), chunk({"text": "answer"})],
        "parallel-calls-same-name": [
            chunk({"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "s"}),
            chunk({"functionCall": {"name": "f", "args": {"a": 1}}}, finish="STOP"),
        ],
        "partial-arguments": [
            chunk({"functionCall": {"name": "get", "willContinue": True}, "thoughtSignature": "s"}),
            chunk(
                {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Bos", "willContinue": True}]}}
            ),
            chunk(
                {
                    "functionCall": {
                        "partialArgs": [
                            {"jsonPath": "$.city", "stringValue": "ton"},
                            {"jsonPath": "$.n", "numberValue": 2},
                        ]
                    }
                }
            ),
            chunk({"functionCall": {}}, finish="STOP"),
        ],
        "partial-arguments-keep-alive": [
            chunk({"functionCall": {"name": "get", "willContinue": True}}),
            chunk({"functionCall": {"willContinue": True}}),
            chunk(
                {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Bos"}], "willContinue": True}}
            ),
            chunk({"functionCall": {"willContinue": False}}, finish="STOP"),
        ],
        "partial-arguments-cut-off": [chunk({"functionCall": {"name": "get", "willContinue": True}})],
        "blocked-prompt": [
            {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 3}, **HEAD}
        ],
        "code-execution": [
            chunk({"executableCode": {"language": "PYTHON", "code": "print(1)"}}),
            chunk({"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}}),
        ],
        "usage-only-chunk": [chunk({"text": "a"}, finish="STOP"), {"usageMetadata": {"promptTokenCount": 2}, **HEAD}],
        "candidate-extras": [
            {"candidates": [{"content": {"parts": [{"text": "a"}]}, "finishReason": "SAFETY", "safetyRatings": []}]},
        ],
        "candidate-extras-over-chunks": [
            {"candidates": [{"content": {"parts": [{"text": "a"}]}, "citationMetadata": {"citations": []}}]},
            {"candidates": [{"content": {"parts": [{"text": "b"}]}, "finishReason": "STOP", "avgLogprobs": -0.1}]},
        ],
        "inline-image": [chunk({"inlineData": {"mimeType": "image/png", "data": "iVBO"}})],
        "snake-case-chunk": [
            {
                "candidates": [
                    {"content": {"parts": [{"text": "a", "thought_signature": "s"}]}, "finish_reason": "STOP"}
                ],
                "usage_metadata": {"prompt_token_count": 1},
            }
        ],
    }


ODD_VALUES: list[object] = [
    *(GONE, None, "", "x", "STOP", 0, 1, 2, -1, 1.0, True, [], {}),
    *({"text": "x"}, [{"text": "x"}], {"parts": []}, {"name": "f"}),
]
_PART_FIELDS = ("text", "thought", "thoughtSignature", "functionCall", "inlineData", "x_extra")
_CANDIDATE_FIELDS = ("content", "finishReason", "index", "safetyRatings", "x_extra")
_USAGE_FIELDS = ("promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "totalTokenCount", "x_extra")


def field_paths() -> dict[int, list[Path]]:
    """Where in ``plain_stream()`` each field of each chunk is."""
    candidate: list[Path] = [
        ("candidates",),
        ("candidates", 0),
        *[("candidates", 0, key) for key in _CANDIDATE_FIELDS],
        ("candidates", 0, "content", "parts"),
        ("candidates", 0, "content", "role"),
        ("candidates", 0, "content", "parts", 0),
        *[("candidates", 0, "content", "parts", 0, key) for key in _PART_FIELDS],
        ("modelVersion",),
        ("responseId",),
        ("x_extra",),
    ]
    usage: list[Path] = [("usageMetadata",), *[("usageMetadata", key) for key in _USAGE_FIELDS]]
    call: list[Path] = [
        ("candidates", 0, "content", "parts", 0, "functionCall", key) for key in ("name", "args", "id", "willContinue")
    ]
    return {0: [*candidate, *usage], 1: candidate, 2: candidate, 3: candidate, 4: [*candidate, *usage, *call]}


MUTATION_KEYS = [
    *("candidates", "content", "parts", "text", "thought", "thoughtSignature", "functionCall", "args", "name"),
    *("finishReason", "index", "usageMetadata", "promptFeedback", "partialArgs", "willContinue", "error", "x_extra"),
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
