"""Anthropic server-tool blocks inside OpenAI-format assistant messages, as litellm writes them.

litellm answers a Claude request that used a server tool (``web_search``, ``web_fetch``)
in OpenAI's format: the ``server_tool_use`` block becomes an ordinary ``tool_calls``
entry (id ``srvtoolu_...``, the input as ``arguments`` text) and the result block
(``web_search_tool_result``, ``web_fetch_tool_result``) goes whole into
``provider_specific_fields`` under ``web_search_results`` / ``web_fetch_results``
(BerriAI/litellm#17746 and #18142, which fixed multi-turn replays that Anthropic refused
with "tool_use ids were found without tool_result blocks").

Read as a plain tool call, such a call would reach Anthropic as a client ``tool_use``
with no result, which it rejects. So a call whose id is answered by such a result block
decodes to the opaque ``server_tool_use`` part the anthropic codec itself decodes, and
the result block to the opaque part after it: both reach Anthropic as the blocks they
were, before the message's text and client tool calls (server-tool blocks come first in
an Anthropic turn). Markers let this encoder write them back where they came from:

``_server_tool``   ``"tool_calls"`` on the call; on a result, its ``provider_specific_fields`` key
``_position``      on the call: its index in ``tool_calls``
``_arguments_text`` on the call: the ``arguments`` text, when it is not the compact JSON of ``input``

Anthropic's blocks may also come as they are, in the assistant message's ``content`` list
(litellm passes ``server_tool_use`` and ``*_tool_result`` content blocks through to
Anthropic: BerriAI/litellm#18770, #22240). They decode to the same opaque Anthropic parts,
marked ``_server_tool: "content"``, and this encoder writes them back in ``content``.

Only a call of the plain shape (``id``, ``type: function``, ``function.name`` and
``arguments`` holding a JSON object) with a matching result is read so; anything else
stays what it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_chat.markers import KIT
from chatcodec.codec_kit import as_dict, as_list, compact_json, read_json_text

FIELDS = "provider_specific_fields"
"""litellm's message key for provider data."""
ANTHROPIC = "anthropic"
"""The provider whose blocks these are (the anthropic codec's registry name)."""
SERVER_TOOL = "_server_tool"
_CALLS = "tool_calls"


def split_results(message: Mapping[str, Any]) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any] | None]:
    """The server-tool result blocks in ``provider_specific_fields`` by key, and what is
    left of that object (None when the message has none)."""
    fields = as_dict(message.get(FIELDS))
    if fields is None:
        return {}, None
    results: dict[str, list[dict[str, Any]]] = {}
    rest: dict[str, Any] = {}
    for key, value in fields.items():
        blocks = as_list(value)
        if blocks and all(_is_result(block) for block in blocks):
            results[key] = [dict(block) for block in blocks]
        else:
            rest[key] = value
    return results, rest


def _is_result(block: object) -> bool:
    fields = as_dict(block)
    if fields is None:
        return False
    kind, call_id = fields.get("type"), fields.get("tool_use_id")
    return isinstance(kind, str) and kind.endswith("_tool_result") and isinstance(call_id, str)


_CONTENT = "content"
_CALL_BLOCKS = ("server_tool_use", "mcp_tool_use")


def content_block(item: Mapping[str, Any]) -> dict[str, Any] | None:
    """The opaque Anthropic part for a server-tool block in ``content``, or None when the
    item is no such block (a call needs a text ``id`` and ``name``, a result a text
    ``tool_use_id``)."""
    kind = item.get("type")
    is_call = kind in _CALL_BLOCKS and isinstance(item.get("id"), str) and isinstance(item.get("name"), str)
    if not is_call and not _is_result(item):
        return None
    return KIT.attach({"type": "opaque", "provider": ANTHROPIC, "data": dict(item)}, {SERVER_TOOL: _CONTENT})


def in_content(part: Mapping[str, Any]) -> bool:
    """Whether a canonical opaque part is a server-tool block read from (and going back
    into) ``content``."""
    return part["provider"] == ANTHROPIC and KIT.marker(part.get("provider_metadata"), SERVER_TOOL) == _CONTENT


def server_call(call: Mapping[str, Any], position: int) -> dict[str, Any] | None:
    """The opaque ``server_tool_use`` part for a plain function call, or None."""
    function = as_dict(call.get("function"))
    if set(call) != {"id", "type", "function"} or call.get("type") != "function" or function is None:
        return None
    name, arguments = function.get("name"), function.get("arguments")
    if set(function) != {"name", "arguments"} or not isinstance(name, str) or not isinstance(arguments, str):
        return None
    try:
        parsed: object = read_json_text(arguments)
    except (ValueError, RecursionError):
        return None
    tool_input = as_dict(parsed)
    if tool_input is None:
        return None
    block: dict[str, Any] = {"type": "server_tool_use", "id": call["id"], "name": name, "input": tool_input}
    bag: dict[str, Any] = {SERVER_TOOL: _CALLS, "_position": position}
    if compact_json(tool_input) != arguments:
        bag["_arguments_text"] = arguments
    return KIT.attach({"type": "opaque", "provider": ANTHROPIC, "data": block}, bag)


def result_part(block: dict[str, Any], key: str) -> dict[str, Any]:
    """The opaque part for a result block found under ``provider_specific_fields[key]``."""
    return KIT.attach({"type": "opaque", "provider": ANTHROPIC, "data": block}, {SERVER_TOOL: key})


def decode_server_tools(
    message: Mapping[str, Any], calls: list[Any]
) -> tuple[list[dict[str, Any]], set[int], dict[str, Any] | None]:
    """The server-tool parts of an assistant message (each call followed by its results),
    the positions of the ``tool_calls`` they stand for, and what is left of
    ``provider_specific_fields`` (None: the key is kept as it is)."""
    results, rest = split_results(message)
    if not results:
        return [], set(), None
    by_call: dict[str, list[dict[str, Any]]] = {}
    for key, blocks in results.items():
        for block in blocks:
            by_call.setdefault(block["tool_use_id"], []).append(result_part(block, key))
    parts: list[dict[str, Any]] = []
    taken: set[int] = set()
    for position, call in enumerate(calls):
        fields = as_dict(call)
        answered = by_call.pop(str(fields.get("id")), None) if fields is not None else None
        part = server_call(fields, position) if fields is not None and answered is not None else None
        if part is None or answered is None:
            continue
        parts += [part, *answered]
        taken.add(position)
    for orphans in by_call.values():  # results whose call is not in this message: kept, in order
        parts += orphans
    return parts, taken, rest


def is_server_part(part: Mapping[str, Any]) -> bool:
    """Whether a canonical opaque part is a server-tool block this encoder read from
    litellm's shape."""
    return part["provider"] == ANTHROPIC and isinstance(KIT.marker(part.get("provider_metadata"), SERVER_TOOL), str)


def write_server_parts(wire: dict[str, Any], parts: list[Mapping[str, Any]], rest: object) -> None:
    """Put the server-tool calls back into ``tool_calls`` at their places and the results
    into ``provider_specific_fields`` (over what else that object held, ``rest``)."""
    fields = dict(as_dict(rest) or {})
    calls = list(as_list(wire.get(_CALLS)) or [])
    for part in parts:
        bag = KIT.own(part.get("provider_metadata"))
        where = bag.get(SERVER_TOOL)
        data: Mapping[str, Any] = part["data"]
        if where == _CALLS:
            arguments = bag.get("_arguments_text")
            text = arguments if isinstance(arguments, str) else compact_json(data.get("input", {}))
            function = {"name": data.get("name"), "arguments": text}
            call = {"id": data.get("id"), "type": "function", "function": function}
            position = bag.get("_position")
            calls.insert(position if isinstance(position, int) and 0 <= position <= len(calls) else len(calls), call)
        elif isinstance(where, str):
            fields.setdefault(where, []).append(dict(data))
    if calls:
        wire[_CALLS] = calls
    if fields:
        wire[FIELDS] = fields
