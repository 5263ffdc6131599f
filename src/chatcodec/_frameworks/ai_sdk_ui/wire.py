"""What a ``UIMessage[]`` history holds, and its validator.

Each message is checked for what the AI SDK's ``validateUIMessages`` requires of it (an
``id``, a system, user or assistant ``role``, a list of typed ``parts``; a tool part's
``toolCallId`` and known ``state``), so a message the AI SDK would refuse is refused at its
own path (``$.messages[3]``) as a :class:`~chatcodec.ValidationError` before anything is
read. Inside a part, fields are open. The validator is built on first use, so importing the
codec loads no pydantic.
"""

from __future__ import annotations

from typing import Any

from chatcodec._frameworks.ai_sdk_ui.tool_parts import DYNAMIC, is_tool_part
from chatcodec._frameworks.history import history_check
from chatcodec.codec_kit import as_dict, as_list

_ROLES = frozenset({"system", "user", "assistant"})
STATES = frozenset(
    {
        "input-streaming",
        "input-available",
        "approval-requested",
        "approval-responded",
        "output-available",
        "output-error",
        "output-denied",
    }
)
"""A tool part's states (AI SDK 6's ``UIToolInvocation``)."""


def check_message(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` when the AI SDK takes it; a :class:`ValueError` saying why otherwise."""
    if not isinstance(message.get("id"), str):
        raise ValueError("a UIMessage has a string id")
    if not isinstance(message.get("role"), str) or message["role"] not in _ROLES:  # a list is no role (nor hashable)
        raise ValueError(f"role {message.get('role')!r}: a UIMessage is a system, user or assistant message")
    parts = as_list(message.get("parts"))
    if parts is None:
        raise ValueError("a UIMessage's parts are a list")
    for index, item in enumerate(parts):
        part = as_dict(item)
        if part is None or not isinstance(part.get("type"), str):
            raise ValueError(f"parts[{index}]: a part is an object with a type")
        if is_tool_part(part):
            if not isinstance(part.get("toolCallId"), str) or (
                not isinstance(part.get("state"), str) or part["state"] not in STATES
            ):
                raise ValueError(f"parts[{index}]: a tool part has a toolCallId and one of the states {sorted(STATES)}")
            if part["type"] == DYNAMIC and not isinstance(part.get("toolName"), str):
                raise ValueError(f"parts[{index}]: a dynamic-tool part names its tool")
            if not isinstance(part.get("errorText", ""), str):  # UIToolInvocation's errorText: string
                raise ValueError(f"parts[{index}].errorText: a string")
    return message


validated_history = history_check(check_message)
