"""A LangChain history's messages <-> canonical messages.

Each stored message is one of LangChain's two serialisations: ``messages_to_dict``'s
``{"type": "human", "data": {...}}`` or ``dumpd``'s constructor envelope ``{"lc": 1, "type":
"constructor", "id": ["langchain", "schema", "messages", "HumanMessage"], "kwargs": {...}}``
(which leaves out the fields holding their defaults). Both read the same fields: ``human``,
``system``, ``ai`` and ``tool`` are the user, system, assistant and tool roles, a ``chat``
message (``ChatMessage``) the role its ``role`` names (:data:`_CHAT_ROLES`); ``name`` is the
message's name; an ``AIMessage``'s calls are ``tool_use`` parts after its content
(:mod:`.calls`); a ``ToolMessage`` is one ``tool_result`` (``status: "error"`` is
``is_error``, its ``artifact`` kept on the result). Every other field (``id``,
``additional_kwargs``, ``response_metadata``, ``usage_metadata``) is kept in the message's
bag: a history read and written again is the same history, and another format reports what
it cannot carry. A message is written in the serialisation it was read from
(``messages_to_dict``'s for one from another format).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.langchain.calls import decode_calls, encode_calls
from chatcodec._frameworks.langchain.markers import KIND_OF_CLASS, KIT
from chatcodec._frameworks.langchain.parts import decode_block_in, encode_block
from chatcodec.codec_kit import as_dict, as_list, leftovers, wire_fields, wire_key
from chatcodec.contract import DecodeContext, EncodeContext, Steps

_ROLES = {"human": "user", "system": "system", "ai": "assistant", "tool": "tool"}
"""A LangChain message type -> the canonical role."""

_CHAT = "chat"
"""The type of a ``ChatMessage``: a message whose ``role`` is any string."""

_CHAT_ROLES = {
    **{"human": "user", "user": "user", "ai": "assistant", "assistant": "assistant"},
    **{"system": "system", "developer": "developer"},
}
"""A ``ChatMessage``'s role -> the canonical role, as langchain-core reads a role
(``_create_message_from_message_type``: ``human``/``user``, ``ai``/``assistant``,
``system``/``developer``); any other role is read as a user message, the role kept (a
meaningful ``_role`` marker: another format reports it)."""

_KINDS = {"user": "human", "system": "system", "developer": "system", "assistant": "ai", "tool": "tool"}
"""A canonical role -> the LangChain type it is written as."""

_MAPPED = ("type", "content", "name", "tool_calls", "invalid_tool_calls", "tool_call_id", "status", "artifact")
"""The fields of a message's ``data`` with a canonical home (the rest ride in its bag)."""

_CHAT_MAPPED = ("type", "content", "name", "role")
"""The fields of a ``ChatMessage``'s ``data`` with a canonical home."""


def unwrap(entry: Mapping[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A stored message's type, its fields, and the bag recording its serialisation.

    Raises :class:`ValueError` for an entry of neither serialisation (the caller names its path)."""
    if entry.get("lc") == 1 and entry.get("type") == "constructor":
        names = as_list(entry.get("id"))
        last = names[-1] if names else None
        kind = KIND_OF_CLASS.get(last) if isinstance(last, str) else None
        kwargs = as_dict(entry.get("kwargs"))
        if kind is None or kwargs is None:
            raise ValueError(f"a dumpd entry of class {names!r}: not a human, AI, system, tool or chat message")
        return _checked(kind, kwargs), kwargs, {"_lc": {"lc": 1, "id": names}}
    kind, data = entry.get("type"), as_dict(entry.get("data"))
    if not isinstance(kind, str) or (kind not in _ROLES and kind != _CHAT) or data is None:
        raise ValueError(f"a message of type {kind!r}: LangChain's human, ai, system, tool and chat messages are read")
    return _checked(kind, data), data, {}


def _checked(kind: str, data: Mapping[str, Any]) -> str:
    """``kind``, once a ``ChatMessage``'s fields are seen to hold its required string ``role``."""
    if kind == _CHAT and not isinstance(data.get("role"), str):
        raise ValueError("a chat message needs its role, a string (LangChain's ChatMessage.role)")
    return kind


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Stored LangChain messages as canonical message dicts."""
    del context  # nothing shared between messages
    return [decode_message(entry) for entry in wire]


def decode_message(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One stored message as a canonical message dict."""
    kind, data, bag = unwrap(entry)
    kept = leftovers(data, _CHAT_MAPPED if kind == _CHAT else _MAPPED)
    # keyed as in ``data``, as they are written back (a bag key of ``_x`` is ``__x``)
    empty = {wire_key(key): value for key, value in kept.items() if value in (None, {}, [])}
    empty.update({key: [] for key in ("tool_calls", "invalid_tool_calls") if data.get(key) == []})
    bag.update({key: value for key, value in kept.items() if wire_key(key) not in empty})
    if empty:
        bag["_empty"] = empty  # LangChain's defaults written out: no data to report elsewhere
    canonical: dict[str, Any] = {"role": _ROLES[kind] if kind != _CHAT else _chat_role(data["role"], bag)}
    if isinstance(data.get("name"), str):
        canonical["name"] = data["name"]
    elif "name" in data:
        bag.setdefault("_empty", {})["name"] = data["name"]
    content = data.get("content", "")
    if kind == "tool":
        canonical["content"] = [_tool_result(data, content)]
    elif kind == "ai" and (data.get("tool_calls") or data.get("invalid_tool_calls")):
        if isinstance(content, str):
            bag["_string"] = True
            content = [content] if content else []
        canonical["content"] = [*(decode_block_in("assistant", block) for block in content), *decode_calls(data)]
    else:
        role = canonical["role"]
        canonical["content"] = (
            content if isinstance(content, str) else [decode_block_in(role, item) for item in content]
        )
    return KIT.attach(canonical, bag)


def _chat_role(role: str, bag: dict[str, Any]) -> str:
    """A ``ChatMessage``'s canonical role, its spelling kept in ``bag`` to be written back."""
    bag["_chat"] = role
    if role not in _CHAT_ROLES:
        bag["_role"] = role
    return _CHAT_ROLES.get(role, "user")


def _tool_result(data: Mapping[str, Any], content: str | list[Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": data.get("tool_call_id") or ""}
    result["content"] = content if isinstance(content, str) else [decode_block_in("tool", block) for block in content]
    status = data.get("status")
    if status == "error":
        result["is_error"] = True
    bag: dict[str, Any] = {}
    if status is not None and status != "error":
        bag["_status"] = status
    if data.get("artifact") is not None:
        bag["artifact"] = data["artifact"]
    elif "artifact" in data:  # messages_to_dict writes the default out: no data to report elsewhere
        bag["_no_artifact"] = True
    return KIT.attach(result, bag)


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as stored LangChain messages: a tool message of several results
    (Anthropic's, Gemini's, Bedrock's user turn of results) as one ``ToolMessage`` each, in
    order, as LangGraph's tool node writes them (the message's own fields on the first)."""
    wire: list[dict[str, Any]] = []
    for index, message in enumerate(messages[start:], start):
        at: Steps = ("messages", index)
        results = as_list(message["content"]) if message["role"] == "tool" else None
        wire.append(encode_message(message, context, at))
        if results is not None:
            bare: dict[str, Any] = {"role": "tool", "content": results}
            wire += [encode_message(bare, context, at, result) for result in range(1, len(results))]
    return wire


def encode_message(message: Mapping[str, Any], context: EncodeContext, at: Steps, result: int = 0) -> dict[str, Any]:
    """One canonical message as a stored LangChain message, in the serialisation it came in
    (a tool message: its ``result``-th result)."""
    role = message["role"]
    kind = _KINDS.get(role)
    if kind is None:
        context.losses.add(at, f"{role} message", "LangChain keeps no such message; written as a human message")
        kind = "human"
    if message.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", "LangChain messages keep no cache marker")
    bag = KIT.claim(context.losses, message.get("provider_metadata"), at)
    envelope, string, empty = bag.pop("_lc", None), bag.pop("_string", None), bag.pop("_empty", {})
    chat_role = bag.pop("_chat", None)
    bag.pop("_role", None)
    if role == "developer" and chat_role is None:
        # LangChain's own message types have no developer role, but a ChatMessage(role="developer")
        # keeps it: messages_from_dict reads it back so, and langchain-openai sends role developer
        chat_role = "developer"
    elif role == "developer" and chat_role != "developer":
        context.losses.add((*at, "role"), "developer role", "LangChain has no developer role; sent as system")
    data: dict[str, Any] = {}
    if kind == "tool":
        _write_result(message["content"], result, data, context, at)
    else:
        data["content"] = _content(message["content"], kind, data, context, at)
        if string and isinstance(data["content"], list) and all(isinstance(item, str) for item in data["content"]):
            data["content"] = "".join(data["content"])
    if isinstance(chat_role, str) and kind != "tool":  # a ChatMessage read: written back as one
        kind, data["role"] = _CHAT, chat_role
    data["type"] = kind
    if message.get("name") is not None:
        if data.get("name") not in (None, message["name"]):  # a tool message's and its result's
            why = "a LangChain ToolMessage has one name: the message's is kept"
            context.losses.add((*at, "content", result, "name"), "tool result name", why)
        data["name"] = message["name"]
    data.update(wire_fields(bag))
    data.update({key: value for key, value in empty.items() if key not in data})
    if envelope is not None:
        return {"lc": 1, "type": "constructor", "id": envelope["id"], "kwargs": data}
    return {"type": kind, "data": data}


def _content(
    content: str | Sequence[Mapping[str, Any]], kind: str, data: dict[str, Any], context: EncodeContext, at: Steps
) -> str | list[Any]:
    if isinstance(content, str):
        return content
    blocks: list[Any] = []
    calls: list[tuple[int, Mapping[str, Any]]] = []
    for index, part in enumerate(content):
        if part["type"] == "tool_use" and kind == "ai":
            calls.append((index, part))
            continue
        block = encode_block(part, context, (*at, "content", index))
        if block is not None:
            blocks.append(block)
    if calls:
        encode_calls(calls, data, context, at)
    return blocks


def _write_result(
    content: Sequence[Mapping[str, Any]], index: int, data: dict[str, Any], context: EncodeContext, at: Steps
) -> None:
    """A tool message's ``index``-th result as a ``ToolMessage`` (one result per message in LangChain)."""
    if not content:
        data["content"], data["tool_call_id"] = "", ""
        return
    result, where = content[index], (*at, "content", index)
    bag = KIT.claim(context.losses, result.get("provider_metadata"), where)
    body = result.get("content", "")
    data["content"] = body if isinstance(body, str) else _content(body, "tool", data, context, where)
    data["tool_call_id"] = result["tool_use_id"]
    if result.get("cache_control") is not None:
        why = "a LangChain ToolMessage keeps no cache marker"
        context.losses.add((*where, "cache_control"), "cache_control", why)
    if result.get("name") is not None:
        data["name"] = result["name"]
    status = "error" if result.get("is_error") else bag.pop("_status", None)
    if "artifact" in bag:
        data["artifact"] = bag.pop("artifact")
    elif bag.pop("_no_artifact", None):
        data["artifact"] = None
    if status is not None:
        data["status"] = status
    data.update(wire_fields(bag))
