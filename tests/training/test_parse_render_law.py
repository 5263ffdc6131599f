"""The law between the two halves of the training boundary: ``parse_completion`` of the sampled
text of ``render(x)`` gives back ``x``'s last assistant message, modulo what the render reported
lost, for every family whose template chatcodec knows.

Call ids are no part of these formats (Kimi K2 aside): the parser makes them and says so, so
calls are compared by name and arguments.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatcodec import Loss, ToolUsePart, parse_completion, render
from chatcodec._training.completion.family_parsers import FAMILY_PARSERS
from chatcodec._training.families import family_names

TOOLS = [
    {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        },
    }
]


def _comparable(part: Any) -> tuple[str, ...]:
    if isinstance(part, ToolUsePart):
        return ("tool_use", part.name, part.arguments)
    return (part.type, part.text)


def _law(family: str, parts: list[dict[str, Any]]) -> None:
    conversation = [{"role": "user", "content": "Weather in Paris and Rome?"}, {"role": "assistant", "content": parts}]
    losses: list[Loss] = []
    rendering = render(conversation, template=family, tools=TOOLS, losses=losses, on_loss="ignore")
    span = rendering.sampled[-1]
    lost = {loss.path for loss in losses}
    expected = [
        part
        for index, part in enumerate(parts)
        if f"$.messages[1].content[{index}]" not in lost
        and not (part["type"] == "text" and "$.messages[1].content" in lost)  # gpt-oss: text beside calls
    ]
    # A turn rendered after another prompt than the model samples after (reported) does not start
    # inside the reasoning the real prompt opens.
    started = False if "$.messages[1]" in lost else None
    message = parse_completion(
        rendering.text[span.start : span.end], template=family, tools=TOOLS, reasoning_started=started, on_loss="ignore"
    )
    assert isinstance(message.content, list)
    parsed = [_comparable(part) for part in message.content]
    assert parsed == [
        _comparable(ToolUsePart(**part) if part["type"] == "tool_use" else _as_part(part)) for part in expected
    ]


def _as_part(part: dict[str, Any]) -> Any:
    from chatcodec import TextPart, ThinkingPart

    return ThinkingPart(text=part["text"]) if part["type"] == "thinking" else TextPart(text=part["text"])


def _call(index: int, city: str, days: int) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": f"c{index}",
        "name": "get_weather",
        "arguments": f'{{"city": "{city}", "days": {days}}}',
    }


@pytest.mark.parametrize("family", family_names())
def test_reasoning_text_and_parallel_calls_come_back(family: str) -> None:
    assert family in FAMILY_PARSERS  # every profiled family has its parsers
    _law(
        family,
        [
            {"type": "thinking", "text": "The user wants two cities."},
            {"type": "text", "text": "Let me check both."},
            _call(0, "Paris", 3),
            _call(1, "Rome", 1),
        ],
    )


@pytest.mark.parametrize("family", family_names())
def test_a_plain_answer_comes_back(family: str) -> None:
    _law(family, [{"type": "thinking", "text": "Easy."}, {"type": "text", "text": "It is sunny in Paris."}])


WORDS = st.text(
    st.characters(min_codepoint=ord("a"), max_codepoint=ord("z")) | st.sampled_from(" .,!?"), min_size=1, max_size=40
)


@given(st.sampled_from(["qwen3", "qwen3.5", "glm-4.5", "gpt-oss"]), WORDS, WORDS, WORDS, st.integers(0, 99))
def test_drawn_turns_come_back(family: str, thought: str, text: str, city: str, days: int) -> None:
    thought, text, city = thought.strip() or "t", text.strip() or "x", city.strip() or "c"
    _law(family, [{"type": "thinking", "text": thought}, {"type": "text", "text": text}, _call(0, city, days)])


@pytest.mark.parametrize("family", family_names())
def test_one_call_comes_back(family: str) -> None:
    _law(family, [{"type": "thinking", "text": "Paris, three days."}, _call(0, "Paris", 3)])
