"""The event names the gateway writes are part of its documented interface: an alert keys
on them, so they are pinned here, named on the gateway page, and name no module (a module
move made the request line's ``chatcodec.model.request`` into ``chatcodec._model.request``,
and an alert on the old name stopped firing)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import httpx
import pytest

from chatcodec.serve._request_log import EVENT_NAMES, REQUEST_EVENT
from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

PINNED = ("chatcodec.model.request", "chatcodec.serve.loss", "chatcodec.serve.store_error")
GATEWAY_PAGE = Path(__file__).resolve().parents[2] / "docs" / "gateway.md"


def test_the_event_names_are_the_pinned_ones() -> None:
    assert EVENT_NAMES == PINNED


def test_no_event_name_names_an_underscored_module() -> None:
    assert [name for name in EVENT_NAMES if re.search(r"(^|\.)_", name)] == []


def test_the_gateway_page_names_every_event() -> None:
    page = GATEWAY_PAGE.read_text(encoding="utf-8")
    assert [name for name in EVENT_NAMES if f"`{name}`" not in page] == []


def test_the_request_line_and_an_error_answers_line_carry_the_request_event(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    fake.reply({"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}, status=529)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    body = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        refused = httpx.post(f"{origin}/v1/chat/completions", json=body, headers={"authorization": "Bearer k"})
        unknown = httpx.get(f"{origin}/v1/chat/completions", headers={"authorization": "Bearer k"})
    assert (refused.status_code, unknown.status_code) == (529, 405)
    lines = [json.loads(record.getMessage()) for record in caplog.records if record.name == "chatcodec.serve"]
    assert [(line["event"], line["status"]) for line in lines] == [(REQUEST_EVENT, 529)]
    assert REQUEST_EVENT == "chatcodec.model.request"
