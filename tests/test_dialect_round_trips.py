"""The dialects' round-trip law: a conversation through a training dialect and back is
exact, or the conversion reported a loss (or refused the row, naming its path).

Parametrized over the dialects as ``tests/conformance`` is over the providers: OpenAI Chat
rows built from OpenAI's fine-tuning and Chat documentation go to each conversation
dialect and back, and each dialect's documented example rows go to OpenAI Chat (and pairs
to chatcodec's pair form) and back. Nothing may change on the way without a word.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec._row_dialects import dialects as training
from chatcodec.batch._convert import ConvertOptions, Outcome, convert_payload

FIXTURES = Path(__file__).parent / "fixtures" / "training"
WRITTEN = [name for name in training.CONVERSATION_DIALECTS if name not in training.READ_ONLY_DIALECTS]
BODIES = [json.loads(line) for line in (FIXTURES / "openai-chat-corpus.jsonl").read_text(encoding="utf-8").splitlines()]


MORE_ROWS = {"sharegpt": ("sharegpt-system-turn",), "verifiers": ("verifiers-empty-content",)}
"""Example files beyond ``<dialect>.jsonl`` read in the dialect's default layout."""


def _rows(dialect: str) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for name in (dialect, *MORE_ROWS.get(dialect, ()))
        for line in (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    ]


def _hop(row: dict[str, Any], source: str, target: str) -> Outcome:
    return convert_payload(row, ConvertOptions(source, target))


def _there_and_back(row: dict[str, Any], source: str, middle: str) -> tuple[dict[str, Any] | None, list[str]]:
    """``row`` through ``middle`` and back: what came back (``None``: refused) and every
    loss reported on the way (a refusal's error counts as one)."""
    there = _hop(row, source, middle)
    if there.converted is None:
        return None, [there.error or "refused"]
    back = _hop(there.converted, middle, source)
    reported = [str(loss) for loss in (*there.losses, *back.losses) if loss.path != "$.model"]
    if back.converted is None:
        return None, [*reported, back.error or "refused"]
    return back.converted, reported


@pytest.mark.parametrize("dialect", WRITTEN)
@pytest.mark.parametrize("number", range(len(BODIES)))
def test_an_openai_chat_row_through_a_dialect_is_exact_or_reported(dialect: str, number: int) -> None:
    body = BODIES[number]
    back, reported = _there_and_back(body, "openai-chat", dialect)
    assert back == body or reported, f"changed without a loss: {back}"


@pytest.mark.parametrize("dialect", WRITTEN)
def test_a_dialect_row_through_openai_chat_is_exact_or_reported(dialect: str) -> None:
    for row in _rows(dialect):
        back, reported = _there_and_back(row, dialect, "openai-chat")
        assert back == row or reported, f"changed without a loss: {back}"


@pytest.mark.parametrize("dialect", training.PAIR_DIALECTS)
@pytest.mark.parametrize("middle", training.PAIR_DIALECTS)
def test_a_pair_through_another_pair_dialect_is_exact_or_reported(dialect: str, middle: str) -> None:
    for row in _rows(dialect):
        back, reported = _there_and_back(row, dialect, middle)
        assert back == row or reported, f"changed without a loss: {back}"


def test_the_law_is_not_vacuous() -> None:
    """Some rows come back exactly with nothing reported, and some report: the law sees both."""
    exact = reported = 0
    for dialect in WRITTEN:
        for body in BODIES:
            back, losses = _there_and_back(body, "openai-chat", dialect)
            exact += back == body and not losses
            reported += bool(losses)
    assert exact >= 10
    assert reported >= 10
