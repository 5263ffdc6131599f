"""Options: one spelling, one meaning.

``options=`` takes a codec's named options only (a misspelt ``max_token`` used to be sent
to Anthropic as a wire field); wire fields go by ``extra_fields=``; every codec spells an
option one way, typed for callers in :mod:`chatcodec.options`; a reader's round-trip
marker is read back by its own writer; the old ``_``-spelling is read in one place, warned.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import chatcodec
from chatcodec._option_table import LEGACY_REMOVAL, OptionTable
from chatcodec._registry import get_codec, registered_providers
from chatcodec.options import (
    AnthropicOptions,
    BedrockConverseOptions,
    GeminiOptions,
    OllamaOptions,
    OpenAIChatOptions,
    OpenAIResponsesOptions,
)
from chatcodec.streams._replay import events_from_response

USER_TURN = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
RESPONSE = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "gpt-4o",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hello"}, "finish_reason": "stop"}],
}
TYPED_DICTS: dict[str, Any] = {
    "anthropic": AnthropicOptions,
    "openai-chat": OpenAIChatOptions,
    "openai-responses": OpenAIResponsesOptions,
    "gemini": GeminiOptions,
    "bedrock-converse": BedrockConverseOptions,
    "ollama": OllamaOptions,
}
MISSPELT: Any = {"max_token": 1024}


def _events() -> list[chatcodec.AnyStreamEvent]:
    return list(chatcodec.decode_stream("openai-chat", [RESPONSE | {"object": "chat.completion.chunk"}]))


CALLS: dict[str, Callable[[Any], object]] = {
    "encode_request": lambda options: chatcodec.encode_request("anthropic", USER_TURN, options=options),
    "convert_request": lambda options: chatcodec.convert_request(
        USER_TURN, source="openai-chat", target="anthropic", options=options
    ),
    "encode_response": lambda options: chatcodec.encode_response(
        "anthropic", chatcodec.decode_response("openai-chat", RESPONSE), options=options
    ),
    "convert_response": lambda options: chatcodec.convert_response(
        RESPONSE, source="openai-chat", target="anthropic", options=options
    ),
    "encode_stream": lambda options: list(chatcodec.encode_stream("anthropic", [], options=options)),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_misspelt_option_raises_naming_the_nearest_and_every_option(call: str) -> None:
    with pytest.raises(chatcodec.OptionError) as caught:
        CALLS[call](MISSPELT)
    error = caught.value
    assert isinstance(error, chatcodec.PayloadError)
    assert (error.name, error.rule, error.path) == ("max_token", "known_option", "$.options")
    assert error.valid == tuple(sorted(get_codec("anthropic").options.names))
    assert "did you mean 'max_tokens'?" in str(error)
    assert "api_version, max_tokens, model, server, skip_rules, unsigned_thinking" in str(error)
    assert "extra_fields=" in str(error)


def test_the_canonical_format_takes_no_option() -> None:
    with pytest.raises(chatcodec.OptionError, match="canonical takes no option 'max_tokens'; it takes no option"):
        chatcodec.encode_request("canonical", USER_TURN, options={"max_tokens": 5})


def test_decode_request_refuses_a_misspelt_option_with_the_nearest() -> None:
    misspelt: Any = {"sever": "deepseek"}
    with pytest.raises(chatcodec.OptionError, match="did you mean 'server'"):
        chatcodec.decode_request("openai-chat", USER_TURN, options=misspelt)


def test_extra_fields_are_sent_as_wire_fields_even_one_starting_with_an_underscore() -> None:
    extra = {"metadata": {"user_id": "u1"}, "_trace": "t1"}
    converted = chatcodec.convert_request(
        USER_TURN, source="openai-chat", target="anthropic", options={"max_tokens": 5}, extra_fields=extra
    )
    encoded = chatcodec.encode_request(
        "anthropic", chatcodec.decode_request("openai-chat", USER_TURN), options={"max_tokens": 5}, extra_fields=extra
    )
    for body in (converted, encoded):
        assert (body["metadata"], body["_trace"], body["max_tokens"]) == ({"user_id": "u1"}, "t1", 5)


@pytest.mark.parametrize("provider", sorted(set(registered_providers()) - {"canonical"}))
def test_every_codec_spells_each_option_one_way(provider: str) -> None:
    table = get_codec(provider).options
    assert isinstance(table, OptionTable)
    assert [name for name in table.names if name.startswith("_")] == []
    assert table.stored <= table.names
    assert table.legacy <= table.names


@pytest.mark.parametrize("provider", sorted(TYPED_DICTS))
def test_each_option_typed_dict_holds_its_codecs_options(provider: str) -> None:
    typed = TYPED_DICTS[provider]
    assert typed.__required_keys__ == frozenset()
    assert typed.__optional_keys__ == get_codec(provider).options.names


def test_an_underscore_option_by_argument_is_read_with_a_warning_naming_the_removal_release() -> None:
    """Before, ``encode_response`` stripped the ``_`` silently (and ``encode_request`` took
    it as the option): one reading, warned, for both."""
    response = chatcodec.decode_response("anthropic", _anthropic_thinking_answer())
    legacy: Any = {"_reasoning_field": "reasoning"}
    with pytest.warns(DeprecationWarning, match=f"_reasoning_field.*{LEGACY_REMOVAL}"):
        body = chatcodec.encode_response("openai-chat", response, options=legacy, on_loss="ignore")
    assert body["choices"][0]["message"]["reasoning"] == "Plan."


def test_an_underscore_option_in_a_stored_bag_is_read_with_a_warning() -> None:
    request = {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "thinking", "text": "step", "provider": "gemini"}]},
        ],
        "provider_options": {"openai-chat": {"_reasoning_field": "reasoning_content"}},
    }
    with pytest.warns(DeprecationWarning, match=r'provider_options\["openai-chat"\]'):
        body = chatcodec.encode_request("openai-chat", request, on_loss="ignore")
    assert body["messages"][1]["reasoning_content"] == "step"
    assert "_reasoning_field" not in body


def test_a_misspelt_underscore_option_is_refused_not_stripped() -> None:
    legacy: Any = {"_reasoning_feild": "reasoning"}
    with pytest.raises(chatcodec.OptionError, match="did you mean 'reasoning_field'"):
        chatcodec.encode_response("openai-chat", chatcodec.decode_response("openai-chat", RESPONSE), options=legacy)


ANTHROPIC_OLD_VERSION = {  # temperature with a tool loop: only API version 2023-06-01 takes it
    "model": "claude-sonnet-4-5",
    "max_tokens": 64,
    "temperature": 1,
    "messages": [{"role": "user", "content": "hi"}],
}
GEMINI_TWO_TOOLS = {
    "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    "tools": [
        {"functionDeclarations": [{"name": "a", "description": "A"}]},
        {"functionDeclarations": [{"name": "b", "description": "B"}]},
    ],
}
OPENAI_OLD_KEY = {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(
    ("provider", "body"),
    [("anthropic", ANTHROPIC_OLD_VERSION), ("gemini", GEMINI_TWO_TOOLS), ("openai-chat", OPENAI_OLD_KEY)],
)
def test_a_readers_round_trip_marker_is_read_back_by_its_writer_without_a_warning(
    provider: str, body: dict[str, Any]
) -> None:
    canonical = chatcodec.decode_request(provider, body)
    assert any(key.startswith("_") for key in (canonical.provider_options or {})[provider])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = chatcodec.encode_request(provider, canonical, on_loss="error")
    assert again == body


def test_an_option_by_argument_wins_over_a_readers_marker() -> None:
    canonical = chatcodec.decode_request("openai-chat", OPENAI_OLD_KEY)
    again = chatcodec.encode_request("openai-chat", canonical, options={"max_tokens_key": "max_completion_tokens"})
    assert again["max_completion_tokens"] == 9
    assert "max_tokens" not in again


def test_the_cli_refuses_a_misspelt_option_before_converting(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from chatcodec.cli import main

    source = tmp_path / "in.jsonl"
    source.write_text('{"model": "m", "messages": [{"role": "user", "content": "hi"}]}\n')
    with pytest.raises(SystemExit) as exited:
        main(["convert", str(source), "--from", "openai-chat", "--to", "anthropic", "--option", "max_token=5"])
    assert exited.value.code == 64  # a usage error, as every bad argument
    assert "did you mean 'max_tokens'" in capsys.readouterr().err


def test_the_cli_sends_extra_fields_as_wire_fields(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from chatcodec.cli import main

    source = tmp_path / "in.jsonl"
    source.write_text('{"model": "m", "messages": [{"role": "user", "content": "hi"}]}\n')
    arguments = ["--option", "max_tokens=5", "--extra-field", 'metadata={"user_id": "u1"}']
    assert main(["convert", str(source), "--from", "openai-chat", "--to", "anthropic", *arguments]) == 0
    body = json.loads(capsys.readouterr().out)
    assert (body["max_tokens"], body["metadata"]) == (5, {"user_id": "u1"})


def test_serve_refuses_a_misspelt_route_option_at_start_up() -> None:
    from chatcodec.serve._config import Route

    with pytest.raises(ValueError, match="did you mean 'server'"):
        Route("*", "openai-chat", "https://api.example.com/v1", options={"sever": "deepseek"})


def test_an_underscore_option_on_a_stream_start_event_is_read_with_a_warning_naming_its_bag() -> None:
    answer = chatcodec.decode_response("anthropic", _anthropic_thinking_answer())
    events = list(events_from_response(answer))
    start = events[0]
    assert isinstance(start, chatcodec.ResponseStartEvent)
    events[0] = start.model_copy(update={"provider_metadata": {"openai-chat": {"_reasoning_field": "reasoning"}}})
    with pytest.warns(DeprecationWarning, match=r'provider_metadata\["openai-chat"\]'):
        chunks = list(chatcodec.encode_stream("openai-chat", events, on_loss="ignore"))
    assert any(chunk["choices"] and chunk["choices"][0]["delta"].get("reasoning") == "Plan." for chunk in chunks)


def _anthropic_thinking_answer() -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "thinking", "thinking": "Plan.", "signature": "sig"}, {"type": "text", "text": "Done."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
