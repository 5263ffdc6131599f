"""Shared helpers for the Ollama codec tests: fixture loading and the ``ollama`` SDK oracle.

The oracle is the ``ollama`` Python SDK's own pydantic types (``ollama/_types.py``,
version 0.6.3): ``ChatRequest``, ``Message``, ``Tool``, ``Options`` and ``ChatResponse``
check every value's type. They ignore unknown keys (pydantic's default) and take a
request's messages as any mapping, so the oracle checks the keys itself, against the
SDK's fields plus the ones the server's Go types (``api/types.go``) read that the SDK does
not name yet: a message's ``tool_call_id``, a call's ``id`` and ``function.index``, and a
response's ``remote_model`` / ``remote_host``; and ``type`` on a call, which Ollama's
tool-calling guide sends and the server ignores. The SDK holds images as ``Image``
objects, so each base64 string is handed to it as one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ollama import _types as sdk

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ollama"

SERVER_REQUEST_FIELDS = frozenset({"truncate", "shift", "_debug_render_only"})
"""``api.ChatRequest`` fields the SDK does not name."""
SERVER_MESSAGE_FIELDS = frozenset({"tool_call_id"})
"""``api.Message`` fields the SDK does not name."""
SERVER_CALL_FIELDS = frozenset({"id", "type"})
"""``api.ToolCall.ID``; ``type`` is sent by docs/capabilities/tool-calling.mdx (the server ignores it)."""
SERVER_FUNCTION_FIELDS = frozenset({"index"})
"""``api.ToolCallFunction.Index``."""
SERVER_RESPONSE_FIELDS = frozenset({"remote_model", "remote_host", "_debug_info"})
"""``api.ChatResponse`` fields the SDK does not name."""


def _fields(model: type[sdk.BaseModel]) -> frozenset[str]:
    return frozenset(field.alias or name for name, field in model.model_fields.items())


def _assert_keys(value: Mapping[str, Any], allowed: frozenset[str], what: str) -> None:
    unknown = set(value) - allowed
    assert not unknown, f"{what} has keys the SDK and the server do not know: {sorted(unknown)}"


def _with_images(message: Mapping[str, Any]) -> dict[str, Any]:
    images = message.get("images")
    if not isinstance(images, list):
        return dict(message)
    return {**message, "images": [{"value": image} for image in images]}


def assert_valid_message(message: Mapping[str, Any]) -> None:
    """``Message`` accepts ``message`` and its calls; no key unknown to the SDK and the server."""
    _assert_keys(message, _fields(sdk.Message) | SERVER_MESSAGE_FIELDS, "a message")
    assert message["role"] in ("system", "user", "assistant", "tool"), message["role"]
    sdk.Message.model_validate(_with_images(message))
    for call in message.get("tool_calls") or ():
        _assert_keys(call, _fields(sdk.Message.ToolCall) | SERVER_CALL_FIELDS, "a tool call")
        _assert_keys(call["function"], _fields(sdk.Message.ToolCall.Function) | SERVER_FUNCTION_FIELDS, "a function")


def assert_valid_request(body: dict[str, Any]) -> None:
    """``ChatRequest`` accepts ``body``, and every message, tool and option is the SDK's."""
    _assert_keys(body, _fields(sdk.ChatRequest) | SERVER_REQUEST_FIELDS, "a request")
    messages = body.get("messages") or []
    sdk.ChatRequest.model_validate({**body, "messages": [_with_images(message) for message in messages]})
    for message in messages:
        assert_valid_message(message)
    for tool in body.get("tools") or ():
        if tool.get("type") == "function":
            _assert_keys(tool, frozenset({"type", "function", "items"}), "a tool")
            _assert_keys(tool["function"], frozenset({"name", "description", "parameters"}), "a tool's function")
    if body.get("options") is not None:
        sdk.Options.model_validate(body["options"])
    think = body.get("think")
    assert think is None or isinstance(think, bool) or think in ("low", "medium", "high", "max"), think


def assert_valid_response(body: dict[str, Any]) -> None:
    """``ChatResponse`` accepts ``body`` (a body, or one stream line)."""
    _assert_keys(body, _fields(sdk.ChatResponse) | SERVER_RESPONSE_FIELDS, "a response")
    message = body["message"]
    sdk.ChatResponse.model_validate({**body, "message": _with_images(message)})
    assert_valid_message(message)


def assert_valid_stream(events: Iterable[dict[str, Any]]) -> None:
    """Every line is a ``ChatResponse``, or an error line (``{"error": "..."}``)."""
    for event in events:
        if "error" in event:
            assert set(event) == {"error"}, event
            assert isinstance(event["error"], str), event
            continue
        assert_valid_response(event)


def load_json(kind: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / kind / name).read_text(encoding="utf-8"))
    return loaded
