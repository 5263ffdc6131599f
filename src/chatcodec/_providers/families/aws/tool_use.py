"""``toolUse`` blocks <-> canonical tool-use parts, for both Bedrock block bodies (Converse's
``ToolUseBlock`` and Nova's are one shape: ``toolUseId``, ``name``, ``input``;
https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-tools.html).

A call with ``type: "server_tool_use"`` (Nova's server tools, beside their ``toolResult``
in the assistant turn) is kept whole (None here); a response's call with ``toolUseId: ""``
gets a made-up id and the ``_empty_id`` marker, so ``""`` is written back. Ids and names
follow the family's rules (:mod:`.tool_ids`); the body's kit holds a call's other fields.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.tool_ids import (
    EMPTY_ID,
    SENT_AS_IS,
    VALID_NAMES,
    restore_tool_use_id,
    tool_name,
    tool_use_id,
)
from chatcodec._providers.kit.closed_schema import json_text
from chatcodec._providers.kit.tool_arguments import input_object
from chatcodec._providers.kit.tool_id_mapping import PREFIX
from chatcodec.codec_kit import arguments_object, compact_json, leftovers, restore_fields
from chatcodec.contract import Steps

_max_digits = sys.get_int_max_str_digits
_NO_BAG: Mapping[str, Any] = {}


def decode_tool_use(body: Body, call: Mapping[str, Any], closed: bool = False) -> dict[str, Any] | None:
    """A ``toolUse`` block's call as a canonical tool-use part (None: kept whole).
    ``closed``: the call passed the body's closed schema, whose input is written by
    pydantic-core's writer (:func:`~chatcodec._providers.kit.closed_schema.json_text`)."""
    plain = len(call) == 3  # the three members alone
    if not plain and call.get("type", "tool_use") != "tool_use":
        return None  # a server tool's call (Nova ``server_tool_use``): kept whole
    wire_id: str = call["toolUseId"]
    canonical = {
        "type": "tool_use",
        "id": restore_tool_use_id(wire_id) if wire_id.startswith(PREFIX) else wire_id,
        "name": call["name"],
        "arguments": json_text(call["input"], _max_digits()) if closed else compact_json(call["input"]),
    }
    if plain and wire_id:  # nothing to keep
        return canonical
    bag = leftovers(call, ("toolUseId", "name", "input"))
    if wire_id == "":  # a response gives it a made-up id (tool_ids.name_empty_calls)
        bag[EMPTY_ID] = True
    return body.kit.attach(canonical, bag)


def encode_tool_use(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    """The ``toolUse`` block for a tool-use part (canonical data), in the body the context
    writes."""
    body = context.body
    metadata = part.get("provider_metadata")
    bag = body.kit.claim(context.losses, metadata, at) if metadata else _NO_BAG
    call = restore_fields(bag) if bag else {}
    call_id = part["id"]
    if bag and bag.get(EMPTY_ID):  # the response's call had no id (tool_ids.name_empty_calls): sent as it came
        call["toolUseId"] = ""
    elif call_id in SENT_AS_IS:
        call["toolUseId"] = call_id
    else:
        call["toolUseId"] = tool_use_id(call_id, context.losses, (*at, "id"))
    name = part["name"]
    call["name"] = name if name in VALID_NAMES else tool_name(name, context, at, body.kit.name)
    arguments = part.get("arguments", "")
    parsed, exact = arguments_object(arguments)  # the usual call: exact JSON object text, read once
    call["input"] = (
        parsed if exact and type(parsed) is dict else input_object(arguments, context.losses, at, body.short)
    )
    return {"toolUse": call}
