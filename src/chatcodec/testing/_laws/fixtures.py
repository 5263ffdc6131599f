"""Reading recorded streams without chatcodec's own reader.

The laws feed SDK oracles and mutations with the recorded events as dicts; parsing them
here (SSE ``data:`` lines or JSON lines) keeps the suite off chatcodec's internal stream
input module, and means a bug there cannot hide itself from the oracle.
"""

from __future__ import annotations

import json
from typing import Any

JsonObject = dict[str, Any]


def stream_event_dicts(text: str) -> list[JsonObject]:
    """The events of an SSE recording (``data:`` payloads, ``[DONE]`` left out) or of a
    JSON-lines recording, in order."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not any(line.startswith(("data:", "event:")) for line in lines):
        return [json.loads(line) for line in lines]
    events: list[JsonObject] = []
    for line in lines:
        if line.startswith("data:"):
            data = line.removeprefix("data:").strip()
            if data != "[DONE]":
                events.append(json.loads(data))
    return events
