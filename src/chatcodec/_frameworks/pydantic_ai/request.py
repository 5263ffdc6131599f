"""A history as a request: ``{"messages": [...]}``, the list ``ModelMessagesTypeAdapter``
dumps under ``messages`` (as a LangGraph state holds LangChain's) <-> a canonical request, by
the role every stored history shares (:mod:`chatcodec._frameworks.history`: the request's
tools, settings and model parameters belong to the agent, so writing one reports each);
``decode_message_list`` reads the bare list itself (what ``dump_json`` wrote).
"""

from __future__ import annotations

from chatcodec._frameworks.history import HistoryRequest
from chatcodec._frameworks.pydantic_ai.capabilities import CAPABILITIES
from chatcodec._frameworks.pydantic_ai.markers import DISPLAY, KIT
from chatcodec._frameworks.pydantic_ai.messages import decode_messages, encode_messages
from chatcodec._frameworks.pydantic_ai.wire import validated_history

_ROLE = HistoryRequest(DISPLAY, KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)
decode_request = _ROLE.decode_request
decode_message_list = _ROLE.decode_message_list
encode_request = _ROLE.encode_request
