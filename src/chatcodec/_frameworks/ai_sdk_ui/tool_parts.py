"""A ``tool-NAME`` (or ``dynamic-tool``) part <-> a canonical call and, once answered, its result.

A UI tool part is a call and its outcome in one: ``toolCallId``, the ``input`` object (the
call's arguments as JSON text), a ``state``, and for ``output-available`` an ``output`` (any
JSON value: a string is the result's text, anything else its compact JSON text, marked) or
for ``output-error`` an ``errorText`` (an error result; the call's arguments its
``rawInput`` when it has no ``input``, as ``convertToModelMessages`` sends it); an
``output-denied`` part is answered with an error result too (:mod:`.approvals`). The call's
``callProviderMetadata`` gives a Gemini thought signature (as a ``ModelMessage`` call's
``providerOptions`` does; the rest of it is that call's ``providerOptions``);
``resultProviderMetadata`` rides on the result; the rest of the part (``providerExecuted``,
``title``, another ``rawInput``, what of an ``approval`` its parts do not carry,
``preliminary``) on the call.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk import bags
from chatcodec._frameworks.ai_sdk.bags import UNKEPT, write_options
from chatcodec._frameworks.ai_sdk_ui import approvals
from chatcodec._frameworks.ai_sdk_ui.markers import KIT
from chatcodec._frameworks.json_results import json_valued
from chatcodec.codec_kit import as_dict, compact_json, wire_fields
from chatcodec.contract import EncodeContext, Steps

CALL_METADATA = "callProviderMetadata"
RESULT_METADATA = "resultProviderMetadata"
DYNAMIC = "dynamic-tool"
_ANSWERED = ("output-available", "output-error")
DENIED = "output-denied"
_IMPLIED = frozenset({"input-available", *_ANSWERED})
_MAPPED = ("type", "toolName", "toolCallId", "state", "input", "output", "errorText", RESULT_METADATA)


def is_tool_part(part: Mapping[str, Any]) -> bool:
    """Whether a UI part is a tool part (checked whole by the validator)."""
    kind = part.get("type")
    return isinstance(kind, str) and (kind.startswith("tool-") or kind == DYNAMIC)


def decode_tool(part: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A tool part as a canonical call, and its result when the part holds one."""
    dynamic = part["type"] == DYNAMIC
    name: str = part["toolName"] if dynamic else part["type"][len("tool-") :]
    state: str = part["state"]
    call: dict[str, Any] = {"type": "tool_use", "id": part["toolCallId"], "name": name}
    call["arguments"] = compact_json(part["input"]) if "input" in part else ""
    markers = {"dynamic": dynamic or None, "no_input": "input" not in part or None}
    markers["state"] = None if state in _IMPLIED else state
    mapped: tuple[str, ...] = _MAPPED
    if _raw_input_stands_in(part):
        call["arguments"], markers["raw_input"], mapped = compact_json(part["rawInput"]), True, (*mapped, "rawInput")
    call = bags.finish(KIT, call, approvals.without_sent(part), mapped, key=CALL_METADATA, markers=markers)
    if state not in _ANSWERED and state != DENIED:
        return call, None
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": part["toolCallId"]}
    bag: dict[str, Any] = {}
    if state == DENIED:  # answered as convertToModelMessages answers it (:mod:`.approvals`)
        result["is_error"], result["content"], bag["_denied"] = True, approvals.denial_text(part), True
    elif state == "output-error":
        result["is_error"], result["content"] = True, part.get("errorText", "")
    elif "output" not in part:
        result["content"], bag["_no_output"] = "", True
    elif isinstance(part.get("output"), str):
        result["content"] = part["output"]
    else:
        result["content"], bag["_json"] = compact_json(part.get("output")), True
    if RESULT_METADATA in part:
        bag[RESULT_METADATA] = part[RESULT_METADATA]
    if as_dict(part.get(CALL_METADATA)) is not None and part.get("providerExecuted") is not True:
        bag[bags.CALL_OPTIONS] = part[CALL_METADATA]  # the tool-result's providerOptions, as the AI SDK writes it
    return call, bags.attach(KIT, result, bag)


def _raw_input_stands_in(part: Mapping[str, Any]) -> bool:
    """Whether a failed call's ``rawInput`` (the input text that did not parse, kept when
    there is no ``input``) is its arguments: ``convertToModelMessages`` sends it as the
    call's input for an ``output-error`` part, so the call is sent as it was made."""
    return part["state"] == "output-error" and "input" not in part and "rawInput" in part


def encode_call(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A canonical call as a tool part waiting for its result (``input-available``)."""
    metadata, carried = bags.from_sibling(part.get("provider_metadata"), KIT.name, "tool_use")
    bag = bags.claim(KIT, context.losses, metadata, at)
    kept = bag.pop(CALL_METADATA, carried.get(CALL_METADATA, UNKEPT))
    if part.get("kind", "function") != "function":
        context.losses.add((*at, "kind"), "custom tool call", "AI SDK calls take a JSON input; sent as one")
    wire: dict[str, Any] = {"type": f"tool-{part['name']}"}
    if bag.pop("_dynamic", None):
        wire = {"type": DYNAMIC, "toolName": part["name"]}
    wire.update(toolCallId=part["id"], state=bag.pop("_state", None) or "input-available")
    if not bag.pop("_no_input", None):
        wire["input"] = _input(part.get("arguments") or "", context, at)
    if bag.pop("_raw_input", None):
        wire["rawInput"] = _input(part.get("arguments") or "", context, at)
    wire.update(wire_fields(bag))
    return write_options(wire, part, kept, context, at, key=CALL_METADATA)


def _input(arguments: str, context: EncodeContext, at: Steps) -> Any:
    try:
        return json.loads(arguments) if arguments else {}
    except ValueError:
        context.losses.add(
            (*at, "arguments"), "arguments", "not JSON: a UI tool part's input is a JSON value; kept as text"
        )
        return arguments


def answer(tool: dict[str, Any], result: Mapping[str, Any], context: EncodeContext, at: Steps) -> None:
    """Write canonical ``result`` into its call's tool part (its output or error)."""
    bag = bags.claim(KIT, context.losses, result.get("provider_metadata"), at)
    for key in ("name", "cache_control"):
        if result.get(key) is not None and not (key == "name" and result[key] == _name_of(tool)):
            context.losses.add((*at, key), key, f"a UI tool part's result has no {key} of its own")
    content = result.get("content", "")
    if not isinstance(content, str):
        context.losses.add((*at, "content"), "result parts", "a UI tool output is one value: the text parts joined")
        content = "".join(part["text"] for part in content if part["type"] == "text")
    denied = bag.pop("_denied", None) or (as_dict(tool.get("approval")) or {}).get("approved") is False
    if result.get("is_error") and denied:
        tool["state"] = DENIED
        if content != approvals.denial_text(tool):
            why = "a denied UI tool part's answer is its approval's reason (or the AI SDK's text)"
            context.losses.add((*at, "content"), "denial text", why)
    elif result.get("is_error"):
        tool.update(state="output-error", errorText=content)
    elif bag.pop("_no_output", None) and not content:
        tool["state"] = "output-available"
    else:
        spelled = json_valued(result.get("provider_metadata"))
        tool.update(state="output-available", output=_output(content, spelled))
    tool.update(wire_fields(bag))


def _output(content: str, spelled_json: bool) -> Any:
    if spelled_json:
        try:
            return json.loads(content)
        except ValueError:
            return content
    return content


def _name_of(tool: Mapping[str, Any]) -> str:
    kind: str = tool["type"]
    return str(tool["toolName"]) if kind == DYNAMIC else kind[len("tool-") :]
