"""A conversation as a request: ``{"messages": [...]}`` (the shape every stored history shares:
:mod:`chatcodec._frameworks.history`), which a ``RunAgentInput`` is too (``threadId``,
``runId``, ``state``, ``tools``, ``context``, ``forwardedProps`` ride in the request's bag,
written back by this format and reported by any other) <-> a canonical request;
``decode_message_list`` reads the bare list (a ``MESSAGES_SNAPSHOT``'s ``messages``, an agent's
``messages``).
Source: https://github.com/ag-ui-protocol/ag-ui (``RunAgentInput``, ``ag-ui-protocol`` 1.0.0).
"""

from __future__ import annotations

from chatcodec._frameworks.ag_ui.capabilities import CAPABILITIES
from chatcodec._frameworks.ag_ui.markers import DISPLAY, KIT
from chatcodec._frameworks.ag_ui.messages import decode_messages, encode_messages
from chatcodec._frameworks.ag_ui.wire import validated_history
from chatcodec._frameworks.history import HistoryRequest

_ROLE = HistoryRequest(DISPLAY, KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)
decode_request = _ROLE.decode_request
decode_message_list = _ROLE.decode_message_list
encode_request = _ROLE.encode_request
