"""A kept Anthropic tool that is neither a server tool (a ``type``) nor a client tool (a
``name``) is not sent, reported: the SDK's ``ToolUnionParam`` has ``ToolParam`` (``name``
and ``input_schema`` required) and the server tools (each a ``type`` literal, such as
``WebSearchTool20250305Param``), so ``{}`` is no tool, and chatcodec's own reader refused
what the writer sent (found by the differential fuzz, issue 61)."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
"""``WebSearchTool20250305Param`` (anthropic SDK ``types/web_search_tool_20250305_param.py``)."""


def _request(*kept: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "hi"}],
        "provider_tools": [{"type": "opaque", "provider": "anthropic", "data": data} for data in kept],
    }


@pytest.mark.parametrize("data", [{}, {"type": "custom"}, {"max_uses": 1}])
def test_a_kept_tool_with_no_type_and_no_name_is_not_sent(data: dict[str, Any]) -> None:
    losses: list[Loss] = []
    body = chatcodec.encode_request("anthropic", _request(data, WEB_SEARCH), losses=losses, on_loss="ignore")
    assert body["tools"] == [WEB_SEARCH]
    assert [(loss.path, loss.what) for loss in losses] == [("$.provider_tools[0].data", "anthropic tool")]
    assert chatcodec.encode_request("anthropic", chatcodec.decode_request("anthropic", body)) == body


def test_a_kept_server_tool_is_sent_as_it_came() -> None:
    losses: list[Loss] = []
    body = chatcodec.encode_request("anthropic", _request(WEB_SEARCH), losses=losses)
    assert body["tools"] == [WEB_SEARCH]
    assert losses == []
