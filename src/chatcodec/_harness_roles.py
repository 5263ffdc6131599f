"""Roles a client harness sends that its API's reader refuses, read as the nearest canonical role.

Claude Code (2.1.154 and later) sends ``ctx`` and ``msg`` turns in an Anthropic body's
``messages`` (https://github.com/vllm-project/vllm/issues/44000): client text in the user's
place (context it gathered, messages queued for the model). The reader of that wire refuses a
role it does not document; a conversion and a render read each such turn as the canonical role
the source codec names for it (``Capabilities.harness_roles``) and report it as a ``spelling``
loss, rather than refusing a session a user wants converted or a trainer wants rendered. The
reading is asked for only when the body as given is refused (:func:`read_or_retry`), so a body
of documented roles pays nothing for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from chatcodec._errors import ChatcodecError
from chatcodec._losses import LossRecorder
from chatcodec._narrow import as_dict, as_list
from chatcodec._registry import get_codec

Read = TypeVar("Read")


def declared_roles(source: str) -> Mapping[str, str]:
    """The roles a harness sends on ``source``'s wire that its reader refuses, each with the
    canonical role it is read as (its codec's ``Capabilities.harness_roles``; none for a codec
    without the record)."""
    try:
        codec = get_codec(source)
    except ChatcodecError:  # no such codec: no roles of its own
        return {}
    roles: object = getattr(getattr(codec, "capabilities", None), "harness_roles", None)
    return cast("Mapping[str, str]", roles) if isinstance(roles, Mapping) else {}


def with_harness_roles_read(body: object, source: str, recorder: LossRecorder) -> object:
    """``body`` with each harness role ``source``'s codec declares read as its canonical
    role, a ``spelling`` loss at each; ``body`` itself where it holds none."""
    roles = declared_roles(source)
    fields = as_dict(body)
    listed = None if fields is None else as_list(fields.get("messages"))
    if not roles or fields is None or listed is None:
        return body
    if not any(_harness_role(message, roles) for message in listed):
        return body
    read: list[Any] = []
    for index, message in enumerate(listed):
        turn = as_dict(message)
        role = None if turn is None else turn.get("role")
        if turn is not None and isinstance(role, str) and role in roles:
            why = f"a role a harness sends (Claude Code's {role!r}), read as a {roles[role]} turn"
            recorder.add(f"$.messages[{index}].role", f"{role} role", why, "spelling")
            read.append({**turn, "role": roles[role]})
        else:
            read.append(message)
    return {**fields, "messages": read}


def _harness_role(message: object, roles: Mapping[str, str]) -> bool:
    """Whether ``message`` is a turn whose role is one of ``roles`` (a role of another type,
    a list or an object a fuzzer or a broken client sends, is none: the reader names it)."""
    role = (as_dict(message) or {}).get("role")
    return isinstance(role, str) and role in roles


def read_or_retry(
    body: object, source: str, recorder: LossRecorder, read: Callable[[object], Read]
) -> tuple[Read, object]:
    """``read(body)`` and the body read; when the reader refuses ``body`` and it holds a
    harness role, ``read`` of the body with those roles read (:func:`with_harness_roles_read`,
    reported into ``recorder``), and that body. Anything else the reader refuses is its error,
    as it was."""
    try:
        return read(body), body
    except ChatcodecError:
        if not declared_roles(source):
            raise
        fields = _as_object(body)
        retried = fields if fields is None else with_harness_roles_read(fields, source, recorder)
        if retried is None or retried is fields:
            raise
    return read(retried), retried


def _as_object(body: object) -> dict[str, Any] | None:
    """``body`` as a JSON object (a dict, or JSON text or bytes holding one); None otherwise."""
    fields = as_dict(body)
    if fields is not None or not isinstance(body, str | bytes | bytearray):
        return fields
    try:
        parsed: object = json.loads(body)
    except ValueError:
        return None
    return as_dict(parsed)
