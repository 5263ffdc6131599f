"""Strict reading refuses the values the providers refuse that it once took (issue 76):
Anthropic tool names, tool-name clashes, a non-object tool schema, a thinking budget not
below ``max_tokens`` and a fifth cache breakpoint; Gemini safety settings, response MIME
types and modalities outside their enums; Responses ``include`` values outside
``ResponseIncludable``; an OpenAI ``user_location.type`` other than ``approximate``; an
empty Bedrock stop sequence and a Bedrock ``toolChoice`` of two members. Each refusal is a
:class:`chatcodec.ValidationError` at the value's path naming the rule, and what the
provider takes still passes."""

from __future__ import annotations

import copy
import inspect
import re
import typing
from typing import Any

import pytest

import chatcodec

_ANTHROPIC: dict[str, Any] = {"model": "m", "max_tokens": 2048, "messages": [{"role": "user", "content": "hi"}]}
_OPENAI: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
_RESPONSES: dict[str, Any] = {"model": "m", "input": "hi"}
_GEMINI: dict[str, Any] = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
_BEDROCK: dict[str, Any] = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}


def _refused(provider: str, body: dict[str, Any]) -> tuple[tuple[object, ...], str, str]:
    """The one problem strict reading finds: its path, its rule and its message."""
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request(provider, body, strict=True)
    (detail,) = raised.value.errors()
    return tuple(detail["loc"]), detail["type"], detail["msg"]


def _with(body: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**copy.deepcopy(body), **fields}


def _tool(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "input_schema": schema or {"type": "object", "properties": {}}}


# --- Anthropic ---------------------------------------------------------------------------

_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
"""https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use: a tool's
``name`` "must match the regex ^[a-zA-Z0-9_-]{1,64}$"."""


@pytest.mark.parametrize("name", ["get weather", "", "x" * 65, "get.weather", "wetter_für_heute"])
def test_an_anthropic_tool_name_outside_the_documented_pattern_is_refused(name: str) -> None:
    assert _TOOL_NAME.match(name) is None
    location, rule, message = _refused("anthropic", _with(_ANTHROPIC, tools=[_tool(name)]))
    assert (location, rule) == (("tools", 0, "name"), "pattern_mismatch")
    assert "1 to 64 characters" in message


@pytest.mark.parametrize("name", ["get_weather", "get-weather", "X" * 64, "a1"])
def test_an_anthropic_tool_name_the_pattern_takes_passes(name: str) -> None:
    assert _TOOL_NAME.match(name) is not None
    chatcodec.decode_request("anthropic", _with(_ANTHROPIC, tools=[_tool(name)]), strict=True)


def test_two_anthropic_tools_of_one_name_are_refused_at_the_second() -> None:
    """The API's 400: "tools: Tool names must be unique." A server tool's name counts too."""
    tools = [_tool("lookup"), {"type": "web_search_20250305", "name": "web_search"}, _tool("lookup")]
    location, rule, message = _refused("anthropic", _with(_ANTHROPIC, tools=tools))
    assert (location, rule) == (("tools", 2, "name"), "not_unique")
    assert "Tool names must be unique." in message
    distinct = [_tool("lookup"), {"type": "web_search_20250305", "name": "web_search"}]
    chatcodec.decode_request("anthropic", _with(_ANTHROPIC, tools=distinct), strict=True)


def test_an_anthropic_tool_schema_whose_type_is_not_object_is_refused() -> None:
    """anthropic 2.12 ``types/tool_param.py``: ``InputSchemaTyped.type: Required[Literal["object"]]``."""
    from anthropic.types.tool_param import InputSchemaTyped

    hints = typing.get_type_hints(InputSchemaTyped, include_extras=True)
    assert typing.get_args(typing.get_args(hints["type"])[0]) == ("object",)
    tools = [_tool("lookup", {"type": "string"})]
    location, rule, _ = _refused("anthropic", _with(_ANTHROPIC, tools=tools))
    assert (location, rule) == (("tools", 0, "input_schema", "type"), "unknown_value")
    # Inside the schema nothing else is looked at: a property named `type` is the tool's own.
    free = [_tool("lookup", {"type": "object", "properties": {"type": {"type": "string"}}})]
    chatcodec.decode_request("anthropic", _with(_ANTHROPIC, tools=free), strict=True)


def test_an_anthropic_thinking_budget_not_below_max_tokens_is_refused() -> None:
    """anthropic 2.12 ``ThinkingConfigEnabledParam.budget_tokens``: "Must be ≥1024 and less than
    `max_tokens`"; the API's 400: "`max_tokens` must be greater than `thinking.budget_tokens`"."""
    from anthropic.types import thinking_config_enabled_param

    assert "Must be ≥1024 and less than `max_tokens`." in inspect.getsource(thinking_config_enabled_param)
    for budget in (2048, 4096):
        body = _with(_ANTHROPIC, thinking={"type": "enabled", "budget_tokens": budget})
        location, rule, message = _refused("anthropic", body)
        assert (location, rule) == (("max_tokens",), "not_above")
        assert message == "`max_tokens` must be greater than `thinking.budget_tokens`"
    below = _with(_ANTHROPIC, thinking={"type": "enabled", "budget_tokens": 1024})
    chatcodec.decode_request("anthropic", below, strict=True)
    adaptive = _with(_ANTHROPIC, max_tokens=1024, thinking={"type": "adaptive"})
    chatcodec.decode_request("anthropic", adaptive, strict=True)


def _breakpoints(count: int, top_level: bool = False) -> dict[str, Any]:
    """A request with ``count`` cache breakpoints spread over tools, system and messages
    (one on a tool result's inner block), and one more at the top when asked."""
    mark = {"type": "ephemeral"}
    tool = {**_tool("lookup"), "cache_control": None}
    system = [{"type": "text", "text": "s", "cache_control": None}]
    inner = {"type": "text", "text": "18C", "cache_control": None}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": [inner]}
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "weather?", "cache_control": None}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}]},
        {"role": "user", "content": [result, {"type": "text", "text": "thanks", "cache_control": None}]},
    ]
    places = [tool, system[0], messages[0]["content"][0], inner, messages[2]["content"][1]]
    for place in places[:count]:
        place["cache_control"] = dict(mark)
    for place in places[count:]:
        del place["cache_control"]
    body = {"model": "m", "max_tokens": 2048, "tools": [tool], "system": system, "messages": messages}
    return {**body, "cache_control": dict(mark)} if top_level else body


def test_a_fifth_anthropic_cache_breakpoint_is_refused_where_it_is() -> None:
    """https://platform.claude.com/docs/en/build-with-claude/prompt-caching: at most 4 cache
    breakpoints in a request; the API's 400: "A maximum of 4 blocks with cache_control may be
    provided. Found 5." Tools, system and messages count together, in the request's order."""
    location, rule, message = _refused("anthropic", _breakpoints(5))
    assert (location, rule) == (("messages", 2, "content", 1, "cache_control"), "too_many")
    assert message == "A maximum of 4 blocks with cache_control may be provided. Found 5."
    chatcodec.decode_request("anthropic", _breakpoints(4), strict=True)


def test_the_top_level_cache_control_takes_one_of_the_four_breakpoints() -> None:
    """anthropic 2.12 ``MessageCreateParams.cache_control``: "Top-level cache control
    automatically applies a cache_control marker to the last cacheable block": one more
    breakpoint (coder/mux#3112 met the 400 so)."""
    location, rule, message = _refused("anthropic", _breakpoints(4, top_level=True))
    assert rule == "too_many"
    assert location[-1] == "cache_control"
    assert "Found 5." in message
    chatcodec.decode_request("anthropic", _breakpoints(3, top_level=True), strict=True)


def test_a_property_named_cache_control_in_a_tool_schema_is_no_breakpoint() -> None:
    body = _breakpoints(4)
    body["tools"][0]["input_schema"] = {"type": "object", "properties": {"cache_control": {"type": "object"}}}
    chatcodec.decode_request("anthropic", body, strict=True)


def test_what_chatcodec_writes_for_anthropic_passes_the_new_rules() -> None:
    """A request converted to Anthropic (tools, thinking, cache marks) is read back strictly."""
    source = _with(
        _OPENAI,
        model="claude-sonnet-4-5",
        max_tokens=4096,
        reasoning_effort="low",
        tools=[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
    )
    written = chatcodec.convert_request(source, source="openai-chat", target="anthropic", on_loss="ignore")
    assert written["thinking"]["budget_tokens"] < written["max_tokens"]
    chatcodec.decode_request("anthropic", written, strict=True)


# --- Gemini ------------------------------------------------------------------------------


def _enum(name: str) -> list[str]:
    from google.genai import types

    return [str(member.value) for member in getattr(types, name)]


@pytest.mark.parametrize("key", ["safetySettings", "safety_settings"])
def test_a_gemini_safety_setting_outside_the_sdks_enums_is_refused(key: str) -> None:
    """google-genai 3.4 ``SafetySetting.category: HarmCategory``, ``.threshold: HarmBlockThreshold``."""
    wrong = _with(_GEMINI, **{key: [{"category": "HARM_CATEGORY_VIOLENCE", "threshold": "BLOCK_NONE"}]})
    assert _refused("gemini", wrong)[:2] == ((key, 0, "category"), "unknown_value")
    wrong = _with(_GEMINI, **{key: [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_SOME"}]})
    assert _refused("gemini", wrong)[:2] == ((key, 0, "threshold"), "unknown_value")
    every = [
        {"category": category, "threshold": threshold}
        for category, threshold in zip(_enum("HarmCategory"), _enum("HarmBlockThreshold") * 2, strict=False)
    ]
    # proto3 JSON takes an enum name in any case, or its number.
    every += [{"category": "harm_category_hate_speech", "threshold": "block_none"}, {"category": 2, "threshold": 4}]
    chatcodec.decode_request("gemini", _with(_GEMINI, **{key: every}), strict=True)


@pytest.mark.parametrize(
    ("config", "key", "mime", "modalities"),
    [
        ("generationConfig", "responseMimeType", "responseMimeType", "responseModalities"),
        ("generation_config", "response_mime_type", "response_mime_type", "response_modalities"),
    ],
)
def test_a_gemini_response_mime_type_or_modality_outside_its_enum_is_refused(
    config: str, key: str, mime: str, modalities: str
) -> None:
    """The API's 400: "response_mime_type: allowed mimetypes are text/plain, application/json,
    application/xml, application/yaml and text/x.enum"
    (https://ai.google.dev/api/generate-content#FIELDS.response_mime_type); google-genai 3.4
    ``GenerationConfig.response_modalities: list[Modality]``."""
    location, rule, _ = _refused("gemini", _with(_GEMINI, **{config: {mime: "text/csv"}}))
    assert (location, rule) == ((config, key), "unknown_value")
    location, rule, _ = _refused("gemini", _with(_GEMINI, **{config: {modalities: ["TEXT", "SMELL"]}}))
    assert (location, rule) == ((config, modalities, 1), "unknown_value")
    for allowed in ("text/plain", "application/json", "application/xml", "application/yaml", "text/x.enum"):
        taken = {mime: allowed, modalities: [*_enum("Modality"), "image"]}
        chatcodec.decode_request("gemini", _with(_GEMINI, **{config: taken}), strict=True)


# --- OpenAI ------------------------------------------------------------------------------


def test_a_responses_include_value_outside_response_includable_is_refused() -> None:
    """openai 3.54 ``ResponseCreateParams.include: List[ResponseIncludable]``, a ``Literal``."""
    from openai.types.responses import ResponseIncludable

    values = list(typing.get_args(ResponseIncludable))
    chatcodec.decode_request("openai-responses", _with(_RESPONSES, include=values), strict=True)
    location, rule, message = _refused("openai-responses", _with(_RESPONSES, include=[values[0], "usage.details"]))
    assert (location, rule) == (("include", 1), "unknown_value")
    assert "`usage.details`: not a value of `include`" in message


def test_an_openai_user_location_type_other_than_approximate_is_refused() -> None:
    """openai 3.54 ``WebSearchOptionsUserLocation.type: Required[Literal["approximate"]]``: a
    request's tag is held to its one arm as to several."""
    from openai.types.chat.completion_create_params import WebSearchOptionsUserLocation

    hints = typing.get_type_hints(WebSearchOptionsUserLocation, include_extras=True)
    assert typing.get_args(typing.get_args(hints["type"])[0]) == ("approximate",)
    location_of = {"approximate": {"city": "Paris", "country": "FR"}}
    wrong = _with(_OPENAI, web_search_options={"user_location": {"type": "exact", **location_of}})
    location, rule, message = _refused("openai-chat", wrong)
    assert (location, rule) == (("web_search_options", "user_location", "type"), "unknown_type")
    assert "`approximate`" in message
    right = _with(_OPENAI, web_search_options={"user_location": {"type": "approximate", **location_of}})
    chatcodec.decode_request("openai-chat", right, strict=True)


# --- Bedrock Converse ----------------------------------------------------------------------


def test_an_empty_bedrock_stop_sequence_is_refused() -> None:
    """botocore's bedrock-runtime model: ``InferenceConfiguration.stopSequences`` is a
    ``NonEmptyStringList`` of ``NonEmptyString`` (min 1)."""
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    member = model.shape_for("InferenceConfiguration").members["stopSequences"].member
    assert member.metadata["min"] == 1
    body = _with(_BEDROCK, inferenceConfig={"stopSequences": ["END", ""]})
    assert _refused("bedrock-converse", body)[:2] == (("inferenceConfig", "stopSequences", 1), "too_short")
    chatcodec.decode_request(
        "bedrock-converse", _with(_BEDROCK, inferenceConfig={"stopSequences": ["END"]}), strict=True
    )


def test_a_bedrock_tool_choice_of_two_members_is_refused() -> None:
    """botocore's bedrock-runtime model: ``ToolChoice`` is a union (``auto``, ``any``,
    ``tool``): "Only one of the following members can be set"."""
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    assert model.shape_for("ToolChoice").metadata.get("union") is True
    tools = [{"toolSpec": {"name": "lookup", "inputSchema": {"json": {"type": "object"}}}}]
    two = _with(_BEDROCK, toolConfig={"tools": tools, "toolChoice": {"auto": {}, "any": {}}})
    assert _refused("bedrock-converse", two)[:2] == (("toolConfig", "toolChoice"), "one_member")
    one = _with(_BEDROCK, toolConfig={"tools": tools, "toolChoice": {"tool": {"name": "lookup"}}})
    chatcodec.decode_request("bedrock-converse", one, strict=True)
