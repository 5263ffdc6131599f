"""Nova's ``messages`` (and ``system``) <-> canonical messages: the AWS family's reader and
writer (``families/aws/turns.py``) for Nova's body, whose turns are ``user`` and
``assistant`` only (a later system message is sent as a user turn, reported) and whose
cache points take no ``ttl`` (its :data:`~.markers.BODY`; the writer reads the body from
its ``BedrockContext``)."""

from __future__ import annotations

from typing import Any

from chatcodec._providers.bedrock_nova.markers import BODY
from chatcodec._providers.families.aws import turns
from chatcodec.contract import DecodeContext

encode_system = turns.encode_system
"""The top-level ``system`` blocks for the leading system messages."""
encode_messages = turns.encode_messages
"""The wire ``messages`` for ``messages[start:]`` (canonical message data)."""
encode_message = turns.encode_answer
"""An answer's ``output.message`` for its message."""


def decode_system(system: list[Any]) -> dict[str, Any]:
    """The canonical system message for the top-level ``system`` blocks."""
    return turns.decode_system(BODY, system)


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Canonical messages for the wire ``messages`` (validated)."""
    del context  # a turn reads nothing of it
    return turns.decode_messages(BODY, wire)


def leading_system_count(messages: list[Any]) -> int:
    """How many leading system (or developer) messages go to the top-level ``system``."""
    return turns.leading_system_count(BODY, messages)
