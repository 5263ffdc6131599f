"""A conversation as a request: ``{"messages": [...]}`` (the shape every stored history shares:
:mod:`chatcodec._frameworks.history`), which a ``RunAgentInput`` is too: its ``tools`` are the
request's tool definitions (:mod:`.tools`), its ``threadId``, ``runId``, ``state``, ``context``,
``forwardedProps`` ride in the request's bag, written back by this format and reported by any
other <-> a canonical request;
``decode_message_list`` reads the bare list (a ``MESSAGES_SNAPSHOT``'s ``messages``, an agent's
``messages``).
Source: https://github.com/ag-ui-protocol/ag-ui (``RunAgentInput``, ``ag-ui-protocol`` 1.0.0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ag_ui.capabilities import CAPABILITIES
from chatcodec._frameworks.ag_ui.markers import DISPLAY, KIT
from chatcodec._frameworks.ag_ui.messages import decode_messages, encode_messages
from chatcodec._frameworks.ag_ui.tools import decode_tools, encode_tools
from chatcodec._frameworks.ag_ui.wire import validated_history
from chatcodec._frameworks.history import HistoryRequest
from chatcodec.codec_kit import as_list
from chatcodec.contract import DecodeContext, EncodeContext

_ROLE = HistoryRequest(DISPLAY, KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)
decode_message_list = _ROLE.decode_message_list


def decode_request(payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """Read ``{"messages": [...]}`` or a ``RunAgentInput`` as a canonical request dict."""
    tools = as_list(payload.get("tools"))
    if tools is None:  # no tools, or a value no tool list is: kept as it is, in the bag
        return _ROLE.decode_request(payload, context)
    canonical = _ROLE.decode_request({key: value for key, value in payload.items() if key != "tools"}, context)
    canonical["tools"] = decode_tools(tools)
    if not tools:  # an empty list is AG-UI's spelling of none: written back so
        canonical.setdefault("provider_options", {}).setdefault(KIT.name, {})[_NO_TOOLS] = True
    return canonical


_NO_TOOLS = "_no_tools"
"""Marker (in the request's bag): ``tools`` was an empty list, written back as one."""


def encode_request(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Write a canonical request as ``{"messages": [...]}``, with its ``tools`` when it has any."""
    tools: list[Any] = as_list(request.get("tools")) or []
    bag = KIT.own(request.get("provider_options"))
    wire = _ROLE.encode_request({key: value for key, value in request.items() if key != "tools"}, context)
    if tools or bag.get(_NO_TOOLS):
        wire["tools"] = encode_tools(tools, context)
    return wire
