"""An OpenAI SDK dump's ``null`` message fields are spelling: written back as they came to
OpenAI Chat (dropped without a report by every other format: the conformance law over
``spelling_twins``), and read by the plain-turn
branch (the same canonical data as the session without them, plus one marker each)."""

from __future__ import annotations

import chatcodec
from chatcodec._conversion import read_request_data
from providers.openai_chat.spelling_twins import sdk_dump_session, without_nulls


def test_sdk_dump_nulls_come_back_as_they_were_to_openai_chat() -> None:
    request = sdk_dump_session()
    losses: list[chatcodec.Loss] = []
    back = chatcodec.convert_request(request, source="openai-chat", target="openai-chat", losses=losses)
    assert back["messages"] == request["messages"]
    assert losses == []


def test_sdk_dump_nulls_read_as_the_plain_twin_plus_one_marker_per_message() -> None:
    read = read_request_data(sdk_dump_session(), "openai-chat")
    twin = read_request_data(without_nulls(sdk_dump_session()), "openai-chat")
    markers = [message.pop("provider_metadata", None) for message in read["messages"]]
    for message in read["messages"]:
        for part in message["content"] if isinstance(message["content"], list) else ():
            markers.append(part.pop("provider_metadata", None))
    assert read == twin
    spelled = [sorted(marker["openai-chat"]["_nulls"]) for marker in markers if marker is not None]
    assert spelled == [["name"], ["annotations", "audio", "function_call", "refusal"], ["name"], ["name"]]


def test_a_null_under_an_undocumented_key_is_still_data_reported_elsewhere() -> None:
    request = sdk_dump_session()
    request["messages"][2]["x_trace"] = None
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(request, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert [loss.what for loss in losses] == ["openai-chat data ['x_trace']"]
    back = chatcodec.convert_request(request, source="openai-chat", target="openai-chat")
    assert back["messages"][2]["x_trace"] is None
