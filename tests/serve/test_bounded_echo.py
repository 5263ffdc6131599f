"""Caller input echoed in an error body or a log line is cut to a bounded length, its
length said: a 200 kB unknown field name was a 400 kB error body and a 400 kB log line."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest

from chatcodec.serve._bounded import PIECE_LIMIT, TEXT_LIMIT, bounded
from chatcodec.serve._config import Route
from serve.harness import FakeUpstream, proxy, serving_config

pytestmark = pytest.mark.usefixtures("fresh_fake")

KEY = {"authorization": "Bearer k"}
LONG = "x" * 200_000
CHAT: dict[str, Any] = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "chatcodec.serve"]


def test_a_long_piece_is_cut_and_its_length_said() -> None:
    text = f"unknown field $.{LONG} (not in the schema)"
    cut = bounded(text)
    assert cut == f"unknown field $.{LONG[: PIECE_LIMIT - 5]}... ({len(LONG) + 2} characters) (not in the schema)"
    assert bounded(cut) == cut  # bounding twice (the refusal, then its log line) changes nothing


def test_a_short_text_is_kept_as_it_is() -> None:
    text = "invalid openai-chat request: $.temperature: 3 is above 2"
    assert bounded(text) == text


def test_many_long_pieces_are_held_to_the_text_limit() -> None:
    cut = bounded(" ".join([LONG[:150]] * 100))
    assert len(cut) == TEXT_LIMIT
    assert cut.endswith(f"... ({151 * 100 - 1} characters in all)")
    assert bounded(cut) == cut


def test_an_unknown_field_200_kb_long_is_a_short_error_body_and_log_line(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with proxy("openai-chat", "anthropic", fake.base, validate=True) as origin:
        refused = httpx.post(f"{origin}/v1/chat/completions", json={**CHAT, LONG: 1}, headers=KEY, timeout=30)
    assert refused.status_code == 400
    assert len(refused.content) < 2000
    message = refused.json()["error"]["message"]
    assert f"... ({len(LONG) + 3} characters) unknown field [rule: unknown_field]" in message  # `name`: and a colon
    (line,) = _lines(caplog)
    assert len(line) < 2000
    assert json.loads(line)["error"] == message


def test_a_long_field_name_lost_on_the_way_is_a_short_loss_summary(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    fake.reply({"type": "error", "error": {"type": "invalid_request_error", "message": "no"}}, status=400)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json={**CHAT, LONG: 1}, headers=KEY, timeout=30)
    assert answer.status_code == 400
    assert len(answer.headers["chatcodec-losses"]) <= 512
    (line,) = _lines(caplog)
    assert len(line) < 2000
    assert any("characters)" in summary for summary in json.loads(line)["loss_summary"])


def test_a_model_name_200_kb_long_is_a_short_refusal_and_log_line(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    from chatcodec.serve import ServeConfig

    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    config = ServeConfig(api="openai-chat", routes=(Route("claude-*", "anthropic", fake.base),))
    with serving_config(config) as origin:
        refused = httpx.post(f"{origin}/v1/chat/completions", json={**CHAT, "model": LONG}, headers=KEY, timeout=30)
    assert 400 <= refused.status_code < 500
    assert len(refused.content) < 2000
    (line,) = _lines(caplog)
    assert len(line) < 2000
