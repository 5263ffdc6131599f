"""A SQLite store that cannot grow (a full disk, made here with ``PRAGMA max_page_count`` at the
file's size on every connection: SQLite then answers ``SQLITE_FULL``, "database or disk is
full", as on a full disk): the answer is delivered, its store error says the disk is full (not
the rollback's "cannot rollback - no transaction is active", which SQLite's own rollback of a
full write left), ``/health`` reports the store that cannot keep, though it still answers reads,
and is ready again once a write succeeds."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

import chatcodec
from chatcodec import AssistantMessage, ChatResponse, FinishReason, TextPart
from chatcodec.serve._response_store_sqlite import SqliteBackend
from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")


def _answer(text: str) -> dict[str, Any]:
    response = ChatResponse(
        id="msg_1",
        model="claude-sonnet-4-5",
        message=AssistantMessage(content=[TextPart(text=text)]),
        finish_reason=FinishReason(unified="stop", raw="end_turn"),
    )
    return chatcodec.encode_response("anthropic", response, on_loss="ignore")


@pytest.fixture
def disk_full(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Set: every store connection's file can grow no more (cleared: as large as SQLite allows)."""
    full = threading.Event()
    connection_of = SqliteBackend._connection  # pyright: ignore[reportPrivateUsage]

    def bounded(backend: SqliteBackend) -> sqlite3.Connection:
        connection = connection_of(backend)
        (pages,) = connection.execute("PRAGMA page_count").fetchone()
        connection.execute(f"PRAGMA max_page_count = {pages if full.is_set() else 1073741823}")
        return connection

    monkeypatch.setattr(SqliteBackend, "_connection", bounded)
    return full


def test_a_full_disk_is_reported_as_one_and_health_says_the_store_cannot_keep(
    fake: FakeUpstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, disk_full: threading.Event
) -> None:
    monkeypatch.setattr("chatcodec.serve._health.FRESH_FOR", 0.0)
    long_answer = "Paris. " * 20_000  # more pages than the file has
    for text in ("Paris.", long_answer, long_answer):
        fake.reply(_answer(text))
    with (
        proxy("openai-responses", "anthropic", fake.base, store=f"sqlite:{tmp_path / 'answers.db'}") as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="alice-key", max_retries=0) as client,
    ):
        client.responses.create(model="m", input="Capital of France?")
        ready = httpx.get(f"{origin}/health")
        disk_full.set()
        unkept = client.responses.with_raw_response.create(model="m", input="Again, at length?")
        full_health = httpx.get(f"{origin}/health")
        disk_full.clear()
        again = httpx.get(f"{origin}/health")
        kept = client.responses.with_raw_response.create(model="m", input="Once more?")
    assert ready.status_code == 200
    assert unkept.parse().output_text == long_answer  # delivered all the same
    assert "database or disk is full" in unkept.headers["chatcodec-store-error"]
    assert "cannot rollback" not in unkept.headers["chatcodec-store-error"]
    assert full_health.status_code == 503
    assert full_health.json() == {
        "status": "unavailable",
        "failing": "store",
        "error": "the store cannot keep answers: OperationalError (SQLITE_FULL)",
    }
    assert again.status_code == 200  # a write went through: ready again
    assert "chatcodec-store-error" not in kept.headers
