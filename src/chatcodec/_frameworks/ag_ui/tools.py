"""A ``RunAgentInput``'s ``tools`` <-> the canonical tool definitions.

An AG-UI tool is a function the agent may call (frontend tools a UI offers it): ``name``,
``description`` (required by AG-UI; the empty string is no description), ``parameters`` (a JSON
Schema, optional: a tool without one takes no arguments) and ``metadata``. Read as canonical
definitions, the ``metadata`` and any other field in the definition's bag and a missing
``parameters`` marked (``_no_parameters``), so the tools written back are the tools read; written,
what AG-UI's tool has no field for (``strict``, a cache marker) is reported at its definition.
A tool AG-UI would refuse (no name, a description that is no string, parameters that are no
object) is refused at its path (``$.tools[2].name``).

Not the role file ``tools.py`` of a provider folder: a history's request role
(:mod:`.request`) calls these two functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.ag_ui.markers import DISPLAY, KIT
from chatcodec.codec_kit import as_dict, leftovers, restore_fields, rule_error
from chatcodec.contract import EncodeContext

NO_PARAMETERS = "_no_parameters"
"""Marker: the tool had no ``parameters`` (the canonical definition's are the empty object's)."""

_TITLE = f"{DISPLAY} RunAgentInput"


def decode_tools(tools: Sequence[Any]) -> list[dict[str, Any]]:
    """A ``RunAgentInput``'s ``tools`` as canonical tool definitions."""
    read: list[dict[str, Any]] = []
    for index, item in enumerate(tools):
        tool = as_dict(item)
        name = None if tool is None else tool.get("name")
        if tool is None or not isinstance(name, str) or not name:
            at = ("tools", index, "name") if tool is not None and "name" in tool else ("tools", index)
            raise rule_error(_TITLE, at, "tool_name", "a tool has a name, a string not empty", item)
        description = tool.get("description")
        if not isinstance(description, str):
            at = ("tools", index, "description") if "description" in tool else ("tools", index)
            why = "a tool has a description, a string"
            raise rule_error(_TITLE, at, "tool_description", why, description)
        parameters = tool.get("parameters")
        if parameters is not None and as_dict(parameters) is None:
            why = "a tool's parameters are a JSON Schema object"
            raise rule_error(_TITLE, ("tools", index, "parameters"), "tool_parameters", why, parameters)
        definition: dict[str, Any] = {"type": "function", "name": name}
        if description:
            definition["description"] = description
        if parameters is not None:
            definition["parameters"] = parameters
        bag = leftovers(tool, ("name", "description", "parameters"))
        if "parameters" not in tool:
            bag[NO_PARAMETERS] = True
        read.append(KIT.attach(definition, bag))
    return read


def encode_tools(tools: Sequence[Mapping[str, Any]], context: EncodeContext) -> list[dict[str, Any]]:
    """Canonical tool definitions as a ``RunAgentInput``'s ``tools``."""
    written: list[dict[str, Any]] = []
    for index, definition in enumerate(tools):
        at = ("tools", index)
        bag = KIT.claim(context.losses, as_dict(definition.get("provider_metadata")), (*at, "provider_metadata"))
        no_parameters = bag.pop(NO_PARAMETERS, None)
        tool = {**restore_fields(bag), "name": definition["name"], "description": definition.get("description") or ""}
        if not no_parameters or definition.get("parameters") not in (None, {"type": "object", "properties": {}}):
            tool["parameters"] = definition.get("parameters", {"type": "object", "properties": {}})
        for key in ("strict", "cache_control"):
            if definition.get(key) is not None:
                context.losses.add((*at, key), key, f"an {DISPLAY} tool has no field for it", "setting")
        written.append(tool)
    return written
