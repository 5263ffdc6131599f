"""Interactions cases the peers' converters and google-genai 3.6.1's types hold chatcodec to
(issue 87): an answer's video or document output kept, a streamed citation joined to its
text, a JSON-object result sent as the object, an image's ``detail`` as its ``resolution``, an
echoed ``user_input`` step never replayed, a completed turn ending on a call a tool-call
finish everywhere, and a content list holding one unknown item still the user's turn.
Every body here is built with, or checked by, the SDK's own types."""

from __future__ import annotations

from typing import Any

import chatcodec
from providers.gemini_interactions.interactions_support import (
    CODEC,
    TYPES,
    accumulated,
    encoded_stream,
    sdk_checked,
    write_request,
    write_response,
)


def _sdk_dump(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(mode="json", exclude_none=True, by_alias=True)
    return dumped


def _interaction(steps: list[dict[str, Any]], status: str = "completed") -> dict[str, Any]:
    body = {"id": "int_1", "model": "gemini-3-flash", "status": status, "steps": steps}
    sdk_checked("Interaction", body)
    return body


VIDEO = _sdk_dump(TYPES.VideoContent(uri="https://example.com/clip.mp4", mime_type="video/mp4"))
DOCUMENT = _sdk_dump(TYPES.DocumentContent(data="JVBERi0=", mime_type="application/pdf"))


def test_an_answers_video_and_document_are_kept_whole_not_a_failure() -> None:
    body = _interaction([{"type": "model_output", "content": [{"type": "text", "text": "Here:"}, VIDEO, DOCUMENT]}])
    response = CODEC.decode_response(body)
    parts = response.choices[0].message.parts
    assert [part.type for part in parts] == ["text", "opaque", "opaque"]
    written, losses = write_response(response.model_dump())
    assert written["steps"] == body["steps"]
    assert losses == []
    converted = chatcodec.convert_response(body, source="gemini-interactions", target="openai-chat", on_loss="ignore")
    assert converted["choices"][0]["message"]["content"] == "Here:"


def test_a_streamed_video_is_kept_as_the_answer_keeps_it() -> None:
    events = [
        {"event_type": "interaction.created", "interaction": {"id": "int_1", "status": "in_progress"}},
        {"event_type": "step.start", "index": 0, "step": {"type": "model_output"}},
        {"event_type": "step.delta", "index": 0, "delta": VIDEO},
        {"event_type": "step.stop", "index": 0},
        {"event_type": "interaction.completed", "interaction": {"id": "int_1", "status": "completed"}},
    ]
    for event in events:
        sdk_checked("InteractionSSEEvent", event)
    parts = accumulated(events).choices[0].message.parts
    assert [part.model_dump() for part in parts] == [
        {"type": "opaque", "provider": "gemini-interactions", "data": VIDEO}
    ]


CITATION = {"type": "url_citation", "url": "https://example.com/a", "title": "A", "start_index": 0, "end_index": 5}


def test_a_streamed_citation_joins_its_text_as_the_whole_answer_has_it() -> None:
    events = [
        {"event_type": "interaction.created", "interaction": {"id": "int_1", "status": "in_progress"}},
        {"event_type": "step.start", "index": 0, "step": {"type": "model_output"}},
        {"event_type": "step.delta", "index": 0, "delta": {"type": "text", "text": "Paris"}},
        {"event_type": "step.delta", "index": 0, "delta": {"type": "text_annotation_delta", "annotations": [CITATION]}},
        {"event_type": "step.stop", "index": 0},
        {"event_type": "interaction.completed", "interaction": {"id": "int_1", "status": "completed"}},
    ]
    for event in events:
        sdk_checked("InteractionSSEEvent", event)
    streamed = accumulated(events)
    whole = CODEC.decode_response(
        _interaction(
            [{"type": "model_output", "content": [{"type": "text", "text": "Paris", "annotations": [CITATION]}]}]
        )
    )
    assert streamed.choices[0].message == whole.choices[0].message
    assert [part.type for part in streamed.choices[0].message.parts] == ["text"]
    replayed, losses = encoded_stream(streamed)
    assert losses == []
    assert accumulated(replayed).choices[0].message == streamed.choices[0].message


def _result_request(content: str, source: str = "openai-chat") -> dict[str, Any]:
    messages = [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": content},
    ]
    converted = chatcodec.convert_request(
        {"model": "m", "messages": messages}, source=source, target="gemini-interactions", on_loss="ignore"
    )
    sdk_checked("CreateModelInteraction", converted)
    return converted


def test_a_json_object_result_of_another_format_is_sent_as_the_object() -> None:
    body = _result_request('{"temperature": 21, "unit": "C"}')
    assert body["input"][-1]["result"] == {"temperature": 21, "unit": "C"}
    assert _result_request("sunny")["input"][-1]["result"] == "sunny"
    assert _result_request("[1, 2]")["input"][-1]["result"] == "[1, 2]"


def test_a_string_result_holding_json_text_comes_back_a_string() -> None:
    body: dict[str, Any] = {
        "model": "m",
        "input": [
            {"type": "user_input", "content": [{"type": "text", "text": "Weather?"}]},
            {"type": "function_call", "id": "c1", "name": "weather", "arguments": {}},
            {"type": "function_result", "call_id": "c1", "result": '{"t": 21}'},
            {"type": "function_result", "call_id": "c1", "result": {"t": 21}},
        ],
    }
    written, losses = write_request(CODEC.read_request(body))
    assert written == body
    assert losses == []


def test_an_images_detail_is_its_resolution_both_ways() -> None:
    image = _sdk_dump(TYPES.ImageContent(uri="https://example.com/a.png", mime_type="image/png", resolution="high"))
    body = {"model": "m", "input": [image]}
    request = CODEC.read_request(body)
    assert request["messages"][0]["content"][0]["detail"] == "high"
    assert write_request(request)[0] == body
    chat = {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": {"url": "https://e.com/b.png", "detail": "low"}}],
            }
        ],
    }
    converted = chatcodec.convert_request(chat, source="openai-chat", target="gemini-interactions", on_loss="error")
    sdk_checked("CreateModelInteraction", converted)
    assert converted["input"][0]["content"][0]["resolution"] == "low"
    medium = {"model": "m", "input": [{**image, "resolution": "medium"}]}
    assert CODEC.read_request(medium)["messages"][0]["content"][0].get("detail") is None
    assert write_request(CODEC.read_request(medium))[0] == medium


def test_an_answers_echoed_user_input_is_not_replayed_as_a_second_user_turn() -> None:
    """Issue 101: the ``user_input`` step an Interaction echoes is the caller's turn, not the
    model's answer: the assistant message holds the answer alone (the echo rides in the
    response's bag, written back in its place), so a replayed history sends the user's turn once,
    with nothing to report; another format reports the echo it has no place for."""
    echo = {"type": "user_input", "content": [{"type": "text", "text": "Hi"}]}
    answer = _interaction([echo, {"type": "model_output", "content": [{"type": "text", "text": "Hello!"}]}])
    response = CODEC.decode_response(answer)
    assert [part.model_dump() for part in response.choices[0].message.parts] == [{"type": "text", "text": "Hello!"}]
    assert write_response(response.model_dump()) == (answer, [])  # the answer itself is kept, echo in its place
    history = [
        {"role": "user", "content": "Hi"},
        response.choices[0].message.model_dump(),
        {"role": "user", "content": "And?"},
    ]
    body, losses = write_request({"model": "m", "messages": history})
    assert [step["type"] for step in body["input"]] == ["user_input", "model_output", "user_input"]
    assert losses == []
    reported: list[chatcodec.Loss] = []
    chatcodec.convert_response(
        answer, source="gemini-interactions", target="anthropic", on_loss="ignore", losses=reported
    )
    assert ("$", "gemini-interactions spelling _echoed_turns") in [(loss.path, loss.what) for loss in reported]


def test_an_opaque_echo_in_stored_canonical_data_is_still_left_out_when_replayed() -> None:
    """An assistant message stored before the echo left the answer (an opaque ``user_input``
    part) is still replayed without a second user turn, reported."""
    echo = {"type": "opaque", "provider": "gemini-interactions", "data": {"type": "user_input", "content": []}}
    history = [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [echo, {"type": "text", "text": "Hello!"}]},
    ]
    body, losses = write_request({"model": "m", "messages": history})
    assert [step["type"] for step in body["input"]] == ["user_input", "model_output"]
    assert [(loss.what, loss.path) for loss in losses] == [("user_input step", "$.messages[1].content[0]")]


def test_a_completed_interaction_ending_on_a_call_is_a_tool_call_finish_everywhere() -> None:
    call = {"type": "function_call", "id": "c1", "name": "weather", "arguments": {"city": "Paris"}}
    body = _interaction([call])
    response = CODEC.decode_response(body)
    assert response.choices[0].finish_reason is not None
    assert (response.choices[0].finish_reason.unified, response.choices[0].finish_reason.raw) == (
        "tool_calls",
        "completed",
    )
    assert write_response(response.model_dump()) == (body, [])
    chat = chatcodec.convert_response(body, source="gemini-interactions", target="openai-chat", on_loss="ignore")
    assert chat["choices"][0]["finish_reason"] == "tool_calls"
    anthropic = chatcodec.convert_response(body, source="gemini-interactions", target="anthropic", on_loss="ignore")
    assert anthropic["stop_reason"] == "tool_use"
    events = [
        {"event_type": "interaction.created", "interaction": {"id": "int_1", "status": "in_progress"}},
        {"event_type": "step.start", "index": 0, "step": call},
        {"event_type": "step.stop", "index": 0},
        {"event_type": "interaction.completed", "interaction": {"id": "int_1", "status": "completed"}},
    ]
    streamed = accumulated(events).choices[0].finish_reason
    assert streamed is not None
    assert (streamed.unified, streamed.raw) == ("tool_calls", "completed")


def test_a_content_list_with_an_unknown_item_stays_the_users_turn() -> None:
    unknown = {"type": "hologram", "uri": "https://example.com/h"}
    body = {"model": "m", "input": [{"type": "text", "text": "What is this?"}, unknown]}
    request = CODEC.read_request(body)
    assert [message["role"] for message in request["messages"]] == ["user"]
    assert request["messages"][0]["content"][1] == {
        "type": "opaque",
        "provider": "gemini-interactions",
        "data": unknown,
    }
    assert write_request(request) == (body, [])
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(body, source="gemini-interactions", target="openai-chat", on_loss="ignore", losses=losses)
    assert [loss.path for loss in losses] == ["$.messages[0].content[1]"]


def test_an_images_auto_detail_is_the_apis_default_and_no_loss() -> None:
    """``auto`` says what no ``resolution`` says (the differential's one changed loss: an OpenAI
    Responses image's ``detail: auto`` was reported as a setting the API has no field for)."""
    body = {
        "model": "m",
        "input": [
            {
                "role": "user",
                "content": [{"type": "input_image", "image_url": "https://e.com/a.png", "detail": "auto"}],
            }
        ],
    }
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        body, source="openai-responses", target="gemini-interactions", on_loss="ignore", losses=losses
    )
    sdk_checked("CreateModelInteraction", converted)
    assert converted["input"][0]["content"][0]["type"] == "image"
    assert "resolution" not in converted["input"][0]["content"][0]
    assert not [loss for loss in losses if "detail" in loss.path]


def test_a_file_id_is_sent_as_the_uri_google_reads_it_by_or_reported() -> None:
    """Issue 101: a file by id reaches the Interactions API as Gemini's ``fileData`` does (one
    rule, ``families/google/file_uris.py``): a Files API name as its URI, a ``gs://`` URI as it is,
    another provider's id (``file-abc``) reported, not sent as a ``uri`` the API cannot fetch."""
    uris = {
        "files/abc": "https://generativelanguage.googleapis.com/v1beta/files/abc",
        "gs://bucket/a.pdf": "gs://bucket/a.pdf",
    }
    for file_id, uri in uris.items():
        body = {
            "model": "m",
            "messages": [{"role": "user", "content": [{"type": "file", "file": {"file_id": file_id}}]}],
        }
        written = chatcodec.convert_request(body, source="openai-chat", target="gemini-interactions", on_loss="error")
        assert written["input"] == [{"type": "user_input", "content": [{"type": "document", "uri": uri}]}]
        sdk_checked("CreateModelInteraction", written)
    losses: list[chatcodec.Loss] = []
    other = {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "x"}, {"type": "file", "file": {"file_id": "file-abc"}}],
            }
        ],
    }
    written = chatcodec.convert_request(
        other, source="openai-chat", target="gemini-interactions", on_loss="ignore", losses=losses
    )
    assert written["input"] == [{"type": "user_input", "content": [{"type": "text", "text": "x"}]}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[1].source.file_id", "file id")]
