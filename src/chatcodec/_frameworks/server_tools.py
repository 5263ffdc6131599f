"""A provider-executed tool's call and result: the one canonical form the framework formats share.

A server tool (web search, code execution) runs at the provider, so its call and its result
both sit in the assistant's turn: the AI SDK keeps them so (a ``UIMessage`` tool part with
``providerExecuted: true``, which ``convertToModelMessages`` turns into a ``tool-call`` with
``providerExecuted: true`` and a ``tool-result`` in the *assistant* ``ModelMessage``), and so
does pydantic-ai (``builtin-tool-call`` and ``builtin-tool-return`` parts of a
``ModelResponse``). Read as a client call and a tool message, a provider would be sent a call
it never offered and a result it never asked for. Canonical assistant content holds no
results, and a server tool's call and result are the provider's own data, so they are opaque
parts, kept in one form for the three formats: the two ``ModelMessage`` parts
``convertToModelMessages`` writes, as opaque parts of ``ai-sdk-model``::

    {"type": "tool-call", "toolCallId", "toolName", "input", "providerExecuted": true, "providerOptions"?}
    {"type": "tool-result", "toolCallId", "toolName", "output": {"type", "value"}, "providerOptions"?}

Each format keeps what it holds beyond them in its own bag on the part. A provider wire has no
such call (it models its own server tools, read as its own opaque blocks), so it reports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict

FORMAT = "ai-sdk-model"
"""The format whose parts the canonical form is (the opaque parts' ``provider``)."""

CALL_KEYS = ("type", "toolCallId", "toolName", "input", "providerExecuted", "providerOptions")
"""What a server call holds (anything else is a field of the AI SDK another format reports)."""

RESULT_KEYS = ("type", "toolCallId", "toolName", "output", "providerExecuted", "providerOptions")
"""What a server result holds."""

_ERRORS = {"error-text": "text", "error-json": "json"}


def server_call(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """The call a canonical part holds when it is a provider-executed call, else None."""
    data = _data(part, "tool-call")
    return data if data is not None and data.get("providerExecuted") is True else None


def server_result(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """The result a canonical assistant part holds when it is a provider-executed result (a
    ``tool-result`` in an assistant turn is one), else None."""
    return _data(part, "tool-result")


def _data(part: Mapping[str, Any], kind: str) -> dict[str, Any] | None:
    if part.get("type") != "opaque" or part.get("provider") != FORMAT:
        return None
    data = as_dict(part.get("data"))
    if data is None or data.get("type") != kind:
        return None
    if not isinstance(data.get("toolCallId"), str) or not isinstance(data.get("toolName"), str):
        return None
    return data


def opaque(data: dict[str, Any], bag: Mapping[str, Any], owner: str) -> dict[str, Any]:
    """A server call or result as its canonical opaque part, ``bag`` the ``owner`` format's."""
    part: dict[str, Any] = {"type": "opaque", "provider": FORMAT, "data": data}
    if bag:
        part["provider_metadata"] = {owner: dict(bag)}
    return part


def output_of(value: Any, *, error: bool = False) -> dict[str, Any]:
    """A result's value as the AI SDK's ``output``, as its ``createToolModelOutput`` makes it: a
    string is ``text``, any other value ``json`` (``error-text`` / ``error-json`` for an error)."""
    kind = "text" if isinstance(value, str) else "json"
    return {"type": f"error-{kind}" if error else kind, "value": value}


def value_of(output: Mapping[str, Any]) -> tuple[Any, str | None]:
    """An ``output``'s value and what it says of the outcome: ``None`` for a value (``text``,
    ``json``), ``"failed"`` for an error, ``"denied"`` for ``execution-denied`` (its reason the
    value), ``"other"`` for another type (``content``: its value as it is)."""
    kind = output.get("type")
    if kind in ("text", "json"):
        return output.get("value"), None
    if kind in _ERRORS:
        return output.get("value"), "failed"
    if kind == "execution-denied":
        return output.get("reason", ""), "denied"
    return output.get("value"), "other"
