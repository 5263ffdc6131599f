"""Whether a document is an AG-UI body no other format also holds: ``convert`` without
``--from`` names ``ag-ui`` only then.

Two shapes are AG-UI's alone: a ``RunAgentInput`` (its required ``threadId``, ``runId`` and
``messages``, every other key one of its fields), and a message list (bare, or the one key
``messages``) in which every message has a string ``id`` and an AG-UI role, and one at least
holds what only AG-UI's wire writes on a message: ``toolCalls``, ``toolCallId``,
``encryptedValue``, ``activityType``, ``subagentRunId``, or the ``reasoning`` or ``activity``
role. A list of ids, roles and strings alone is any chat format's too, and is read as one.
"""

from __future__ import annotations

from typing import Any

from chatcodec._frameworks.ag_ui.wire import ROLES
from chatcodec.codec_kit import as_dict, as_list

RUN_AGENT_INPUT = frozenset(
    {"threadId", "runId", "protocolVersion", "parentRunId", "state", "messages", "tools", "context"}
    | {"forwardedProps", "resume"}
)
"""``RunAgentInput``'s fields on the wire (``ag-ui-protocol`` 1.0.0's model, camelCase)."""

ONLY_AG_UI = frozenset({"toolCalls", "toolCallId", "encryptedValue", "activityType", "subagentRunId"})
"""A message's keys only AG-UI spells so (OpenAI's are ``tool_calls`` and ``tool_call_id``)."""

OWN_ROLES = frozenset({"reasoning", "activity"})
"""The roles only AG-UI's messages have."""


def is_ag_ui(document: object) -> bool:
    """Whether ``document`` (parsed JSON) is a ``RunAgentInput`` or an AG-UI message list."""
    fields = as_dict(document)
    if fields is None:
        return _ag_ui_messages(as_list(document))
    keys = set(fields)
    if {"threadId", "runId", "messages"} <= keys <= RUN_AGENT_INPUT:
        ids = isinstance(fields["threadId"], str) and isinstance(fields["runId"], str)
        return ids and as_list(fields["messages"]) is not None
    return keys == {"messages"} and _ag_ui_messages(as_list(fields["messages"]))


def _ag_ui_messages(messages: list[Any] | None) -> bool:
    if not messages:
        return False
    marked = False
    for item in messages:
        message = as_dict(item)
        if message is None or not isinstance(message.get("id"), str) or message.get("role") not in ROLES:
            return False
        marked = marked or message["role"] in OWN_ROLES or not ONLY_AG_UI.isdisjoint(message)
    return marked
