"""A loss found while converting names its place in the payload converted, numbered as
the input numbers it (issue 63): a top-level system field (Anthropic ``system``, Gemini
``systemInstruction``, Bedrock ``system``, Responses ``instructions``) is no entry of the
input's message list, consecutive OpenAI Chat and Ollama ``tool`` messages are one
canonical message, a user turn's results and other blocks are two, Responses items are
grouped into messages. Each path is checked by resolving it in the input."""

from __future__ import annotations

import re
from typing import Any

import pytest

from chatcodec import Loss, convert_request
from chatcodec.batch._convert import ConvertOptions, convert_payload

IMAGE = "https://example.com/cat.png"
S3 = {"s3Location": {"uri": "s3://bucket/cat.png"}}
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _steps(path: str) -> list[str | int]:
    assert path.startswith("$")
    return [name if name else int(index) for name, index in _STEP.findall(path[1:])]


def _resolved(payload: Any, path: str, depth: int) -> Any:
    """The value at the first ``depth`` steps of ``path`` in ``payload`` (a KeyError or
    IndexError when the input has no such place)."""
    value = payload
    for step in _steps(path)[:depth]:
        value = value[step]
    return value


def _losses(payload: dict[str, Any], source: str, target: str) -> list[Loss]:
    losses: list[Loss] = []
    convert_request(payload, source=source, target=target, on_loss="ignore", losses=losses)
    return losses


def _at(losses: list[Loss], what: str, prefix: str) -> Loss:
    found = [loss for loss in losses if loss.what == what and loss.path.startswith(prefix)]
    assert found, [str(loss) for loss in losses]
    return found[0]


ANTHROPIC: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 100,
    "system": [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Cite."}],
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "look", "input": {}}]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "seen"},
                {"type": "text", "text": "and this?"},
                {"type": "image", "source": {"type": "url", "url": IMAGE}},
            ],
        },
    ],
}


def test_anthropic_system_and_split_turn_keep_the_input_numbering() -> None:
    # canonical: system is message 0, the results message 3, the text and image message 4 (parts 0, 1)
    loss = _at(_losses(ANTHROPIC, "anthropic", "bedrock-converse"), "image by URL", "$.messages[2].content[2]")
    assert _resolved(ANTHROPIC, loss.path, 4) == {"type": "image", "source": {"type": "url", "url": IMAGE}}
    joined = _at(_losses(ANTHROPIC, "anthropic", "ollama"), "text parts", "$.system")
    assert joined.path == "$.system"


CHAT: dict[str, Any] = {
    "model": "gpt-4.1",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "one"},
        {"role": "tool", "tool_call_id": "c2", "content": "two", "name": "g"},
        {
            "role": "user",
            "content": [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {"url": IMAGE}}],
        },
    ],
}


def test_openai_chat_grouped_tool_messages_keep_the_input_numbering() -> None:
    # canonical: the two tool messages are message 3 (parts 0, 1), the last user message is 4
    losses = _losses(CHAT, "openai-chat", "bedrock-converse")
    name = _at(losses, "openai-chat data ['name']", "$.messages[")
    assert name.path == "$.messages[4]"
    assert _resolved(CHAT, name.path, 2)["name"] == "g"
    image = _at(losses, "image by URL", "$.messages[")
    assert _resolved(CHAT, image.path, 4) == {"type": "image_url", "image_url": {"url": IMAGE}}


GEMINI: dict[str, Any] = {
    "systemInstruction": {"parts": [{"text": "Be brief."}, {"text": "Cite."}]},
    "contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {
            "role": "model",
            "parts": [{"functionCall": {"name": "f", "args": {}}}, {"functionCall": {"name": "g", "args": {}}}],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "f", "response": {"r": 1}}},
                {"functionResponse": {"name": "g", "response": {"r": 2}}},
                {"text": "and this?"},
                {"fileData": {"fileUri": IMAGE, "mimeType": "image/png"}},
            ],
        },
    ],
}


def test_gemini_system_instruction_and_split_turn_keep_the_input_numbering() -> None:
    # canonical: systemInstruction is message 0, the results message 3, the text and file message 4
    losses = _losses(GEMINI, "gemini", "bedrock-converse")
    image = _at(losses, "image by URL", "$.contents[")
    assert _resolved(GEMINI, image.path, 4) == {"fileData": {"fileUri": IMAGE, "mimeType": "image/png"}}
    names = [loss.path for loss in losses if loss.what == "tool name"]
    assert names == ["$.contents[2].parts[0].name", "$.contents[2].parts[1].name"]
    assert _resolved(GEMINI, names[1], 4)["functionResponse"]["name"] == "g"
    joined = _at(_losses(GEMINI, "gemini", "ollama"), "text parts", "$.systemInstruction")
    assert _resolved(GEMINI, joined.path, 2) == GEMINI["systemInstruction"]["parts"]


def _bedrock(system: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "system": system,
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "look", "input": {}}}]},
            {
                "role": "user",
                "content": [
                    {"toolResult": {"toolUseId": "t1", "content": [{"text": "seen"}]}},
                    {"text": "and this?"},
                    {"image": {"format": "png", "source": S3}},
                ],
            },
        ],
    }


@pytest.mark.parametrize("source", ["bedrock-converse", "bedrock-nova"])
def test_bedrock_s3_image_is_named_where_the_input_has_it(source: str) -> None:
    # the case: an S3 image at the input's messages[2].content[2] (canonical message 4, part 1)
    payload = _bedrock([{"text": "Be brief."}])
    for target in ("openai-chat", "gemini"):
        loss = _at(_losses(payload, source, target), "image in S3", "$.messages[")
        assert loss.path == "$.messages[2].content[2].source"
        assert _resolved(payload, loss.path, 4) == {"image": {"format": "png", "source": S3}}


def test_bedrock_cache_point_is_no_part_of_its_own() -> None:
    payload = _bedrock([{"text": "Be brief."}, {"cachePoint": {"type": "default"}}, {"text": "Cite."}])
    losses = _losses(payload, "bedrock-converse", "gemini")
    marked = _at(losses, "cache_control", "$.system")
    assert marked.path == "$.system[0].cache_control"  # the part the cache point marks
    assert _resolved(payload, marked.path, 2) == {"text": "Be brief."}
    assert _at(losses, "image in S3", "$.messages[").path == "$.messages[2].content[2].source"


RESPONSES: dict[str, Any] = {
    "model": "gpt-5",
    "instructions": "Be brief.",
    "input": [
        {"role": "user", "content": "hi"},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "think"}]},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "function_call", "call_id": "c2", "name": "g", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "one"},
        {"type": "function_call_output", "call_id": "c2", "output": "two"},
        {
            "role": "user",
            "content": [{"type": "input_text", "text": "see"}, {"type": "input_image", "image_url": IMAGE}],
        },
    ],
}


def test_openai_responses_items_grouped_keep_the_input_numbering() -> None:
    # canonical: instructions is message 0, the reasoning and calls message 2, the outputs 3, the last user 4
    losses = _losses(RESPONSES, "openai-responses", "bedrock-converse")
    image = _at(losses, "image by URL", "$.input[")
    assert image.path == "$.input[6].content[1].source"
    assert _resolved(RESPONSES, image.path, 4) == {"type": "input_image", "image_url": IMAGE}
    thinking = _at(losses, "thinking part", "$.input[")
    assert _resolved(RESPONSES, thinking.path, 2)["type"] == "reasoning"


OLLAMA: dict[str, Any] = {
    "model": "llama3.2",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": {}}}]},
        {"role": "tool", "content": "one", "tool_name": "f"},
        {"role": "tool", "content": "two", "tool_name": "g"},
        {"role": "user", "content": "see", "images": ["iVBORw0KGgo="]},
    ],
}


def test_ollama_grouped_tool_messages_keep_the_input_numbering() -> None:
    # canonical: the two tool messages are message 2 (parts 0, 1)
    names = [loss.path for loss in _losses(OLLAMA, "ollama", "openai-chat") if loss.what == "tool name on a result"]
    assert names == ["$.messages[2].name", "$.messages[3].name"]
    assert _resolved(OLLAMA, names[1], 2)["tool_name"] == "g"


def test_json_text_and_batch_rows_name_the_same_places() -> None:
    import json

    losses: list[Loss] = []
    convert_request(json.dumps(CHAT), source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert _at(losses, "openai-chat data ['name']", "$.messages[").path == "$.messages[4]"
    for model in (None, "claude-sonnet-4-5"):
        outcome = convert_payload(json.dumps(CHAT), ConvertOptions("openai-chat", "anthropic", model=model))
        assert "$.messages[4]" in [loss.path for loss in outcome.losses]


def test_an_encode_still_names_canonical_places() -> None:
    """Only a conversion has an input of another format: an encode's losses are in the
    canonical request it was given."""
    from chatcodec import decode_request, encode_request

    request = decode_request("anthropic", ANTHROPIC)
    losses: list[Loss] = []
    encode_request("bedrock-converse", request, on_loss="ignore", losses=losses)
    assert _at(losses, "image by URL", "$.messages[").path.startswith("$.messages[4].content[1]")
