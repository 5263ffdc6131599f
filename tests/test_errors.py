"""Bad input raises chatcodec's errors, with JSON paths and rule names."""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest

import chatcodec
from chatcodec import ChatRequest, ChatResponse


def _validation_error(call: Any, data: object) -> chatcodec.ValidationError:
    with pytest.raises(chatcodec.ValidationError) as info:
        call(data)
    error = info.value
    assert isinstance(error, pydantic.ValidationError)
    assert isinstance(error, chatcodec.ChatcodecError)
    return error


def _rules(error: chatcodec.ValidationError) -> list[str]:
    return [detail["type"] for detail in error.errors()]


# --- exact paths and rules -------------------------------------------------------------

_MESSAGES_CASES: list[tuple[str, object, list[str], list[str]]] = [
    (
        "wrong role",
        [{"role": "user", "content": "x"}, {"role": "bogus", "content": "x"}],
        ["$[1]"],
        ["union_tag_invalid"],
    ),
    ("role is None", [{"role": None}], ["$[0]"], ["union_tag_invalid"]),
    ("no role", [{}], ["$[0]"], ["union_tag_not_found"]),
    (
        "unknown part type",
        [{"role": "user", "content": "x"}, {"role": "user", "content": [{"type": "bogus"}]}],
        ["$[1].content[0]"],
        ["union_tag_invalid"],
    ),
    (
        "part not allowed for role",
        [{"role": "system", "content": [{"type": "image", "source": {"type": "url", "url": "u"}}]}],
        ["$[0].content[0]"],
        ["union_tag_invalid"],
    ),
    (
        "thinking in a user message",
        [{"role": "user", "content": [{"type": "thinking", "text": "x"}]}],
        ["$[0].content[0]"],
        ["union_tag_invalid"],
    ),
    ("missing content", [{"role": "user"}], ["$[0].content"], ["missing"]),
    (
        "missing tool_use id",
        [{"role": "assistant", "content": [{"type": "tool_use", "name": "f"}]}],
        ["$[0].content[0].id"],
        ["missing"],
    ),
    (
        "missing tool_use_id",
        [{"role": "user", "content": [{"type": "tool_result"}]}],
        ["$[0].content[0].tool_use_id"],
        ["missing"],
    ),
    (
        "missing image source",
        [{"role": "user", "content": [{"type": "image"}]}],
        ["$[0].content[0].source"],
        ["missing"],
    ),
    ("missing text", [{"role": "user", "content": [{"type": "text"}]}], ["$[0].content[0].text"], ["missing"]),
    (
        "content is a number (one error for the union's arms)",
        [{"role": "user", "content": 123}],
        ["$[0].content"],
        ["string_type"],
    ),
    (
        "arguments as a dict",
        [{"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "arguments": {"a": 1}}]}],
        ["$[0].content[0].arguments"],
        ["string_type"],
    ),
    ("extra key on a message", [{"role": "user", "content": "x", "extra": 1}], ["$[0].extra"], ["extra_forbidden"]),
    (
        "extra key on an image part",
        [{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "u"}, "foo": 1}]}],
        ["$[0].content[0].foo"],
        ["extra_forbidden"],
    ),
    ("tool message with empty content", [{"role": "tool", "content": []}], ["$[0].content"], ["too_short"]),
    (
        "text message content not a string",
        [{"role": "system", "content": "x"}, {"role": "text", "content": 5}],
        ["$[1].content"],
        ["string_type"],
    ),
    (
        "bad source tag",
        [{"role": "user", "content": [{"type": "image", "source": {"type": "ftp", "url": "u"}}]}],
        ["$[0].content[0].source"],
        ["union_tag_invalid"],
    ),
    (
        "empty url",
        [{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": ""}}]}],
        ["$[0].content[0].source.url"],
        ["string_too_short"],
    ),
    (
        "bad detail",
        [{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "u"}, "detail": "max"}]}],
        ["$[0].content[0].detail"],
        ["literal_error"],
    ),
    (
        "bad cache_control type",
        [{"role": "user", "content": "x", "cache_control": {"type": "persistent"}}],
        ["$[0].cache_control.type"],
        ["literal_error"],
    ),
    (
        "is_error not a bool",
        [{"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c", "is_error": "maybe"}]}],
        ["$[0].content[0].is_error"],
        ["bool_type"],
    ),
    ("not a list", {"role": "user", "content": "x"}, ["$"], ["list_type"]),
    ("message not an object", [1], ["$[0]"], ["model_attributes_type"]),
]


@pytest.mark.parametrize(
    ("data", "paths", "rules"),
    [case[1:] for case in _MESSAGES_CASES],
    ids=[case[0] for case in _MESSAGES_CASES],
)
def test_validate_messages_paths_and_rules(data: object, paths: list[str], rules: list[str]) -> None:
    error = _validation_error(chatcodec.validate_messages, data)
    assert error.paths == paths
    assert _rules(error) == rules
    assert error.title == "Messages"
    assert error.error_count() == len(paths)
    text = str(error)
    assert text.startswith(f"{len(paths)} validation error(s) for Messages")
    for path, rule in zip(paths, rules, strict=True):
        assert f"at {path}: " in text
        assert f"[rule: {rule}]" in text


def test_str_of_error_lists_each_problem_on_its_own_line() -> None:
    error = _validation_error(chatcodec.validate_messages, [{"role": "user", "content": "x", "extra": 1}])
    assert str(error) == (
        "1 validation error(s) for Messages\n  at $[0].extra: Extra inputs are not permitted [rule: extra_forbidden]"
    )


def test_errors_keep_pydantic_details() -> None:
    error = _validation_error(chatcodec.validate_messages, [{"role": "user", "content": "x", "extra": 1}])
    (detail,) = error.errors()
    assert detail["loc"] == (0, "extra")
    assert detail["input"] == 1
    assert detail["msg"] == "Extra inputs are not permitted"


def test_validate_message_paths_start_at_the_message() -> None:
    error = _validation_error(chatcodec.validate_message, {"role": "user", "content": [{"type": "x"}]})
    assert error.paths == ["$.content[0]"]
    assert _rules(error) == ["union_tag_invalid"]
    assert error.title == "Message"


def test_validate_message_does_not_split_tool_results() -> None:
    error = _validation_error(
        chatcodec.validate_message,
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c", "content": "r"}]},
    )
    assert error.paths == ["$.content[0]"]
    assert _rules(error) == ["union_tag_invalid"]


@pytest.mark.parametrize("encode", [json.dumps, lambda data: json.dumps(data).encode()])
def test_json_text_and_bytes_report_the_same_paths(encode: Any) -> None:
    data = [{"role": "user", "content": "ok"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "c"}]}]
    error = _validation_error(chatcodec.validate_messages, encode(data))
    assert error.paths == ["$[1].content[0].name"]
    assert _rules(error) == ["missing"]
    single = _validation_error(chatcodec.validate_message, encode(data[1]))
    assert single.paths == ["$.content[0].name"]


@pytest.mark.parametrize(
    ("data", "paths", "rules"),
    [
        ({"tool_choice": {"type": "tool"}}, ["$.tool_choice"], ["value_error"]),
        ({"tool_choice": {"type": "auto", "name": "f"}}, ["$.tool_choice"], ["value_error"]),
        ({"tool_choice": {"type": "any"}}, ["$.tool_choice.type"], ["literal_error"]),
        (
            {"messages": [{"role": "user", "content": "x"}, {"role": "user", "content": 5}]},
            ["$.messages[1].content"],
            ["string_type"],
        ),
        (
            {"messages": [{"role": "user", "content": "x"}], "temperature": "hot", "max_tokens": 0, "bogus": 1},
            ["$.max_tokens", "$.temperature", "$.bogus"],
            ["greater_than_equal", "float_type", "extra_forbidden"],
        ),
        ({"tools": [{"name": ""}]}, ["$.tools[0].name"], ["string_too_short"]),
        ({"reasoning": {"effort": "huge"}}, ["$.reasoning.effort"], ["literal_error"]),
        ({"messages": 5}, ["$.messages"], ["list_type"]),
    ],
)
def test_validate_model_chat_request(data: dict[str, Any], paths: list[str], rules: list[str]) -> None:
    error = _validation_error(lambda value: chatcodec.validate_model(ChatRequest, value), data)
    assert error.paths == paths
    assert _rules(error) == rules
    assert error.title == "ChatRequest"


def test_tool_choice_message_explains_the_rule() -> None:
    error = _validation_error(
        lambda value: chatcodec.validate_model(ChatRequest, value), {"tool_choice": {"type": "tool"}}
    )
    assert "name is required when type is 'tool'" in str(error)


@pytest.mark.parametrize(
    ("data", "paths", "rules"),
    [
        ({"choices": []}, ["$.choices"], ["too_short"]),
        (
            {"choices": [{"message": {"role": "user", "content": "x"}}]},
            ["$.choices[0].message"],
            ["union_tag_invalid"],
        ),
        (
            {"message": {"role": "assistant", "content": "x"}, "usage": {"input_tokens": -1}},
            ["$.usage.input_tokens"],
            ["greater_than_equal"],
        ),
    ],
)
def test_validate_model_chat_response(data: dict[str, Any], paths: list[str], rules: list[str]) -> None:
    error = _validation_error(lambda value: chatcodec.validate_model(ChatResponse, value), data)
    assert error.paths == paths
    assert _rules(error) == rules


def test_validate_model_json_text() -> None:
    error = _validation_error(lambda value: chatcodec.validate_model(ChatRequest, value), '{"max_tokens": 0}')
    assert error.paths == ["$.max_tokens"]
    request = chatcodec.validate_model(ChatRequest, b'{"max_tokens": 3}')
    assert request.max_tokens == 3


# --- bad JSON --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "text", "where"),
    [
        (chatcodec.validate_messages, "[{bad json", "line 1, column 3"),
        (chatcodec.validate_messages, b"[\n  {bad json", "line 2, column 4"),
        (chatcodec.validate_messages, '[{"role": "user", "content": "a"}] trailing', "line 1, column 36"),
        (chatcodec.validate_message, "{", "line 1, column 2"),
        (lambda value: chatcodec.validate_model(ChatRequest, value), '{"messages": [}', "line 1, column 15"),
    ],
)
def test_invalid_json_text_is_a_payload_error(call: Any, text: str | bytes, where: str) -> None:
    with pytest.raises(chatcodec.PayloadError) as info:
        call(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, chatcodec.ChatcodecError)
    assert "not valid JSON" in str(info.value)
    assert where in str(info.value)
    assert info.value.path == "$"


def test_invalid_utf8_bytes_is_a_payload_error() -> None:
    with pytest.raises(chatcodec.PayloadError, match="not UTF-8"):
        chatcodec.validate_messages(b'["\xff"]')


# --- garbage never escapes as a raw exception -----------------------------------------

_GARBAGE: list[object] = [
    None,
    1,
    1.5,
    True,
    "x",
    "",
    b"",
    "{}",
    "null",
    [1],
    [None],
    [[]],
    [{}],
    [{"role": None}],
    [{"role": 1}],
    [{"role": ["user"]}],
    [{"role": {"a": 1}}],
    [{"role": "assistant", "tool_calls": "x"}],
    [{"role": "assistant", "tool_calls": [1]}],
    [{"role": "assistant", "tool_calls": [{"function": 5}]}],
    [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": 5}}]}],
    [{"role": "assistant", "reasoning_content": 5}],
    [{"role": "assistant", "thinking_blocks": "x"}],
    [{"role": "assistant", "thinking_blocks": [1]}],
    [{"role": "assistant", "content": 5, "tool_calls": []}],
    [{"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "input": 5}]}],
    [{"role": "tool", "tool_call_id": 1}],
    [{"role": "tool", "tool_call_id": "c", "content": 5}],
    [{"role": "tool", "tool_call_id": "c", "content": {"type": "text"}}],
    [{"role": "user", "content": [None]}],
    [{"role": "user", "content": [{"type": ["x"]}]}],
    [{"role": "user", "content": [{"type": "image_url", "image_url": 5}]}],
    [{"role": "user", "content": [{"type": "image_url"}]}],
    [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"format": "mp3"}}]}],
    [{"role": "user", "content": [{"type": "input_audio", "input_audio": "x"}]}],
    [{"role": "user", "content": [{"type": "file", "file": {}}]}],
    [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c", "content": 5}]}],
    [{"role": "user", "content": [{"type": "document", "source": {"type": "text", "data": 5}}]}],
    [{"role": "user", "content": [{"type": "document", "source": "x"}]}],
    "[" * 50 + "]" * 50,
    b'[{"role": "user", "content": "x"}]'.decode().encode("utf-16"),
]


@pytest.mark.parametrize("data", _GARBAGE, ids=[repr(value)[:60] for value in _GARBAGE])
def test_garbage_raises_only_chatcodec_errors(data: object) -> None:
    with pytest.raises((chatcodec.ValidationError, chatcodec.PayloadError)) as info:
        chatcodec.validate_messages(data)
    assert isinstance(info.value, chatcodec.ChatcodecError)
    if isinstance(info.value, chatcodec.ValidationError):
        assert info.value.error_count() >= 1
        assert all(path.startswith("$") for path in info.value.paths)


@pytest.mark.parametrize("data", _GARBAGE, ids=[repr(value)[:60] for value in _GARBAGE])
def test_garbage_as_a_request_raises_only_chatcodec_errors(data: object) -> None:
    with pytest.raises((chatcodec.ValidationError, chatcodec.PayloadError)):
        chatcodec.validate_model(ChatRequest, {"messages": data})


@pytest.mark.parametrize(
    ("provider", "body", "path", "message"),
    [
        (
            "openai-chat",
            {"model": "m", "messages": [{"role": "user", "content": 5}]},
            "$.messages[0].content",
            "Input should be a valid string or a valid list",
        ),
        (
            "openai-chat",
            {"model": "m", "temperature": "0.5", "messages": [{"role": "user", "content": "hi"}]},
            "$.temperature",
            "Input should be a valid number",
        ),
    ],
)
def test_one_mistake_is_one_error(provider: str, body: dict[str, Any], path: str, message: str) -> None:
    """A union's arms collapse to one error, and ``paths`` has no repeats."""
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request(provider, body)
    assert raised.value.paths == [path]
    assert message in str(raised.value)


def test_a_tag_with_a_lone_surrogate_is_a_chatcodec_error_that_shows_its_escape() -> None:
    """``"a\\ud800b"`` is valid JSON text; quoted into the error message it made
    pydantic-core raise UnicodeEncodeError (the README run's fuzz found it, after the
    canonical unions got their own tag error)."""
    with pytest.raises(chatcodec.ChatcodecError) as raised:
        chatcodec.validate_messages([{"role": "user", "content": [{"type": "a\ud800b", "text": "x"}]}])
    message = str(raised.value)
    assert "Input tag 'a\\ud800b' found using 'type'" in message
    assert "[rule: union_tag_invalid]" in message


def _raised(call: Any) -> chatcodec.ChatcodecError:
    try:
        call()
    except chatcodec.ChatcodecError as error:
        return error
    raise AssertionError("no error")


@pytest.mark.parametrize(
    "call",
    [
        lambda: chatcodec.decode_request("openai-chat", "{not json"),
        lambda: chatcodec.convert_request(
            {"messages": []}, source="openai-chat", target="anthropic", options={"max_token": 5}
        ),
        lambda: chatcodec.accumulate_stream("anthropic", [{"type": "message_start"}]),
        lambda: chatcodec.decode_response("openai-chat", {"error": {"message": "boom", "type": "server_error"}}),
        lambda: chatcodec.decode_request("anthropic", {"messages": "x"}),
        lambda: chatcodec.encode_request(
            "anthropic",
            {"messages": [{"role": "user", "content": [{"type": "audio", "data": "AA==", "media_type": "audio/wav"}]}]},
            on_loss="error",
        ),
    ],
    ids=["payload", "option", "stream", "provider-api", "validation", "loss"],
)
def test_an_error_pickled_to_another_process_comes_back_as_it_was(call: Any) -> None:
    """A dataset worker's error crosses to the parent process pickled (Ray, Spark,
    multiprocessing): it comes back with the same type, message and attributes, not with its
    message rendered a second time by ``__init__`` (``at $: at $.a: ...``)."""
    import pickle

    error = _raised(call)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert str(again) == str(error)
    assert {key: value for key, value in vars(again).items()} == {key: value for key, value in vars(error).items()}
