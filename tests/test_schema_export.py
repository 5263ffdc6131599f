"""The committed JSON Schemas match the code, and canonical JSON validates against them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pydantic
import pytest

import chatcodec
from chatcodec.cli import main

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
KINDS = chatcodec.SCHEMA_KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_matches_the_code(kind: chatcodec.SchemaKind) -> None:
    committed = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    assert committed == chatcodec.json_schema(kind)


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_2020_12(kind: chatcodec.SchemaKind) -> None:
    schema = chatcodec.json_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_descriptions_come_from_docstrings() -> None:
    definitions = chatcodec.json_schema("messages")["$defs"]
    assert definitions["ToolUsePart"]["properties"]["arguments"]["description"].startswith("Argument text exactly")
    assert "reasoning" in definitions["ThinkingPart"]["description"]


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="known kinds"):
        chatcodec.json_schema("conversation")  # type: ignore[arg-type]  # misuse on purpose


def test_example_session_validates_against_the_messages_schema() -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "agent_session.json"
    messages = chatcodec.validate_messages(example.read_bytes())
    validator = jsonschema.Draft202012Validator(chatcodec.json_schema("messages"))
    validator.validate(chatcodec.dump_messages(messages))


def test_schema_rejects_what_validation_rejects() -> None:
    validator = jsonschema.Draft202012Validator(chatcodec.json_schema("messages"))
    assert not validator.is_valid([{"role": "user", "content": [{"type": "hologram"}]}])
    assert not validator.is_valid([{"role": "user", "content": "hi", "colour": "red"}])
    assert validator.is_valid([{"role": "user", "content": "hi"}])


def test_cli_check_reports_drift(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert main(["schema", "--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "request.schema.json").write_text("{}\n", encoding="utf-8")
    assert main(["schema", "--out", str(tmp_path), "--check"]) == 1
    assert "request.schema.json is out of date" in capsys.readouterr().err


def test_cli_prints_one_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--kind", "response"]) == 0
    assert json.loads(capsys.readouterr().out) == chatcodec.json_schema("response")


_AGREEMENT_CASES: list[tuple[str, object]] = [
    ("canonical", [{"role": "assistant", "content": [{"type": "thinking", "encrypted": "E", "redacted": True}]}]),
    ("redacted without payload", [{"role": "assistant", "content": [{"type": "thinking", "redacted": True}]}]),
    ("OpenAI tool message", [{"role": "tool", "tool_call_id": "c", "content": "r"}]),
    ("assistant content null", [{"role": "assistant", "content": None}]),
    ("image_url part", [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x"}}]}]),
    ("Anthropic thinking", [{"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}]}]),
    ("tool_use input", [{"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "input": {}}]}]),
    ("tool_calls", [{"role": "assistant", "tool_calls": [{"id": "c", "name": "f", "arguments": "{}"}]}]),
    ("tool results in a user turn", [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c"}]}]),
]


@pytest.mark.parametrize(("name", "data"), _AGREEMENT_CASES, ids=[case[0] for case in _AGREEMENT_CASES])
def test_schema_accepts_exactly_what_the_models_accept(name: str, data: object) -> None:
    """The models carry no before-validators: the schema and validation agree on every input."""
    by_schema = jsonschema.Draft202012Validator(chatcodec.json_schema("messages")).is_valid(data)
    try:
        chatcodec.MESSAGES_ADAPTER.validate_python(data)
    except pydantic.ValidationError:
        by_model = False
    else:
        by_model = True
    assert by_schema == by_model == (name == "canonical")


@pytest.mark.parametrize(
    ("choice", "valid"),
    [({"type": "tool", "name": "f"}, True), ({"type": "tool"}, False), ({"type": "auto", "name": "f"}, False)],
)
def test_schema_states_the_tool_choice_rule(choice: dict[str, str], valid: bool) -> None:
    request = {"tool_choice": choice}
    assert jsonschema.Draft202012Validator(chatcodec.json_schema("request")).is_valid(request) is valid
    try:
        chatcodec.ChatRequest.model_validate(request)
    except pydantic.ValidationError:
        assert not valid
    else:
        assert valid


@pytest.mark.parametrize("kind", KINDS)
def test_schema_embeds_in_an_openapi_document(kind: chatcodec.SchemaKind) -> None:
    """With ``ref_template``, the definitions move into ``components/schemas`` and every
    reference still resolves: the embedded schema validates as the document does."""
    schema = chatcodec.json_schema(kind, ref_template="#/components/schemas/{model}")
    assert "$id" not in schema
    assert "$schema" not in schema
    components = {**schema.pop("$defs"), "Root": schema}
    openapi = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": "#/components/schemas/Root",
        "components": {"schemas": components},
    }
    assert "#/$defs/" not in json.dumps(openapi)
    embedded = jsonschema.Draft202012Validator(openapi)
    document = jsonschema.Draft202012Validator(chatcodec.json_schema(kind))
    samples: dict[str, list[object]] = {
        "messages": [[{"role": "user", "content": [{"type": "text", "text": "hi"}]}], [{"role": "user"}]],
        "request": [{"messages": [{"role": "user", "content": "hi"}]}, {"messages": [{"content": "hi"}]}],
        "response": [{"choices": [{"message": {"role": "assistant", "content": "x"}}]}, {"choices": [{}]}],
        "stream-event": [{"type": "text_delta", "index": 0, "delta": "x"}, {"type": "text_delta", "index": 0}],
    }
    valid, invalid = samples[kind]
    assert embedded.is_valid(valid)
    assert document.is_valid(valid)
    assert not embedded.is_valid(invalid)
    assert not document.is_valid(invalid)
