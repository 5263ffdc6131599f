"""Input that crashed chatcodec from deep inside.

Each one must be a chatcodec error naming the JSON path (or be accepted); never a
``ValueError``, ``KeyError``, ``TypeError``, ``AttributeError``, ``UnicodeEncodeError`` or
``RecursionError`` from a library or a decoder. The rules chosen:

* integers over Python's 4,300-digit conversion limit are refused where they are (no
  encoder could write them back);
* numbers that overflow to infinity (``1e400``), and ``NaN`` / ``Infinity`` (not JSON), are
  refused where they are, rather than read as ``inf`` and written out as ``Infinity``;
* JSON text holding a lone UTF-16 surrogate escape is refused where it is (pydantic-core's
  own parser refuses it, and a string holding one cannot be written as UTF-8 JSON); bytes
  that are not UTF-8 are refused, in a body and in a stream;
* values nested past Python's recursion limit are refused naming the route into them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._payloads import deeper_than
from chatcodec.cli import main

_BIG = "1" * 5000


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def _openai_request(**extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}


def _chunk_text(extra: str = "") -> str:
    chunk = '{"id":"x","object":"chat.completion.chunk","created":1,"model":"m",'
    chunk += '"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]' + extra + "}"
    return f"data: {chunk}\n\n"


# --- integers over the 4,300-digit limit ---------------------------------------------


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic"])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_huge_integer_in_a_body_is_refused_at_its_path(provider: str, as_bytes: bool) -> None:
    text = json.dumps(_openai_request(max_tokens=0)).replace('"max_tokens": 0', f'"max_tokens": {_BIG}')
    payload: str | bytes = text.encode() if as_bytes else text
    with pytest.raises(chatcodec.PayloadError, match="5000 digits is over Python's 4300-digit limit") as caught:
        chatcodec.decode_request(provider, payload)
    assert caught.value.path == "$.max_tokens"


def test_a_huge_integer_in_a_stream_event_names_the_event_and_path() -> None:
    stream = _chunk_text() + _chunk_text(f', "n": {_BIG}')
    with pytest.raises(chatcodec.StreamError, match="4300-digit limit") as caught:
        chatcodec.accumulate_stream("openai-chat", stream)
    assert (caught.value.event_index, caught.value.path) == (1, "$.n")


def test_a_huge_integer_in_a_dataset_line_and_the_cli_is_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = tmp_path / "conversation.json"
    document.write_text(f'[{{"role": "user", "content": "hi", "x": {_BIG}}}]')
    assert main(["validate", str(document)]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert "at $[0].x: an integer of 5000 digits" in err
    with pytest.raises(chatcodec.PayloadError, match=r"at \$\[0\]\.x"):
        chatcodec.validate_messages(document.read_text())


def test_a_huge_integer_on_a_jsonl_line_names_the_line_and_path() -> None:
    from chatcodec.streams._sse import iter_jsonl

    lines = '{"a": 1}\n{"b": [' + _BIG + "]}\n"
    with pytest.raises(chatcodec.StreamError, match="4300-digit limit") as caught:
        list(iter_jsonl(lines))
    assert (caught.value.event_index, caught.value.path) == (1, "$.b[0]")


def test_a_huge_integer_in_a_jsonl_dataset_is_one_reject_with_its_path(tmp_path: Path) -> None:
    dataset = tmp_path / "requests.jsonl"
    good = json.dumps(_openai_request())
    dataset.write_text(good + "\n" + good.replace('"model": "m"', f'"model": "m", "n": {_BIG}') + "\n")
    rejects = tmp_path / "rejects.jsonl"
    out = tmp_path / "out.jsonl"
    arguments = ["convert", str(dataset), "--from", "openai-chat", "--to", "anthropic", "--quiet"]
    assert main([*arguments, "--out", str(out), "--rejects", str(rejects)]) == 1
    (reject,) = [json.loads(line) for line in rejects.read_text().splitlines()]
    assert "at $.n: an integer of 5000 digits" in reject["error"]


def test_tool_arguments_with_a_huge_integer_are_a_tool_arguments_error() -> None:
    request = chatcodec.decode_request(
        "openai-chat",
        {
            "model": "m",
            "messages": [
                {
                    "role": "assistant",
                    "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": _BIG}}],
                }
            ],
        },
    )
    call = request.messages[0].content[0]
    assert isinstance(call, chatcodec.ToolUsePart)
    with pytest.raises(chatcodec.ToolArgumentsError, match="4300-digit limit"):
        call.parsed_arguments()


# --- numbers that overflow ------------------------------------------------------------


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" * 400 + ".0"])
def test_a_number_that_overflows_to_infinity_is_refused_at_its_path(number: str) -> None:
    text = json.dumps(_openai_request(temperature=0.5)).replace("0.5", number)
    with pytest.raises(chatcodec.PayloadError, match="out of range") as caught:
        chatcodec.decode_request("openai-chat", text)
    assert caught.value.path == "$.temperature"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant: str) -> None:
    text = json.dumps(_openai_request(temperature=0.5)).replace("0.5", constant)
    with pytest.raises(chatcodec.PayloadError):
        chatcodec.convert_request(text, source="openai-chat", target="anthropic")


def test_large_finite_numbers_still_read() -> None:
    text = json.dumps(_openai_request(temperature=0.5)).replace("0.5", "1e300")
    assert chatcodec.decode_request("openai-chat", text).temperature == 1e300


# --- lone surrogates and bytes that are not UTF-8 -------------------------------------


def test_a_lone_surrogate_in_a_tool_id_is_refused_at_its_path_not_a_unicode_error() -> None:
    text = (
        '{"model":"m","max_tokens":5,"messages":[{"role":"assistant","content":'
        '[{"type":"tool_use","id":"t\\ud800","name":"n","input":{}}]}]}'
    )
    with pytest.raises(chatcodec.PayloadError, match="lone UTF-16 surrogate") as caught:
        chatcodec.convert_request(text, source="anthropic", target="anthropic")
    assert caught.value.path == "$.messages[0].content[0].id"


def test_a_lone_surrogate_in_a_key_is_refused_at_its_path() -> None:
    text = '{"model":"m","messages":[{"role":"user","content":"hi","\\udc00x":1}]}'
    with pytest.raises(chatcodec.PayloadError, match="key holds a lone UTF-16 surrogate") as caught:
        chatcodec.convert_request(text, source="openai-chat", target="anthropic")
    assert caught.value.path == "$.messages[0]['\\udc00x']"


def test_a_lone_surrogate_in_a_stream_is_refused_at_its_path() -> None:
    stream = _chunk_text().replace('"content":"a"', '"content":"a\\ud800"')
    with pytest.raises(chatcodec.StreamError, match="lone UTF-16 surrogate") as caught:
        list(chatcodec.decode_stream("openai-chat", stream))
    assert caught.value.path == "$.choices[0].delta.content"
    with pytest.raises(chatcodec.StreamError, match="lone UTF-16 surrogate"):
        chatcodec.accumulate_stream("openai-chat", stream)


def test_a_surrogate_pair_escape_is_one_character_and_reads() -> None:
    text = '{"model":"m","messages":[{"role":"user","content":"\\ud83d\\ude00"}]}'
    assert chatcodec.decode_request("openai-chat", text).messages[0].content == "\U0001f600"


def test_a_python_string_with_a_lone_surrogate_in_a_tool_id_is_escaped_reversibly() -> None:
    # Dicts are taken as given: the id rewrite Anthropic needs works on any code point.
    request = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t\ud800", "name": "n", "input": {}}]}
        ],
    }
    wire = chatcodec.encode_request("anthropic", chatcodec.decode_request("anthropic", request), on_loss="ignore")
    sent = wire["messages"][0]["content"][0]["id"]
    assert sent == "cc-t_ed_a0_80"
    assert chatcodec.decode_request("anthropic", wire).messages[0].content[0]["id"] == "t\ud800"


def test_bytes_that_are_not_utf8_are_refused_in_a_body_and_a_stream() -> None:
    with pytest.raises(chatcodec.PayloadError, match="not UTF-8 text"):
        chatcodec.decode_request("openai-chat", b'{"model":"m\xff","messages":[]}')
    stream = _chunk_text().encode().replace(b'"content":"a"', b'"content":"\xff"')
    with pytest.raises(chatcodec.StreamError, match="not UTF-8 text"):
        chatcodec.accumulate_stream("openai-chat", stream)


# --- media parts in system, developer and tool messages -------------------------------

_BAD_MEDIA_PARTS: list[tuple[dict[str, Any], str]] = [
    ({"type": "image_url"}, "image_url"),
    ({"type": "image_url", "image_url": ""}, "image_url"),  # a bare URL is read, an empty one not
    ({"type": "image_url", "image_url": {"url": 5}}, "image_url.url"),
    ({"type": "image_url", "image_url": {}}, "image_url.url"),
    ({"type": "input_audio"}, "input_audio"),
    ({"type": "input_audio", "input_audio": {"data": "AAAA"}}, "input_audio.format"),
    ({"type": "input_audio", "input_audio": "AAAA"}, "input_audio"),
    ({"type": "file", "file": 5}, "file"),
]


@pytest.mark.parametrize("role", ["user", "system", "developer", "tool"])
def test_a_file_part_with_neither_spelling_is_kept_whole_and_refused_by_strict_reading(role: str) -> None:
    # {"type": "file"} holds neither OpenAI's nested `file` nor DeepSeek's flat `file_id`
    # (vercel/ai's @ai-sdk/deepseek DeepSeekContentPartFile), so the tolerant reader cannot tell
    # which it lacks: it keeps the part whole and writes it back as it came; strict reading
    # (OpenAI's own part) refuses it.
    message: dict[str, Any] = {"role": role, "content": [{"type": "file"}]}
    if role == "tool":
        message["tool_call_id"] = "c"
    body = {"model": "m", "messages": [message]}
    read = chatcodec.decode_request("openai-chat", body)
    part = read.messages[0].content[0]
    held = part.content[0] if role == "tool" else part  # a tool message's content is its result's
    assert held.model_dump() == {
        "type": "opaque",
        "provider": "openai-chat",
        "data": {"type": "file"},
    }
    assert chatcodec.encode_request("openai-chat", read)["messages"][0]["content"] == [{"type": "file"}]
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("openai-chat", body, strict=True)
    assert any(path.startswith("$.messages[0].content[0]") for path in caught.value.paths)


@pytest.mark.parametrize("role", ["system", "developer", "tool"])
@pytest.mark.parametrize(("part", "where"), _BAD_MEDIA_PARTS)
def test_a_bad_media_part_outside_a_user_message_is_refused_at_its_path(
    role: str, part: dict[str, Any], where: str
) -> None:
    message: dict[str, Any] = {"role": role, "content": [part]}
    if role == "tool":
        message["tool_call_id"] = "c"
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("openai-chat", {"model": "m", "messages": [message]})
    assert f"$.messages[0].content[0].{where}" in caught.value.paths


def test_a_good_image_in_a_tool_message_is_read() -> None:
    message = {
        "role": "tool",
        "tool_call_id": "c",
        "content": [{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}],
    }
    request = chatcodec.decode_request("openai-chat", {"model": "m", "messages": [message]})
    result = request.messages[0].content[0]
    assert isinstance(result, chatcodec.ToolResultPart)
    assert isinstance(result.content, list)
    assert isinstance(result.content[0], chatcodec.ImagePart)


# --- deep nesting -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "depth"),
    [({"a": [{"b": 1}]}, 3), ([[[]]], 2), ({"a": (1, [2])}, 3), ("leaf", 0), ({}, 0)],
)
def test_deeper_than_counts_the_levels_too_deep_names(value: object, depth: int) -> None:
    """``payloads.deeper_than`` (what a reader building no model checks kept values with)
    counts levels as the error for a value too deep reports them."""
    assert not deeper_than(value, depth)
    assert depth == 0 or deeper_than(value, depth - 1)


def test_tool_input_nested_1000_levels_is_refused_naming_its_route() -> None:
    request = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "n", "input": _nested(1000)}]}
        ],
    }
    with pytest.raises(chatcodec.PayloadError, match="nested 1005 levels deep") as caught:
        chatcodec.convert_request(request, source="anthropic", target="openai-chat")
    assert caught.value.path.startswith("$.messages[0].content[0].input.a.a.a")


@pytest.mark.parametrize(
    ("provider", "body"),
    [("openai-chat", {"error": _nested(1000)}), ("anthropic", {"type": "error", "error": _nested(1000)})],
)
def test_an_error_body_nested_1000_levels_is_a_chatcodec_error(provider: str, body: Any) -> None:
    with pytest.raises(chatcodec.ChatcodecError):
        chatcodec.decode_response(provider, body)


def _deep_arguments_request() -> dict[str, Any]:
    arguments = '{"a":' * 10_000 + "1" + "}" * 10_000
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
    return {"model": "m", "messages": [{"role": "assistant", "tool_calls": [call]}]}


def test_argument_text_nested_10000_levels_through_parsed_arguments() -> None:
    call = chatcodec.decode_request("openai-chat", _deep_arguments_request()).messages[0].content[0]
    assert isinstance(call, chatcodec.ToolUsePart)
    with pytest.raises(chatcodec.ToolArgumentsError, match="nested too deeply"):
        call.parsed_arguments()
    assert not call.arguments_are_valid_json


def test_argument_text_nested_10000_levels_through_convert_is_a_reported_loss() -> None:
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(
        _deep_arguments_request(), source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
    )
    arguments = '{"a":' * 10_000 + "1" + "}" * 10_000
    assert wire["messages"][0]["content"][0]["input"] == {"INVALID_JSON": arguments}  # wrapped
    assert "$.messages[0].tool_calls[0].arguments" in [loss.path for loss in losses]  # where the input has it
    with pytest.raises(chatcodec.LossError):
        chatcodec.convert_request(_deep_arguments_request(), source="openai-chat", target="anthropic", on_loss="error")


def test_argument_text_nested_10000_levels_streamed_then_encoded() -> None:
    arguments = '{"a":' * 10_000 + "1" + "}" * 10_000
    chunk = {
        "id": "x",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "tool_calls": [
                        {"index": 0, "id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
                    ]
                },
                "finish_reason": "tool_calls",
            }
        ],
    }
    events = list(chatcodec.decode_stream("openai-chat", [chunk]))
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream("anthropic", events, on_loss="ignore", losses=losses))
    assert wire
    assert any(loss.path.endswith(".arguments") for loss in losses)


@pytest.mark.parametrize("depth", [1000, 5000])
def test_a_stream_event_nested_past_the_recursion_limit_names_the_event(depth: int) -> None:
    first = json.loads(_chunk_text().removeprefix("data: "))
    events = [{**first, "x_extension": _nested(depth)}, first]
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.decode_stream("openai-chat", events))
    assert caught.value.event_index == 0
    with pytest.raises(chatcodec.ChatcodecError):
        chatcodec.accumulate_stream("openai-chat", iter(events))


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic"])
def test_kept_data_past_pydantics_depth_limit_is_refused_at_the_inputs_path(provider: str) -> None:
    # pydantic-core refuses it when the canonical model is built, at a canonical place
    # (provider_metadata[...]) the input does not have; the error names the input's.
    request = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}], "x_ext": _nested(300)}
    with pytest.raises(chatcodec.PayloadError, match="nested 301 levels deep") as caught:
        chatcodec.decode_request(provider, request)
    assert caught.value.path.startswith("$.x_ext.a.a")


def test_a_file_that_is_not_utf8_is_one_rejected_document_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = tmp_path / "conversation.json"
    document.write_bytes(b'[{"role": "user", "content": "\xff"}]')
    assert main(["validate", str(document)]) == 1
    err = capsys.readouterr().err
    assert "not UTF-8 text" in err
    assert "internal error" not in err


@pytest.mark.parametrize("message", [None, 5, "hi", [{"role": "user", "content": "hi"}]])
def test_a_conversation_refuses_a_value_that_is_no_message(message: Any) -> None:
    with pytest.raises(chatcodec.ChatcodecError):
        chatcodec.Conversation(messages=[message])


# --- stream decoders say which event and where -----------------------------------------

_CHUNK: dict[str, Any] = {
    "id": "x",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "m",
    "choices": [{"index": 0, "delta": {"content": "a"}, "finish_reason": None}],
}
_MESSAGE_START: dict[str, Any] = {
    "type": "message_start",
    "message": {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "x",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    },
}


def _stream_cases() -> list[Any]:
    negative_choice = {**_CHUNK, "choices": [{**_CHUNK["choices"][0], "index": -1}]}
    negative_usage = {**_CHUNK, "usage": {"prompt_tokens": -1, "completion_tokens": 1, "total_tokens": 0}}
    negative_block = {"type": "content_block_start", "index": -1, "content_block": {"type": "text", "text": ""}}
    negative_delta = {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": -3}}
    deep_block = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "text", "text": "", "x": _nested(300)},
    }
    deep_delta = {"type": "message_delta", "delta": {"stop_reason": "end_turn", "x": _nested(300)}, "usage": {}}
    return [
        pytest.param("openai-chat", [negative_choice], 0, "$.choices[0].index", id="openai-negative-choice"),
        pytest.param("openai-chat", [negative_usage], 0, "$.usage.prompt_tokens", id="openai-negative-usage"),
        pytest.param("anthropic", [_MESSAGE_START, negative_block], 1, "$.index", id="anthropic-negative-index"),
        pytest.param(
            "anthropic", [_MESSAGE_START, negative_delta], 1, "$.usage.output_tokens", id="anthropic-negative-usage"
        ),
        pytest.param("anthropic", [_MESSAGE_START, deep_block], 1, "$.content_block.x.a.a", id="anthropic-deep-block"),
        pytest.param("anthropic", [_MESSAGE_START, deep_delta], 1, "$.delta.x.a.a", id="anthropic-deep-delta"),
    ]


@pytest.mark.parametrize(("provider", "events", "index", "path"), _stream_cases())
def test_a_stream_decoder_names_the_event_and_the_path(provider: str, events: list[Any], index: int, path: str) -> None:
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.decode_stream(provider, events))
    assert caught.value.event_index == index
    assert caught.value.path.startswith(path)
    with pytest.raises(chatcodec.ChatcodecError):
        chatcodec.accumulate_stream(provider, events)


def test_usage_nested_past_the_depth_limit_is_a_stream_error_both_ways() -> None:
    usage = {"input_tokens": 1, "output_tokens": 1, "cache_creation": {"ephemeral_1h_input_tokens": _nested(300)}}
    events = [{**_MESSAGE_START, "message": {**_MESSAGE_START["message"], "usage": usage}}]
    for run in (
        lambda: list(chatcodec.decode_stream("anthropic", events)),
        lambda: chatcodec.accumulate_stream("anthropic", events),
    ):
        with pytest.raises(chatcodec.StreamError) as caught:
            run()
        assert caught.value.event_index == 0
        assert caught.value.path.startswith("$.message.usage.cache_creation.ephemeral_1h_input_tokens.a.a")


@pytest.mark.parametrize("depth", [1000, 5000])
def test_accumulating_a_list_names_the_deep_event_as_an_iterator_does(depth: int) -> None:
    # A list is read with no counting step per event (the list iterator tells how far the
    # decoder got): a RecursionError (Gemini's key-spelling walk) must still name the event.
    chunk = {"candidates": [{"content": {"parts": [{"text": "a"}], "role": "model"}, "index": 0}], "responseId": "r"}
    events = [chunk, chunk, {**chunk, "x": _nested(depth)}, chunk]
    errors = []
    for given in (events, iter(events)):
        with pytest.raises(chatcodec.StreamError) as caught:
            chatcodec.accumulate_stream("gemini", given)
        errors.append((caught.value.event_index, caught.value.path, str(caught.value)))
    assert errors[0] == errors[1]
    assert errors[0][0] == 2
    assert errors[0][1].startswith("$.x.a.a")


# --- a payload built in Python that holds itself ----------------------------------------
# (every provider and place: tests/conformance/test_cyclic_payloads.py)


def test_a_list_holding_itself_in_a_free_form_value_names_where_it_appears_again() -> None:
    items: list[object] = []
    items.append(items)
    body = _openai_request(metadata={"tags": items})
    with pytest.raises(chatcodec.PayloadError, match=r"\[rule: cyclic_value\]") as caught:
        chatcodec.decode_request("openai-chat", body)
    assert caught.value.path == "$.metadata.tags[0]"
    with pytest.raises(chatcodec.PayloadError, match=r"\[rule: cyclic_value\]") as caught:
        chatcodec.convert_request(body, source="openai-chat", target="anthropic")
    assert caught.value.path == "$.metadata.tags[0]"


def test_a_conversation_holding_itself_is_refused_by_the_strict_reader_at_its_place() -> None:
    messages: list[object] = [{"role": "user", "content": "hi"}]
    messages.append(messages)
    with pytest.raises(chatcodec.PayloadError, match=r"\[rule: cyclic_value\]") as caught:
        chatcodec.decode_request("openai-chat", {"model": "m", "messages": messages}, strict=True)
    assert caught.value.path == "$.messages[1]"


@pytest.mark.parametrize("key", ["role", "type"])
def test_an_item_tag_nested_1000_levels_is_refused_with_no_unraisable_report(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Responses item is routed in Rust by its ``type``, or its ``role``: a tag that is an
    object a thousand deep is refused at its path, and pydantic-core never tries to quote
    the tag's repr (which fails in Python and was printed as an ignored exception)."""
    import sys

    unraisable: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda report: unraisable.append(report.exc_type.__name__))
    item = {"role": "user", "content": "hi"} if key == "type" else {"content": "hi"}
    body = {"model": "gpt-5", "input": [{**item, key: _nested(1000)}]}
    with pytest.raises(chatcodec.ChatcodecError) as caught:
        chatcodec.convert_request(body, source="openai-responses", target="openai-chat")
    assert "$.input[0]" in str(caught.value)
    assert unraisable == []


@pytest.mark.parametrize("kind", [["input_text"], {"a": 1}, [[["input_image"]]]])
@pytest.mark.parametrize("where", ["content", "output"])
def test_a_responses_parts_type_of_any_json_value_is_refused_at_its_path(kind: object, where: str) -> None:
    """A part's ``type`` that is a list or an object (the fuzzer's find) is the front's to refuse
    at its path: the direct path's look at the parts of a message and of a call's output asked a
    set for it, a ``TypeError: unhashable type`` from inside."""
    media = {"type": "input_image", "image_url": "https://example.com/a.png"}
    if where == "content":
        item: dict[str, Any] = {"role": "user", "content": [{"type": kind, "text": "hello"}, media]}
        path = "$.input[0].content[0].type"
    else:
        item = {"type": "function_call_output", "call_id": "c1", "output": [{"type": kind, "text": "a"}, media]}
        path = "$.input[1].output[0].type"
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
    body = {"model": "gpt-4o", "input": [item] if where == "content" else [call, item]}
    for given in (body, json.dumps(body).encode()):
        with pytest.raises(chatcodec.ValidationError) as refused:
            chatcodec.convert_request(given, source="openai-responses", target="openai-chat", on_loss="ignore")
        assert path in str(refused.value)
