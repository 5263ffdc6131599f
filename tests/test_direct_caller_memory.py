"""Anthropic -> OpenAI Chat: a call's ``caller`` (the API's on every call since 2026) and a text's
``null`` citations (the SDK's dump) read once a shape (issue 107: one field more must not cost a
request much more). The first call of a caller's shape is read by the reader's ``decode_parts`` and
reported by the writer's ``report_plain_turn``, proved against the reader's plain reading of the
call beside it; later calls of the shape are read as the common call, the report repeated
(``_direct/anthropic_to_openai_chat_replayed.py``, ``CALLERS``, ``TEXTS``). Each body is written as
the canonical path writes it (output, losses, warnings) on a first request and on a later one, and
the later one is counted to read no such block again."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._direct import anthropic_to_openai_chat, anthropic_to_openai_chat_replayed
from chatcodec._losses import LossRecorder
from direct_outcomes import equal_to_canonical

_DIRECT = {"type": "direct"}
_CODE = {"type": "code_execution_20250825", "tool_id": "srvtoolu_9"}


def _session(*steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A Claude agent's request: each step an answer of ``blocks`` (its calls answered by the next turn)."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Fix the tests."}]
    for blocks in steps:
        messages.append({"role": "assistant", "content": blocks})
        results = [
            {"type": "tool_result", "tool_use_id": block["id"], "content": "ok"}
            for block in blocks
            if block["type"] == "tool_use"
        ]
        messages.append({"role": "user", "content": results or "Go on."})
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1000,
        "system": "Be terse.",
        "tools": [{"name": "read", "description": "Read.", "input_schema": {"type": "object", "properties": {}}}],
        "messages": messages,
    }


def _call(call_id: str, caller: Any = _DIRECT, name: str = "read") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {"path": f"{call_id}.py"}, "caller": caller}


def _thought(step: int) -> dict[str, Any]:
    return {"type": "thinking", "thinking": f"Step {step}.", "signature": f"sig{step}"}


_CALLERS = _session(
    [{"type": "text", "text": "Reading."}, _call("toolu_1")],
    [_thought(2), _call("toolu_2"), _call("toolu_3", _CODE)],
    [_thought(3), {"type": "text", "text": "Again."}, _call("toolu_4", _CODE | {"tool_id": "srvtoolu_8"})],
    [_call("toolu_5", name="edit"), _call("toolu_6")],
    [{"type": "text", "text": "Done."}],
)
_TEXTS = _session(
    [{"type": "text", "text": "Reading.", "citations": None}, {**_call("toolu_1"), "caller": None}],
    [_thought(2), {"type": "text", "text": "Again.", "citations": None}],
    [{"type": "text", "text": "Done.", "citations": None}],
)
for _step in _TEXTS["messages"]:  # a call as the SDK dumps it without a caller: its four keys
    for _block in _step["content"] if isinstance(_step["content"], list) else ():
        if _block.get("caller", 0) is None:
            del _block["caller"]


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    """The blocks the pass has the reader's ``decode_parts`` read, each call's."""
    reads: list[list[Any]] = []
    reading = anthropic_to_openai_chat.decode_parts

    def counted(blocks: list[Any], *arguments: Any, **named: Any) -> list[dict[str, Any]]:
        reads.append(blocks)
        return reading(blocks, *arguments, **named)

    monkeypatch.setattr(anthropic_to_openai_chat, "decode_parts", counted)
    return reads


@pytest.fixture(autouse=True)
def _forgotten() -> None:
    anthropic_to_openai_chat_replayed.CALLERS.clear()
    anthropic_to_openai_chat_replayed.TEXTS.clear()


def test_calls_with_their_caller_are_read_once_a_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    reads = _reads(monkeypatch)
    # the first request proves each caller's shape (two: its keys)
    equal_to_canonical(_CALLERS, "anthropic", "openai-chat")
    assert [block["caller"] for (block,) in reads] == [_DIRECT, _CODE]
    assert set(anthropic_to_openai_chat_replayed.CALLERS) == {("type",), ("type", "tool_id")}
    reads.clear()
    # a later one reads no caller: each call the common call, its report repeated
    equal_to_canonical(_CALLERS, "anthropic", "openai-chat")
    assert reads == []


def test_a_caller_on_a_call_the_reader_reads_otherwise_is_read_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # a call whose id the reader reads otherwise (Gemini's signature in it, a character Anthropic
    # rejects) proves nothing of its caller's shape, and is read each time, as the canonical path reads it
    signed = _session([_call("toolu_1__thought__c2ln")], [_call("call.1/2")], [_call("toolu_3")])
    reads = _reads(monkeypatch)
    equal_to_canonical(signed, "anthropic", "openai-chat")
    assert len(reads) >= 2  # (the signed call's turn is the writer's general function's)
    assert ("type",) in anthropic_to_openai_chat_replayed.CALLERS  # proved by the plain id's call
    reads.clear()
    equal_to_canonical(signed, "anthropic", "openai-chat")
    read = {block["id"] for blocks in reads for block in blocks if block["type"] == "tool_use"}
    assert read == {"toolu_1__thought__c2ln", "call.1/2"}  # the plain id's call read no more


@pytest.mark.parametrize(
    "caller",
    [
        {"type": "direct", "depth": 1},
        {"type": "direct", "more": {"nested": [1.5, None, True]}},
        {},
    ],
)
def test_callers_of_other_values_are_written_as_the_canonical_path_writes_them(caller: dict[str, Any]) -> None:
    body = _session([_call("toolu_1", caller)], [_thought(2), _call("toolu_2", caller)])
    for _ in range(2):
        equal_to_canonical(body, "anthropic", "openai-chat")


def test_a_caller_json_has_not_is_handed_back_and_refused() -> None:
    body = _session([_call("toolu_1", {"type": "direct", "score": float("nan")})])
    assert (
        anthropic_to_openai_chat.convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec("openai-chat"))
        is None
    )
    with pytest.raises(chatcodec.PayloadError, match="NaN is not JSON"):
        chatcodec.convert_request(copy.deepcopy(body), source="anthropic", target="openai-chat", on_loss="ignore")


def test_texts_as_the_sdk_dumps_them_are_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads = _reads(monkeypatch)
    equal_to_canonical(_TEXTS, "anthropic", "openai-chat")
    assert len(reads) == 1  # the first null-cited text: its shape's reading, kept
    assert list(anthropic_to_openai_chat_replayed.TEXTS.values()) == [True]
    reads.clear()
    equal_to_canonical(_TEXTS, "anthropic", "openai-chat")
    assert reads == []
