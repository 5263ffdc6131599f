"""A provider-executed tool part (``providerExecuted: true``) <-> the canonical server call and result.

A server tool's UI part holds its call and its outcome in the assistant's turn, and stays
there: read as the two ``ModelMessage`` parts the AI SDK's ``convertToModelMessages`` makes of
it (a ``tool-call`` with ``providerExecuted: true`` and, once answered, a ``tool-result`` whose
``output`` is ``createToolModelOutput``'s: ``text`` for a string, ``json`` for another value,
``error-json`` for an ``errorText``; its ``providerOptions`` the ``resultProviderMetadata``, else
the call's), the canonical form the framework formats share (:mod:`..server_tools`), and
written back as one part from the call and the result after it. What else the part holds
(``title``, ``approval``, ``rawInput``...) rides in the call's bag; markers say what the form
does not: ``_dynamic`` (a ``dynamic-tool`` part), ``_state`` (a state the result does not
imply), ``_no_output`` (an ``output-available`` part without ``output``, read as ``null``),
``_result_options`` (a ``resultProviderMetadata`` given equal to the call's, which is otherwise
the default the result's options take, not written).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk import bags
from chatcodec._frameworks.ai_sdk_ui.markers import KIT
from chatcodec._frameworks.ai_sdk_ui.tool_parts import CALL_METADATA, DYNAMIC, RESULT_METADATA
from chatcodec._frameworks.server_tools import (
    CALL_KEYS,
    RESULT_KEYS,
    opaque,
    output_of,
    server_call,
    server_result,
    value_of,
)
from chatcodec.codec_kit import as_dict, compact_json, leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps

_MAPPED = ("type", "toolName", "toolCallId", "state", "input", "output", "errorText", "providerExecuted")
_ANSWERED = ("output-available", "output-error")
_IMPLIED = ("input-available", *_ANSWERED)


def is_server_tool(part: Mapping[str, Any]) -> bool:
    """Whether a UI tool part is a provider-executed one."""
    return part.get("providerExecuted") is True


def decode_server_tool(part: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A provider-executed tool part as the canonical server call, and its result once answered."""
    dynamic = part["type"] == DYNAMIC
    name: str = part["toolName"] if dynamic else part["type"][len("tool-") :]
    state: str = part["state"]
    call: dict[str, Any] = {"type": "tool-call", "toolCallId": part["toolCallId"], "toolName": name}
    if "input" in part:
        call["input"] = part["input"]
    call["providerExecuted"] = True
    if CALL_METADATA in part:
        call["providerOptions"] = part[CALL_METADATA]
    bag = leftovers(part, (*_MAPPED, CALL_METADATA, RESULT_METADATA))
    markers = {"_dynamic": dynamic, "_state": state if state not in _IMPLIED else None}
    if state not in _ANSWERED:
        return [opaque(call, {**bag, **_set(markers)}, KIT.name)]
    result: dict[str, Any] = {"type": "tool-result", "toolCallId": part["toolCallId"], "toolName": name}
    if state == "output-error":
        result["output"] = {"type": "error-json", "value": part.get("errorText")}
    else:
        result["output"] = output_of(part.get("output"))
        markers["_no_output"] = "output" not in part
    if RESULT_METADATA in part or CALL_METADATA in part:
        result["providerOptions"] = part.get(RESULT_METADATA, part.get(CALL_METADATA))
        markers["_result_options"] = RESULT_METADATA in part and part[RESULT_METADATA] == part.get(CALL_METADATA)
    return [opaque(call, {**bag, **_set(markers)}, KIT.name), opaque(result, {}, KIT.name)]


def _set(markers: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in markers.items() if value}


def encode_server_call(
    part: Mapping[str, Any], call: Mapping[str, Any], context: EncodeContext, at: Steps
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A canonical server call (``part``, holding ``call``) as a UI tool part waiting for its
    result, and the markers its result reads (:func:`answer_server_call`)."""
    bag = bags.claim(KIT, context.losses, part.get("provider_metadata"), at)
    name = call["toolName"]
    wire: dict[str, Any] = (
        {"type": DYNAMIC, "toolName": name} if bag.pop("_dynamic", None) else {"type": f"tool-{name}"}
    )
    wire.update(toolCallId=call["toolCallId"], state=bag.pop("_state", None) or "input-available")
    if "input" in call:
        wire["input"] = call["input"]
    wire["providerExecuted"] = True
    if "providerOptions" in call:
        wire[CALL_METADATA] = call["providerOptions"]
    _report_unkept(call, CALL_KEYS, context, at)
    pending: dict[str, Any] = {key: bag.pop(key) for key in ("_no_output", "_result_options") if key in bag}
    wire.update(wire_fields(bag))
    return wire, pending


def answer_server_call(
    tool: dict[str, Any],
    pending: Mapping[str, Any],
    part: Mapping[str, Any],
    result: Mapping[str, Any],
    *,
    context: EncodeContext,
    at: Steps,
) -> None:
    """Write a canonical server result (``part``, holding ``result``) into its call's UI part."""
    bag = bags.claim(KIT, context.losses, part.get("provider_metadata"), at)
    output = as_dict(result.get("output"))
    value, outcome = value_of(output) if output is not None else (None, "other")
    if outcome == "failed":
        tool.update(state="output-error", errorText=value if isinstance(value, str) else compact_json(value))
    elif outcome is None:
        tool["state"] = "output-available"
        if not pending.get("_no_output"):
            tool["output"] = value
    else:
        why = "a UI tool part holds an output value or an error text"
        context.losses.add((*at, "data", "output"), "server tool output", why)
    options = result.get("providerOptions")
    if "providerOptions" in result and (options != tool.get(CALL_METADATA) or pending.get("_result_options")):
        tool[RESULT_METADATA] = options  # the call's, copied, is the AI SDK's default: not written
    _report_unkept(result, RESULT_KEYS, context, at)
    tool.update(wire_fields(bag))


def _report_unkept(data: Mapping[str, Any], kept: tuple[str, ...], context: EncodeContext, at: Steps) -> None:
    for key in data:
        if key not in kept:
            context.losses.add((*at, "data", key), key, "a UI tool part has no place for it")


class ServerCalls:
    """The server calls of the ``UIMessage`` being written, each waiting for its result."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.waiting: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}

    def write(self, part: Mapping[str, Any], parts: list[dict[str, Any]], at: Steps) -> bool:
        """Write ``part`` when it is a server call (a new UI part) or the result of one written
        (into that part); False for any other part."""
        call = server_call(part)
        if call is not None:
            tool, pending = encode_server_call(part, call, self.context, at)
            self.waiting[call["toolCallId"]] = (tool, pending)
            parts.append(tool)
            return True
        result = server_result(part)
        if result is None or result["toolCallId"] not in self.waiting:
            return False
        tool, pending = self.waiting.pop(result["toolCallId"])
        answer_server_call(tool, pending, part, result, context=self.context, at=at)
        return True
