"""A session as a request: ``{"messages": [events]}`` (the shape every stored history shares:
:mod:`chatcodec._frameworks.history`; a ``Session``'s other keys ride in the request's bag) <->
a canonical request; ``decode_message_list`` reads the bare event list (``session.events``).
A content the ``gemini`` reader refuses is named where its event stands in the input.
"""

from __future__ import annotations

from typing import Any

from chatcodec._frameworks.google_adk.capabilities import CAPABILITIES
from chatcodec._frameworks.google_adk.content import ContentRefusedError, refused_at
from chatcodec._frameworks.google_adk.events import decode_messages, encode_messages
from chatcodec._frameworks.google_adk.markers import DISPLAY, KIT
from chatcodec._frameworks.google_adk.wire import validated_history
from chatcodec._frameworks.history import HistoryRequest
from chatcodec.contract import DecodeContext

_ROLE = HistoryRequest(DISPLAY, KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)
encode_request = _ROLE.encode_request


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read ``{"messages": [events]}`` as a canonical request dict."""
    try:
        return _ROLE.decode_request(payload, context)
    except ContentRefusedError as refused:
        raise refused_at(refused, _ROLE.title, "messages") from None


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare event list (``session.events`` dumped) as canonical message dicts."""
    try:
        return _ROLE.decode_message_list(messages, context)
    except ContentRefusedError as refused:
        raise refused_at(refused, _ROLE.title) from None
