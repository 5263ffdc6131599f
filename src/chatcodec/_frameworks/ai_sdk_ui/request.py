"""A history as a request: ``{"messages": UIMessage[]}`` (the body ``useChat`` posts, what a
chat app stores) <-> a canonical request, by the role every stored history shares
(:mod:`chatcodec._frameworks.history`); ``decode_message_list`` reads a bare ``UIMessage[]``."""

from __future__ import annotations

from chatcodec._frameworks.ai_sdk_ui.capabilities import CAPABILITIES
from chatcodec._frameworks.ai_sdk_ui.markers import KIT
from chatcodec._frameworks.ai_sdk_ui.messages import decode_messages, encode_messages
from chatcodec._frameworks.ai_sdk_ui.wire import validated_history
from chatcodec._frameworks.history import HistoryRequest

_ROLE = HistoryRequest("AI SDK", KIT, CAPABILITIES, decode_messages, encode_messages, validated_history)
decode_request = _ROLE.decode_request
decode_message_list = _ROLE.decode_message_list
encode_request = _ROLE.encode_request
