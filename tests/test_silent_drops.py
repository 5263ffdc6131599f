"""Unknown keys that vanished without a loss.

* Anthropic kept a message-level unknown key sent as ``null`` only as a spelling marker,
  which the encoder did not carry into the turn, so a same-provider round trip dropped it.
  A ``null`` is spelling, not data: it comes back exactly, and crossing to another
  provider (which has no such key to write) is not a loss.
* An unknown key on an assistant text part written as a plain string (an OpenAI
  response's ``content``) vanished into the string; on a user part the same key was
  reported. Both are reported now.
"""

from __future__ import annotations

from typing import Any

import chatcodec


def _anthropic_request(**message_extra: Any) -> dict[str, Any]:
    return {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": "hi", **message_extra},
            {"role": "assistant", "content": [{"type": "text", "text": "yo"}], **message_extra},
        ],
    }


def test_anthropic_keeps_an_unknown_message_key_sent_as_null() -> None:
    payload = _anthropic_request(x_extension=None)
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_request(payload, source="anthropic", target="anthropic", losses=losses) == payload
    assert losses == []


def test_anthropic_keeps_a_null_and_a_value_on_merged_messages() -> None:
    # Two canonical user messages in a row form one Anthropic turn: both bags go to it.
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "a"}], "x_null": None, "x_value": 1}],
    }
    assert chatcodec.convert_request(payload, source="anthropic", target="anthropic") == payload


def _anthropic_response(block_extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "yo", **block_extra}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def test_an_unknown_key_on_an_assistant_text_block_is_reported_like_on_a_user_block() -> None:
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_response(
        _anthropic_response({"x_block": 2}), source="anthropic", target="openai-chat", on_loss="ignore", losses=losses
    )
    assert wire["choices"][0]["message"]["content"] == "yo"
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.created", "invented created"),  # an Anthropic message has no creation time
        ("$.choices[0].message.content[0]", "anthropic data ['x_block']"),
    ]


def test_assistant_text_in_a_request_written_as_a_string_reports_foreign_keys() -> None:
    payload = _anthropic_request()
    payload["messages"][1]["content"][0]["x_block"] = 1
    payload["messages"][0]["content"] = [{"type": "text", "text": "hi", "x_block": 1}]
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(payload, source="anthropic", target="openai-chat", on_loss="ignore", losses=losses)
    assert sorted(loss.path for loss in losses if "x_block" in loss.what) == [
        "$.messages[0].content[0]",
        "$.messages[1].content[0]",
    ]
