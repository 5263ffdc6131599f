"""A tool result whose value was JSON, not text: the one mark the framework formats share.

A tool returns any JSON value in the AI SDK (a ``UIMessage`` tool part's ``output``, a
``ModelMessage`` result's ``{"type": "json", "value": ...}``) and in pydantic-ai
(``ToolReturnPart.content``). Canonical result content is text or parts, and a provider wire
gets such a value as its JSON text (what the AI SDK and pydantic-ai send a model), so each of
these formats reads the value as its compact JSON text with a marker in its own bag
(:data:`MARKS`), and each writes the value back, not the text, when any of them marked it: a
structured output stays structured from one framework's history to another's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict

MARKS: Mapping[str, tuple[str, object]] = {
    "ai-sdk-model": ("_output", "json"),
    "ai-sdk-ui": ("_json", True),
    "pydantic-ai": ("_json", True),
}
"""Each framework format's marker (in its bag) on a result whose text spells a JSON value."""


def json_valued(metadata: Mapping[str, Any] | None) -> bool:
    """Whether a canonical result's text was a JSON value in a framework format's history."""
    if not metadata:
        return False
    for name, (marker, value) in MARKS.items():
        bag = as_dict(metadata.get(name))
        if bag is not None and bag.get(marker) == value:
            return True
    return False
