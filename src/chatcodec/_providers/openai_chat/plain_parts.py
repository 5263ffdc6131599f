"""The parts of a plain agent turn, each read in one step: a plain function call and a
reasoning string field.

Two readers meet these shapes: this codec reading a request's history (its plain turn,
:mod:`.plain_turn`, and its general reading) and the dialect readers reading a stored
conversation's assistant message (``chatcodec._dialects``: TRL rows, Verifiers dumps, an
agent's saved history). Both read them here, so the two give the same parts, and a stored
conversation's plain calls and reasoning are read without building this codec or asking its
whole assistant reading (a render of an agent loop reads one of each per turn). A small module
on purpose: the dialect readers import it alone, on first use. Anything beyond these shapes
goes the codec's general way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from chatcodec._providers.openai_chat.markers import PROVIDER


def plain_call(call: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``tool_use`` part of a plain call (``id``, ``type: function`` and a function of
    ``name`` and argument text: nothing for a bag), or None."""
    if len(call) != 3 or call.get("type") != "function":
        return None
    function: Any = call.get("function")  # per call: a type test inline, not a TypeGuard's frame
    if (
        function.__class__ is not dict
        or len(function) != 2
        or type(function.get("arguments")) is not str
        or "name" not in function
    ):
        return None
    return {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}


def _field_thinking(field: str) -> Callable[[str], dict[str, Any]]:
    """The reading of the reasoning string ``field``: a thinking part of this format whose bag
    names the field, so the writer writes it back there; built as one literal, with no bag
    attached by a call (most agent turns hold one)."""

    def thinking(text: str) -> dict[str, Any]:
        return {
            "type": "thinking",
            "text": text,
            "provider": PROVIDER,
            "provider_metadata": {PROVIDER: {"field": field}},
        }

    return thinking


reasoning_content_thinking = _field_thinking("reasoning_content")
"""A turn's ``reasoning_content`` (DeepSeek, vLLM, Qwen) as its thinking part."""
reasoning_thinking = _field_thinking("reasoning")
"""A turn's ``reasoning`` (OpenRouter, Groq) as its thinking part."""
STRING_FIELD_PARTS: Mapping[str, Callable[[str], dict[str, Any]]] = {
    "reasoning_content": reasoning_content_thinking,
    "reasoning": reasoning_thinking,
}
"""The reading of each reasoning string field, by its name."""
