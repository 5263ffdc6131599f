"""Tool and output schemas cross formats as each target takes them, every change a loss
of kind ``schema`` at its path inside the schema, and a schema goes back to the format it
came from unchanged. Each body written is checked by its SDK's request types."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from openai.lib._pydantic import _ensure_strict_json_schema  # pyright: ignore[reportPrivateUsage]

import chatcodec
from providers.anthropic.anthropic_support import assert_valid_request as assert_anthropic
from providers.bedrock_converse.bedrock_support import assert_valid_request as assert_bedrock
from providers.ollama.ollama_support import assert_valid_request as assert_ollama
from providers.openai_chat.openai_chat_support import assert_request_matches_sdk as assert_openai_chat
from providers.openai_responses.responses_support import assert_request_matches_sdk as assert_responses

_USER = {"role": "user", "parts": [{"text": "book a table"}]}
_GEMINI_PARAMETERS: dict[str, Any] = {
    "type": "OBJECT",
    "properties": {
        "city": {"type": "STRING", "nullable": True},
        "size": {"type": "INTEGER", "minimum": 1},
        "seat": {"type": "STRING", "format": "enum", "enum": ["window", "aisle"]},
    },
    "required": ["size"],
    "propertyOrdering": ["size", "city", "seat"],
}
_JSON_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "size": {"type": "integer", "minimum": 1},
        "city": {"type": ["string", "null"]},
        "seat": {"type": "string", "enum": ["window", "aisle"]},
    },
    "required": ["size"],
}
_GEMINI_BODY: dict[str, Any] = {
    "contents": [_USER],
    "tools": [{"functionDeclarations": [{"name": "book", "parameters": _GEMINI_PARAMETERS}]}],
    "generationConfig": {"responseMimeType": "application/json", "responseSchema": _GEMINI_PARAMETERS},
}
_CHECKS = {
    "anthropic": assert_anthropic,
    "bedrock-converse": assert_bedrock,
    "ollama": assert_ollama,
    "openai-chat": assert_openai_chat,
    "openai-responses": assert_responses,
}
_OPTIONS: dict[str, dict[str, Any]] = {"anthropic": {"model": "m", "max_tokens": 100}, "bedrock-converse": {}}


def _convert(
    body: dict[str, Any], source: str, target: str, **options: Any
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        body,
        source=source,
        target=target,
        on_loss="ignore",
        losses=losses,
        options={**_OPTIONS.get(target, {"model": "m"}), **options},
    )
    _CHECKS[target](converted) if target in _CHECKS else None
    return converted, losses


def _tool_schema(body: dict[str, Any], target: str) -> Any:
    tool = (body["toolConfig"] if target == "bedrock-converse" else body)["tools"][0]
    match target:
        case "anthropic":
            return tool["input_schema"]
        case "bedrock-converse":
            return tool["toolSpec"]["inputSchema"]["json"]
        case "openai-responses":
            return tool["parameters"]
        case _:
            return tool["function"]["parameters"]


def _format_schema(body: dict[str, Any], target: str) -> Any:
    match target:
        case "anthropic":
            return body["output_config"]["format"]["schema"]
        case "openai-chat":
            return body["response_format"]["json_schema"]["schema"]
        case "openai-responses":
            return body["text"]["format"]["schema"]
        case "ollama":
            return body["format"]
        case _:
            raise AssertionError(target)


def _schema_losses(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.path for loss in losses if loss.kind == "schema"]


# --- Gemini's OpenAPI subset ---------------------------------------------------------------------


@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "openai-responses", "bedrock-converse", "ollama"])
def test_a_gemini_parameters_schema_is_written_as_json_schema(target: str) -> None:
    body, losses = _convert(_GEMINI_BODY, "gemini", target)
    assert _tool_schema(body, target) == _JSON_PARAMETERS
    assert "$.tools[0].parameters" in _schema_losses(losses)
    assert "$.tools[0].parameters.propertyOrdering" in _schema_losses(losses)
    assert not any("_schema_key" in loss.what for loss in losses)  # the marker's meaning crossed


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "ollama"])
def test_a_gemini_response_schema_is_written_as_json_schema(target: str) -> None:
    body, losses = _convert(_GEMINI_BODY, "gemini", target)
    assert _format_schema(body, target) == _JSON_PARAMETERS
    assert "$.response_format.json_schema" in _schema_losses(losses)


@pytest.mark.parametrize(
    "spelling", ["1" * 5000, "1e400", "\u00b2"], ids=["5000-digits", "past-a-double", "superscript"]
)
def test_a_gemini_number_string_no_json_number_holds_stays_the_string_it_was(spelling: str) -> None:
    # Gemini's OpenAPI subset spells int64 counts and a numeric enum's values as strings; one
    # that reads as no finite number (past Python's 4300-digit parse, past a double, a digit
    # that is not ASCII) raised a bare ValueError or was written as Infinity, which is not JSON
    node = {"type": "INTEGER", "format": "enum", "enum": [spelling], "maxItems": spelling}
    schema = {"type": "OBJECT", "properties": {"a": node, "b": {"type": "STRING", "maxLength": spelling}}}
    body = {**_GEMINI_BODY, "tools": [{"functionDeclarations": [{"name": "book", "parameters": schema}]}]}
    converted, _ = _convert(body, "gemini", "openai-chat")
    json.dumps(converted, allow_nan=False)
    properties = _tool_schema(converted, "openai-chat")["properties"]
    assert properties["a"]["enum"] == [spelling]
    assert properties["a"]["maxItems"] == spelling
    assert properties["b"]["maxLength"] == spelling


def test_a_gemini_schema_comes_back_to_gemini_as_it_was_sent() -> None:
    losses: list[chatcodec.Loss] = []
    back = chatcodec.convert_request(_GEMINI_BODY, source="gemini", target="gemini", on_loss="error", losses=losses)
    assert (back, losses) == (_GEMINI_BODY, [])


def test_through_another_format_gemini_gets_the_json_schema_under_its_json_schema_key() -> None:
    there, _ = _convert(_GEMINI_BODY, "gemini", "openai-chat")
    back = chatcodec.convert_request(there, source="openai-chat", target="gemini", on_loss="ignore")
    declaration = back["tools"][0]["functionDeclarations"][0]
    assert declaration["parametersJsonSchema"] == _JSON_PARAMETERS
    assert back["generationConfig"]["responseJsonSchema"] == _JSON_PARAMETERS


# --- Anthropic's structured-outputs subset -------------------------------------------------------

_STRICT_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "size": {"type": "integer", "minimum": 1, "maximum": 12, "description": "guests"},
        "note": {"oneOf": [{"type": "string", "maxLength": 80}, {"type": "null"}]},
        "when": {"type": "string", "format": "date-time"},
    },
    "required": ["size", "note", "when"],
    "additionalProperties": False,
}
_ANTHROPIC_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "size": {"type": "integer", "description": "guests\n\n{minimum: 1, maximum: 12}"},
        "note": {"anyOf": [{"type": "string", "description": "{maxLength: 80}"}, {"type": "null"}]},
        "when": {"type": "string", "format": "date-time"},
    },
    "required": ["size", "note", "when"],
    "additionalProperties": False,
}
_OPENAI_STRICT_BODY: dict[str, Any] = {
    "model": "gpt-5.1",
    "messages": [{"role": "user", "content": "book"}],
    "tools": [{"type": "function", "function": {"name": "book", "parameters": _STRICT_PARAMETERS, "strict": True}}],
    "response_format": {
        "type": "json_schema",
        "json_schema": {"name": "booking", "schema": _STRICT_PARAMETERS, "strict": True},
    },
}


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_a_strict_tool_reaches_claude_in_the_structured_outputs_subset(target: str) -> None:
    body, losses = _convert(_OPENAI_STRICT_BODY, "openai-chat", target)
    assert _tool_schema(body, target) == _ANTHROPIC_PARAMETERS
    assert set(_schema_losses(losses)) >= {
        "$.tools[0].parameters.properties.size.minimum",
        "$.tools[0].parameters.properties.size.maximum",
        "$.tools[0].parameters.properties.note.oneOf",
        "$.tools[0].parameters.properties.note.anyOf[0].maxLength",
    }


def test_an_output_format_reaches_anthropic_in_the_structured_outputs_subset() -> None:
    body, losses = _convert(_OPENAI_STRICT_BODY, "openai-chat", "anthropic")
    assert body["output_config"]["format"] == {"type": "json_schema", "schema": _ANTHROPIC_PARAMETERS}
    assert "$.response_format.json_schema.properties.size.minimum" in _schema_losses(losses)


def test_an_output_format_reaches_bedrock_in_the_structured_outputs_subset() -> None:
    body, _ = _convert(_OPENAI_STRICT_BODY, "openai-chat", "bedrock-converse")
    text = body["outputConfig"]["textFormat"]["structure"]["jsonSchema"]["schema"]
    assert chatcodec._payloads.read_json_text(text) == _ANTHROPIC_PARAMETERS


def test_a_non_strict_tool_reaches_anthropic_as_it_was() -> None:
    body = copy.deepcopy(_OPENAI_STRICT_BODY)
    del body["tools"][0]["function"]["strict"]
    converted, losses = _convert(body, "openai-chat", "anthropic")
    assert converted["tools"][0]["input_schema"] is not None
    assert converted["tools"][0]["input_schema"] == _STRICT_PARAMETERS
    assert not any(loss.path.startswith("$.tools") for loss in losses)


@pytest.mark.parametrize("source", ["anthropic", "bedrock-converse"])
def test_a_strict_schema_outside_the_subset_goes_back_to_its_own_format_unchanged(source: str) -> None:
    """The API judges what its sender wrote: chatcodec writes it back as it came."""
    outside = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 3}}}
    if source == "anthropic":
        body: dict[str, Any] = {
            "model": "claude-opus-4-5",
            "max_tokens": 10,
            "messages": [{"role": "user", "content": "q"}],
            "tools": [{"name": "f", "input_schema": outside, "strict": True}],
            "output_config": {"format": {"type": "json_schema", "schema": outside}},
        }
    else:
        spec = {"name": "f", "inputSchema": {"json": outside}, "strict": True}
        body = {
            "messages": [{"role": "user", "content": [{"text": "q"}]}],
            "toolConfig": {"tools": [{"toolSpec": spec}]},
        }
    losses: list[chatcodec.Loss] = []
    back = chatcodec.convert_request(body, source=source, target=source, on_loss="error", losses=losses)
    assert (back, losses) == (body, [])


# --- OpenAI strict mode --------------------------------------------------------------------------

_OPTIONAL_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
    "required": ["city"],
    "additionalProperties": False,
}
_ANTHROPIC_STRICT_BODY: dict[str, Any] = {
    "model": "claude-opus-4-5",
    "max_tokens": 100,
    "messages": [{"role": "user", "content": "weather?"}],
    "tools": [{"name": "weather", "input_schema": _OPTIONAL_PARAMETERS, "strict": True}],
}
_REQUIRED_NULLABLE: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": ["string", "null"], "enum": ["c", "f", None]}},
    "required": ["city", "unit"],
    "additionalProperties": False,
}


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_an_anthropic_strict_tool_with_an_optional_property_is_rewritten_for_openai(target: str) -> None:
    body, losses = _convert(_ANTHROPIC_STRICT_BODY, "anthropic", target)
    schema = _tool_schema(body, target)
    assert schema == _REQUIRED_NULLABLE
    assert _ensure_strict_json_schema(copy.deepcopy(schema), path=(), root=copy.deepcopy(schema)) == schema
    tool = body["tools"][0]
    assert (tool if target == "openai-responses" else tool["function"])["strict"] is True
    assert _schema_losses(losses) == ["$.tools[0].parameters.properties.unit"]
    assert "optional property 'unit' made required and nullable" in [loss.what for loss in losses]


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_the_strict_schema_option_sends_the_schema_as_it_is_without_strict(target: str) -> None:
    body, losses = _convert(_ANTHROPIC_STRICT_BODY, "anthropic", target, strict_schema="drop_strict")
    assert _tool_schema(body, target) == _OPTIONAL_PARAMETERS
    tool = body["tools"][0]
    assert (tool if target == "openai-responses" else tool["function"])["strict"] is False
    [loss] = [loss for loss in losses if loss.kind == "schema"]
    assert loss.path == "$.tools[0].parameters"
    assert loss.what.startswith("strict turned off")


def test_an_unknown_strict_schema_option_is_refused() -> None:
    with pytest.raises(chatcodec.PayloadError, match="strict_schema"):
        _convert(_ANTHROPIC_STRICT_BODY, "anthropic", "openai-chat", strict_schema="loose")


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_a_strict_output_format_is_closed_and_required_for_openai(target: str) -> None:
    canonical = chatcodec.ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [{"role": "user", "content": "q"}],
            "response_format": {
                "type": "json_schema",
                "name": "w",
                "json_schema": _OPTIONAL_PARAMETERS,
                "strict": True,
            },
        }
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, canonical, on_loss="ignore", losses=losses)
    _CHECKS[target](body)
    assert _format_schema(body, target) == _REQUIRED_NULLABLE
    assert _schema_losses(losses) == ["$.response_format.json_schema.properties.unit"]


def test_an_optional_property_of_a_strict_openai_tool_goes_back_to_openai_unchanged() -> None:
    body = {
        "model": "gpt-5.1",
        "messages": [{"role": "user", "content": "q"}],
        "tools": [{"type": "function", "function": {"name": "w", "parameters": _OPTIONAL_PARAMETERS, "strict": True}}],
    }
    losses: list[chatcodec.Loss] = []
    back = chatcodec.convert_request(body, source="openai-chat", target="openai-chat", on_loss="error", losses=losses)
    assert (back, losses) == (body, [])


# --- the loss kind -------------------------------------------------------------------------------


def test_schema_changes_are_their_own_loss_kind_a_policy_can_refuse() -> None:
    assert "schema" in chatcodec._losses.LOSS_KINDS
    with pytest.raises(chatcodec.LossError) as raised:
        chatcodec.convert_request(
            _GEMINI_BODY, source="gemini", target="anthropic", on_loss={"schema": "error", "*": "ignore"}
        )
    assert {loss.kind for loss in raised.value.losses} == {"schema"}
    assert "$.tools[0].parameters.propertyOrdering" in [loss.path for loss in raised.value.losses]


def test_a_schema_changed_in_place_between_conversions_is_written_afresh() -> None:
    """A conversion makes each schema's JSON text once, for its read and its write (its
    ``Reading`` record); what it remembered ends with it, so the same schema object changed
    in place before the next conversion is judged by its new text."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    function = {"name": "f", "parameters": schema, "strict": True}
    request = {
        "model": "gpt-5",
        "messages": [{"role": "user", "content": "q"}],
        "tools": [{"type": "function", "function": function}],
    }

    def written() -> tuple[Any, list[str]]:
        losses: list[chatcodec.Loss] = []
        body = chatcodec.convert_request(
            request, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
        )
        return body["tools"][0]["input_schema"], [loss.what for loss in losses if loss.kind == "schema"]

    assert written() == (schema, [])
    schema["additionalProperties"] = 0  # equal to False in Python, told apart by its text
    subset, changes = written()
    assert changes == ["additionalProperties set to false"]
    assert subset["additionalProperties"] is False
    with pytest.raises(chatcodec.ChatcodecError):
        chatcodec.convert_request({"messages": 1}, source="openai-chat", target="anthropic")


@pytest.mark.parametrize("source", ["openai-chat", "openai-responses", "ollama"])
def test_a_schema_only_like_geminis_reads_back_with_no_mark(source: str) -> None:
    """An upper-case ``type`` Gemini does not spell (``"A"``) looks like Gemini's OpenAPI
    subset, but its rewrite to JSON Schema changes nothing: the writer sends it as it is
    (no loss), so reading it back gives the request exactly, with no as-sent mark (data
    the request never had); a real Gemini spelling read from a body is still marked."""
    request = chatcodec.ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [{"role": "user", "content": "hi"}],
            "response_format": {"type": "json_schema", "json_schema": {"type": "A"}}
            | ({} if source == "ollama" else {"name": "answer"}),  # Ollama's format has no name
        }
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(source, request, on_loss="ignore", losses=losses)
    assert [loss for loss in losses if loss.kind == "schema"] == []
    assert chatcodec.decode_request(source, body) == request
    text = json.dumps(body)
    gemini_spelled = json.loads(text.replace('"A"', '"STRING"'))  # Gemini's spelling of a string type
    assert gemini_spelled != body
    assert chatcodec.decode_request(source, gemini_spelled).provider_options is not None


@pytest.mark.parametrize(
    ("source", "place"),
    [
        *(
            (source, place)
            for source in ("openai-chat", "openai-responses", "anthropic")
            for place in ("tool", "response_format")
        ),
        ("bedrock-converse", "tool"),  # its output format's schema is JSON text, read as it came
    ],
)
def test_a_strict_schema_only_like_geminis_reads_back_with_no_mark(source: str, place: str) -> None:
    """The same for a strict tool or output format, whose writer rewrites in two steps
    (Gemini's spellings to JSON Schema, then the format's strict subset): when neither
    changes the schema, the reader marks nothing, as the writer sends it as it is."""
    schema = {"type": "A"}
    fields: dict[str, Any] = {
        "model": "m",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    }
    if place == "tool":
        fields["tools"] = [{"name": "f", "parameters": schema, "strict": True}]
    else:
        fields["response_format"] = {"type": "json_schema", "name": "answer", "json_schema": schema, "strict": True}
    request = chatcodec.ChatRequest.model_validate(fields)
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(source, request, on_loss="ignore", losses=losses)
    assert [loss for loss in losses if loss.kind == "schema"] == []
    back = chatcodec.decode_request(source, body)
    assert "as_sent" not in json.dumps(back.model_dump(mode="json"))
    gemini_spelled = json.loads(json.dumps(body).replace('"A"', '"STRING"'))
    assert "as_sent" in json.dumps(chatcodec.decode_request(source, gemini_spelled).model_dump(mode="json"))
