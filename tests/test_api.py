"""The registry and the top-level decode/encode/convert/accumulate functions."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import ChatRequest, ChatResponse

# --- registry --------------------------------------------------------------------------


def test_every_provider_folder_is_registered_once_by_its_folder_name() -> None:
    """The registry's names are the provider folders (``openai-chat`` ->
    ``_providers/openai_chat/``; an underscored folder is not a provider), one each, so a
    new folder with its one registry line is a new provider and nothing else lists them."""
    folders = Path(chatcodec.__file__).parent / "_providers"
    with_codec = sorted(  # ``_template`` is the folder a newcomer copies, never registered
        path.name for path in folders.iterdir() if (path / "markers.py").exists() and not path.name.startswith("_")
    )
    assert sorted(name.replace("-", "_") for name in chatcodec.PROVIDER_NAMES) == with_codec
    assert len(set(chatcodec.PROVIDER_NAMES)) == len(chatcodec.PROVIDER_NAMES)
    assert "canonical" not in chatcodec.PROVIDER_NAMES


def test_registered_providers_are_known_and_load() -> None:
    """The built-in providers first, in their order, then the codecs registered at run time
    (the test session registers one: ``tests/session_codecs.py``)."""
    providers = chatcodec.registered_providers()
    assert providers[: len(chatcodec.PROVIDER_NAMES)] == list(chatcodec.PROVIDER_NAMES)
    formats = chatcodec.available_formats()
    assert formats[0] == "canonical"
    assert [name for name in formats if name in providers] == providers
    frameworks = {"langchain", "pydantic-ai", "ai-sdk-model", "ai-sdk-ui", "google-adk", "otel-genai"}
    frameworks |= {"a2a", "ag-ui", "mcp-sampling"}
    assert set(formats) - {"canonical", *providers} == frameworks  # a framework's history: a format, no provider
    for name in formats[1:]:
        assert chatcodec.get_codec(name).name == name


@pytest.fixture
def no_built_in_providers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry as it was before any provider codec landed."""
    from chatcodec import _registry as registry

    # whole tables swapped, not keys deleted and put back (which would leave the built-in
    # order reversed: detection prefers formats in that order); what is derived from
    # every codec (detection's marks, the error statuses) is built again for this
    # registry, and again for the real one after it
    kept = {name: path for name, path in registry._BUILT_IN.items() if name not in chatcodec.PROVIDER_NAMES}
    monkeypatch.setattr(registry, "_BUILT_IN", kept)
    monkeypatch.setattr(registry, "_custom", {})  # no codec registered at run time either
    monkeypatch.setattr(registry, "_loaded", {k: v for k, v in registry._loaded.items() if k in kept})
    monkeypatch.setattr(registry, "_generation", [registry.generation() + 1])


@pytest.mark.usefixtures("no_built_in_providers")
def test_empty_registry_says_so() -> None:
    assert chatcodec.registered_providers() == []
    frameworks = ["langchain", "ai-sdk-model", "ai-sdk-ui", "pydantic-ai", "google-adk", "otel-genai", "a2a", "ag-ui"]
    frameworks.append("mcp-sampling")
    assert chatcodec.available_formats() == ["canonical", *frameworks]  # the framework formats are no providers


def test_canonical_codec() -> None:
    codec = chatcodec.get_codec("canonical")
    assert codec.name == "canonical"
    assert chatcodec.get_codec("canonical") is codec


@pytest.mark.usefixtures("no_built_in_providers")
@pytest.mark.parametrize("name", chatcodec.PROVIDER_NAMES)
def test_known_provider_without_codec(name: str) -> None:
    with pytest.raises(chatcodec.CodecNotAvailableError) as info:
        chatcodec.get_codec(name)
    assert isinstance(info.value, LookupError)
    assert isinstance(info.value, chatcodec.ProviderLookupError)
    assert isinstance(info.value, chatcodec.ChatcodecError)
    message = str(info.value)
    assert repr(name) in message
    assert "no codec registered yet" in message
    assert "registered providers: none yet" in message
    assert "usable formats: canonical" in message


@pytest.mark.parametrize("name", ["nope", "openai", "Anthropic", ""])
def test_unknown_provider(name: str) -> None:
    with pytest.raises(chatcodec.UnknownProviderError) as info:
        chatcodec.get_codec(name)
    assert isinstance(info.value, LookupError)
    assert not isinstance(info.value, chatcodec.CodecNotAvailableError)
    message = str(info.value)
    assert f"unknown provider {name!r}" in message
    assert ", ".join([*chatcodec.PROVIDER_NAMES, "canonical"]) in message


@pytest.mark.usefixtures("no_built_in_providers")
def test_top_level_functions_report_missing_codecs() -> None:
    with pytest.raises(chatcodec.CodecNotAvailableError):
        chatcodec.decode_request("anthropic", {"messages": []})
    with pytest.raises(chatcodec.UnknownProviderError):
        chatcodec.encode_request("nope", {"messages": []})
    with pytest.raises(chatcodec.CodecNotAvailableError):
        chatcodec.convert_request({"messages": []}, source="canonical", target="gemini")


# --- a fake lossy codec ----------------------------------------------------------------


class _LossyCodec:
    name = "lossy"

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        return chatcodec.validate_model(ChatRequest, payload)

    def encode_request(self, request: ChatRequest, losses: Any) -> dict[str, Any]:
        losses.add("$.messages[0]", "cache_control", "lossy has no caching")
        losses.add("$.temperature", "temperature", "lossy is deterministic")
        return {"n": len(request.messages)}

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        return chatcodec.validate_model(ChatResponse, payload)

    def encode_response(self, response: ChatResponse, losses: Any) -> dict[str, Any]:
        losses.add("$.usage", "usage", "lossy has no usage")
        return {"text": response.message.text}

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[chatcodec.AnyStreamEvent]:
        for event in events:
            yield chatcodec.TextDeltaEvent(index=0, delta=str(event["t"]))

    def encode_stream(self, events: Iterable[chatcodec.AnyStreamEvent], losses: Any) -> Iterator[dict[str, Any]]:
        for event in events:
            losses.add("$", event.type, "lossy streams nothing")
            yield {"seen": event.type}


@pytest.fixture
def lossy() -> Iterator[str]:
    created: list[int] = []

    def factory() -> _LossyCodec:
        created.append(1)
        return _LossyCodec()

    chatcodec.register_codec("lossy", factory)
    yield "lossy"
    chatcodec.unregister_codec("lossy")
    assert len(created) <= 1  # the factory runs once, on first use


_REQUEST = {"messages": [{"role": "user", "content": "hi"}], "temperature": 0.5}
_EXPECTED_LOSSES = [
    chatcodec.Loss("$.messages[0]", "cache_control", "lossy has no caching"),
    chatcodec.Loss("$.temperature", "temperature", "lossy is deterministic"),
]


def test_registered_codec_is_listed_then_removed(lossy: str) -> None:
    before = [name for name in chatcodec.available_formats() if name != "lossy"]
    assert chatcodec.available_formats() == [*before, "lossy"]
    assert chatcodec.registered_providers()[-1] == "lossy"
    assert chatcodec.get_codec(lossy).name == "lossy"
    chatcodec.unregister_codec(lossy)
    assert chatcodec.available_formats() == before
    with pytest.raises(chatcodec.UnknownProviderError):
        chatcodec.get_codec(lossy)


def test_on_loss_warn_is_the_default(lossy: str) -> None:
    with pytest.warns(chatcodec.LossWarning) as record:
        encoded = chatcodec.encode_request(lossy, _REQUEST)
    assert encoded == {"n": 1}
    (warned,) = [warning.message for warning in record if isinstance(warning.message, chatcodec.LossWarning)]
    assert warned.losses == _EXPECTED_LOSSES  # one warning for the conversion, every loss in it
    assert warned.loss == _EXPECTED_LOSSES[0]
    assert str(warned) == (
        "2 thing(s) cannot be carried by the target format:\n"
        "  $.messages[0]: cache_control (lossy has no caching)\n"
        "  $.temperature: temperature (lossy is deterministic)"
    )
    assert str(warned.loss) == "$.messages[0]: cache_control (lossy has no caching)"
    assert issubclass(chatcodec.LossWarning, UserWarning)


def test_on_loss_error_lists_every_loss(lossy: str) -> None:
    with pytest.raises(chatcodec.LossError) as info:
        chatcodec.encode_request(lossy, _REQUEST, on_loss="error")
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, chatcodec.ChatcodecError)
    assert info.value.losses == _EXPECTED_LOSSES
    assert str(info.value) == (
        "2 thing(s) cannot be carried by the target format:\n"
        "  $.messages[0]: cache_control (lossy has no caching)\n"
        "  $.temperature: temperature (lossy is deterministic)"
    )


def test_on_loss_ignore_is_silent(lossy: str) -> None:
    # filterwarnings=error turns any warning into a failure here
    assert chatcodec.encode_request(lossy, _REQUEST, on_loss="ignore") == {"n": 1}


@pytest.mark.parametrize("policy", ["warn", "error", "ignore"])
def test_losses_list_receives_losses_under_every_policy(lossy: str, policy: chatcodec.OnLoss) -> None:
    sink: list[chatcodec.Loss] = [chatcodec.Loss("$.before", "kept", "already there")]
    if policy == "warn":
        with pytest.warns(chatcodec.LossWarning):
            chatcodec.encode_request(lossy, _REQUEST, on_loss=policy, losses=sink)
    elif policy == "error":
        with pytest.raises(chatcodec.LossError):
            chatcodec.encode_request(lossy, _REQUEST, on_loss=policy, losses=sink)
    else:
        chatcodec.encode_request(lossy, _REQUEST, on_loss=policy, losses=sink)
    assert sink[1:] == _EXPECTED_LOSSES
    assert sink[0].path == "$.before"


def test_convert_request_applies_loss_policy(lossy: str) -> None:
    sink: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        json.dumps(_REQUEST), source="canonical", target=lossy, on_loss="ignore", losses=sink
    )
    assert converted == {"n": 1}
    assert sink == _EXPECTED_LOSSES
    with pytest.raises(chatcodec.LossError):
        chatcodec.convert_request(_REQUEST, source="canonical", target=lossy, on_loss="error")


def test_encode_and_convert_response_losses(lossy: str) -> None:
    response = {"message": {"role": "assistant", "content": "yo"}}
    sink: list[chatcodec.Loss] = []
    assert chatcodec.encode_response(lossy, response, on_loss="ignore", losses=sink) == {"text": "yo"}
    assert sink == [chatcodec.Loss("$.usage", "usage", "lossy has no usage")]
    with pytest.warns(chatcodec.LossWarning, match="lossy has no usage"):
        chatcodec.convert_response(response, source="canonical", target=lossy)
    with pytest.raises(chatcodec.LossError):
        chatcodec.convert_response(response, source="canonical", target=lossy, on_loss="error")


def test_encode_stream_settles_losses_when_exhausted(lossy: str) -> None:
    sink: list[chatcodec.Loss] = []
    events = [chatcodec.TextStartEvent(index=0), chatcodec.TextEndEvent(index=0)]
    stream = chatcodec.encode_stream(lossy, events, on_loss="error", losses=sink)
    assert next(stream) == {"seen": "text_start"}
    assert next(stream) == {"seen": "text_end"}
    assert sink == []
    with pytest.raises(chatcodec.LossError) as info:
        next(stream)
    assert [loss.what for loss in info.value.losses] == ["text_start", "text_end"]
    assert [loss.what for loss in sink] == ["text_start", "text_end"]


def test_decode_stream_through_registered_codec(lossy: str) -> None:
    events = list(chatcodec.decode_stream(lossy, [{"t": "a"}, {"t": 1}]))
    assert [event.delta for event in events if isinstance(event, chatcodec.TextDeltaEvent)] == ["a", "1"]


# --- canonical format: requests and responses ------------------------------------------

_CANONICAL_REQUEST: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "system", "content": "s"},
        {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]},
    ],
    "tools": [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}],
    "max_tokens": 5,
}


@pytest.mark.parametrize(
    "payload",
    [
        _CANONICAL_REQUEST,
        json.dumps(_CANONICAL_REQUEST),
        json.dumps(_CANONICAL_REQUEST).encode(),
        bytearray(json.dumps(_CANONICAL_REQUEST).encode()),
    ],
    ids=["dict", "str", "bytes", "bytearray"],
)
def test_canonical_request_payload_forms(payload: Any) -> None:
    request = chatcodec.decode_request("canonical", payload)
    assert isinstance(request, ChatRequest)
    assert request.model_dump(mode="json") == _CANONICAL_REQUEST
    assert chatcodec.encode_request("canonical", request) == _CANONICAL_REQUEST
    assert chatcodec.convert_request(payload, source="canonical", target="canonical") == _CANONICAL_REQUEST


def test_encode_request_accepts_a_mapping() -> None:
    encoded = chatcodec.encode_request("canonical", {"system": "s", "messages": [{"role": "user", "content": "u"}]})
    assert encoded == {"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]}


def test_decode_request_normalizes_compat_shapes() -> None:
    request = chatcodec.decode_request(
        "canonical", {"messages": [{"role": "tool", "tool_call_id": "c", "content": "r"}]}
    )
    assert chatcodec.encode_request("canonical", request) == {
        "messages": [{"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c", "content": "r"}]}]
    }


_CANONICAL_RESPONSE: dict[str, Any] = {
    "id": "r",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "yo"},
            "finish_reason": {"unified": "stop", "raw": "x"},
        }
    ],
    "usage": {"input_tokens": 1, "output_tokens": 2},
}


@pytest.mark.parametrize(
    "payload",
    [_CANONICAL_RESPONSE, json.dumps(_CANONICAL_RESPONSE), json.dumps(_CANONICAL_RESPONSE).encode()],
    ids=["dict", "str", "bytes"],
)
def test_canonical_response_payload_forms(payload: Any) -> None:
    response = chatcodec.decode_response("canonical", payload)
    assert isinstance(response, ChatResponse)
    assert response.model_dump(mode="json") == _CANONICAL_RESPONSE
    assert chatcodec.encode_response("canonical", response) == _CANONICAL_RESPONSE
    assert chatcodec.convert_response(payload, source="canonical", target="canonical") == _CANONICAL_RESPONSE


def test_encode_response_accepts_single_message_shape() -> None:
    encoded = chatcodec.encode_response("canonical", {"message": {"role": "assistant", "content": "x"}})
    assert encoded == {"choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}}]}


def test_decode_request_schema_errors_are_validation_errors() -> None:
    with pytest.raises(chatcodec.ValidationError) as info:
        chatcodec.decode_request("canonical", {"messages": [{"role": "user", "content": 5}]})
    assert info.value.paths == ["$.messages[0].content"]  # one error per mistake
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.encode_request("canonical", {"messages": 5})


# --- payload errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("[1]", "the canonical request must be a JSON object, got list"),
        (b"[1]", "the canonical request must be a JSON object, got list"),
        ("1", "the canonical request must be a JSON object, got int"),
        ("null", "the canonical request must be a JSON object, got NoneType"),
        ([1], "the canonical request must be a JSON object, got list"),
        (None, "the canonical request must be a JSON object, got NoneType"),
        ("{bad", "not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
        ('{\n  "model": "m",\n  oops\n}', "(line 3, column 3)"),
        (b'{"model": "\xff"}', "not UTF-8 text"),
    ],
)
def test_decode_request_payload_errors(payload: Any, message: str) -> None:
    with pytest.raises(chatcodec.PayloadError) as info:
        chatcodec.decode_request("canonical", payload)
    assert isinstance(info.value, ValueError)
    assert message in str(info.value)
    assert info.value.path == "$"


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("[]", "the canonical response must be a JSON object, got list"),
        (b"7", "the canonical response must be a JSON object, got int"),
        ("{oops", "not valid JSON"),
    ],
)
def test_response_payload_errors(payload: Any, message: str) -> None:
    with pytest.raises(chatcodec.PayloadError) as info:
        chatcodec.decode_response("canonical", payload)
    assert message in str(info.value)
    with pytest.raises(chatcodec.PayloadError):
        chatcodec.convert_response(payload, source="canonical", target="canonical")


# --- canonical format: streams ---------------------------------------------------------

_STREAM: list[dict[str, Any]] = [
    {"type": "response_start", "id": "r1", "model": "m"},
    {"type": "text_start", "index": 0},
    {"type": "text_delta", "index": 0, "delta": "Hel"},
    {"type": "text_delta", "index": 0, "delta": "lo"},
    {"type": "text_end", "index": 0},
    {"type": "tool_call_start", "index": 1, "id": "c", "name": "f"},
    {"type": "tool_call_delta", "index": 1, "delta": "{}"},
    {"type": "tool_call_end", "index": 1},
    {"type": "usage", "usage": {"input_tokens": 3, "output_tokens": 2}},
    {"type": "finish", "finish_reason": {"unified": "tool_calls"}},
]

_SSE = "".join(f"data: {json.dumps(event)}\n\n" for event in _STREAM) + "data: [DONE]\n\n"
_JSONL = "".join(json.dumps(event) + "\n" for event in _STREAM)


def _chunks(text: str, size: int) -> list[bytes]:
    data = text.encode()
    return [data[start : start + size] for start in range(0, len(data), size)]


_STREAM_INPUTS = {
    "dicts": _STREAM,
    "sse-text": _SSE,
    "sse-bytes": _SSE.encode(),
    "sse-chunks": _chunks(_SSE, 7),
    "sse-crlf": _SSE.replace("\n", "\r\n"),
    "jsonl-text": _JSONL,
    "jsonl-bytes": _JSONL.encode(),
}


@pytest.mark.parametrize("events", _STREAM_INPUTS.values(), ids=_STREAM_INPUTS.keys())
def test_decode_stream_input_forms(events: Any) -> None:
    decoded = list(chatcodec.decode_stream("canonical", events))
    assert [event.model_dump(mode="json") for event in decoded] == _STREAM
    assert list(chatcodec.encode_stream("canonical", decoded)) == _STREAM


@pytest.mark.parametrize("events", _STREAM_INPUTS.values(), ids=_STREAM_INPUTS.keys())
def test_accumulate_stream(events: Any) -> None:
    response = chatcodec.accumulate_stream("canonical", events)
    assert response.model_dump() == {
        "id": "r1",
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Hello"},
                        {"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"},
                    ],
                },
                "finish_reason": {"unified": "tool_calls"},
            }
        ],
        "usage": {"input_tokens": 3, "output_tokens": 2},
    }


def test_decode_stream_is_lazy() -> None:
    def events() -> Iterator[dict[str, Any]]:
        yield {"type": "text_start", "index": 0}
        raise RuntimeError("not reached")

    stream = chatcodec.decode_stream("canonical", events())
    assert isinstance(next(stream), chatcodec.TextStartEvent)


def test_empty_streams() -> None:
    assert list(chatcodec.decode_stream("canonical", [])) == []
    assert list(chatcodec.decode_stream("canonical", "")) == []
    assert chatcodec.accumulate_stream("canonical", []).message.parts == []


def test_stream_with_error_event_raises_provider_api_error() -> None:
    sse = _SSE.replace("data: [DONE]", 'data: {"type": "error", "message": "overloaded", "error_type": "overloaded"}')
    with pytest.raises(chatcodec.ProviderAPIError, match="overloaded"):
        chatcodec.accumulate_stream("canonical", sse)


def test_bad_json_in_sse_event_is_a_stream_error() -> None:
    with pytest.raises(chatcodec.StreamError) as info:
        list(chatcodec.decode_stream("canonical", 'data: {"type": "text_start", "index": 0}\n\ndata: {bad}\n\n'))
    assert info.value.event_index == 1
    assert "not valid JSON" in str(info.value)


def test_bad_json_line_is_a_stream_error() -> None:
    with pytest.raises(chatcodec.StreamError) as info:
        list(chatcodec.decode_stream("canonical", '{"type": "text_start", "index": 0}\n{bad\n'))
    assert info.value.event_index == 1
    assert "line 2" in str(info.value)


def test_stream_of_non_events_is_a_stream_error() -> None:
    with pytest.raises(chatcodec.StreamError, match="got int"):
        list(chatcodec.decode_stream("canonical", [1, 2]))
    with pytest.raises(chatcodec.StreamError, match="expected an event object"):
        list(chatcodec.decode_stream("canonical", [{"type": "text_start", "index": 0}, "x"]))


def test_unknown_event_type_is_a_validation_error() -> None:
    with pytest.raises(chatcodec.ValidationError) as info:
        list(chatcodec.decode_stream("canonical", [{"type": "nope"}]))
    assert [detail["type"] for detail in info.value.errors()] == ["union_tag_invalid"]


def test_out_of_order_stream_is_a_stream_error() -> None:
    with pytest.raises(chatcodec.StreamError, match="never started"):
        chatcodec.accumulate_stream("canonical", [{"type": "text_delta", "index": 0, "delta": "x"}])
