"""An assistant message's ``tool_calls`` in a stored conversation: checked, and its plain calls
read as they are.

The list is checked here, before folding, because after folding the schema could only point
at content parts the caller never wrote. A list of plain calls (OpenAI's nested shape: an id,
``type: function`` and a function of a name and argument text, as TRL rows and agents' saved
histories hold every call) is read by the OpenAI shape's own rule for a plain call (the
openai-chat folder's ``plain_parts.py``, which that codec reads its plain calls with, reached
through :func:`.base.plain_call_rule`), with no codec built or asked: a render of an agent
loop reads one a turn. Any other list is read call by call by the dialect reader.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from chatcodec._dialects.base import DialectError, Location, plain_call_rule, without_nulls
from chatcodec._model._base import KeyedModel
from chatcodec._narrow import as_dict, as_list
from chatcodec._sdk_objects import sdk_json


def plain_calls(tool_calls: object) -> list[dict[str, Any]] | None:
    """The ``tool_use`` parts of a list of plain calls whose ids and names are strings (what
    :func:`checked_tool_calls` takes and the openai-chat codec reads to these parts), or None
    for any other list (or none)."""
    calls = as_list(tool_calls)
    if calls is None:
        return None
    plain_call = plain_call_rule()
    parts: list[dict[str, Any]] = []
    for call in calls:  # per turn: a loop, not a comprehension's frame
        part = plain_call(call) if call.__class__ is dict else None
        if part is None or part["id"].__class__ is not str or part["name"].__class__ is not str:
            return None
        parts.append(part)
    return parts


def nested(call: dict[str, Any]) -> dict[str, Any] | None:
    """The object naming the tool in OpenAI's nested shape: ``function``, or ``custom`` of
    a custom (freeform) call; None for a flat call."""
    function = as_dict(call.get("function"))
    if function is None and call.get("type") == "custom":
        return as_dict(call.get("custom"))
    return function


def checked_tool_calls(tool_calls: object, at: Location) -> list[Any]:
    """The ``tool_calls`` list, checked. Canonical tool-use parts are taken too: they are
    what ``message["tool_calls"]`` gives (``dict(message)`` reads back)."""
    if tool_calls is None:
        return []
    calls = as_list(tool_calls)
    if calls is None:
        raise DialectError(at, "tool_calls_type", "tool_calls must be a list of tool calls", tool_calls)
    calls = [plain(call) for call in calls]
    for index, call in enumerate(calls):
        fields = as_dict(call)
        function = nested(fields) if fields is not None else None
        named = function if function is not None else fields
        if fields is None or named is None:
            raise DialectError(at, "tool_call_type", f"tool_calls[{index}] must be an object", call)
        if not isinstance(fields.get("id"), str) or not isinstance(named.get("name"), str):
            raise DialectError(at, "tool_call_fields", f"tool_calls[{index}] needs a string id and name", call)
        arguments = named.get("arguments", "")
        # OpenAI's nested shape may carry arguments as a JSON object (Verifiers dumps,
        # compatible servers): the openai-chat codec reads and keeps it exactly.
        as_object = function is not None and isinstance(arguments, dict)
        if not isinstance(arguments, str) and not as_object and "input" not in named:
            raise DialectError(at, "tool_call_arguments", f"tool_calls[{index}].arguments must be a string", call)
    return calls


def plain(value: object) -> object:
    """A tool call or thinking block as a dict without null keys: a canonical model as its
    dump (what ``message["tool_calls"]`` gives), an SDK object as its JSON (LiteLLM's and
    OpenHands' messages hold the SDK's tool-call objects); anything else as it is."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json") if isinstance(value, KeyedModel) else sdk_json(value)
    fields = as_dict(value)
    return value if fields is None else without_nulls(fields)
