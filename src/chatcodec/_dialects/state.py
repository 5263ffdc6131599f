"""Verifiers 0.4's ``provider_state``, read into the fields it stands for.

Verifiers (``verifiers/v1/types.py``, ``AssistantMessage.provider_state``) keeps the
provider's own reasoning items beside a message, to replay signed or encrypted reasoning:
its Anthropic dialect stores the ``thinking`` / ``redacted_thinking`` blocks, its chat
dialect OpenRouter's ``reasoning_details`` entries, its Responses dialect the output
items. :func:`with_provider_state` turns the first two into the message fields the
dialects already read, so they are read exactly as the codecs read them.
"""

from __future__ import annotations

from typing import Any

from chatcodec._dialects.base import REASONING_DETAILS, DialectError
from chatcodec._narrow import as_dict, as_list


def _without(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in keys}


def with_provider_state(message: dict[str, Any], at: tuple[int | str, ...]) -> dict[str, Any]:
    """Verifiers 0.4's ``provider_state``: the provider's own reasoning items, replayed to
    keep signed or encrypted reasoning (``verifiers/v1/dialects``): Anthropic thinking
    blocks, OpenRouter ``reasoning_details`` entries, or OpenAI Responses output items.
    The first two are read as the fields they are; anything else is kept whole as opaque
    parts of the Responses format, never dropped."""
    state = message["provider_state"]
    rest = _without(message, ("provider_state",))
    listed = as_list(state)
    items = [fields for fields in map(as_dict, listed or ()) if fields is not None]
    if listed is None or len(items) != len(listed):
        raise DialectError(at, "provider_state_type", "provider_state must be a list of objects", state)
    kinds = [item.get("type") for item in items]
    if all(kind in ("thinking", "redacted_thinking") for kind in kinds):
        field = "thinking_blocks"
    elif all(isinstance(kind, str) and kind.startswith("reasoning.") for kind in kinds):
        field = REASONING_DETAILS
    else:
        content = rest.get("content")
        listed = [{"type": "text", "text": content}] if isinstance(content, str) and content else as_list(content) or []
        opaque = [{"type": "opaque", "provider": "openai-responses", "data": item} for item in items]
        return {**rest, "content": [*opaque, *listed]}
    if field in rest:
        raise DialectError(at, "provider_state_conflict", f"provider_state and {field} are both given", state)
    return {**rest, field: items}
