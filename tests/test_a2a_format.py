"""A2A v1.0 messages and tasks as the ``a2a`` format (issue 110).

The fixtures in ``tests/fixtures/a2a/spec`` are the A2A specification's own JSON examples
(``PROVENANCE.md`` names each). The oracle of what chatcodec writes is the protocol's definition
itself, ``a2a.proto`` as the ``a2a-sdk`` package compiles it (``a2a.types.a2a_pb2``), read by
protobuf's ProtoJSON reader with unknown fields refused; the SDK's helpers build the messages,
parts, artifacts and tasks a Python agent sends, whose dumps are read here.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from a2a.helpers import proto_helpers as sdk
from a2a.types import a2a_pb2
from google.protobuf import json_format

import chatcodec

FIXTURES = Path(__file__).parent / "fixtures" / "a2a" / "spec"
SPEC = sorted(path.name for path in FIXTURES.glob("*.json"))

TARGETS = ("openai-chat", "anthropic", "gemini", "openai-responses", "pydantic-ai", "ai-sdk-ui", "google-adk")
OPTIONS: dict[str, Any] = {"model": "m", "max_tokens": 256}


def _options(target: str) -> Any:
    """The model (and Anthropic's ``max_tokens``) for the targets that take them as options."""
    taken = chatcodec.get_codec(target).options
    return {name: value for name, value in OPTIONS.items() if name in taken}


def _spec(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return body


def _proto_kind(body: dict[str, Any]) -> type[Any]:
    """The ``lf.a2a.v1`` message a body is: a method's request or response, or a task."""
    if "task" in body:
        return a2a_pb2.SendMessageResponse
    if "message" in body:
        return a2a_pb2.SendMessageRequest
    return a2a_pb2.Task


def _valid(body: dict[str, Any], kind: type[Any]) -> None:
    """Raise unless ``body`` is ProtoJSON of ``kind`` (unknown fields, wrong types and enums refused)."""
    json_format.ParseDict(body, kind(), ignore_unknown_fields=False)


def _valid_messages(body: dict[str, Any]) -> None:
    for message in body["messages"]:
        assert message["messageId"]  # required by a2a.proto's field behaviour, not by ProtoJSON
        _valid(message, a2a_pb2.Message)


def _dump(message: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = json_format.MessageToDict(message)
    return dumped


@pytest.mark.parametrize("name", SPEC)
def test_the_specs_examples_are_what_a2a_proto_reads(name: str) -> None:
    body = _spec(name)
    _valid(body, _proto_kind(body))


@pytest.mark.parametrize("name", SPEC)
def test_the_specs_examples_read_and_are_written_back_as_they_were(name: str) -> None:
    body = _spec(name)
    assert chatcodec.convert_request(body, source="a2a", target="a2a", on_loss="error") == body


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", SPEC)
def test_the_specs_examples_convert_and_come_back_with_their_words(name: str, target: str) -> None:
    """To each wire and back: every text said survives, and what A2A alone holds is reported."""
    body = _spec(name)
    losses: list[chatcodec.Loss] = []
    there = chatcodec.convert_request(
        body, source="a2a", target=target, on_loss="ignore", losses=losses, options=_options(target)
    )
    back = chatcodec.convert_request(there, source=target, target="a2a", on_loss="ignore")
    _valid_messages(back)
    said = [
        part["text"]
        for message in chatcodec.decode_request("a2a", body).messages
        for part in message.model_dump()["content"]
        if part["type"] == "text"
    ]
    found = [part.get("text") for message in back["messages"] for part in message["parts"]]
    assert [text for text in said if text not in found] == []
    assert losses  # a message's, a task's or a part's own fields: A2A's data, reported by the other format


@pytest.mark.parametrize("index", [0, 1])
def test_the_sdks_conversations_are_written_back_as_they_were(index: int) -> None:
    body = json.loads((FIXTURES.parent / "sdk_conversations.json").read_text(encoding="utf-8"))[index]
    assert chatcodec.convert_request(body, source="a2a", target="a2a", on_loss="error") == body
    if "task" in body:
        _valid(body, a2a_pb2.SendMessageResponse)
    else:
        _valid_messages(body)


def test_a_task_reads_as_its_history_status_message_and_artifacts() -> None:
    history = [
        sdk.new_text_message("Book me a flight", context_id="c1", task_id="t1", role=a2a_pb2.ROLE_USER),
        sdk.new_text_message("Where from?", context_id="c1", task_id="t1"),
        sdk.new_text_message("From San Francisco", context_id="c1", task_id="t1", role=a2a_pb2.ROLE_USER),
    ]
    artifact = sdk.new_text_artifact("itinerary", "SFO -> JFK, 9:00", description="the booked flight")
    task = sdk.new_task("t1", "c1", a2a_pb2.TASK_STATE_COMPLETED, artifacts=[artifact], history=history)
    task.status.message.CopyFrom(sdk.new_text_message("Booked.", context_id="c1", task_id="t1"))
    body = _dump(task)
    request = chatcodec.decode_request("a2a", body)
    assert [(message.role, message.content[0].text) for message in request.messages] == [  # type: ignore[union-attr]
        ("user", "Book me a flight"),
        ("assistant", "Where from?"),
        ("user", "From San Francisco"),
        ("assistant", "Booked."),
        ("assistant", "SFO -> JFK, 9:00"),
    ]
    kept: Any = request.messages[4].provider_metadata["a2a"]["artifact"]  # type: ignore[index]
    assert kept["name"] == "itinerary"
    assert kept["description"] == "the booked flight"
    written = chatcodec.encode_request("a2a", request)
    assert written == body
    _valid(written, a2a_pb2.Task)


def test_a_task_of_empty_lists_is_written_back_with_them() -> None:
    task = {"id": "t1", "status": {"state": "TASK_STATE_SUBMITTED"}, "artifacts": [], "history": []}
    request = chatcodec.decode_request("a2a", task)
    assert request.messages == []
    assert chatcodec.encode_request("a2a", request) == task
    _valid(task, a2a_pb2.Task)


def test_the_sdks_parts_read_as_their_canonical_parts() -> None:
    png = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAUA")
    parts = [
        sdk.new_text_part("Compare these", media_type="text/plain"),
        sdk.new_raw_part(png, media_type="image/png", filename="a.png"),
        sdk.new_url_part("https://example.com/b.wav", media_type="audio/wav"),
        sdk.new_url_part("https://example.com/c.pdf", media_type="application/pdf", filename="c.pdf"),
        sdk.new_raw_part(b"%PDF-1.4", filename="d.bin"),
        sdk.new_data_part({"tickets": [{"id": "REQ1", "open": True}], "count": 1}),
    ]
    body = {"messages": [_dump(sdk.new_message(parts, context_id="c1", role=a2a_pb2.ROLE_USER))]}
    read = chatcodec.decode_request("a2a", body).messages[0].model_dump(exclude_none=True)
    content = read["content"]
    assert [part["type"] for part in content] == ["text", "image", "audio", "document", "document", "text"]
    assert content[1]["source"] == {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAUA"}
    assert content[3] == {
        "type": "document",
        "source": {"type": "url", "url": "https://example.com/c.pdf", "media_type": "application/pdf"},
        "filename": "c.pdf",
    }
    assert content[4]["source"]["media_type"] == "application/octet-stream"  # no mediaType: bytes
    assert json.loads(content[5]["text"]) == {"tickets": [{"id": "REQ1", "open": True}], "count": 1.0}
    assert chatcodec.encode_request("a2a", chatcodec.decode_request("a2a", body)) == body


def test_an_agents_files_that_an_assistant_cannot_hold_are_kept_whole() -> None:
    """A canonical assistant message holds no document or video: an agent's PDF is an opaque
    part of this format, written back here and reported by another."""
    pdf = {"url": "https://example.com/report.pdf", "mediaType": "application/pdf"}
    body = {"messages": [{"messageId": "m1", "role": "ROLE_AGENT", "parts": [{"text": "Here:"}, pdf]}]}
    request = chatcodec.decode_request("a2a", body)
    assert request.messages[0].model_dump(exclude_none=True)["content"][1] == {
        "type": "opaque",
        "provider": "a2a",
        "data": pdf,
    }
    assert chatcodec.encode_request("a2a", request) == body
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        body, source="a2a", target="openai-chat", on_loss="ignore", losses=losses, options=_options("openai-chat")
    )
    assert "$.messages[0].content[1]" in [loss.path for loss in losses]


def test_a_data_part_is_its_json_text_and_says_so_when_sent_as_text() -> None:
    body = {"messages": [{"messageId": "m1", "role": "ROLE_USER", "parts": [{"data": {"city": "Paris", "days": 3}}]}]}
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(
        body, source="a2a", target="openai-chat", on_loss="ignore", losses=losses, options=_options("openai-chat")
    )
    assert chat["messages"][0]["content"] == [{"type": "text", "text": '{"city":"Paris","days":3}'}]
    assert [loss.what for loss in losses if loss.kind == "spelling"] == ["a2a spelling _data=true"]
    back = chatcodec.convert_request(chat, source="openai-chat", target="a2a", on_loss="ignore")
    assert back["messages"][0]["parts"] == [{"text": '{"city":"Paris","days":3}'}]


def test_a_conversation_from_another_wire_is_valid_a2a_and_every_drop_reported() -> None:
    chat = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Weather?"},
                    {"type": "image_url", "image_url": {"url": "https://example.com/sky.jpg"}},
                ],
            },
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "assistant", "content": "Sunny."},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(chat, source="openai-chat", target="a2a", on_loss="ignore", losses=losses)
    _valid_messages(body)
    assert [message["messageId"] for message in body["messages"]] == ["message-1", "message-2", "message-3"]
    assert [message["role"] for message in body["messages"]] == ["ROLE_USER", "ROLE_AGENT", "ROLE_AGENT"]
    assert body["messages"][0]["parts"][1] == {"url": "https://example.com/sky.jpg", "mediaType": "image/*"}
    assert body["messages"][1]["parts"] == []
    assert [(loss.path, loss.what) for loss in losses if loss.kind == "content"] == [
        ("$.messages[0]", "system message"),
        ("$.messages[2].tool_calls[0]", "tool_use part"),
        ("$.messages[3]", "tool results"),
    ]
    again = chatcodec.decode_request("a2a", body)
    assert all(message.provider_metadata is None for message in again.messages)  # the ids of their places
    assert again.messages[0].content[1].source.media_type is None  # type: ignore[union-attr]


def test_anthropic_fixtures_are_written_as_valid_a2a() -> None:
    root = Path(__file__).parent / "fixtures" / "anthropic" / "request"
    written = 0
    for path in sorted(root.glob("*.json")):
        try:
            body = chatcodec.convert_request(
                json.loads(path.read_text()), source="anthropic", target="a2a", on_loss="ignore"
            )
        except chatcodec.ChatcodecError:
            continue  # a fixture anthropic refuses (its invalid cases)
        _valid_messages(body)
        written += 1
    assert written > 10


def test_an_agents_message_is_a_response_its_id_the_responses() -> None:
    message = _dump(sdk.new_text_message("Sunny today.", context_id="c1"))
    response = chatcodec.decode_response("a2a", message)
    assert response.id == message["messageId"]
    assert response.choices[0].message.content[0].text == "Sunny today."  # type: ignore[union-attr]
    assert chatcodec.encode_response("a2a", response) == message
    anthropic = chatcodec.convert_response(message, source="a2a", target="anthropic", on_loss="ignore")
    assert anthropic["id"] == message["messageId"]
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_response(anthropic, source="anthropic", target="a2a", on_loss="ignore", losses=losses)
    _valid(written, a2a_pb2.Message)
    assert [loss.path for loss in losses if loss.path.startswith("$.model")] == ["$.model"]


def test_a_send_message_responses_message_is_the_answer_and_written_back_so() -> None:
    body = _dump(a2a_pb2.SendMessageResponse(message=sdk.new_text_message("Done.", context_id="c1")))
    response = chatcodec.decode_response("a2a", body)
    assert response.id == body["message"]["messageId"]
    written = chatcodec.encode_response("a2a", response)
    assert written == body
    _valid(written, a2a_pb2.SendMessageResponse)


def test_a_task_is_no_answer_but_a_conversation() -> None:
    with pytest.raises(chatcodec.ValidationError, match=r"at \$\.task: .*read it as a request"):
        chatcodec.decode_response("a2a", _spec("task_completed_with_artifact.json"))


def test_a_users_message_is_no_answer() -> None:
    with pytest.raises(chatcodec.ValidationError, match=r"at \$\.role: .*ROLE_AGENT"):
        chatcodec.decode_response("a2a", {"messageId": "m", "role": "ROLE_USER", "parts": []})


@pytest.mark.parametrize(
    ("message", "where", "says"),
    [
        ({"messageId": "m", "role": "user", "parts": []}, r"\$\.messages\[0\]", "role: ROLE_USER or ROLE_AGENT"),
        (
            {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a", "url": "b"}]},
            r"\$\.messages\[0\]",
            r"parts\[0\]: exactly one",
        ),
        (
            {"messageId": "m", "role": "ROLE_USER", "parts": [{"raw": "not base64!"}]},
            r"\$\.messages\[0\]",
            r"parts\[0\]\.raw: base64",
        ),
        ({"messageId": 7, "role": "ROLE_USER", "parts": []}, r"\$\.messages\[0\]", "messageId: a string"),
        (
            {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": None}]},
            r"\$\.messages\[0\]",
            r"parts\[0\]\.text: a string",
        ),
        ({"messageId": "m", "role": "ROLE_AGENT", "parts": {}}, r"\$\.messages\[0\]", "parts: a list"),
    ],
)
def test_a_message_a2a_would_not_take_is_refused_at_its_place(message: dict[str, Any], where: str, says: str) -> None:
    with pytest.raises(chatcodec.ValidationError, match=rf"at {where}: .*{says}"):
        chatcodec.decode_request("a2a", {"messages": [message]})


def test_a_bad_task_in_a_method_body_is_named_in_the_body() -> None:
    with pytest.raises(chatcodec.ValidationError, match=r"at \$\.task\.status: .*TaskState"):
        chatcodec.decode_request("a2a", {"task": {"id": "t", "status": {"state": "done"}}})
    with pytest.raises(chatcodec.ValidationError, match=r"at \$\.message: .*role"):
        chatcodec.decode_request("a2a", {"message": {"role": "agent", "parts": []}})


def test_validate_messages_reads_a_bare_a2a_list() -> None:
    listed = [_dump(sdk.new_text_message("hi", role=a2a_pb2.ROLE_USER)), _dump(sdk.new_text_message("hello"))]
    assert [message.role for message in chatcodec.validate_messages(listed)] == ["user", "assistant"]


def test_the_cli_converts_a_method_body(tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text((FIXTURES / "file_upload_request.json").read_text(encoding="utf-8"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "chatcodec",
            "convert",
            str(path),
            "--from",
            "a2a",
            "--to",
            "anthropic",
            "--quiet",
            "--option",
            "model=m",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    blocks = json.loads(done.stdout)["messages"][0]["content"]
    assert [block["type"] for block in blocks] == ["text", "image"]


@pytest.mark.parametrize(
    ("name", "told", "found"),
    [
        ("send_message_request.json", True, "1 messages (1 user)"),
        ("task_input_required.json", True, "1 messages (1 assistant)"),
        ("file_download_task.json", False, "1 messages (1 assistant)"),  # a bare task: found by its id and state
    ],
)
def test_the_cli_validates_a_method_body_or_a_task(name: str, told: bool, found: str, tmp_path: Path) -> None:
    body = _spec(name)
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body if told else body["task"]), encoding="utf-8")
    command = [sys.executable, "-m", "chatcodec", "validate", str(path), *(["--format", "a2a"] if told else [])]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert f"ok, {found}" in done.stdout + done.stderr
