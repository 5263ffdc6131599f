"""What an OpenAI Chat stream spreads over chunks that the non-streamed choice holds in one
place: a custom (freeform) tool call, gathered until it is complete, and the ``logprobs``
of each chunk, joined into the choice's."""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.providers.openai_chat.markers import PROVIDER


class CustomCall:
    """A custom (freeform) tool call being streamed: ``{"index", "id", "type": "custom",
    "custom": {"name", "input"}}``, then fragments of ``custom.input`` (the shape
    openai/openai-openapi#576 reports; the SDK's chunk types have no ``custom`` yet). It is
    no function call, so it is gathered and given whole when the next call begins or the
    choice finishes, as the same opaque part the non-streamed message has."""

    __slots__ = ("call", "id", "index", "inputs")

    def __init__(self, index: int, fragment: dict[str, Any]) -> None:
        self.index = index
        self.id: str = fragment["id"]
        self.call = {key: value for key, value in fragment.items() if key != "index"}
        self.inputs: list[str] = []

    def part(self) -> dict[str, Any]:
        custom = {**(as_dict(self.call.get("custom")) or {}), "input": "".join(self.inputs)}
        data = {**self.call, "custom": custom}
        return {
            "type": "opaque",
            "provider": PROVIDER,
            "data": data,
            "provider_metadata": {PROVIDER: {"_in": "tool_calls"}},
        }


def join_logprobs(joined: dict[str, Any] | None, chunk: object) -> dict[str, Any] | None:
    """``joined`` with one chunk's ``logprobs`` added: each chunk carries the entries of
    its own tokens (``content``, ``refusal``), the non-streamed choice all of them in one
    object, so the lists are concatenated; a key that is ``null`` stays ``null`` until a
    list comes."""
    fields = as_dict(chunk)
    if fields is None:
        return joined
    result = dict(joined or {})
    for key, value in fields.items():
        if isinstance(value, list):
            result[key] = [*(as_list(result.get(key)) or []), *value]
        else:
            result.setdefault(key, value)
    return result
