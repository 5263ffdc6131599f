"""OpenAI Chat's one reader and one writer work on canonical data, with no model built.

- What the reader gives is what the canonical model dumps (tags written, no ``None``,
  no key holding its default): requests, bare message lists and responses, recorded,
  mutated, and written by the writer from generated requests.
- The reader's front, the closed schema of the common shapes, accepts only bodies the full
  wire shapes accept, and gives the copy they give, so the reading after it is one.
- The writer writes the same body and losses whether a request's defaults are left out,
  dumped, or all written out (``None`` included); so does the response writer.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import chatcodec
from chatcodec import ChatRequest, ChatResponse
from chatcodec._losses import LossRecorder
from chatcodec._model.messages import MESSAGES_ADAPTER
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.wire_validators import request_adapter
from chatcodec._registry import get_codec
from chatcodec.testing import chat_requests, chat_responses
from chatcodec.testing._laws.mutations import mutated
from providers.openai_chat.openai_chat_support import FORMAT, fixture_names, load_json

CODEC = get_codec(FORMAT)
PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REQUESTS = fixture_names("request")
RESPONSES = fixture_names("response")


def _readable(payload: Any) -> dict[str, Any] | None:
    try:
        return CODEC.read_request(copy.deepcopy(payload))
    except chatcodec.ChatcodecError:
        return None


def _assert_dumped(data: dict[str, Any]) -> None:
    assert ChatRequest.model_validate(data).model_dump() == data


@pytest.mark.parametrize("name", REQUESTS)
def test_a_recorded_request_reads_as_the_model_dumps_it(name: str) -> None:
    _assert_dumped(CODEC.read_request(load_json("request", name)))


@PROPERTY
@given(data=st.data())
def test_a_mutated_request_reads_as_the_model_dumps_it_or_is_refused_by_both(data: st.DataObject) -> None:
    payload = data.draw(mutated(load_json("request", data.draw(st.sampled_from(REQUESTS))), deep=False))
    read = _readable(payload)
    if read is None:
        with pytest.raises(chatcodec.ChatcodecError):
            chatcodec.decode_request(FORMAT, payload)
    else:
        _assert_dumped(read)


@PROPERTY
@given(request=chat_requests())
def test_what_the_writer_writes_reads_as_the_model_dumps_it(request: ChatRequest) -> None:
    body = CODEC.write_request(request.model_dump(), LossRecorder())
    _assert_dumped(CODEC.read_request(body))
    assert CODEC.read_messages(body["messages"]) == MESSAGES_ADAPTER.dump_python(
        MESSAGES_ADAPTER.validate_python(CODEC.read_messages(body["messages"]))
    )


@pytest.mark.parametrize("name", RESPONSES)
def test_a_recorded_response_reads_as_the_model_dumps_it(name: str) -> None:
    data = CODEC.read_response(load_json("response", name))
    assert ChatResponse.model_validate(data).model_dump() == data


def test_a_response_the_model_refuses_is_refused_with_the_models_error() -> None:
    """The wire takes ``choices: []`` and two choices at one index; a canonical response
    does not, and says so as decoding to the model does."""
    message = {"role": "assistant", "content": "hi"}
    for choices in ([], [{"index": 0, "message": message}, {"index": 0, "message": message}]):
        with pytest.raises(chatcodec.ValidationError) as read:
            CODEC.read_response({"choices": choices})
        with pytest.raises(chatcodec.ValidationError) as decoded:
            chatcodec.decode_response(FORMAT, {"choices": choices})
        assert str(read.value) == str(decoded.value)


# --- the closed front and the full wire shapes ---------------------------------------------


def _assert_fronts_agree(payload: object) -> None:
    common = COMMON_REQUEST.validate(copy.deepcopy(payload))
    if common is not None:
        assert common == dict(request_adapter().validate_python(payload))
        assert COMMON_REQUEST.validate(json.dumps(payload)) == common


@pytest.mark.parametrize("name", REQUESTS)
def test_the_closed_front_gives_what_the_wire_shapes_give_on_recordings(name: str) -> None:
    _assert_fronts_agree(load_json("request", name))


def test_the_closed_front_takes_the_recorded_agent_shapes() -> None:
    """It is the front, not a second path: most recorded requests are common shapes."""
    taken = [name for name in REQUESTS if COMMON_REQUEST.validate(load_json("request", name)) is not None]
    assert len(taken) >= len(REQUESTS) // 2


@PROPERTY
@given(data=st.data())
def test_the_closed_front_gives_what_the_wire_shapes_give_on_mutated_bodies(data: st.DataObject) -> None:
    payload = data.draw(mutated(load_json("request", data.draw(st.sampled_from(REQUESTS))), deep=False))
    try:
        json.dumps(payload)
    except ValueError:
        return
    _assert_fronts_agree(payload)


_PDF = "data:application/pdf;base64,JVBERi0xLjQK"
_DOCUMENTS: dict[str, Any] = {
    "model": "m",
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "file", "file": {"file_data": _PDF, "filename": "a.pdf"}},
                {
                    "type": "file",
                    "file": {"file_id": "file-abc", "filename": "b.pdf"},
                    "cache_control": {"type": "ephemeral"},
                },
                {"type": "image_url", "image_url": {"url": "https://x/a.png"}, "cache_control": {"type": "ephemeral"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "file", "file": {"file_data": _PDF}}]},
    ],
}
"""Documents (OpenAI's ``file`` part) in a user message and a tool result, and a gateway's cache
marker on a document and on an image: common shapes of the front since agents send them."""


def test_the_closed_front_takes_documents_and_marked_media_as_the_wire_shapes_give_them() -> None:
    assert COMMON_REQUEST.validate(copy.deepcopy(_DOCUMENTS)) is not None
    _assert_fronts_agree(_DOCUMENTS)


@PROPERTY
@given(data=st.data())
def test_the_closed_front_gives_what_the_wire_shapes_give_on_mutated_documents(data: st.DataObject) -> None:
    payload = data.draw(mutated(copy.deepcopy(_DOCUMENTS), deep=False))
    try:
        json.dumps(payload)
    except ValueError:
        return
    _assert_fronts_agree(payload)
    read = _readable(payload)  # and what the reader gives of the front's copy, the model holds
    if read is None:
        with pytest.raises(chatcodec.ChatcodecError):
            chatcodec.decode_request(FORMAT, payload)
    else:
        _assert_dumped(read)


_DUMPED_ANSWERS: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "user", "content": "go"},
        {
            "content": None,
            "refusal": None,
            "role": "assistant",
            "annotations": [],
            "audio": None,
            "function_call": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {
            "content": "Done.",
            "refusal": None,
            "role": "assistant",
            "annotations": [],
            "audio": None,
            "function_call": None,
            "tool_calls": None,
        },
        {"role": "user", "content": "next"},
    ],
}
"""A history of OpenAI answers as the SDK's ``message.model_dump()`` appends them: ``"annotations": []``
(OpenAI answers every message so) and ``"tool_calls": null`` on a turn of text, beside its nulls."""


def test_an_sdk_dump_of_answers_is_a_common_shape_read_as_spelling() -> None:
    assert COMMON_REQUEST.validate(copy.deepcopy(_DUMPED_ANSWERS)) is not None
    _assert_fronts_agree(_DUMPED_ANSWERS)
    read = CODEC.read_request(copy.deepcopy(_DUMPED_ANSWERS))
    _assert_dumped(read)
    bags = [message.get("provider_metadata", {}).get(FORMAT, {}) for message in read["messages"][1::2][:2]]
    assert [bag.get("_empty") for bag in bags] == [["annotations"], ["annotations"]]
    assert "tool_calls" in bags[1]["_nulls"]
    back = chatcodec.convert_request(copy.deepcopy(_DUMPED_ANSWERS), source=FORMAT, target=FORMAT, on_loss="ignore")
    assert back["messages"] == _DUMPED_ANSWERS["messages"]
    for target in ("anthropic", "openai-responses", "gemini"):
        losses: list[chatcodec.Loss] = []
        chatcodec.convert_request(
            copy.deepcopy(_DUMPED_ANSWERS), source=FORMAT, target=target, on_loss="ignore", losses=losses
        )
        assert not [loss for loss in losses if loss.path.startswith("$.messages")], losses  # spelling: nothing lost


# --- defaults absent, dumped, or all written -------------------------------------------------


def every_field(value: object) -> object:
    """A model's data with every field written, ``None`` and empty defaults included."""
    if isinstance(value, BaseModel):
        return {name: every_field(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, list):
        return [every_field(item) for item in value]
    if isinstance(value, dict):
        return {key: every_field(item) for key, item in value.items()}
    return value


def fewest_fields(value: object) -> object:
    """A model's data with every field holding its default left out, but the tags."""
    if isinstance(value, BaseModel):
        kept: dict[str, Any] = {}
        for name, field in type(value).model_fields.items():
            item = getattr(value, name)
            default = field.get_default(call_default_factory=True)
            if name in ("type", "role") or field.is_required() or item != default:
                kept[name] = fewest_fields(item)
        return kept
    if isinstance(value, list):
        return [fewest_fields(item) for item in value]
    if isinstance(value, dict):
        return {key: fewest_fields(item) for key, item in value.items()}
    return value


def _written(write: Any, form: Any) -> str:
    losses = LossRecorder()
    try:
        body = write(form, losses)
    except chatcodec.ChatcodecError as error:
        return f"{type(error).__name__}: {error}"
    if "created" in body and form.get("created") is None:  # a response without one is written with the time
        del body["created"]
    return json.dumps([body, [str(loss) for loss in losses.losses]])


@PROPERTY
@given(request=chat_requests())
def test_the_writer_reads_defaults_absent_dumped_or_written_alike(request: ChatRequest) -> None:
    forms = (request.model_dump(), every_field(request), fewest_fields(request))
    written = {_written(CODEC.write_request, form) for form in forms}
    assert len(written) == 1


@PROPERTY
@given(response=chat_responses())
def test_the_response_writer_reads_defaults_absent_dumped_or_written_alike(response: ChatResponse) -> None:
    forms = (response.model_dump(), every_field(response), fewest_fields(response))
    written = {_written(CODEC.write_response, form) for form in forms}
    assert len(written) == 1


# --- what is not JSON ------------------------------------------------------------------------


def test_sdk_objects_in_a_request_dict_are_read_as_the_json_their_server_sent() -> None:
    """The reader takes JSON values only, so a request dict holding SDK objects (a message
    the SDK returned, an object under a key the wire does not type) is refused by it and
    read after the SDK objects are: converting gives what their JSON gives."""
    from openai.types.chat import ChatCompletion, ChatCompletionAudio

    body = load_json("response", "single_tool_call")
    message = ChatCompletion.model_validate(body).choices[0].message
    audio = ChatCompletionAudio(id="audio_1", data="AAAA", expires_at=1, transcript="hi")
    plain = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}, body["choices"][0]["message"]]}
    with_objects = {**plain, "messages": [plain["messages"][0], message], "audio_reply": audio}
    expected = {**plain, "audio_reply": audio.to_dict(mode="json")}
    for target in ("openai-chat", "anthropic"):
        converted = chatcodec.convert_request(with_objects, source=FORMAT, target=target, on_loss="ignore")
        assert converted == chatcodec.convert_request(expected, source=FORMAT, target=target, on_loss="ignore")
    with pytest.raises(chatcodec.ValidationError):
        CODEC.read_request(with_objects)


def test_a_value_that_is_not_json_is_refused_at_its_place() -> None:
    payload = {"model": "m", "messages": [{"role": "user", "content": "hi", "sent_at": {1, 2}}]}
    with pytest.raises(chatcodec.ValidationError) as refused:
        CODEC.read_request(payload)
    assert "$.messages[0].sent_at" in str(refused.value)
