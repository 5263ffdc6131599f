"""Tool-call ids and tool names that Bedrock Converse accepts.

botocore's ``bedrock-runtime`` service model (``ToolUseId``) allows ``[a-zA-Z0-9_.:-]+``
of 1 to 64 characters, so ids Anthropic rejects (``functions.write:0``) pass here, and
ids Anthropic accepts can be too long here (OpenAI ``call_`` ids of 40+ characters with a
proxy prefix, Gemini-generated ones). The rewrite is the kit's collision-free, reversible
:class:`~chatcodec.providers.kit.tool_id_mapping.ToolIdMapping` with Bedrock's rule; an id
whose escape would exceed 64 characters is hashed, and the encoder reports it.

Tool names (``ToolName``): ``[a-zA-Z0-9_-]+``, 1 to 64 characters; a name outside that is
a request Bedrock rejects with a ValidationException, so it is an error by policy
(renaming a tool silently would break the calls in the history).
"""

from __future__ import annotations

from chatcodec.providers.kit.tool_id_mapping import ToolIdMapping

MAX_LENGTH = 64
"""Longest tool id Bedrock accepts (its tool names follow ``tool_names.OPENAI_TOOL_NAMES``)."""

MAPPING = ToolIdMapping(r"\A[a-zA-Z0-9_.:-]+\Z", max_length=MAX_LENGTH)
"""Bedrock's ``ToolUseId`` rule."""


def sanitize_tool_use_id(tool_use_id: str) -> str:
    """The id Bedrock is sent: unchanged when valid, else escaped (or hashed when too long)."""
    return MAPPING.sanitize(tool_use_id)


def restore_tool_use_id(wire_id: str) -> str:
    """The original id behind a rewritten one; any other id is returned unchanged."""
    return MAPPING.restore(wire_id)
