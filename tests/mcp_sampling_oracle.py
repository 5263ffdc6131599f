"""The MCP Python SDK's types (``mcp`` 2.3.0, ``mcp.types``) as the oracle of every
``mcp-sampling`` body chatcodec writes: the SDK validates the body, and what it dumps back is
compared with it (its models ignore unknown keys, so an extra key is caught too). A test
dependency, never chatcodec's (the dev extra pins it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "mcp-sampling"
"""The spec's examples and the schema's bodies, each with its source in ``PROVENANCE.md``."""


def _same_as_sdk(kind: Any, body: dict[str, Any]) -> None:
    model = kind.model_validate(body)
    back = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert back == body, f"the SDK's {kind.__name__} reads {back}, not {body}"


def check_request(body: dict[str, Any]) -> None:
    """``body`` is the SDK's ``CreateMessageRequestParams``, or the whole JSON-RPC
    ``CreateMessageRequest`` (``jsonrpc`` and ``id`` beside it: the SDK's ``JSONRPCRequest``)."""
    from mcp.types import CreateMessageRequest, CreateMessageRequestParams, JSONRPCRequest

    if "method" not in body:
        _same_as_sdk(CreateMessageRequestParams, body)
        return
    _same_as_sdk(JSONRPCRequest, body)
    _same_as_sdk(CreateMessageRequest, {key: body[key] for key in ("method", "params")})


def check_response(body: dict[str, Any]) -> None:
    """``body`` is the SDK's ``CreateMessageResultWithTools``, or a ``JSONRPCResponse`` holding one."""
    from mcp.types import CreateMessageResultWithTools, JSONRPCResponse

    if "jsonrpc" not in body:
        _same_as_sdk(CreateMessageResultWithTools, body)
        return
    _same_as_sdk(JSONRPCResponse, body)
    _same_as_sdk(CreateMessageResultWithTools, body["result"])
