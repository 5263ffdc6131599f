"""A value nested near pydantic-core's depth limit (about 255 levels) is refused by every path
alike: ``decode_request`` (which builds the canonical model), ``convert_request`` (the one
path, which builds none) and decode-then-encode, with a :class:`~chatcodec.PayloadError`
naming the route into the value (rule ``recursion_depth_exceeded``). Issue 61: a value 253
deep in a Gemini ``generationConfig`` (an extra key the bag keeps, one level deeper than the
top-level extras the reader checked) converted to Anthropic though decoding refused it; a
Responses function tool's extra key (kept in the tool's bag) and a built-in tool (kept whole as
an opaque tool) at 254 the same. The bodies follow the providers' references: Gemini's
``GenerateContentRequest`` (https://ai.google.dev/api/generate-content#request-body), the openai
SDK's ``ResponseCreateParams`` (``FunctionToolParam``, ``WebSearchToolParam``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def _gemini(deep: object) -> dict[str, Any]:
    return {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"temperature": 0.2, "deep": deep},
    }


def _responses_function(deep: object) -> dict[str, Any]:
    tool = {"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": False, "deep": deep}
    return {"model": "gpt-4.1", "input": "hi", "tools": [tool]}


def _responses_built_in(deep: object) -> dict[str, Any]:
    return {"model": "gpt-4.1", "input": "hi", "tools": [{"type": "web_search", "deep": deep}]}


def _verdict(call: Any) -> str:
    """``taken``, or the refusal's rule and whether it names a route into the body."""
    try:
        call()
    except chatcodec.PayloadError as error:
        named = error.path.startswith("$.")
        return f"refused {'[rule: recursion_depth_exceeded]' in str(error)} {named}"
    return "taken"


@pytest.mark.parametrize(
    ("source", "target", "body"),
    [
        ("gemini", "anthropic", _gemini),
        ("openai-responses", "anthropic", _responses_function),
        ("openai-responses", "openai-chat", _responses_built_in),
    ],
)
@pytest.mark.parametrize("depth", range(249, 258))
def test_every_path_refuses_alike(source: str, target: str, body: Any, depth: int) -> None:
    payload = body(_nested(depth))
    verdicts = {
        _verdict(lambda: chatcodec.decode_request(source, copy.deepcopy(payload))),
        _verdict(
            lambda: chatcodec.convert_request(copy.deepcopy(payload), source=source, target=target, on_loss="ignore")
        ),
        _verdict(
            lambda: chatcodec.encode_request(
                target, chatcodec.decode_request(source, copy.deepcopy(payload)), on_loss="ignore"
            )
        ),
    }
    assert len(verdicts) == 1, (source, depth, verdicts)
    assert verdicts <= {"taken", "refused True True"}


def test_the_gemini_refusal_names_the_route() -> None:
    with pytest.raises(chatcodec.PayloadError) as refused:
        chatcodec.convert_request(_gemini(_nested(253)), source="gemini", target="anthropic", on_loss="ignore")
    assert refused.value.path.startswith("$.generationConfig.deep.a.a")
