"""A conversation as a request <-> a canonical request: ``{"messages": [Message...]}`` (the
shape every stored history shares: :mod:`chatcodec._frameworks.history`), or a ``Task``, its
history, status message and artifacts read as the messages (:mod:`.task`) and written back
as a task (the ``_task`` marker). ``decode_message_list`` reads a bare message list.
"""

from __future__ import annotations

from typing import Any

from chatcodec._frameworks.a2a.capabilities import CAPABILITIES
from chatcodec._frameworks.a2a.markers import DISPLAY, KIT, PROVIDER, TASK
from chatcodec._frameworks.a2a.messages import decode_messages, encode_messages
from chatcodec._frameworks.a2a.task import TASK_KEYS, decode_task, encode_task, unplaced
from chatcodec._frameworks.a2a.wire import validated_history
from chatcodec._frameworks.history import HistoryRequest
from chatcodec.contract import DecodeContext, EncodeContext

_ROLE = HistoryRequest(DISPLAY, KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read ``{"messages": [...]}``, or a ``Task``, as a canonical request dict."""
    if "messages" not in payload and any(key in payload for key in TASK_KEYS):
        messages, bag = decode_task(payload)
        return {"messages": messages, "provider_options": {PROVIDER: bag}}
    return _ROLE.decode_request(payload, context)


def encode_request(request: dict[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as ``{"messages": [...]}``, or as the ``Task`` it was read from."""
    wire = _ROLE.encode_request(request, context)
    written = wire.pop("messages")
    if KIT.own(request.get("provider_options")).get(TASK):
        return encode_task(written, wire, context)
    return {"messages": unplaced(written, context), **wire}


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare message list as canonical message dicts."""
    return _ROLE.decode_message_list(messages, context)
