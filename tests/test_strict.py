"""Strict reading at an API boundary: every recorded payload passes, a misspelt
key is refused at its path with the nearest name, and the tolerant default still reads it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._registry import get_codec
from chatcodec._strict.extensions import EXTENSIONS
from chatcodec._strict.fields import schema_for
from chatcodec._strict.rules import structure_for
from chatcodec.testing._laws.fixtures import stream_event_dicts

FIXTURES = Path(__file__).parent / "fixtures"
PROVIDERS = tuple(name for name in chatcodec.PROVIDER_NAMES if schema_for(name) is not None)
"""The registered providers strict reading has field sets for."""


def _recordings(kind: str) -> list[Any]:
    return [
        pytest.param(provider, path, id=f"{provider}/{path.name}")
        for provider in PROVIDERS
        for path in sorted((FIXTURES / provider / kind).iterdir())
    ]


@pytest.mark.parametrize(("provider", "path"), _recordings("request"))
def test_every_recorded_request_passes_strict(provider: str, path: Path) -> None:
    """A recorded request the provider refused (``*_invalid``) is refused."""
    body = json.loads(path.read_text())
    if "invalid" in path.stem:
        with pytest.raises(chatcodec.ValidationError):
            chatcodec.decode_request(provider, body, strict=True)
        return
    assert chatcodec.decode_request(provider, body, strict=True) == chatcodec.decode_request(provider, body)


@pytest.mark.parametrize(("provider", "path"), _recordings("response"))
def test_every_recorded_response_passes_strict(provider: str, path: Path) -> None:
    """An error body is the provider's error, strict or not, and passes."""
    body = json.loads(path.read_text())
    try:
        tolerant = chatcodec.decode_response(provider, body)
    except chatcodec.ProviderAPIError:
        with pytest.raises(chatcodec.ProviderAPIError):
            chatcodec.decode_response(provider, body, strict=True)
        return
    assert chatcodec.decode_response(provider, body, strict=True) == tolerant


@pytest.mark.parametrize(("provider", "path"), _recordings("stream"))
def test_every_recorded_stream_passes_strict(provider: str, path: Path) -> None:
    """Both stream entry points."""
    events = stream_event_dicts(path.read_text())
    try:
        tolerant = chatcodec.accumulate_stream(provider, events)
    except chatcodec.ProviderAPIError:
        with pytest.raises(chatcodec.ProviderAPIError):
            chatcodec.accumulate_stream(provider, events, strict=True)
        return
    assert chatcodec.accumulate_stream(provider, events, strict=True) == tolerant
    assert list(chatcodec.decode_stream(provider, events, strict=True)) == list(
        chatcodec.decode_stream(provider, events)
    )


# --- a misspelt key at the top level, on a turn and on a part of every format --------------

_USER = {
    "openai-chat": {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]},
    "anthropic": {
        "model": "m",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    },
    "openai-responses": {
        "model": "m",
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
    },
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"temperature": 0.5}},
    "bedrock-converse": {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "inferenceConfig": {}},
    "gemini-interactions": {
        "model": "m",
        "input": [{"type": "user_input", "content": [{"type": "text", "text": "hi"}]}],
        "generation_config": {"temperature": 0.5},
    },
}
_CONVERSATION = {
    "openai-chat": "messages",
    "anthropic": "messages",
    "openai-responses": "input",
    "gemini": "contents",
    "bedrock-converse": "messages",
    "gemini-interactions": "input",
}
_PARTS = {"gemini": "parts"}
_TOP = {
    "openai-chat": "temprature",
    "anthropic": "sytem",
    "openai-responses": "instructons",
    "gemini": "systemInstrution",
    "bedrock-converse": "sytem",
    "gemini-interactions": "system_instrution",
}


def _misspelt(provider: str, place: str) -> tuple[dict[str, Any], str, str]:
    body = copy.deepcopy(_USER[provider])
    turn = body[_CONVERSATION[provider]][0]
    part = turn[_PARTS.get(provider, "content")][0]
    if place == "top":
        wrong = _TOP[provider]
        body[wrong] = "be brief" if provider != "bedrock-converse" else [{"text": "be brief"}]
        return body, wrong, f"$.{wrong}"
    if place == "turn":
        turn["rloe"] = "user"
        return body, "rloe", f"$.{_CONVERSATION[provider]}[0].rloe"
    part["txet"] = "x"
    return body, "txet", f"$.{_CONVERSATION[provider]}[0].{_PARTS.get(provider, 'content')}[0].txet"


@pytest.mark.parametrize("place", ["top", "turn", "part"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_misspelt_key_is_refused_naming_it_while_the_default_reads_it(provider: str, place: str) -> None:
    """One error, at the key's path, naming the key."""
    body, wrong, path = _misspelt(provider, place)
    chatcodec.decode_request(provider, body)  # tolerant: read, kept, reported
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request(provider, body, strict=True)
    assert raised.value.paths == [path]
    assert f"`{wrong}`: unknown field" in str(raised.value)


def test_the_nearest_known_name_is_suggested() -> None:
    body = {"model": "m", "temprature": 0.1, "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(chatcodec.ValidationError, match=r"`temprature`: unknown field; did you mean `temperature`\?"):
        chatcodec.decode_request("openai-chat", body, strict=True)


def test_an_unknown_part_tag_lists_the_callers_own_tags() -> None:
    """OpenAI Chat's part tags (``image_url``), not canonical ones (``image``)."""
    body = {"model": "m", "messages": [{"role": "user", "content": [{"type": "imge_url", "image_url": {"url": "u"}}]}]}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("openai-chat", body, strict=True)
    assert raised.value.paths == ["$.messages[0].content[0].type"]
    message = str(raised.value)
    assert "did you mean `image_url`?" in message
    assert "`image_url`, `input_audio`, `file`" in message
    assert "`image`," not in message


def test_free_form_values_are_never_checked() -> None:
    """Tool input, JSON schemas and metadata hold whatever the caller wants."""
    body = {
        "model": "m",
        "max_tokens": 5,
        "metadata": {"user_id": "u"},
        "tools": [{"name": "f", "input_schema": {"type": "object", "propertees": {}, "x-any": 1}}],
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"anything": 1}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]},
        ],
    }
    chatcodec.decode_request("anthropic", body, strict=True)


def test_documented_extensions_of_compatible_servers_pass() -> None:
    body = {
        "model": "m",
        "top_k": 5,
        "min_p": 0.1,
        "repetition_penalty": 1.1,
        "thinking": {"type": "enabled"},
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]},
            {"role": "assistant", "content": "a", "reasoning_content": "r"},
            {"role": "user", "content": "again"},
        ],
    }
    chatcodec.decode_request("openai-chat", body, strict=True)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_extension_row_names_a_kind_of_its_provider(provider: str) -> None:
    schema = schema_for(provider)
    assert schema is not None
    for row in (row for row in EXTENSIONS if row.provider == provider):
        assert row.source.startswith(("https://", "recorded")), row
        assert "*" in row.kind or row.kind in schema.kinds, row
        assert not row.arm_of or row.arm_of in schema.unions, row  # a new arm joins a union the SDK has


# --- structural rules --------------------------------------------------

_ORPHAN_TEXT = json.loads((FIXTURES / "anthropic" / "response" / "error_400_orphan_tool_result.json").read_text())


def test_an_orphan_tool_result_gets_anthropics_own_400_text() -> None:
    body = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "hi"},
                    {"type": "tool_result", "tool_use_id": "toolu_01GHndag5wQmbzNihYmV2UBj", "content": "x"},
                ],
            }
        ],
    }
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("anthropic", body, strict=True)
    assert raised.value.paths == ["$.messages[0].content[1].tool_use_id"]
    recorded = _ORPHAN_TEXT["error"]["message"].removeprefix("messages.0.content.1: ")
    assert recorded in str(raised.value)
    chatcodec.decode_request("anthropic", body)  # the default reads it


@pytest.mark.parametrize("provider", ["openai-chat", "openai-responses", "bedrock-converse"])
def test_a_duplicate_tool_result_is_refused(provider: str) -> None:
    bodies: dict[str, dict[str, Any]] = {
        "openai-chat": {
            "model": "m",
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
                },
                {"role": "tool", "tool_call_id": "c", "content": "1"},
                {"role": "tool", "tool_call_id": "c", "content": "2"},
            ],
        },
        "openai-responses": {
            "model": "m",
            "input": [
                {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c", "output": "1"},
                {"type": "function_call_output", "call_id": "c", "output": "2"},
            ],
        },
        "bedrock-converse": {
            "messages": [
                {"role": "user", "content": [{"text": "hi"}]},
                {"role": "assistant", "content": [{"toolUse": {"toolUseId": "c", "name": "f", "input": {}}}]},
                {
                    "role": "user",
                    "content": [
                        {"toolResult": {"toolUseId": "c", "content": [{"text": "1"}]}},
                        {"toolResult": {"toolUseId": "c", "content": [{"text": "2"}]}},
                    ],
                },
            ]
        },
    }
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request(provider, bodies[provider], strict=True)
    assert [detail["type"] for detail in raised.value.errors()] == ["duplicate_tool_result"]


@pytest.mark.parametrize("provider", [name for name in PROVIDERS if structure_for(name) is not None])
def test_an_empty_conversation_is_refused(provider: str) -> None:
    """Of the providers with structural rules: Gemini Interactions has none, since its
    ``input`` may continue history the server holds (``previous_interaction_id``)."""
    body = {**_USER[provider], _CONVERSATION[provider]: []}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request(provider, body, strict=True)
    assert raised.value.paths == [f"$.{_CONVERSATION[provider]}"]


@pytest.mark.parametrize("limit", [0, -5])
def test_a_non_positive_token_limit_is_refused(limit: int) -> None:
    body = {"model": "m", "max_tokens": limit, "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(chatcodec.ValidationError, match=rf"Expected a value >= 1, but got {limit} instead"):
        chatcodec.decode_request("openai-chat", body, strict=True)


def test_a_conversation_bedrock_cannot_start_is_refused_when_converting_to_it() -> None:
    body = {
        "model": "m",
        "max_tokens": 5,
        "messages": [{"role": "assistant", "content": "earlier"}, {"role": "user", "content": "hi"}],
    }
    chatcodec.convert_request(body, source="anthropic", target="openai-chat", strict=True)
    with pytest.raises(chatcodec.ValidationError, match="must start with a user message") as raised:
        chatcodec.convert_request(body, source="anthropic", target="bedrock-converse", strict=True)
    assert raised.value.paths == ["$.messages[0].role"]


_CALL = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}


def test_a_function_call_turn_gemini_cannot_take_is_refused_when_converting_to_it() -> None:
    """Gemini wants a function call turn right after a user turn or a function
    response turn; two assistant messages in a row (text, then calls) are two model turns."""
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "let me look"},
            {"role": "assistant", "tool_calls": [_CALL]},
            {"role": "tool", "tool_call_id": "c", "content": "1"},
        ],
    }
    chatcodec.convert_request(body, source="openai-chat", target="gemini", on_loss="ignore")  # the default converts
    chatcodec.convert_request(body, source="openai-chat", target="anthropic", strict=True, on_loss="ignore")
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.convert_request(body, source="openai-chat", target="gemini", strict=True)
    assert raised.value.paths == ["$.messages[2].role"]
    assert [detail["type"] for detail in raised.value.errors()] == ["function_call_turn"]
    assert "function call turn comes immediately after a user turn or after a function response turn" in str(
        raised.value
    )


def test_a_function_response_gemini_cannot_take_is_refused_when_converting_to_it() -> None:
    """Gemini wants the function responses right after the model turn with the calls."""
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [_CALL]},
            {"role": "user", "content": "and then?"},
            {"role": "tool", "tool_call_id": "c", "content": "1"},
        ],
    }
    chatcodec.decode_request("openai-chat", body, strict=True)
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.convert_request(body, source="openai-chat", target="gemini", strict=True)
    assert raised.value.paths == ["$.messages[3].role"]
    assert [detail["type"] for detail in raised.value.errors()] == ["function_response_turn"]
    assert "function response turn comes immediately after a function call turn" in str(raised.value)


def test_a_gemini_request_out_of_turn_is_refused_once_per_mistake() -> None:
    """Gemini's own request: a history opening on a function call is refused in Gemini's
    words (gemini-cli#11814); an orphan response is one error, not an orphan and a turn error."""
    call = {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}
    body = {"contents": [call, {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}]}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("gemini", body, strict=True)
    assert raised.value.paths == ["$.contents[0].role"]
    assert [detail["type"] for detail in raised.value.errors()] == ["function_call_turn"]
    orphan = {"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "g", "response": {}}}]}]}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("gemini", orphan, strict=True)
    assert [detail["type"] for detail in raised.value.errors()] == ["orphan_tool_result"]


def test_a_conversation_opening_on_the_assistant_is_taken_by_anthropic() -> None:
    """Anthropic once refused it ("first message must use the user role"); the recorded live
    request history_starts_with_assistant.json shows it no longer does, so strict does not."""
    body = {"model": "m", "messages": [{"role": "assistant", "content": "earlier"}, {"role": "user", "content": "hi"}]}
    converted = chatcodec.convert_request(body, source="openai-chat", target="anthropic", strict=True, on_loss="ignore")
    assert converted["messages"][0]["role"] == "assistant"


def test_a_strict_stream_names_the_event_and_the_field() -> None:
    events = [
        {"id": "1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": []},
        {"id": "1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [], "usgae": {}},
    ]
    chatcodec.accumulate_stream("openai-chat", events, partial=True)  # two chunks of no choice: no finish either
    with pytest.raises(chatcodec.StreamError, match=r"at event 1, \$\.usgae: `usgae`: unknown field"):
        chatcodec.accumulate_stream("openai-chat", events, strict=True)


# --- SDK objects anywhere -----------------------------------------------


def _anthropic_message() -> Any:
    from anthropic.types import Message

    return Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": [{"type": "text", "text": "hi"}, {"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )


def test_anthropic_sdk_blocks_inside_a_message_dict_decode_strictly() -> None:
    """What Anthropic's tool-use guide teaches: ``{"role": "assistant", "content": message.content}``."""
    message = _anthropic_message()
    body = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": message.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]},
        ],
    }
    plain = json.loads(
        json.dumps(
            {
                **body,
                "messages": [
                    *body["messages"][:1],
                    {
                        "role": "assistant",
                        "content": [block.model_dump(mode="json", exclude_none=True) for block in message.content],
                    },
                    body["messages"][2],
                ],
            }
        )
    )
    assert chatcodec.decode_request("anthropic", body, strict=True) == chatcodec.decode_request("anthropic", plain)
    converted = chatcodec.convert_request(body, source="anthropic", target="openai-chat", strict=True)
    assert converted["messages"][1]["tool_calls"][0]["id"] == "t1"


def test_an_openai_sdk_message_appended_to_a_list_decodes_strictly() -> None:
    """What OpenAI's function-calling guide teaches: ``messages.append(completion.choices[0].message)``."""
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate(
        {
            "id": "c",
            "object": "chat.completion",
            "created": 1,
            "model": "g",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                        ],
                    },
                }
            ],
        }
    )
    messages: list[Any] = [{"role": "user", "content": "hi"}]
    messages.append(completion.choices[0].message)
    messages.append({"role": "tool", "tool_call_id": "call_1", "content": "ok"})
    request = chatcodec.decode_request("openai-chat", {"model": "g", "messages": messages}, strict=True)
    assistant = request.messages[1]
    assert isinstance(assistant, chatcodec.AssistantMessage)
    assert assistant.tool_calls[0].id == "call_1"
    conversation = chatcodec.Conversation()
    assert len(conversation.append_provider_messages("openai-chat", messages, strict=True)) == 3


def test_a_litellm_message_with_provider_specific_fields_decodes_strictly() -> None:
    """litellm's ``Message`` (emulated: litellm is not installed) carries its own key."""
    from pydantic import BaseModel

    class Message(BaseModel):
        content: str | None = None
        role: str = "assistant"
        tool_calls: list[dict[str, Any]] | None = None
        function_call: dict[str, Any] | None = None
        provider_specific_fields: dict[str, Any] | None = None

    Message.__module__ = "litellm.types.utils"
    message = Message(content="hello", provider_specific_fields={"citations": None})
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}, message]}
    assistant = chatcodec.decode_request("openai-chat", body, strict=True).messages[1]
    assert isinstance(assistant, chatcodec.AssistantMessage)
    assert assistant.text == "hello"


def test_a_whole_response_appended_as_a_message_names_the_entry_point_that_fits() -> None:
    conversation = chatcodec.Conversation()
    with pytest.raises(chatcodec.ValidationError) as raised:
        conversation.append(_anthropic_message())
    assert raised.value.error_count() == 1
    assert 'this is an Anthropic response: use `append_response("anthropic", ...)`' in str(raised.value)
    conversation.append_response("anthropic", _anthropic_message(), strict=True)
    assert conversation.messages[-1].role == "assistant"


# --- field sets come from the codec (layering) ----------------------------------------


def test_the_field_set_is_the_codecs_so_a_codec_registered_under_another_name_has_it() -> None:
    """strict reaches providers through the registry only: the name is looked up there,
    and the codec it gives hands out its own field set."""
    chatcodec.register_codec("anthropic-gateway", lambda: get_codec("anthropic"))
    try:
        schema = schema_for("anthropic-gateway")
        with pytest.raises(chatcodec.ValidationError, match="did you mean `max_tokens`"):
            chatcodec.decode_request(
                "anthropic-gateway",
                {"model": "m", "max_tokenz": 5, "messages": [{"role": "user", "content": "hi"}]},
                strict=True,
            )
    finally:
        chatcodec.unregister_codec("anthropic-gateway")
    assert schema is not None
    assert "MessageCreateParamsNonStreaming" in schema.kinds


def test_a_codec_registered_under_another_name_brings_its_rules_and_extensions() -> None:
    """The structural rules, the documented extensions and the conversation
    key come through the codec, not from tables keyed by the name it is registered under."""
    chatcodec.register_codec("anthropic-gateway", lambda: get_codec("anthropic"))
    orphan = {
        "model": "m",
        "max_tokens": 5,
        "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": "1"}]}],
    }
    try:
        with pytest.raises(chatcodec.ValidationError) as raised:
            chatcodec.decode_request("anthropic-gateway", orphan, strict=True)
        assert [detail["type"] for detail in raised.value.errors()] == ["orphan_tool_result"]
        assert "Each `tool_result` block must have a corresponding `tool_use` block" in str(raised.value)
        with pytest.raises(chatcodec.ValidationError, match="`max_tokens` must be at least 1"):
            chatcodec.decode_request("anthropic-gateway", {**orphan, "max_tokens": 0, "messages": []}, strict=True)
        # an API-version extension row (temperature under 2023-06-01) is the codec's too
        body = {"model": "m", "max_tokens": 5, "temperature": 0.5, "messages": [{"role": "user", "content": "hi"}]}
        chatcodec.decode_request("anthropic-gateway", body, strict=True)
        with pytest.raises(chatcodec.ValidationError, match="did you mean `content`"):
            chatcodec.Conversation().append_provider_messages(
                "anthropic-gateway", [{"role": "user", "contnt": "hi"}], strict=True
            )
        start = {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "m",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 0},
        }
        events = [{"type": "ping"}, {"type": "message_start", "message": start}]  # a stream that says something
        list(chatcodec.decode_stream("anthropic-gateway", events, strict=True, partial=True))
    finally:
        chatcodec.unregister_codec("anthropic-gateway")


def test_formats_without_a_field_set_are_not_checked() -> None:
    assert schema_for("canonical") is None
    assert schema_for("no-such-format") is None


# --- every API version the provider documents ----------------------

_ANTHROPIC_2023_06_01_REQUEST = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 64,
    "temperature": 0.2,
    "top_p": 0.9,
    "top_k": 40,
    "messages": [{"role": "user", "content": "hi"}],
}


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_sampling_parameters_of_api_version_2023_06_01_pass_strict(stream: bool) -> None:
    """anthropic 2.12 (the generated table) targets 2026-10-21, which removed them; clients
    on ``anthropic-version: 2023-06-01`` (Claude Code, every older SDK) still send them."""
    body = {**_ANTHROPIC_2023_06_01_REQUEST, "stream": stream}
    decoded = chatcodec.decode_request("anthropic", body, strict=True)
    assert (decoded.temperature, decoded.top_p, decoded.top_k) == (0.2, 0.9, 40)


def test_a_misspelt_anthropic_sampling_parameter_is_refused_with_the_nearest_name() -> None:
    body = {**_ANTHROPIC_2023_06_01_REQUEST, "temprature": 0.2}
    del body["temperature"]
    with pytest.raises(chatcodec.ValidationError, match="did you mean `temperature`") as caught:
        chatcodec.decode_request("anthropic", body, strict=True)
    assert caught.value.paths == ["$.temprature"]


def test_every_api_version_row_names_its_versioning_source() -> None:
    rows = [row for row in EXTENSIONS if row.api_version]
    assert rows
    assert all("/versioning" in row.source for row in rows), rows


def test_a_stream_event_whose_type_is_a_list_is_refused_at_its_path() -> None:
    """Found by the fuzz law: the check for event types outside the SDK hashed the type."""
    with pytest.raises(chatcodec.StreamError) as caught:
        chatcodec.accumulate_stream("anthropic", [{"type": ["message_start"]}], strict=True)
    assert caught.value.event_index == 0


def test_a_misspelt_key_beside_a_deeply_nested_value_is_refused_not_a_recursion_error() -> None:
    """The misspelling is mended on a copy to ask which format the body looks like: a copy
    along the misspelt key's path only (a deep copy of the whole body overflowed the stack
    on a value nested 1,200 levels, found by the strict fuzz)."""
    deep: list[object] = []
    for _ in range(1200):
        deep = [deep]
    body = {"contents": [{"role": "user", "_parts": [{"text": "q"}, deep]}], "generationConfig": {}}
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.convert_request(body, source="gemini", target="bedrock-converse", strict=True, on_loss="ignore")
    assert body["contents"][0]["_parts"][0] == {"text": "q"}  # the caller's body is left as it was
