"""Tool ids: rewritten only when Anthropic would reject them, without collisions, reversibly."""

from __future__ import annotations

import importlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._providers.anthropic.request import tool_id_map
from chatcodec._providers.anthropic.tool_ids import restore_tool_use_id, sanitize_tool_use_id
from providers.anthropic.anthropic_support import assert_valid_request, encode_request

PATTERN = re.compile(r"\A[a-zA-Z0-9_-]+\Z")  # Anthropic's rule; \Z: a trailing newline is no id character


def _request(*ids: str) -> chatcodec.ChatRequest:
    """One assistant turn calling a tool under each id, then one result per call."""
    calls = [{"type": "tool_use", "id": tool_id, "name": "write", "arguments": "{}"} for tool_id in ids]
    results = [{"role": "tool", "tool_call_id": tool_id, "content": "done"} for tool_id in ids]
    messages = [{"role": "user", "content": "go"}, {"role": "assistant", "content": calls}, *results]
    return chatcodec.validate_model(
        chatcodec.ChatRequest, {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": messages}
    )


def _wire_ids(body: dict[str, object]) -> tuple[list[str], list[str]]:
    messages = body["messages"]
    assert isinstance(messages, list)
    calls = [block["id"] for block in messages[1]["content"]]
    results = [block["tool_use_id"] for block in messages[2]["content"]]
    return calls, results


def test_moonshot_style_id_is_rewritten_for_the_call_and_its_result() -> None:
    body, losses = encode_request(_request("functions.write:0"))
    calls, results = _wire_ids(body)
    assert calls == results == ["cc-functions_2ewrite_3a0"]
    assert PATTERN.match(calls[0])
    assert losses == []  # nothing is lost: the id maps back exactly
    assert_valid_request(body)


def test_ids_that_naive_sanitizing_would_merge_stay_distinct() -> None:
    body, _ = encode_request(_request("a.b", "a:b", "a_b"))
    calls, results = _wire_ids(body)
    assert calls == results
    assert len(set(calls)) == 3
    assert calls[2] == "a_b"  # valid: untouched
    assert all(PATTERN.match(tool_id) for tool_id in calls)


def test_a_valid_id_that_looks_like_an_escape_cannot_collide() -> None:
    escaped = sanitize_tool_use_id("a.b")
    body, _ = encode_request(_request("a.b", escaped))
    calls, _ = _wire_ids(body)
    assert calls[0] == escaped
    assert calls[1] != escaped
    assert [restore_tool_use_id(tool_id) for tool_id in calls] == ["a.b", escaped]


@pytest.mark.parametrize("tool_id", ["toolu_01YGzqpRE16Vricda3Aqcejo", "call_abc123", "cc-abc", "A-b_9", "x" * 129])
def test_valid_ids_are_sent_unchanged(tool_id: str) -> None:
    assert sanitize_tool_use_id(tool_id) == tool_id
    body, _ = encode_request(_request(tool_id))
    assert _wire_ids(body) == ([tool_id], [tool_id])


def test_129_character_ids() -> None:
    """No length limit is documented (API reference, SDK 2.12 types), so a long valid id
    passes unchanged; a long invalid one is escaped like any other, and maps back."""
    valid = "t" * 129
    invalid = "functions." + "x" * 119
    assert len(valid) == len(invalid) == 129
    assert sanitize_tool_use_id(valid) == valid
    rewritten = sanitize_tool_use_id(invalid)
    assert PATTERN.match(rewritten)
    assert restore_tool_use_id(rewritten) == invalid
    assert tool_id_map(_request(valid, invalid)) == {invalid: rewritten}


@pytest.mark.parametrize(
    "tool_id", ["", "é", "call|1", "a b", "cc-", "cc-a_2eb", "cc-cc-a_5f2eb", "🙂:1", "_", "toolu_1\n", "cc-a_41\n"]
)
def test_rewrite_is_valid_and_reversible(tool_id: str) -> None:
    rewritten = sanitize_tool_use_id(tool_id)
    assert PATTERN.match(rewritten)
    assert restore_tool_use_id(rewritten) == tool_id
    assert sanitize_tool_use_id(restore_tool_use_id(rewritten)) == rewritten


def test_decoding_restores_the_original_ids() -> None:
    request = _request("functions.write:0", "a.b")
    body, _ = encode_request(request)
    decoded = chatcodec.decode_request("anthropic", body)
    assert decoded.messages[1].tool_calls == request.messages[1].tool_calls
    assert decoded.messages[2].tool_use_ids == ["functions.write:0", "a.b"]


def test_tool_id_map_lets_a_proxy_reverse_ids() -> None:
    request = _request("functions.write:0", "toolu_01", "a:b")
    mapping = tool_id_map(request)
    assert mapping == {"functions.write:0": "cc-functions_2ewrite_3a0", "a:b": "cc-a_3ab"}
    reverse = {sent: original for original, sent in mapping.items()}
    calls, _ = _wire_ids(encode_request(request)[0])
    assert [reverse.get(tool_id, tool_id) for tool_id in calls] == ["functions.write:0", "toolu_01", "a:b"]


def test_response_tool_ids_are_rewritten_and_restored() -> None:
    """A proxy serving Anthropic clients from another provider sends valid ids; the
    client echoes them in its next request, which decodes to the upstream's ids."""
    response = chatcodec.ChatResponse(
        message={"role": "assistant", "content": [{"type": "tool_use", "id": "functions.x:0", "name": "x"}]}
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("anthropic", response, on_loss="ignore", losses=losses)
    assert body["content"][0]["id"] == "cc-functions_2ex_3a0"
    assert chatcodec.decode_response("anthropic", body).message.tool_calls[0].id == "functions.x:0"


_MAPPINGS = {
    "anthropic": "chatcodec._providers.anthropic.tool_ids",
    "bedrock": "chatcodec._providers.families.aws.tool_ids",
}


@pytest.mark.parametrize("provider", sorted(_MAPPINGS))
@settings(max_examples=300, deadline=None)
@given(tool_id=st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,40}", fullmatch=True))
def test_an_ascii_identifier_asked_first_is_what_the_pattern_accepts(provider: str, tool_id: str) -> None:
    """The mappings flagged ``identifiers`` take an ASCII identifier without their pattern's match
    (``str.isidentifier``, asked first): each pattern accepts every one, so the answer is its own."""
    mapping = importlib.import_module(_MAPPINGS[provider]).MAPPING
    assert mapping.identifiers
    assert mapping.valid.match(tool_id)
    assert mapping.sanitize(tool_id) == tool_id


def test_responses_call_ids_take_an_identifier_first_within_the_length() -> None:
    from chatcodec._providers.openai_responses.rules import CALL_ID_MAX_LENGTH, CALL_IDS

    assert CALL_IDS.identifiers
    fits, long = "c" * CALL_ID_MAX_LENGTH, "c" * (CALL_ID_MAX_LENGTH + 1)
    assert CALL_IDS.sanitize(fits) == fits
    assert CALL_IDS.sanitize(long) != long  # the length still asked first
    assert CALL_IDS.hashed(long)
