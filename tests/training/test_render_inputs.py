"""What render reads as its users hold it (issue 97): rows as TRL passes them to
apply_chat_template, arguments a source held as objects spelled as the template spells them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chatcodec import render
from chatcodec._training import families, jinja

TRL_ROW: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}}
            ],
        },
        {"role": "tool", "name": "get_weather", "content": "Rain, 12 C"},
        {"role": "assistant", "content": "It is raining in Paris, 12 C."},
    ],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "The weather in a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ],
}
"""A row in the shapes TRL's tool-calling datasets keep and pass to ``apply_chat_template``:
no call ids, arguments as an object, the result named."""

ANTHROPIC_BODY: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "Rain, 12 C"}]},
        {"role": "assistant", "content": "It is raining in Paris, 12 C."},
    ],
}


def _as_transformers_renders(family: str, row: dict[str, Any]) -> str:
    """The row through the family's template in transformers' own environment, as given."""
    return jinja.run(families.template_text(family), row["messages"], tools=row.get("tools"))[0]


@pytest.mark.parametrize("family", ["qwen3", "qwen3.6", "qwen3-training"])
def test_a_trl_row_renders_as_apply_chat_template_renders_it(family: str) -> None:
    expected = _as_transformers_renders(family, TRL_ROW)
    assert render(TRL_ROW, template=family, on_loss="error").text == expected
    assert render(TRL_ROW, source="hf-chat", template=family, on_loss="error").text == expected
    assert render(TRL_ROW["messages"], tools=TRL_ROW["tools"], template=family, on_loss="error").text == expected


def test_a_trl_row_spells_object_arguments_as_the_template_does() -> None:
    text = render(TRL_ROW, template="qwen3", on_loss="error").text
    assert '{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}' in text


def test_a_trl_prompt_completion_row_renders_too() -> None:
    messages = TRL_ROW["messages"]
    row = {"prompt": messages[:1], "completion": messages[1:], "tools": TRL_ROW["tools"]}
    rendering = render(row, source="trl-prompt-completion", template="qwen3", on_loss="error")
    assert rendering.text == _as_transformers_renders("qwen3", TRL_ROW)


def test_anthropic_input_is_spelled_as_the_template_spells_an_object() -> None:
    """Anthropic's ``input`` is an object; vLLM's /v1/messages and a TRL row give Qwen3 the same
    object, which its template writes with json.dumps' spacing: that is what the model saw."""
    rendering = render(ANTHROPIC_BODY, source="anthropic", template="qwen3", on_loss="error")
    assert '"arguments": {"city": "Paris"}}' in rendering.text
    same_as_row = {"messages": json.loads(json.dumps(TRL_ROW["messages"]))}
    same_as_row["messages"][1]["tool_calls"][0]["function"]["arguments"] = {"city": "Paris"}
    assert rendering.text == _as_transformers_renders("qwen3", same_as_row)


def test_text_the_model_wrote_is_kept_as_written() -> None:
    """An OpenAI Chat body holds the model's own argument text: never re-spelled."""
    body = {
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "Rain"},
            {"role": "assistant", "content": "Rain."},
        ]
    }
    text = render(body, source="openai-chat", template="qwen3", on_loss="error").text
    assert '"arguments": {"city":"Paris"}}' in text


def _responses_turn(reasoning: dict[str, Any]) -> dict[str, Any]:
    answer = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "391."}]}
    return {"model": "gpt-oss-120b", "input": [{"role": "user", "content": "17 * 23?"}, reasoning, answer]}


def test_reasoning_is_trained_as_sampled_and_its_summary_reported() -> None:
    reasoning = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "Multiplied the numbers."}],
        "content": [{"type": "reasoning_text", "text": "17 * 23 = 340 + 51 = 391."}],
    }
    losses: list[Any] = []
    rendering = render(
        _responses_turn(reasoning),
        source="openai-responses",
        template="qwen3-training",
        on_loss="ignore",
        losses=losses,
    )
    assert "<think>\n17 * 23 = 340 + 51 = 391.\n</think>\n\n391.<|im_end|>" in rendering.text
    assert "Multiplied" not in rendering.text
    (summary,) = [loss for loss in losses if loss.what == "reasoning summary"]
    assert summary.path == "$.input[1]"
    assert summary.kind == "content"


def test_a_summary_alone_is_all_the_reasoning_there_is_and_is_kept() -> None:
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Multiplied."}]}
    losses: list[Any] = []
    rendering = render(
        _responses_turn(reasoning),
        source="openai-responses",
        template="qwen3-training",
        on_loss="ignore",
        losses=losses,
    )
    assert "<think>\nMultiplied.\n</think>" in rendering.text
    assert not [loss for loss in losses if loss.what == "reasoning summary"]


def test_claude_codes_ctx_and_msg_roles_are_read_as_user_turns_with_a_loss() -> None:
    session = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You are Claude Code.",
        "messages": [
            {"role": "user", "content": "Fix the test."},
            {"role": "ctx", "content": "The repository uses pytest."},
            {"role": "msg", "content": "Also run ruff."},
            {"role": "assistant", "content": "Done."},
        ],
    }
    losses: list[Any] = []
    rendering = render(session, source="anthropic", template="qwen3", on_loss="ignore", losses=losses)
    assert "<|im_start|>user\nThe repository uses pytest.<|im_end|>" in rendering.text
    assert "<|im_start|>user\nAlso run ruff.<|im_end|>" in rendering.text
    assert [(loss.path, loss.what, loss.kind) for loss in losses] == [
        ("$.messages[1].role", "ctx role", "spelling"),
        ("$.messages[2].role", "msg role", "spelling"),
    ]


def test_template_rows_read_claude_codes_roles_as_render_does() -> None:
    from chatcodec.batch._convert import ConvertOptions, convert_payload

    session = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Fix the test."},
            {"role": "ctx", "content": "The repository uses pytest."},
            {"role": "assistant", "content": "Done."},
        ],
    }
    outcome = convert_payload(session, ConvertOptions("anthropic", "hf-chat", template="qwen3"))
    assert outcome.converted is not None
    assert [message["role"] for message in outcome.converted["messages"]] == ["user", "user", "assistant"]
    assert ("$.messages[1].role", "spelling") in {(loss.path, loss.kind) for loss in outcome.losses}


def test_an_object_given_to_a_template_taking_objects_is_no_spelling_loss() -> None:
    """The object the source held is what the template takes: nothing the model wrote is respelled."""
    losses: list[Any] = []
    rendering = render(ANTHROPIC_BODY, source="anthropic", template="qwen3.6", on_loss="ignore", losses=losses)
    assert "<parameter=city>\nParis\n</parameter>" in rendering.text
    assert not [loss for loss in losses if loss.what == "argument text"]
