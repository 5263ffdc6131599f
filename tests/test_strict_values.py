"""Strict mode takes what the providers take and refuses what they refuse: required
fields, value types, enum values, ranges and one-member unions, from the SDK types and the
providers' docs; fields beyond the SDK types that the providers document; a body of
another format named as such."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._strict.fields import schema_for

_ANTHROPIC: dict[str, Any] = {"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}
_OPENAI: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
_GEMINI: dict[str, Any] = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
_BEDROCK: dict[str, Any] = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}


def _refused(provider: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request(provider, body, strict=True)
    return [dict(detail) for detail in raised.value.errors()]


def _with(body: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**copy.deepcopy(body), **fields}


# --- taken: what chatcodec writes, what the SDKs send, what the providers document -------


def test_a_bedrock_request_naming_its_model_id_passes_strict() -> None:
    """``modelId`` rides in the URL on the wire and is a ``converse()`` parameter in boto3;
    chatcodec's Bedrock writer puts it in the body, and its strict reader takes it back."""
    body = _with(_BEDROCK, modelId="anthropic.claude-sonnet-4-5")
    decoded = chatcodec.decode_request("bedrock-converse", body, strict=True)
    assert decoded.model == "anthropic.claude-sonnet-4-5"
    written = chatcodec.convert_request(_OPENAI, source="openai-chat", target="bedrock-converse")
    assert "modelId" in written
    chatcodec.decode_request("bedrock-converse", written, strict=True)


def _openai_answer_message() -> Any:
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate(
        {
            "id": "c",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-4o",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {
                        "role": "assistant",
                        "content": "Paris [1]",
                        "refusal": None,
                        "annotations": [
                            {
                                "type": "url_citation",
                                "url_citation": {
                                    "url": "https://x.test",
                                    "title": "x",
                                    "start_index": 6,
                                    "end_index": 9,
                                },
                            }
                        ],
                        "audio": {"id": "audio_1", "data": "AAAA", "expires_at": 2, "transcript": "Paris"},
                    },
                }
            ],
        }
    )
    return completion.choices[0].message


@pytest.mark.parametrize("form", ["sdk object", "dumped"])
def test_an_openai_sdk_answer_message_with_annotations_appended_as_it_is_passes_strict(form: str) -> None:
    """OpenAI's guides append ``completion.choices[0].message`` to ``messages``; the SDK
    sends every field the answer set, ``annotations`` and the audio transcript among them."""
    message = _openai_answer_message()
    appended = message if form == "sdk object" else message.model_dump(exclude_unset=True)
    body = _with(
        _OPENAI, messages=[{"role": "user", "content": "Capital?"}, appended, {"role": "user", "content": "ok"}]
    )
    decoded = chatcodec.decode_request("openai-chat", body, strict=True)
    assert decoded.messages[1].text == "Paris [1]"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("context_management", {"edits": [{"type": "clear_tool_uses_20250919"}]}),
        ("mcp_servers", [{"type": "url", "url": "https://mcp.example.test/sse", "name": "example"}]),
    ],
)
def test_an_anthropic_beta_request_field_passes_strict(field: str, value: object) -> None:
    chatcodec.decode_request("anthropic", _with(_ANTHROPIC, **{field: value}), strict=True)


@pytest.mark.parametrize("spelling", ["imageConfig", "image_config"])
def test_a_gemini_image_config_passes_strict(spelling: str) -> None:
    body = _with(_GEMINI, generationConfig={"responseModalities": ["IMAGE"], spelling: {"aspectRatio": "16:9"}})
    chatcodec.decode_request("gemini", body, strict=True)


def test_every_documented_value_rule_names_its_source() -> None:
    for provider in chatcodec.PROVIDER_NAMES:
        schema = schema_for(provider)
        if schema is None:  # no field sets: strict reading has no value rules for it
            continue
        for rules in schema.values.values():
            for rule in rules.values():
                documented = {"message", "under", "any_case"} & set(rule) or provider == "gemini"
                assert not documented or "source" in rule, rule
        for one_of in schema.one_of.values():
            assert one_of["source"].startswith("https://"), one_of


# --- refused: what the providers answer with a 400 ----------------------------------------


def test_an_anthropic_request_without_max_tokens_is_refused() -> None:
    body = _with(_ANTHROPIC)
    del body["max_tokens"]
    (detail,) = _refused("anthropic", body)
    assert (detail["loc"], detail["type"]) == ((), "missing_field")  # at the object: a path the input has
    assert "`max_tokens`" in detail["msg"]


def test_a_misspelt_required_field_is_one_problem_not_two() -> None:
    body = _with(_ANTHROPIC, max_tokenz=16)
    del body["max_tokens"]
    assert [detail["type"] for detail in _refused("anthropic", body)] == ["unknown_field"]


def test_an_empty_anthropic_text_block_is_refused_in_anthropics_words() -> None:
    body = _with(_ANTHROPIC, messages=[{"role": "user", "content": [{"type": "text", "text": ""}]}])
    (detail,) = _refused("anthropic", body)
    assert detail["loc"] == ("messages", 0, "content", 0, "text")
    assert detail["msg"] == "text content blocks must be non-empty"


def test_anthropic_thinking_enabled_without_a_budget_is_refused() -> None:
    (detail,) = _refused("anthropic", _with(_ANTHROPIC, thinking={"type": "enabled"}))
    assert (detail["loc"], detail["type"]) == (("thinking",), "missing_field")
    assert "`budget_tokens`" in detail["msg"]


def test_an_anthropic_thinking_budget_under_1024_is_refused() -> None:
    (detail,) = _refused(
        "anthropic", _with(_ANTHROPIC, max_tokens=4096, thinking={"type": "enabled", "budget_tokens": 100})
    )
    assert (detail["loc"], detail["type"]) == (("thinking", "budget_tokens"), "out_of_range")


@pytest.mark.parametrize("temperature", [-0.1, 1.5])
def test_an_anthropic_temperature_out_of_range_is_refused(temperature: float) -> None:
    (detail,) = _refused("anthropic", _with(_ANTHROPIC, temperature=temperature))
    assert (detail["loc"], detail["type"]) == (("temperature",), "out_of_range")
    chatcodec.decode_request("anthropic", _with(_ANTHROPIC, temperature=1), strict=True)


def test_openai_tool_call_arguments_given_as_an_object_are_refused() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": {"city": "Paris"}}}
    body = _with(
        _OPENAI,
        messages=[
            {"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
    )
    (detail,) = _refused("openai-chat", body)
    assert detail["loc"] == ("messages", 1, "tool_calls", 0, "function", "arguments")
    assert "expected a string, got an object" in detail["msg"]


def test_an_openai_request_without_a_model_is_refused() -> None:
    body = _with(_OPENAI)
    del body["model"]
    (detail,) = _refused("openai-chat", body)
    assert (detail["loc"], detail["type"]) == ((), "missing_field")
    assert "`model`" in detail["msg"]


def test_an_openai_temperature_of_7_is_refused_and_2_is_taken() -> None:
    (detail,) = _refused("openai-chat", _with(_OPENAI, temperature=7))
    assert (detail["loc"], detail["type"]) == (("temperature",), "out_of_range")
    assert "maximum, 2" in detail["msg"]
    chatcodec.decode_request("openai-chat", _with(_OPENAI, temperature=2), strict=True)


@pytest.mark.parametrize(
    ("provider", "body", "location"),
    [
        ("openai-chat", _with(_OPENAI, reasoning_effort="extreme"), ("reasoning_effort",)),
        ("openai-chat", _with(_OPENAI, tool_choice="sometimes"), ("tool_choice",)),
        ("openai-chat", _with(_OPENAI, service_tier="premium"), ("service_tier",)),
        ("anthropic", _with(_ANTHROPIC, service_tier="default"), ("service_tier",)),
        (
            "bedrock-converse",
            _with(_BEDROCK, messages=[{"role": "robot", "content": [{"text": "hi"}]}]),
            ("messages", 0, "role"),
        ),
    ],
)
def test_an_enum_value_outside_the_providers_set_is_refused(
    provider: str, body: dict[str, Any], location: tuple[object, ...]
) -> None:
    (detail,) = _refused(provider, body)
    assert (detail["loc"], detail["type"]) == (location, "unknown_value")


def test_an_enum_value_names_the_nearest_one() -> None:
    (detail,) = _refused("openai-chat", _with(_OPENAI, reasoning_effort="hihg"))
    assert "did you mean `high`?" in detail["msg"]


def test_a_bedrock_content_block_with_two_members_is_refused() -> None:
    block = {"text": "hi", "image": {"format": "png", "source": {"bytes": "aGk="}}}
    (detail,) = _refused("bedrock-converse", _with(_BEDROCK, messages=[{"role": "user", "content": [block]}]))
    assert (detail["loc"], detail["type"]) == (("messages", 0, "content", 0), "one_member")


def test_a_bedrock_temperature_above_1_is_refused_from_botocores_bounds() -> None:
    (detail,) = _refused("bedrock-converse", _with(_BEDROCK, inferenceConfig={"temperature": 1.2}))
    assert (detail["loc"], detail["type"]) == (("inferenceConfig", "temperature"), "out_of_range")


def test_an_answer_is_not_held_to_request_value_rules() -> None:
    """A server adds answer values before its SDK types them: only requests are checked."""
    response = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "service_tier": "a_tier_from_next_year",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "x"}}],
    }
    assert chatcodec.decode_response("openai-chat", response, strict=True).message.text == "x"


# --- a body in another format -------------------------------------------------------------


def test_an_anthropic_body_given_to_the_strict_openai_reader_is_named_as_anthropic() -> None:
    body = _with(_ANTHROPIC, system="be brief")
    (detail,) = _refused("openai-chat", body)
    assert detail["type"] == "wrong_format"
    assert "anthropic" in detail["msg"]
    assert "did you mean" not in detail["msg"]
    chatcodec.decode_request("anthropic", body, strict=True)


def test_a_token_limit_under_1_is_one_problem_in_the_providers_words() -> None:
    body = _with(_BEDROCK, inferenceConfig={"maxTokens": 0})
    assert [detail["type"] for detail in _refused("bedrock-converse", body)] == ["token_limit"]


def test_a_streaming_anthropic_request_is_held_to_the_rules_both_request_bodies_share() -> None:
    """No tag tells the streaming body from the other: what both require is required."""
    chatcodec.decode_request("anthropic", _with(_ANTHROPIC, stream=True), strict=True)
    chatcodec.decode_request("anthropic", _with(_ANTHROPIC, stream=False), strict=True)
    body = _with(_ANTHROPIC, stream=True)
    del body["max_tokens"]
    assert [detail["type"] for detail in _refused("anthropic", body)] == ["missing_field"]


@pytest.mark.parametrize(
    ("provider", "body", "location"),
    [
        (
            "openai-chat",
            _with(_OPENAI, messages=[{"role": "user", "content": [{"typel": "text", "text": "hi"}]}]),
            ("messages", 0, "content", 0, "typel"),
        ),
        (
            "anthropic",
            _with(_ANTHROPIC, messages=[{"role": "user", "content": [{"typel": "text", "text": "hi"}]}]),
            ("messages", 0, "content", 0, "typel"),
        ),
        (
            "anthropic",
            _with(
                _ANTHROPIC,
                messages=[
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "inputl": {}}]},
                ],
            ),
            ("messages", 1, "content", 0, "inputl"),
        ),
        # a mid-conversation system turn (Anthropic's on Opus 4.8+) looks like OpenAI Chat:
        # the answer was "this looks like a request in the openai-chat format"
        (
            "anthropic",
            {
                "model": "claude-opus-4-8",
                "max_tokenss": 10,
                "messages": [{"role": "user", "content": "q"}, {"role": "system", "content": "s"}],
            },
            ("max_tokenss",),
        ),
        (
            "anthropic",
            _with(
                _ANTHROPIC,
                messages=[
                    {"role": "user", "content": "q"},
                    {"role": "system", "content": [{"type": "text", "textt": "s"}]},
                ],
            ),
            ("messages", 1, "content", 0, "textt"),
        ),
    ],
)
def test_a_misspelt_key_names_itself_even_when_the_body_then_looks_like_another_format(
    provider: str, body: dict[str, Any], location: tuple[object, ...]
) -> None:
    # A part without `type` is Bedrock's shape, a tool_use without `input` canonical's: the
    # answer was "this looks like a request in the bedrock-converse format".
    detail = _refused(provider, body)[0]  # the misspelling first
    assert (detail["loc"], detail["type"]) == (location, "unknown_field")
    assert f"did you mean `{str(location[-1])[:-1]}`?" in detail["msg"]


# --- rules the providers document beyond their SDK types (tools/known_fields.py DOCUMENTED) ---


@pytest.mark.parametrize(
    ("provider", "body", "location", "rule"),
    [
        ("openai-chat", _with(_OPENAI, top_p=1.5), ("top_p",), "out_of_range"),
        ("openai-chat", _with(_OPENAI, n=0), ("n",), "out_of_range"),
        ("openai-responses", {"model": "m", "input": "hi", "top_p": 1.5}, ("top_p",), "out_of_range"),
        ("anthropic", _with(_ANTHROPIC, top_p=1.5), ("top_p",), "out_of_range"),
        ("gemini", _with(_GEMINI, generationConfig={"temperature": 2.5}), ("generationConfig", "temperature"), ""),
        ("gemini", _with(_GEMINI, generationConfig={"top_p": 1.5}), ("generationConfig", "top_p"), "out_of_range"),
        ("gemini", _with(_GEMINI, generationConfig={"candidateCount": 0}), ("generationConfig", "candidateCount"), ""),
    ],
)
def test_a_sampling_value_out_of_the_providers_documented_range_is_refused(
    provider: str, body: dict[str, Any], location: tuple[object, ...], rule: str
) -> None:
    (detail,) = _refused(provider, body)
    assert (detail["loc"], detail["type"]) == (location, rule or "out_of_range")


def test_an_anthropic_cache_control_type_other_than_ephemeral_is_refused() -> None:
    """anthropic 2.12 CacheControlEphemeralParam.type: ``Required[Literal["ephemeral"]]``, a
    request's one-arm tag (https://platform.claude.com/docs/en/build-with-claude/prompt-caching)."""
    block = {"type": "text", "text": "hi", "cache_control": {"type": "persistent"}}
    (detail,) = _refused("anthropic", _with(_ANTHROPIC, messages=[{"role": "user", "content": [block]}]))
    assert (detail["loc"], detail["type"]) == (("messages", 0, "content", 0, "cache_control", "type"), "unknown_type")


def test_a_gemini_turn_role_other_than_user_or_model_is_refused_but_not_the_system_instructions() -> None:
    body = {"contents": [{"role": "assistant", "parts": [{"text": "hi"}]}]}
    (detail,) = _refused("gemini", body)
    assert (detail["loc"], detail["type"]) == (("contents", 0, "role"), "unknown_value")
    assert "`user`, `model`" in detail["msg"]
    chatcodec.decode_request("gemini", _with(_GEMINI, systemInstruction={"role": "system", "parts": [{"text": "x"}]}))


@pytest.mark.parametrize(
    ("config", "location"),
    [
        (
            {"toolConfig": {"functionCallingConfig": {"mode": "SOMETIMES"}}},
            ("toolConfig", "functionCallingConfig", "mode"),
        ),
        (
            {"generationConfig": {"thinkingConfig": {"thinkingLevel": "ULTRA"}}},
            ("generationConfig", "thinkingConfig", "thinkingLevel"),
        ),
    ],
)
def test_a_gemini_enum_name_outside_its_set_is_refused(config: dict[str, Any], location: tuple[object, ...]) -> None:
    (detail,) = _refused("gemini", _with(_GEMINI, **config))
    assert (detail["loc"], detail["type"]) == (location, "unknown_value")


def test_a_gemini_enum_name_in_any_case_passes_as_proto3_json_reads_it() -> None:
    config = {"thinkingConfig": {"thinkingLevel": "low"}}
    body = _with(_GEMINI, generationConfig=config, toolConfig={"functionCallingConfig": {"mode": "any"}})
    chatcodec.decode_request("gemini", body, strict=True)


@pytest.mark.parametrize(
    ("part", "words"),
    [
        (
            {"text": "hi", "inlineData": {"mimeType": "image/png", "data": "aGk="}},
            "this one sets 2: `text`, `inlineData`",
        ),
        ({}, "required oneof field 'data' must have one initialized field"),
        ({"thought": True}, "required oneof field 'data' must have one initialized field"),
    ],
)
def test_a_gemini_part_with_two_data_members_or_none_is_refused(part: dict[str, Any], words: str) -> None:
    (detail,) = _refused("gemini", {"contents": [{"role": "user", "parts": [part]}]})
    assert (detail["loc"], detail["type"]) == (("contents", 0, "parts", 0), "one_member")
    assert words in detail["msg"]
