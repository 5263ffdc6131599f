"""A request given as JSON text or bytes is parsed and validated in one pass in Rust (the
provider's closed schema, its ``JSON_FRONT``), and reads exactly as the same body given as
a dict: the same output, the same losses, the same error for what no JSON may hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._payloads import load_object
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST

FIXTURES = Path(__file__).parent / "fixtures"
FRONTED = ["openai-chat", "anthropic", "gemini", "bedrock-converse", "openai-responses"]
CASES = [
    (source, path)
    for source in FRONTED
    for path in sorted((FIXTURES / source / "request").glob("*.json"))
    if "invalid" not in path.name and "rejected" not in path.name
]


def _converted(payload: object, source: str, target: str) -> tuple[dict[str, Any], list[str]]:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore", losses=losses)
    return written, [f"{loss.path} {loss.what}" for loss in losses]


@pytest.mark.parametrize(("source", "path"), CASES, ids=[f"{s}-{p.stem}" for s, p in CASES])
@pytest.mark.parametrize("target", ["openai-chat", "anthropic"])
def test_a_json_body_converts_as_the_same_body_given_as_a_dict(source: str, path: Path, target: str) -> None:
    body = json.loads(path.read_text())
    assert _converted(path.read_bytes(), source, target) == _converted(body, source, target)
    assert _converted(path.read_text(), source, target) == _converted(body, source, target)


@pytest.mark.parametrize(
    "value",
    ["1e400", "NaN", "Infinity", '"a\\ud800b"', "1" * 5000],
    ids=["overflow", "nan", "infinity", "lone-surrogate", "past-digit-limit"],
)
@pytest.mark.parametrize("source", ["openai-chat", "anthropic", "openai-responses"])
def test_a_value_no_json_may_hold_is_refused_as_the_parser_refuses_it(value: str, source: str) -> None:
    turns = '"input": "hi"' if source == "openai-responses" else '"messages": [{"role": "user", "content": "hi"}]'
    text = f'{{"model": "m", "max_tokens": 5, {turns}, "metadata": {{"user_id": "u", "x": {value}}}}}'

    with pytest.raises(chatcodec.ChatcodecError) as expected:
        load_object(text)
    with pytest.raises(chatcodec.ChatcodecError) as refused:
        chatcodec.convert_request(text.encode(), source=source, target="openai-chat", on_loss="ignore")
    assert str(refused.value) == str(expected.value)


def test_the_copy_read_from_json_is_not_validated_again() -> None:
    text = b'{"model": "m", "messages": [{"role": "user", "content": "hi"}]}'
    copy = COMMON_REQUEST.read_json(text)
    assert copy is not None
    assert COMMON_REQUEST.validate(copy) is copy  # taken: handed over as it is
    assert COMMON_REQUEST.validate(copy) is not copy  # once: a second look validates again
    assert COMMON_REQUEST.validate(copy) == copy


def test_a_copy_another_read_replaced_is_validated_again_never_mistaken() -> None:
    """The taken copy is known by identity: reads that interleave (two threads, or a read
    that never took its copy) each get their own body's copy, only the last one handed over
    without a second look."""
    first = COMMON_REQUEST.read_json(b'{"model": "a", "messages": [{"role": "user", "content": "one"}]}')
    second = COMMON_REQUEST.read_json(b'{"model": "b", "messages": [{"role": "user", "content": "two"}]}')
    assert first is not None
    assert second is not None
    again = COMMON_REQUEST.validate(first)
    assert again == first
    assert again is not first
    assert COMMON_REQUEST.validate(second) is second


def test_threads_reading_at_once_each_get_their_own_body() -> None:
    import threading

    found: list[bool] = []

    def read(number: int) -> None:
        for round_ in range(200):
            model = f"m{number}-{round_}"
            text = json.dumps({"model": model, "messages": [{"role": "user", "content": model}]})
            copy = COMMON_REQUEST.read_json(text)
            read_back = COMMON_REQUEST.validate(copy)
            found.append(read_back is not None and read_back["model"] == model == read_back["messages"][0]["content"])

    threads = [threading.Thread(target=read, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [True] * 800


def test_a_body_beyond_the_common_shapes_is_read_by_the_general_path() -> None:
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}}]}
        ],
    }
    assert COMMON_REQUEST.read_json(json.dumps(body)) is None  # not a common shape
    COMMON_REQUEST.release()
    assert _converted(json.dumps(body), "openai-chat", "openai-chat") == _converted(body, "openai-chat", "openai-chat")


_DIALECT_TURNS = (
    {"role": "user", "content": "Fix the test.", "name": "dev-7"},
    {"role": "system", "content": "Be brief.", "name": "ops"},
    {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
    {"role": "assistant", "content": "Done.", "tool_calls": []},
    {"role": "assistant", "content": [{"type": "text", "text": "Looking."}], "tool_calls": []},
)


@pytest.mark.parametrize("turn", _DIALECT_TURNS)
@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "openai-responses"])
def test_a_clients_dialect_as_json_is_the_fronts_and_reads_as_the_dict(turn: dict[str, Any], target: str) -> None:
    """A participant's ``name``, an assistant's text as text parts, ``"tool_calls": []``: what
    clients of their own dialect send, which the full wire shapes read, the front takes too (a
    body of bytes it refused was parsed again and its numbers looked at, 1.3x litellm's count),
    and the copy reads as the dict does: the same body and losses into every target."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi."}, turn, {"role": "user", "content": "And now?"}],
    }
    text = json.dumps(body).encode()
    assert COMMON_REQUEST.read_json(text) is not None
    COMMON_REQUEST.release()
    assert _converted(text, "openai-chat", target) == _converted(body, "openai-chat", target)


class _NoSecondLook:
    """A messages front that fails the test when asked: the copy it would check was checked."""

    def validate(self, payload: object) -> None:
        raise AssertionError(f"validated again: {payload!r}")


def test_a_direct_path_takes_the_json_fronts_copy_without_validating_its_messages_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``chatcodec convert`` reads each line with the request's JSON front (``common_json``),
    then converts the copy: the openai-chat -> anthropic direct path writes its messages with
    no second validation, the same output and losses as the body given as a dict, and the
    copy's one read done, a later read of it validates again."""
    from chatcodec._conversion import common_json
    from chatcodec._providers.openai_chat import request as openai_chat_request

    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "logit_bias": {"50256": -100},
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Weather in Lima?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "w", "arguments": "{}"}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
            {"role": "user", "content": [{"type": "text", "text": "And tomorrow?"}]},
        ],
    }
    expected = _converted(body, "openai-chat", "anthropic")
    assert expected[1]  # logit_bias: a loss, placed at its path
    copy = common_json(json.dumps(body).encode(), "openai-chat")
    assert copy is not None
    # the direct path checks the messages in its own walk; the reader's messages front (what a
    # hand-back to the canonical path would ask) must not be asked of the copy either
    monkeypatch.setattr(openai_chat_request, "COMMON_MESSAGES", _NoSecondLook())
    assert _converted(copy, "openai-chat", "anthropic") == expected
    assert COMMON_REQUEST.validate(copy) is not copy  # handed back: not taken twice
