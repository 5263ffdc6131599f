"""The Anthropic Messages API codec (registry name ``"anthropic"``).

API documentation:

- Reference: https://platform.claude.com/docs/en/api/messages
- Streaming (server-sent events): https://platform.claude.com/docs/en/build-with-claude/streaming
- Versions and migration: https://platform.claude.com/docs/en/api/versioning ,
  https://platform.claude.com/docs/en/api/migration-2026-10-21
- SDK types (the tests' oracle): https://github.com/anthropics/anthropic-sdk-python/tree/main/src/anthropic/types

Load it through the registry (``chatcodec.get_codec("anthropic")``) or the top-level
functions; the names below are the Anthropic-specific helpers (Clacky parity, tool-id
mapping) that have no place in the provider-neutral API.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chatcodec.providers.anthropic.convenience import (
        build_request_body,
        format_tool_results,
        parse_response,
        sanitize_tool_use_id,
    )
    from chatcodec.providers.anthropic.request import tool_id_map
    from chatcodec.providers.anthropic.tool_ids import restore_tool_use_id

_LAZY = {
    "build_request_body": "chatcodec.providers.anthropic.convenience",
    "format_tool_results": "chatcodec.providers.anthropic.convenience",
    "parse_response": "chatcodec.providers.anthropic.convenience",
    "sanitize_tool_use_id": "chatcodec.providers.anthropic.tool_ids",
    "tool_id_map": "chatcodec.providers.anthropic.request",
    "restore_tool_use_id": "chatcodec.providers.anthropic.tool_ids",
}
"""Each helper's module, imported on first use: this package is imported whenever any of
its modules is (the codec included), and ``convenience`` loads the canonical readers
(``chatcodec.validation``), which loading a codec must not."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "build_request_body",
    "format_tool_results",
    "parse_response",
    "restore_tool_use_id",
    "sanitize_tool_use_id",
    "tool_id_map",
]
