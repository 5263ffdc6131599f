"""A session as a request <-> a canonical request: ``{"messages": [events]}`` (the shape every
stored history shares: :mod:`chatcodec._frameworks.history`), or a ``Session`` as ADK dumps it
(``session.model_dump()``: ``{"id", "app_name", "user_id", "state", "events": [...],
"last_update_time"}``), its events read as the messages and written back under ``events`` (the
``_session`` marker); a session's other keys ride in the request's bag. ``decode_message_list``
reads the bare event list (``session.events``). A content the ``gemini`` reader refuses, or an
event ADK would not load, is named where it stands in the input (``$.events[3]`` in a session).
Source: https://github.com/google/adk-python/blob/main/src/google/adk/sessions/session.py
"""

from __future__ import annotations

from typing import Any

from chatcodec import ValidationError
from chatcodec._frameworks.google_adk.capabilities import CAPABILITIES
from chatcodec._frameworks.google_adk.content import ContentRefusedError, refused_at
from chatcodec._frameworks.google_adk.events import decode_messages, encode_messages
from chatcodec._frameworks.google_adk.markers import DISPLAY, EVENTS, KIT, PROVIDER, SESSION
from chatcodec._frameworks.google_adk.wire import validated_history
from chatcodec._frameworks.history import HistoryRequest
from chatcodec.codec_kit import Problem, problems_error
from chatcodec.contract import DecodeContext, EncodeContext

_ROLE = HistoryRequest(DISPLAY, KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read ``{"messages": [events]}``, or a ``Session`` dump, as a canonical request dict."""
    if "messages" not in payload and isinstance(payload.get(EVENTS), list):
        return _decode_session(payload, context)
    try:
        return _ROLE.decode_request(payload, context)
    except ContentRefusedError as refused:
        raise refused_at(refused, _ROLE.title, "messages") from None


def _decode_session(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """A ``Session`` dump read as the history of its events, its other keys in the bag."""
    history = {"messages": payload[EVENTS], **{key: value for key, value in payload.items() if key != EVENTS}}
    try:
        canonical = _ROLE.decode_request(history, context)
    except ContentRefusedError as refused:
        raise refused_at(refused, _ROLE.title, EVENTS) from None
    except ValidationError as error:
        raise problems_error(_ROLE.title, [_in_events(detail) for detail in error.errors()]) from None
    options: dict[str, Any] = canonical.setdefault("provider_options", {})
    options.setdefault(PROVIDER, {})[SESSION] = True
    return canonical


def _in_events(detail: Any) -> Problem:
    """A problem the history check named in ``messages``, at its place in the session's ``events``."""
    location = tuple(detail["loc"])
    inside = (EVENTS, *location[1:]) if location[:1] == ("messages",) else location
    return Problem(inside, detail["type"], detail["msg"], detail.get("input"))


def encode_request(request: dict[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as ``{"messages": [events]}``, or as the ``Session`` it was read from."""
    wire = _ROLE.encode_request(request, context)
    if not KIT.own(request.get("provider_options")).get(SESSION):
        return wire
    return {(EVENTS if key == "messages" else key): value for key, value in wire.items()}


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare event list (``session.events`` dumped) as canonical message dicts."""
    try:
        return _ROLE.decode_message_list(messages, context)
    except ContentRefusedError as refused:
        raise refused_at(refused, _ROLE.title) from None
