"""Freeform (custom) tool calls in a response or a stream written for a format that has
none (its :class:`~chatcodec._providers.contract.capabilities.Capabilities` say
``freeform_calls=False``: Anthropic, Gemini, Bedrock Converse, Ollama).

A custom call's input is free text, not the JSON object those formats' calls hold, and
the custom tool it names is no function they were offered: written as a function call it
would be a call the client cannot dispatch. So it is dropped, one loss at its path, and
an answer whose finish said ``tool_calls`` and holds no call after the drop says ``stop``
(a client seeing ``tool_use`` would look for a call to run and find none). A request's
custom calls go with their results by the shared history rules
(:func:`chatcodec._providers.history.turns.history_for`); a stream's by
:class:`chatcodec._providers.kit.freeform_streams.WithoutCustomCalls`. This module loads no
canonical model: a conversion uses it on data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import methodcaller
from typing import Any

from chatcodec._losses import LossRecorder

_KIND = methodcaller("get", "kind")
CUSTOM_CALL = "custom tool call"
"""How a loss names a dropped custom call."""


def dropped_why(target: str) -> str:
    """Why a custom call is dropped, for ``target`` (a display name)."""
    return f"{target} has no freeform tool calls; dropped"


def holds_custom_calls(response: Mapping[str, Any]) -> bool:
    """Whether a choice's message of canonical response data holds a custom call (the
    look's inner loop runs in C: most answers hold none)."""
    choices: list[Mapping[str, Any]] = response.get("choices") or []
    for choice in choices:
        message: Mapping[str, Any] = choice.get("message") or {}
        content: Any = message.get("content")
        if content.__class__ is list and "custom" in map(_KIND, content):
            return True
    return False


def without_custom_calls(response: Mapping[str, Any], losses: LossRecorder, target: str) -> dict[str, Any]:
    """Canonical response data without its custom calls, each reported, for ``target`` (a
    display name); a choice left with no call says ``stop`` where it said ``tool_calls``."""
    choices: list[dict[str, Any]] = []
    for index, choice in enumerate(response["choices"]):
        message: dict[str, Any] = choice["message"]
        content: Any = message.get("content")
        if content.__class__ is not list or "custom" not in map(_KIND, content):
            choices.append(choice)
            continue
        kept: list[dict[str, Any]] = []
        for position, part in enumerate(content):
            if part.get("kind") == "custom":
                at = ("choices", index, "message", "content", position)
                losses.add(at, f"{CUSTOM_CALL} {part['id']!r}", dropped_why(target))
            else:
                kept.append(part)
        changed = {**choice, "message": {**message, "content": kept}}
        finish = choice.get("finish_reason")
        if finish is not None and finish["unified"] == "tool_calls" and not _calls(kept):
            changed["finish_reason"] = {"unified": "stop"}
        choices.append(changed)
    return {**response, "choices": choices}


def _calls(parts: Iterable[Mapping[str, Any]]) -> bool:
    return any(part["type"] == "tool_use" for part in parts)
