"""A history as a request: ``{"messages": [...]}`` (a LangGraph state's messages channel) <->
a canonical request, by the role every stored history shares
(:mod:`chatcodec._frameworks.history`: the request's tools, settings and model parameters have
no place in a history, so writing one reports each); ``decode_message_list`` reads the bare list
``messages_to_dict`` returns.
"""

from __future__ import annotations

from chatcodec._frameworks.history import HistoryRequest
from chatcodec._frameworks.langchain.capabilities import CAPABILITIES
from chatcodec._frameworks.langchain.markers import KIT
from chatcodec._frameworks.langchain.messages import decode_messages, encode_messages
from chatcodec._frameworks.langchain.wire import validated_history

_ROLE = HistoryRequest("LangChain", KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)
decode_request = _ROLE.decode_request
decode_message_list = _ROLE.decode_message_list
encode_request = _ROLE.encode_request
