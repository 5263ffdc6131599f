"""Rows for the engine tests: the recorded OpenAI Chat requests, and the shapes Arrow makes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chatcodec

FIXTURES = Path(__file__).parent.parent / "fixtures" / "openai-chat" / "request"

TO_ANTHROPIC: dict[str, Any] = {"max_tokens": 1024}
"""Anthropic requires ``max_tokens``; not every recorded request has one."""


def recorded_requests() -> list[dict[str, Any]]:
    """Every recorded OpenAI Chat request, in file-name order."""
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(FIXTURES.glob("*.json"))]


def expected_anthropic(payload: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """What converting ``payload`` in process gives, and its losses as strings."""
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        payload, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses, options=TO_ANTHROPIC
    )
    return converted, [str(loss) for loss in losses]


def tool_rows() -> list[dict[str, Any]]:
    """OpenAI-style requests Arrow can hold as structs (content always a string), whose
    tools have different properties: Arrow gives each tool a ``null`` for the other's,
    and ``max_tokens`` is absent from one row (an integer column with a ``null``)."""

    def tool(name: str, properties: dict[str, Any]) -> dict[str, Any]:
        parameters = {"type": "object", "properties": properties}
        return {"type": "function", "function": {"name": name, "parameters": parameters}}

    return [
        {
            "model": "gpt-4o",
            "max_tokens": 4096,
            "messages": [{"role": "user", "content": "how many?"}],
            "tools": [tool("count", {"limit": {"type": "integer", "minimum": 1}})],
        },
        {
            "model": "gpt-4o",
            "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "weather?", "name": "ann"},
            ],
            "tools": [tool("weather", {"city": {"type": "string"}})],
        },
    ]
