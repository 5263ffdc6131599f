"""A stored AI SDK history as a request, for both formats (``ai-sdk-model``, ``ai-sdk-ui``):
``{"messages": [...]}`` <-> a canonical request. The two differ only in how a message list is
read and written, which each folder's ``messages.py`` says; this is the rest, written once.

A stored history holds messages only: the request's tools and settings have no place in it,
so writing one reports each (:mod:`.tools`, :mod:`.settings`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chatcodec._frameworks.ai_sdk import settings, tools
from chatcodec.contract import Capabilities, DecodeContext, EncodeContext, ProviderKit, history_for

MessagesReader = Callable[[list[Any], DecodeContext], list[dict[str, Any]]]
MessagesWriter = Callable[[Sequence[Mapping[str, Any]], int, EncodeContext], list[dict[str, Any]]]
HistoryCheck = Callable[[object, str], dict[str, Any]]


@dataclass(frozen=True)
class HistoryRequest:
    """One format's request role: its name in errors, its kit, and its message list's reader,
    writer and wire check."""

    title: str
    kit: ProviderKit
    capabilities: Capabilities
    read_messages: MessagesReader
    write_messages: MessagesWriter
    validated_history: HistoryCheck

    def decode_request(self, payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
        """Read a stored history as a canonical request dict."""
        history = self.validated_history(payload, self.title)
        canonical: dict[str, Any] = {"messages": self.read_messages(history["messages"], context)}
        if "model" in history:
            canonical["model"] = history["model"]
        return canonical

    def decode_message_list(self, messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
        """Read a bare message list as canonical message dicts."""
        return self.read_messages(self.validated_history({"messages": messages}, self.title)["messages"], context)

    def encode_request(self, request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
        """Write a canonical request as a stored history; what a history cannot hold is a loss."""
        self.kit.claim(context.losses, request.get("provider_options"), ("provider_options",))
        messages = history_for(request.get("messages") or [], context.losses, self.kit.name, self.capabilities)
        wire: dict[str, Any] = {"messages": self.write_messages(messages, 0, context)}
        if request.get("model") is not None:
            wire["model"] = request["model"]
        tools.encode_tools(request, wire, {}, context)
        settings.encode_settings(request, wire, {}, context)
        return wire
