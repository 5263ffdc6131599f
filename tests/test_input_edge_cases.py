"""Awkward input found by review: each case once gave a raw exception, a wrong path or a
silent drop."""

from __future__ import annotations

import warnings

import pytest

import chatcodec
from chatcodec import AssistantMessage, ThinkingPart, ToolMessage, UserMessage


def _paths_and_rules(data: object) -> list[tuple[str, str]]:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.validate_messages(data)
    return [(path, detail["type"]) for path, detail in zip(caught.value.paths, caught.value.errors(), strict=True)]


def test_deeply_nested_json_is_a_payload_error() -> None:
    with pytest.raises(chatcodec.PayloadError, match="nested too deeply"):
        chatcodec.validate_messages("[" * 100_000)


def test_a_tool_input_nested_past_the_recursion_limit_is_a_payload_error() -> None:
    """Found by the fuzz run over ``mcp-sampling``'s seeds: an Anthropic-shaped call in a
    message list, its ``input`` a few thousand levels deep, raised a bare RecursionError."""
    deep: object = 1
    for _ in range(5000):
        deep = {"a": deep}
    call = {"type": "tool_use", "id": "c", "name": "f", "input": {"city": deep}}
    with pytest.raises(chatcodec.PayloadError, match="nested 5005 levels deep") as refused:
        chatcodec.validate_messages([{"role": "user", "content": "q"}, {"role": "assistant", "content": [call]}])
    assert refused.value.path.startswith("$[1].content[0].input.city.a.a")


def test_tool_input_that_is_not_json_is_a_validation_error() -> None:
    bad = [{"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "input": {"a": {1}}}]}]
    assert _paths_and_rules(bad) == [("$[0].content[0]", "tool_input_not_json")]
    nan = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "input": {"a": float("nan")}}]}
    ]
    assert _paths_and_rules(nan) == [("$[0].content[0]", "tool_input_not_json")]


def test_extra_key_on_a_part_is_named_not_the_tag_field() -> None:
    assert _paths_and_rules([{"role": "user", "content": [{"type": "text", "text": "x", "extra": 1}]}]) == [
        ("$[0].content[0].extra", "extra_forbidden")
    ]
    thinking = [{"role": "assistant", "content": [{"type": "thinking", "thinking": "x", "bad": 1}]}]
    assert _paths_and_rules(thinking) == [("$[0].content[0].bad", "extra_forbidden")]


def test_missing_field_under_a_tag_of_the_same_name() -> None:
    assert _paths_and_rules([{"role": "user", "content": [{"type": "text"}]}]) == [("$[0].content[0].text", "missing")]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ({"role": "assistant", "tool_calls": [1]}, "tool_call_type"),
        ({"role": "assistant", "tool_calls": "x"}, "tool_calls_type"),
        ({"role": "assistant", "tool_calls": [{"id": "c", "arguments": "{}"}]}, "tool_call_fields"),
        (
            {"role": "assistant", "content": "x", "tool_calls": [{"id": "c", "name": "f", "arguments": {"a": 1}}]},
            "tool_call_arguments",
        ),
        ({"role": "assistant", "reasoning_content": 5}, "reasoning_content_type"),
        ({"role": "assistant", "thinking_blocks": "x"}, "thinking_blocks_type"),
        ({"role": "tool", "tool_call_id": 1}, "tool_call_id_type"),
    ],
)
def test_alias_fields_are_checked_where_the_caller_wrote_them(message: dict[str, object], rule: str) -> None:
    assert _paths_and_rules([message]) == [("$[0]", rule)]


def test_legacy_function_call_is_refused_not_dropped() -> None:
    rules = _paths_and_rules([{"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}}])
    assert rules == [("$[0].function_call", "extra_forbidden")]


def test_user_turn_of_only_tool_results_keeps_its_markers() -> None:
    [message] = chatcodec.validate_messages(
        [
            {
                "role": "user",
                "name": "bob",
                "cache_control": {"type": "ephemeral"},
                "content": [{"type": "tool_result", "tool_use_id": "c", "content": "r"}],
            }
        ]
    )
    assert isinstance(message, ToolMessage)
    assert message.name == "bob"
    assert message.cache_control is not None


def test_alias_parts_inside_tool_results_are_normalized() -> None:
    image_url = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    anthropic_shape = [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c", "content": [image_url]}]}
    ]
    [message] = chatcodec.validate_messages(anthropic_shape)
    assert isinstance(message, ToolMessage)
    result_content = message.content[0].content
    assert not isinstance(result_content, str)
    assert result_content[0].type == "image"


def test_redacted_thinking_needs_its_payload() -> None:
    assert _paths_and_rules([{"role": "assistant", "content": [{"type": "redacted_thinking"}]}]) == [
        ("$[0].content[0]", "value_error")
    ]
    assert ThinkingPart(redacted=True, encrypted="opaque").encrypted == "opaque"


def test_list_form_of_empty_text_is_an_empty_list() -> None:
    message = AssistantMessage(content="")
    assert message.model_dump(context={"content_form": "list"})["content"] == []
    assert message.model_dump(context={"content_form": "string"})["content"] == ""


def test_unknown_content_form_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown content_form"):
        UserMessage(content="hi").model_dump(context={"content_form": "lists"})


def test_getitem_matches_the_dump() -> None:
    message = UserMessage(content="hi")
    with pytest.raises(KeyError):
        message["cache_control"]
    assert message.get("cache_control") is None


def test_bad_canonical_stream_event_names_its_position() -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        list(chatcodec.decode_stream("canonical", [{"type": "text_start", "index": 0}, {"type": "nope"}]))
    assert caught.value.paths == ["$[1]"]


def test_system_with_bad_messages_reports_only_the_messages() -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.validate_model(chatcodec.ChatRequest, {"system": "x", "messages": "notalist"})
    assert caught.value.paths == ["$.messages"]


class _LossyCodec:
    name = "lossy-stack"

    def encode_request(self, request: chatcodec.ChatRequest, losses: object) -> dict[str, object]:
        losses.add("$.model", "model", "testing")  # type: ignore[attr-defined]
        return {}


def test_loss_warning_points_at_the_callers_line() -> None:
    chatcodec.register_codec("lossy-stack", _LossyCodec)  # type: ignore[arg-type]
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            chatcodec.encode_request("lossy-stack", chatcodec.ChatRequest())
    finally:
        chatcodec.unregister_codec("lossy-stack")
    assert caught[0].filename == __file__


@pytest.mark.parametrize("events", [None, 5, ["event: ping\n", {"type": "ping"}]])
def test_stream_input_of_the_wrong_kind_is_a_stream_error(events: object) -> None:
    with pytest.raises(chatcodec.StreamError):
        chatcodec.accumulate_stream("canonical", events)  # type: ignore[arg-type]
