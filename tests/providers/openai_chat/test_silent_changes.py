"""Between OpenAI Chat and the other providers, a conversion that
changes a value reports it; one that reports nothing changed nothing (moved here from the
conformance suite, whose laws name no provider). That the ``max_tokens`` spelling is no loss
in any other format is the conformance law over ``spelling_twins``."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

import chatcodec
from chatcodec.testing._laws.built_in.openai_chat import MAX_TOKENS_REQUEST
from conformance.providers import streams

OTHER_PROVIDERS = [name for name in chatcodec.registered_providers() if name != "openai-chat"]


def _convert(payload: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore", losses=losses)
    return converted, losses


def _there_and_back(payload: dict[str, Any], source: str, via: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    there, there_losses = _convert(payload, source, via)
    back, back_losses = _convert(there, via, source)
    return back, there_losses + back_losses


def test_image_moved_out_of_a_tool_result_is_reported_across_providers() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    anthropic_body: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "draw"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "draw", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": [image]}]},
        ],
    }
    converted, losses = _convert(anthropic_body, "anthropic", "openai-chat")
    assert converted["messages"][-1]["role"] == "user"
    assert [loss.path for loss in losses] == ["$.messages[2].content[0].content[0]"]


def test_title_and_filename_cross_both_ways_without_loss() -> None:
    data = base64.b64encode(b"%PDF-1.4").decode()
    openai_body = {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{data}", "filename": "a.pdf"}}
                ],
            }
        ],
    }
    there, there_losses = _convert(openai_body, "openai-chat", "anthropic")
    assert there["messages"][0]["content"][0]["title"] == "a.pdf"
    back = chatcodec.convert_request(there, source="anthropic", target="openai-chat", on_loss="error")
    assert back["messages"] == openai_body["messages"]
    assert [loss.path for loss in there_losses] == ["$.max_tokens"]


def test_max_tokens_spelling_is_kept_at_home() -> None:
    back, losses = _there_and_back(MAX_TOKENS_REQUEST, "openai-chat", "openai-chat")
    assert back == MAX_TOKENS_REQUEST
    assert losses == []


_ZERO_COMPLETION_DETAILS: dict[str, int] = {
    "reasoning_tokens": 0,
    "audio_tokens": 0,
    "accepted_prediction_tokens": 0,
    "rejected_prediction_tokens": 0,
}
_ZERO_DETAILS_USAGE: dict[str, Any] = {
    "prompt_tokens": 14,
    "completion_tokens": 7,
    "total_tokens": 21,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": _ZERO_COMPLETION_DETAILS,
}
"""What OpenAI writes on every ordinary answer: every detail count 0."""

_ORDINARY_RESPONSE: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1_700_000_000,
    "model": "gpt-4o-mini",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}],
    "usage": _ZERO_DETAILS_USAGE,
}


def _about_usage(losses: list[chatcodec.Loss]) -> list[str]:
    """The losses in the usage (a creation time is no loss in any format: the law of
    ``tests/conformance/test_server_facts_are_no_loss.py``), but for a count the target
    requires and OpenAI Chat has none of (Responses' ``cache_write_tokens``): that one is
    invented, reported as such (``tests/test_invented_fields.py``), not a detail lost."""
    return [loss.what for loss in losses if loss.path.startswith("$.usage") and not loss.what.startswith("invented ")]


def _response_losses(payload: dict[str, Any], via: str) -> list[str]:
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_response(payload, source="openai-chat", target=via, on_loss="ignore", losses=losses)
    return _about_usage(losses)


@pytest.mark.parametrize("via", OTHER_PROVIDERS)
def test_zero_usage_details_are_not_losses_in_another_format(via: str) -> None:
    """OpenAI Chat's detail counts ride in its own bag: zero ones say nothing, so another
    format without a place for them loses nothing the user sent (at home they come back)."""
    assert _response_losses(_ORDINARY_RESPONSE, via) == []


@pytest.mark.parametrize("via", [name for name in OTHER_PROVIDERS if streams(name)])
def test_zero_usage_details_are_not_losses_in_another_formats_stream(via: str) -> None:
    stream_losses: list[chatcodec.Loss] = []
    events = list(chatcodec.decode_stream("openai-chat", [_chunk_of(_ORDINARY_RESPONSE)]))
    list(chatcodec.encode_stream(via, events, on_loss="ignore", losses=stream_losses))
    assert _about_usage(stream_losses) == []


def _chunk_of(response: dict[str, Any]) -> dict[str, Any]:
    """``response`` as one stream chunk (its message as the delta, its usage beside it)."""
    choice = {**response["choices"][0], "delta": response["choices"][0]["message"]}
    del choice["message"]
    return {**response, "object": "chat.completion.chunk", "choices": [choice]}


def test_zero_usage_details_come_back_at_home() -> None:
    back = chatcodec.convert_response(_ORDINARY_RESPONSE, source="openai-chat", target="openai-chat", on_loss="error")
    assert back == _ORDINARY_RESPONSE


@pytest.mark.parametrize("via", OTHER_PROVIDERS)
def test_a_non_zero_usage_detail_another_format_cannot_hold_is_still_a_loss(via: str) -> None:
    details = {**_ZERO_COMPLETION_DETAILS, "audio_tokens": 3}
    response = {**_ORDINARY_RESPONSE, "usage": {**_ZERO_DETAILS_USAGE, "completion_tokens_details": details}}
    assert _response_losses(response, via) == ["openai-chat data ['completion_tokens_details']"]


@pytest.mark.parametrize("arguments", ["", " "])
def test_a_custom_calls_blank_input_reads_back_as_itself_with_no_loss(arguments: str) -> None:
    # A Hypothesis draw failed the single-hop law: its normal form wrote a custom call's
    # blank input as "{}", as for a function call, while the writer keeps free text as it is.
    from providers.openai_chat.conformance import ENTRY

    call = {"type": "tool_use", "id": "c1", "name": "f", "arguments": arguments, "kind": "custom"}
    request = chatcodec.ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [call]}]}
    )
    assert ENTRY.single_hop is not None
    losses: list[chatcodec.Loss] = []
    back = chatcodec.decode_request("openai-chat", chatcodec.encode_request("openai-chat", request, losses=losses))
    assert losses == []
    assert ENTRY.single_hop.decoded(back) == ENTRY.single_hop.original(request)


INTEGER_SAMPLING_REQUEST: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "hi"}],
    "temperature": 0,
    "top_p": 1,
    "frequency_penalty": 0.5,
    "presence_penalty": 2,
}


def test_integer_sampling_numbers_are_spelled_as_integers_at_home() -> None:
    """``1`` and ``1.0`` are one JSON number, but a home round trip writes the text it read
    (a diff or a dedup hash of the converted file sees the spelling)."""
    back, losses = _convert(INTEGER_SAMPLING_REQUEST, "openai-chat", "openai-chat")
    assert json.dumps(back) == json.dumps(INTEGER_SAMPLING_REQUEST)
    assert losses == []


@pytest.mark.parametrize("via", OTHER_PROVIDERS)
def test_integer_sampling_spelling_is_not_a_loss_in_another_format(via: str) -> None:
    _, losses = _convert(INTEGER_SAMPLING_REQUEST, "openai-chat", via)
    assert not [loss for loss in losses if "_integers" in loss.what], losses


def test_an_answers_reasoning_from_another_provider_is_reported_as_read_back_as_openai_chats() -> None:
    """A Responses reasoning summary sent as ``reasoning_content`` reads back as OpenAI
    Chat's own thinking: who produced it changes, so it is reported (as Ollama does)."""
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "status": "completed",
        "output": [{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "hmm"}]}],
    }
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_response(
        body, source="openai-responses", target="openai-chat", on_loss="ignore", losses=losses
    )
    assert out["choices"][0]["message"]["reasoning_content"] == "hmm"
    assert [(loss.what, loss.kind) for loss in losses if "thinking" in loss.what] == [
        ("thinking part from openai-responses", "metadata")
    ]


def test_empty_text_parts_joined_into_an_answers_content_are_no_loss() -> None:
    response = chatcodec.ChatResponse(
        id="r1",
        model="m",
        created=1,
        choices=[
            chatcodec.ResponseChoice(
                index=0,
                message=chatcodec.AssistantMessage(
                    content=[chatcodec.TextPart(text=""), chatcodec.TextPart(text="hi"), chatcodec.TextPart(text="")]
                ),
                finish_reason=chatcodec.FinishReason(unified="stop"),
            )
        ],
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("openai-chat", response, on_loss="ignore", losses=losses)
    assert body["choices"][0]["message"]["content"] == "hi"
    assert losses == []


def test_an_empty_text_part_after_a_tool_call_is_no_change_of_order() -> None:
    response = chatcodec.ChatResponse(
        id="r1",
        model="m",
        created=1,
        choices=[
            chatcodec.ResponseChoice(
                index=0,
                message=chatcodec.AssistantMessage(
                    content=[chatcodec.ToolUsePart(id="c1", name="f", arguments="{}"), chatcodec.TextPart(text="")]
                ),
                finish_reason=chatcodec.FinishReason(unified="tool_calls"),
            )
        ],
    )
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response("openai-chat", response, on_loss="ignore", losses=losses)
    assert losses == []
