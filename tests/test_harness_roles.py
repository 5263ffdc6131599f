"""A conversion reads a client harness's roles as ``render`` does (:mod:`chatcodec._harness_roles`).

Claude Code (2.1.154 and later) sends ``ctx`` and ``msg`` turns in an Anthropic body
(https://github.com/vllm-project/vllm/issues/44000): client text in the user's place. The
Anthropic reader refuses a role the API does not document; a conversion from Anthropic read
them as user turns only in ``render`` and refused them everywhere else.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss, ValidationError

SESSION: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": "You are Claude Code.",
    "messages": [
        {"role": "user", "content": "Fix the test."},
        {"role": "ctx", "content": "The repository uses pytest."},
        {"role": "msg", "content": "Also run ruff."},
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": "Thanks."},
    ],
}
READ_AS = [
    ("$.messages[1].role", "ctx role", "spelling"),
    ("$.messages[2].role", "msg role", "spelling"),
]


def _converted(body: object, target: str) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    written = chatcodec.convert_request(body, source="anthropic", target=target, on_loss="ignore", losses=losses)
    return written, losses


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini", "anthropic"])
def test_claude_codes_roles_convert_as_user_turns_each_reported(target: str) -> None:
    written, losses = _converted(SESSION, target)
    texts = json.dumps(written)
    assert "The repository uses pytest." in texts
    assert "Also run ruff." in texts
    assert '"ctx"' not in texts
    assert '"msg"' not in texts
    assert [(loss.path, loss.what, loss.kind) for loss in losses if loss.kind == "spelling"] == READ_AS


def test_the_roles_are_read_from_json_text_too() -> None:
    written, losses = _converted(json.dumps(SESSION), "openai-chat")
    assert [message["role"] for message in written["messages"]] == [
        "system",
        "user",
        "user",
        "user",
        "assistant",
        "user",
    ]
    assert [(loss.path, loss.what, loss.kind) for loss in losses] == READ_AS


def test_a_role_no_harness_sends_is_still_refused_at_its_path() -> None:
    body = {**SESSION, "messages": [{"role": "narrator", "content": "x"}]}
    with pytest.raises(ValidationError, match=r"\$\.messages\[0\]\.role"):
        chatcodec.convert_request(body, source="anthropic", target="openai-chat")


@pytest.mark.parametrize("role", [["ctx"], {"name": "ctx"}, 3])
def test_a_role_that_is_no_string_is_the_readers_error_not_a_type_error(role: object) -> None:
    # the retry asks whether a refused body holds a harness role: a role a list or an
    # object (a broken client, the fuzzer) is none, and the reader's own error stands
    body = {**SESSION, "messages": [{"role": role, "content": "x"}, *SESSION["messages"]]}
    with pytest.raises(ValidationError) as raised:
        chatcodec.convert_request(body, source="anthropic", target="openai-chat", on_loss="ignore")
    assert "$.messages[0].role" in str(raised.value)
