"""A conversation as a request <-> a canonical request: ``{"messages": [Message...]}`` (the
shape every stored history shares: :mod:`chatcodec._frameworks.history`), a ``Task`` (its
history, status message and artifacts read as the messages, :mod:`.task`, and written back as
the task: the ``_task`` marker), or what the protocol's methods carry, a
``SendMessageRequest`` (``{"message": ..., "configuration": ...}``) or a
``SendMessageResponse`` (``{"task": ...}`` or ``{"message": ...}``), read as the message or
task it holds and written back so (the ``_in`` marker, the body's other fields in the bag's
``envelope``). ``decode_message_list`` reads a bare message list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec import ValidationError
from chatcodec._frameworks.a2a.capabilities import CAPABILITIES
from chatcodec._frameworks.a2a.markers import DISPLAY, EMPTY, ENVELOPE, KIT, PROVIDER, TASK, WRAPPED
from chatcodec._frameworks.a2a.messages import decode_messages, encode_messages
from chatcodec._frameworks.a2a.task import TASK_KEYS, decode_task, encode_task, unplaced
from chatcodec._frameworks.a2a.wire import validated_history
from chatcodec._frameworks.history import HistoryRequest
from chatcodec.codec_kit import Problem, as_dict, leftovers, problems_error
from chatcodec.contract import DecodeContext, EncodeContext

_ROLE = HistoryRequest(DISPLAY, KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)

_WRAPPERS = ("message", "task")
"""The keys of a method's request or response that hold a message or a task."""


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read ``{"messages": [...]}``, a ``Task``, or a method's message or task, as a canonical request dict."""
    held = [key for key in _WRAPPERS if key in payload]
    if "messages" in payload or (len(held) != 1 and not any(key in payload for key in TASK_KEYS)):
        return _ROLE.decode_request(payload, context)
    if not held:
        messages, bag = decode_task(payload)
        return {"messages": messages, "provider_options": {PROVIDER: bag}}
    key = held[0]
    read: dict[str, Any]
    try:
        inner = as_dict(payload[key])
        if inner is None:
            raise problems_error(f"{DISPLAY} {key}", [Problem((), "dict_type", "an object", payload[key])])
        if key == "message":
            read = _ROLE.decode_request({"messages": [inner]}, context)
        else:
            messages, bag = decode_task(inner)
            read = {"messages": messages, "provider_options": {PROVIDER: bag}}
    except ValidationError as error:
        problems = [_inside(key, detail) for detail in error.errors()]
        raise problems_error(f"{DISPLAY} {key}", problems) from None
    bag = KIT.own(as_dict(read.get("provider_options")))
    bag[WRAPPED] = key
    outside = leftovers(payload, (key,))
    if outside:
        bag[ENVELOPE] = outside
    read["provider_options"] = {PROVIDER: bag}
    return read


def _inside(key: str, detail: Any) -> Problem:
    """A problem of the message or task a method body holds, at its place in the body."""
    location = tuple(detail["loc"])
    if key == "message" and location[:2] == ("messages", 0):
        location = location[2:]
    return Problem((key, *location), detail["type"], detail["msg"], detail.get("input"))


def encode_request(request: dict[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as ``{"messages": [...]}``, or as the task or method body it was read from."""
    own = KIT.own(request.get("provider_options"))
    if own.get(WRAPPED) in _WRAPPERS:
        return _wrapped(request, own, context)
    wire = _ROLE.encode_request(request, context)
    written = wire.pop("messages")
    if own.get(TASK):
        return encode_task(written, wire, own.get(EMPTY), context)
    return {"messages": unplaced(written, context), **wire}


def _wrapped(request: dict[str, Any], own: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """The method body ``request`` was read from: its task, or its one message (any other a loss)."""
    key = str(own[WRAPPED])
    outside = as_dict(own.get(ENVELOPE)) or {}
    inner_bag = {name: value for name, value in own.items() if name not in (WRAPPED, ENVELOPE)}
    options = {**(as_dict(request.get("provider_options")) or {}), PROVIDER: inner_bag}
    inner = encode_request({**request, "provider_options": options}, context)
    if key == "task":
        return {"task": inner, **outside}
    messages: list[Any] = inner.pop("messages")
    for index in range(len(messages) - 1):
        context.losses.add(("messages", index), "message", f"an {DISPLAY} method body holds one message: the last")
    for name in inner:
        context.losses.add((name,), name, f"an {DISPLAY} method body has no {name}", "metadata")
    return {"message": messages[-1] if messages else {"role": "ROLE_USER", "parts": []}, **outside}


def decode_message_list(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Read a bare message list as canonical message dicts."""
    return _ROLE.decode_message_list(messages, context)
