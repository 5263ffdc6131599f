"""An OpenAI SDK dump's ``null`` message fields are spelling: written back as they came to
OpenAI Chat, dropped without a report by every other format, and read by the plain-turn
branch (the same canonical data as the session without them, plus one marker each)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec.conversion import read_request_data

TARGETS = [name for name in chatcodec.registered_providers() if name != "openai-chat"]

CALL = {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}}


def _sdk_dump_session() -> dict[str, Any]:
    """What an agent on the openai SDK sends: ``model_dump()`` of the assistant message
    (its four ``null`` fields), and ``"name": null`` on the messages it builds itself."""
    return {
        "model": "gpt-5.1",
        "max_completion_tokens": 1000,
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Read a.py", "name": None},
            {
                "content": None,
                "refusal": None,
                "role": "assistant",
                "annotations": None,
                "audio": None,
                "function_call": None,
                "tool_calls": [CALL],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "print('hi')", "name": None},
            {"role": "user", "content": [{"type": "text", "text": "and now?"}], "name": None},
        ],
    }


def _without_nulls(request: dict[str, Any]) -> dict[str, Any]:
    plain = copy.deepcopy(request)
    plain["messages"] = [
        {key: value for key, value in message.items() if value is not None or key == "content"}
        for message in plain["messages"]
    ]
    return plain


def test_sdk_dump_nulls_come_back_as_they_were_to_openai_chat() -> None:
    request = _sdk_dump_session()
    losses: list[chatcodec.Loss] = []
    back = chatcodec.convert_request(request, source="openai-chat", target="openai-chat", losses=losses)
    assert back["messages"] == request["messages"]
    assert losses == []


@pytest.mark.parametrize("target", TARGETS)
def test_sdk_dump_nulls_are_dropped_without_a_report_by_another_format(target: str) -> None:
    with_nulls: list[chatcodec.Loss] = []
    plain: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(_sdk_dump_session(), source="openai-chat", target=target, losses=with_nulls)
    twin = chatcodec.convert_request(
        _without_nulls(_sdk_dump_session()), source="openai-chat", target=target, losses=plain
    )
    assert written == twin
    assert [loss.what for loss in with_nulls] == [loss.what for loss in plain]


def test_sdk_dump_nulls_read_as_the_plain_twin_plus_one_marker_per_message() -> None:
    read = read_request_data(_sdk_dump_session(), "openai-chat")
    twin = read_request_data(_without_nulls(_sdk_dump_session()), "openai-chat")
    markers = [message.pop("provider_metadata", None) for message in read["messages"]]
    for message in read["messages"]:
        for part in message["content"] if isinstance(message["content"], list) else ():
            markers.append(part.pop("provider_metadata", None))
    assert read == twin
    spelled = [sorted(marker["openai-chat"]["_nulls"]) for marker in markers if marker is not None]
    assert spelled == [["name"], ["annotations", "audio", "function_call", "refusal"], ["name"], ["name"]]


def test_a_null_under_an_undocumented_key_is_still_data_reported_elsewhere() -> None:
    request = _sdk_dump_session()
    request["messages"][2]["x_trace"] = None
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(request, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert [loss.what for loss in losses] == ["openai-chat data ['x_trace']"]
    back = chatcodec.convert_request(request, source="openai-chat", target="openai-chat")
    assert back["messages"][2]["x_trace"] is None
