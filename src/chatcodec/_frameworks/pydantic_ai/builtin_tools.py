"""``builtin-tool-call`` / ``builtin-tool-return`` parts <-> the canonical server call and result.

pydantic-ai keeps a built-in (provider-executed) tool's call and return in the
``ModelResponse`` (``NativeToolCallPart`` / ``NativeToolReturnPart``, dumped with ``part_kind``
``builtin-tool-call`` / ``builtin-tool-return``), as the AI SDK keeps a ``providerExecuted``
tool in the assistant turn: they are the server call and result the framework formats share
(:mod:`chatcodec._frameworks.server_tools`), as pydantic-ai's own Vercel AI adapter maps them
to one ``providerExecuted`` tool part. The call's ``args`` is its ``input`` (an object; the JSON
text of one marked ``_args_text``, the text itself when not compact; ``null`` marked
``_no_args``; any other text kept as a string input);
the return's ``content`` is its ``output`` as ``createToolModelOutput`` makes one, its
``outcome`` the output's type (``failed``: ``error-*``, ``denied``: ``execution-denied``); the
parts' other fields (``provider_name``, ``id``, ``timestamp``, ``provider_details``...) ride in
this format's bag on the part, reported by another format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.pydantic_ai.markers import PROVIDER, RETURN_DEFAULTS
from chatcodec._frameworks.server_tools import (
    CALL_KEYS,
    RESULT_KEYS,
    opaque,
    output_of,
    server_call,
    server_result,
    value_of,
)
from chatcodec.codec_kit import as_dict, compact_json, restore_fields, split_fields
from chatcodec.contract import EncodeContext, Steps

CALL = "builtin-tool-call"
RETURN = "builtin-tool-return"
_OUTCOMES = ("success", "failed", "denied")
"""The outcomes an AI SDK output's type says (another rides in the bag as data)."""


def decode_builtin(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """A built-in tool's call or return as the canonical server call or result; None for a
    part without a string name and id (kept opaque by the caller)."""
    name, call_id = part.get("tool_name"), part.get("tool_call_id")
    if not isinstance(name, str) or not isinstance(call_id, str):
        return None
    head = {"toolCallId": call_id, "toolName": name}
    if part.get("part_kind") == CALL:
        bag = split_fields(part, ("tool_name", "args", "tool_call_id", "part_kind"))
        call = {"type": "tool-call", **head, "input": _input(part.get("args"), bag), "providerExecuted": True}
        return opaque(call, bag, PROVIDER)
    outcome = part.get("outcome", "success")
    mapped = ("tool_name", "content", "tool_call_id", "part_kind", *(("outcome",) if outcome in _OUTCOMES else ()))
    bag = split_fields(part, mapped, RETURN_DEFAULTS)
    content = part.get("content")
    if outcome == "denied" and isinstance(content, str):
        output = {"type": "execution-denied", "reason": content}
    else:
        output = output_of(content, error=outcome in ("failed", "denied"))
    return opaque({"type": "tool-result", **head, "output": output}, bag, PROVIDER)


def _input(args: object, bag: dict[str, Any]) -> Any:
    if args is None:
        bag["_no_args"] = True
        return {}
    if not isinstance(args, str):
        return args
    try:
        parsed: Any = json.loads(args)
    except ValueError:
        return args
    if as_dict(parsed) is None:
        return args  # any other text: kept as a string input, the AI SDK's spelling of it
    bag["_args_text"] = True if compact_json(parsed) == args else args  # the text itself when spaced
    return parsed


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def encode_builtin(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    """A canonical server call or result (its bag claimed) as a built-in tool part; None for
    any other part."""
    call = server_call(part)
    if call is not None:
        _report_unkept(call, CALL_KEYS, context, at)
        as_text, no_args = bag.pop("_args_text", None), bag.pop("_no_args", None)
        value: Any = call.get("input")
        kept = (as_dict(value) is not None or isinstance(value, str)) and not as_text
        args: Any = value if kept else compact_json(value)
        if isinstance(as_text, str) and _value(as_text) == value:
            args = as_text
        if no_args or "input" not in call:
            args = None
        head = {"tool_name": call["toolName"], "args": args, "tool_call_id": call["toolCallId"]}
        return {**restore_fields(bag), **head, "part_kind": CALL}
    result = server_result(part)
    if result is None:
        return None
    _report_unkept(result, RESULT_KEYS, context, at)
    output = as_dict(result.get("output")) or {}
    content, said = value_of(output)
    fields = restore_fields(bag, RETURN_DEFAULTS)
    if "outcome" not in bag and said in ("failed", "denied"):
        fields["outcome"] = said
    elif said == "other":
        why = f"a built-in tool return keeps its content, not the AI SDK output type {output.get('type')!r}"
        context.losses.add((*at, "data", "output", "type"), "tool output type", why)
    head = {"tool_name": result["toolName"], "content": content, "tool_call_id": result["toolCallId"]}
    return {**fields, **head, "part_kind": RETURN}


def _report_unkept(data: Mapping[str, Any], kept: tuple[str, ...], context: EncodeContext, at: Steps) -> None:
    for key in data:
        if key not in kept or key == "providerOptions":
            context.losses.add((*at, "data", key), key, "a pydantic-ai built-in tool part has no place for it")
