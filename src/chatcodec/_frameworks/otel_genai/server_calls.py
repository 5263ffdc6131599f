"""A built-in (provider-executed) tool's call and response in a span <-> the canonical server
call and result the framework formats share (:mod:`chatcodec._frameworks.server_tools`).

Two spellings say a provider ran the tool. The conventions' own parts, ``server_tool_call``
(``id``, ``name``, the call's details in ``server_tool_call``) and ``server_tool_call_response``
(``id``, the outcome in ``server_tool_call_response``: gen-ai-input-messages.json,
open-telemetry/semantic-conventions-genai); and pydantic-ai's instrumentation, which writes
a ``tool_call`` and a ``tool_call_response`` with ``builtin: true`` (``_otel_messages.ToolCallPart``,
"used by Logfire") in the model's turn. Read as a client call, a replay would send OpenAI or
Anthropic a call no result answers, which both refuse; read as the server call and result, every
framework format keeps it and every provider reports it. Each is written back in the spelling it
came in (``_builtin`` marks pydantic-ai's: on a call ``true``, or ``"no arguments"``; on a
response the key its value came in, ``result`` or ``response``, with `` unnamed`` when it named
no tool); a server call of another format is written in the
conventions' spelling. A response part names no tool: its name is its call's, in the same
message (empty when the call is not there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.otel_genai.markers import PROVIDER
from chatcodec._frameworks.server_tools import opaque, output_of, server_call, server_result, value_of
from chatcodec.codec_kit import as_dict, leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps

CALL = "server_tool_call"
RESPONSE = "server_tool_call_response"


def is_server_part(part: Mapping[str, Any]) -> bool:
    """Whether a part is a built-in tool's call or response, in either spelling."""
    kind = part["type"]
    return kind in (CALL, RESPONSE) or (kind in ("tool_call", "tool_call_response") and part.get("builtin") is True)


def call_names(parts: list[dict[str, Any]]) -> dict[str, str]:
    """The tool each call of a message names, by its id (a response part names none)."""
    return {
        part["id"]: part["name"]
        for part in parts
        if part["type"] in (CALL, "tool_call") and isinstance(part.get("id"), str) and isinstance(part.get("name"), str)
    }


def decode_server_part(part: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any] | None:
    """A built-in tool's call or response as the canonical server call or result; None when it
    lacks a string id (or a call its name): kept whole by the caller."""
    kind, ident = part["type"], part.get("id")
    if not isinstance(ident, str):
        return None
    if kind in (CALL, "tool_call"):
        name = part.get("name")
        if not isinstance(name, str):
            return None
        key = CALL if kind == CALL else "arguments"
        bag = leftovers(part, ("type", "id", "name", key, *(("builtin",) if kind == "tool_call" else ())))
        if kind == "tool_call":
            bag["_builtin"] = True if key in part else "no arguments"
        call = {"type": "tool-call", "toolCallId": ident, "toolName": name, "input": part.get(key, {})}
        return opaque({**call, "providerExecuted": True}, bag, PROVIDER)
    key = RESPONSE if kind == RESPONSE else ("result" if "result" in part else "response")
    named = isinstance(part.get("name"), str)
    name = part["name"] if named else names.get(ident, "")
    mapped = ("type", "id", key, *(("builtin",) if kind == "tool_call_response" else ()), *(("name",) if named else ()))
    bag = leftovers(part, mapped)
    if kind == "tool_call_response":
        bag["_builtin"] = key if named else f"{key} unnamed"
    result = {"type": "tool-result", "toolCallId": ident, "toolName": name, "output": output_of(part.get(key))}
    return opaque(result, bag, PROVIDER)


def encode_server_part(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    """A canonical server call or result (its bag claimed) as a span's part; None for any
    other part."""
    call = server_call(part)
    if call is not None:
        builtin = bag.pop("_builtin", None)
        head = {"id": call["toolCallId"], "name": call["toolName"]}
        value = call.get("input", {})
        if builtin:
            arguments = {} if builtin == "no arguments" and value == {} else {"arguments": value}
            return {"type": "tool_call", **head, **arguments, "builtin": True, **wire_fields(bag)}
        details = as_dict(value)
        if details is None or not isinstance(details.get("type"), str):
            details = {"type": call["toolName"], **({"input": value} if details is None else details)}
        return {"type": CALL, **head, CALL: details, **wire_fields(bag)}
    result = server_result(part)
    if result is None:
        return None
    output = as_dict(result.get("output")) or {}
    value, said = value_of(output)
    if said is not None:
        why = f"a GenAI tool response has no outcome: the AI SDK output type {output.get('type')!r} is not kept"
        context.losses.add((*at, "data", "output", "type"), "tool output type", why)
    builtin = bag.pop("_builtin", None)
    if isinstance(builtin, str):
        key, _, unnamed = builtin.partition(" ")
        head = {"type": "tool_call_response", "id": result["toolCallId"]}
        named = {} if unnamed else {"name": result["toolName"]}
        return {**head, **named, key: value, "builtin": True, **wire_fields(bag)}
    response = as_dict(value)
    if response is None or not isinstance(response.get("type"), str):
        response = {"type": result["toolName"] or "result", **({"output": value} if response is None else response)}
    return {"type": RESPONSE, "id": result["toolCallId"], RESPONSE: response, **wire_fields(bag)}
