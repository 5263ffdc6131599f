"""A ``ModelRequest`` <-> the canonical messages it stands for.

A request holds parts of several roles: each ``SystemPromptPart`` is a system message, each
``UserPromptPart`` a user message (its content a string or media items, :mod:`.content`), and
consecutive ``ToolReturnPart``s one tool message of results (``outcome`` other than
``"success"`` is ``is_error``). A retry pydantic-ai recorded as a legacy ``RetryPromptPart`` is a
result when it names a tool, else a user message, as is a ``RetryFeedbackPart``; any other
request part (``speech``, instruction deltas...) is an opaque part of a user message. The
request's ``instructions`` (what pydantic-ai sends as the system prompt) are a system message
marked ``_instructions``, written once while they stay the same from request to request.

The request's own fields (``timestamp``, ``run_id``, ``conversation_id``, ``metadata``,
``state``) ride in its first message's bag, which also marks where a request starts, so the
messages written back regroup into the same requests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.json_results import json_valued
from chatcodec._frameworks.pydantic_ai.content import (
    cache_point,
    decode_items,
    decode_return,
    encode_items,
    encode_return,
    point_marker,
)
from chatcodec._frameworks.pydantic_ai.markers import (
    KIT,
    PROVIDER,
    REQUEST_DEFAULTS,
    RETURN_DEFAULTS,
    SYSTEM_DEFAULTS,
)
from chatcodec.codec_kit import restore_fields, split_fields
from chatcodec.contract import EncodeContext, Steps

_RETRIES = ("retry-prompt", "retry-feedback")
"""The parts that ask the model to try again."""


def _attached(canonical: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
    """``canonical`` with ``bag`` merged into its own bag."""
    if bag:
        metadata = canonical.setdefault("provider_metadata", {})
        metadata[PROVIDER] = {**metadata.get(PROVIDER, {}), **bag}
    return canonical


def decode_request_message(
    entry: Mapping[str, Any], previous: str | None, follows: bool
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One ``ModelRequest`` as canonical messages (``previous``: the instructions before it;
    ``follows``: it comes right after another request, so its first message marks where it
    starts), and, for a request with no parts (one a run left ``interrupted``), no message but
    the bag of its own fields, which the caller keeps on a neighbour."""
    messages: list[dict[str, Any]] = []
    for part in entry.get("parts") or ():
        kind = part.get("part_kind")
        if kind == "tool-return" or (kind == "retry-prompt" and part.get("tool_name") is not None):
            result = _result(part)
            if messages and messages[-1]["role"] == "tool":
                messages[-1]["content"].append(result)
            else:
                messages.append({"role": "tool", "content": [result]})
        elif kind == "system-prompt":
            bag = split_fields(part, ("content", "part_kind"), SYSTEM_DEFAULTS)
            messages.append(KIT.attach({"role": "system", "content": part["content"]}, bag))
        elif kind == "user-prompt":
            content = part["content"]
            user: dict[str, Any] = {"role": "user", "content": content}
            marker = point_marker(content[0]) if not isinstance(content, str) and len(content) == 1 else None
            if marker is not None:  # a CachePoint alone: an empty message's marker (RequestWriter._message_point)
                user.update(content=[], cache_control=marker)
            elif not isinstance(content, str):
                user["content"] = decode_items(content)
            messages.append(KIT.attach(user, split_fields(part, ("content", "part_kind"))))
        elif kind in _RETRIES:
            text, as_json = decode_return(part.get("content", ""))
            bag = {**split_fields(part, ("content", "part_kind")), "_part_kind": kind, "_json": as_json or None}
            messages.append(KIT.attach({"role": "user", "content": text}, _set(bag)))
        else:
            opaque = {"type": "opaque", "provider": PROVIDER, "data": dict(part)}
            messages.append(KIT.attach({"role": "user", "content": [opaque]}, {"_part_kind": "opaque"}))
    return messages, _envelope(entry, messages, previous, follows)


def _envelope(
    entry: Mapping[str, Any], messages: list[dict[str, Any]], previous: str | None, follows: bool
) -> dict[str, Any]:
    """The request's instructions (a marked system message, when new) and its own fields, on
    its first message; returned when it has no message to go on."""
    envelope = split_fields(entry, ("parts", "kind", "instructions"), REQUEST_DEFAULTS)
    instructions = entry.get("instructions")
    if isinstance(instructions, str) and instructions == previous:
        envelope["_same_instructions"] = True
    elif isinstance(instructions, str):
        at = 1 if messages and messages[0]["role"] == "tool" else 0
        messages.insert(at, KIT.attach({"role": "system", "content": instructions}, {"_instructions": True}))
    if not messages:
        return envelope
    if any(not key.startswith("_") for key in envelope):
        _attached(messages[0], {"request": envelope})
    elif envelope or follows:  # a request after a response or at the start begins by itself
        _attached(messages[0], {"_request": envelope})
    return envelope


def keep_empty(message: dict[str, Any], envelopes: list[dict[str, Any]], where: str) -> None:
    """Keep requests without parts on a neighbouring message (``where``: ``before`` or
    ``after`` it), under a data key another format reports when one holds data."""
    data = any(not key.startswith("_") for envelope in envelopes for key in envelope)
    _attached(message, {("" if data else "_") + f"empty_requests_{where}": envelopes})


def no_parts(envelopes: list[dict[str, Any]]) -> dict[str, Any]:
    """A history of requests without parts only: an empty user message stands for them."""
    return KIT.attach({"role": "user", "content": ""}, {"_no_parts": envelopes})


def _set(bag: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in bag.items() if value is not None}


def _result(part: Mapping[str, Any]) -> dict[str, Any]:
    kind = part["part_kind"]
    content, as_json = decode_return(part.get("content", ""))
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": part.get("tool_call_id") or ""}
    result["content"] = content
    if isinstance(part.get("tool_name"), str):
        result["name"] = part["tool_name"]
    defaults = RETURN_DEFAULTS if kind == "tool-return" else {}
    bag = split_fields(part, ("content", "tool_call_id", "tool_name", "part_kind"), defaults)
    if kind != "tool-return" or part.get("outcome", "success") != "success":
        result["is_error"] = True
    if kind != "tool-return":
        bag["_part_kind"] = kind
    if as_json:
        bag["_json"] = True
    return KIT.attach(result, bag)


def left_out(message: Mapping[str, Any], written: Sequence[Any], context: EncodeContext, at: Steps) -> bool:
    """Whether a user or assistant message with parts, none of which pydantic-ai has a place
    for (a ``UIMessage`` of data parts only), is left out of the history, reported: pydantic-ai's
    Vercel adapter adds nothing for it and ``convertToModelMessages`` leaves such a turn out,
    where an empty one (a user prompt of ``[]``, a response with no parts) reads back as a turn
    that was never there and is sent to a provider that refuses it."""
    content = message["content"]
    if written or isinstance(content, str) or not content:
        return False
    why = "none of its parts has a place in a pydantic-ai message: left out (a provider refuses an empty turn)"
    context.losses.add(at, f"{message['role']} message", why)
    return True


class RequestWriter:
    """Canonical messages written into ``ModelRequest``s, regrouped as they were read."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.current: dict[str, Any] | None = None
        self.instructions: str | None = None
        self.names: dict[str, str] = {}
        """Each call's tool name by id (a result from another format may not name its tool)."""

    def close(self) -> None:
        """An assistant message ends the request being written."""
        self.current = None

    def empty(self, envelope: Mapping[str, Any], out: list[dict[str, Any]]) -> None:
        """Write a request without parts, kept on a neighbouring message."""
        request = restore_fields(envelope, REQUEST_DEFAULTS)
        request.update(parts=[], kind="request")
        if envelope.get("_same_instructions"):
            request["instructions"] = self.instructions
        out.append(request)
        self.current = None

    def write(self, message: Mapping[str, Any], at: Steps, out: list[dict[str, Any]]) -> None:
        """Add one system, user or tool message to the request it belongs to."""
        bag = KIT.claim(self.context.losses, message.get("provider_metadata"), at)
        envelope = bag.pop("request", None)
        envelope = bag.pop("_request", None) if envelope is None else envelope
        if envelope is not None or self.current is None:
            self.current = restore_fields(envelope or {}, REQUEST_DEFAULTS)
            self.current.update(parts=[], kind="request")
            if envelope is not None and envelope.get("_same_instructions"):
                self.current["instructions"] = self.instructions
            out.append(self.current)
        request = self.current
        if message["role"] not in ("system", "developer", "user", "tool"):
            why = "pydantic-ai keeps no such message; written as a user prompt"
            self.context.losses.add(at, f"{message['role']} message", why)
        if message.get("name") is not None:
            self.context.losses.add((*at, "name"), "message name", "pydantic-ai parts keep no author name")
        if message.get("cache_control") is not None and message["role"] != "user":
            self.context.losses.add((*at, "cache_control"), "cache_control", "a pydantic-ai part keeps no cache marker")
        if bag.pop("_instructions", None) and message["role"] == "system":
            request["instructions"] = self.instructions = self._text(message["content"], at)
            return
        if isinstance(request.get("instructions"), str):
            self.instructions = request["instructions"]
        if bag.pop("_no_parts", None):  # taken by the history's writer; a stray one writes nothing
            return
        parts = self._parts(message, bag, at)
        if message["role"] == "user" and left_out(message, parts, self.context, at):
            if not request["parts"] and request is out[-1] and "instructions" not in request:
                out.pop()  # the request was begun for it alone
                self.current = None
            return
        request["parts"].extend(parts)

    def _parts(self, message: Mapping[str, Any], bag: dict[str, Any], at: Steps) -> list[dict[str, Any]]:
        role, content = message["role"], message["content"]
        kind = bag.pop("_part_kind", None)
        if role == "tool":
            return [self._return(result, (*at, "content", index)) for index, result in enumerate(content)]
        if role in ("system", "developer"):
            fields = restore_fields(bag, SYSTEM_DEFAULTS)
            return [{**fields, "content": self._text(content, at), "part_kind": "system-prompt"}]
        if kind == "opaque":
            return [dict(part["data"]) for part in content if part["type"] == "opaque"]
        if kind in _RETRIES:
            as_json = bool(bag.pop("_json", None))
            text = self._text(content, at)
            return [
                {**restore_fields(bag), "content": encode_return(text, as_json, self.context, at), "part_kind": kind}
            ]
        items: str | list[Any] = (
            content if isinstance(content, str) else encode_items(content, self.context, (*at, "content"))
        )
        if message.get("cache_control") is not None:  # a breakpoint after the whole message
            items = self._message_point(message, items, (*at, "cache_control"))
        if not items and content:  # none of its parts has an item: left out (:func:`left_out`)
            return []
        return [{**restore_fields(bag), "content": items, "part_kind": "user-prompt"}]

    def _message_point(self, message: Mapping[str, Any], items: str | list[Any], at: Steps) -> list[Any]:
        """A user message's ``cache_control`` as a ``CachePoint`` after its items. It reads back
        as its last part's (a spelling change), or, with no part, as the message's; a last part
        with a marker of its own already ends in one, so the message's is lost."""
        items = [items] if isinstance(items, str) else items
        content = message["content"]
        last = content[-1] if content and not isinstance(content, str) else None
        if last is not None and last.get("cache_control") is not None:
            why = "one CachePoint ends the message: the last part's cache marker is written, not the message's"
            self.context.losses.add(at, "cache_control", why, "setting")
            return items
        if content != []:
            why = "a CachePoint after the message's items reads back as its last part's cache marker"
            self.context.losses.add(at, "message cache_control", why, "spelling")
        return [*items, cache_point(message["cache_control"], self.context, at)]

    def _return(self, result: Mapping[str, Any], at: Steps) -> dict[str, Any]:
        bag = KIT.claim(self.context.losses, result.get("provider_metadata"), at)
        kind = bag.pop("_part_kind", "tool-return")
        bag.pop("_json", None)
        as_json = json_valued(result.get("provider_metadata"))  # this format's mark, or an AI SDK's
        if result.get("cache_control") is not None:
            self.context.losses.add((*at, "cache_control"), "cache_control", "a tool return keeps no cache marker")
        fields = restore_fields(bag, RETURN_DEFAULTS if kind == "tool-return" else {})
        call_id = result["tool_use_id"]
        name = result.get("name") or self.names.get(call_id)
        if name is None:
            self.context.losses.add((*at, "name"), "tool name", "no call names this result's tool; written as ''")
        part = {**fields, "tool_name": name or "", "tool_call_id": call_id, "part_kind": kind}
        part["content"] = encode_return(result.get("content", ""), as_json, self.context, (*at, "content"))
        if kind == "tool-return":
            error = bool(result.get("is_error"))
            if error != (part.get("outcome", "success") != "success"):
                part["outcome"] = "failed" if error else "success"
        elif not result.get("is_error"):
            self.context.losses.add((*at, "is_error"), "a retry's success", "a retry prompt is always an error")
        return part

    def _text(self, content: str | Sequence[Mapping[str, Any]], at: Steps) -> str:
        """A system or retry message's content as the one string its part holds: a list (which
        reads back as the string) is a spelling change, its text parts joined a loss of their
        boundaries."""
        if isinstance(content, str):
            return content
        if len(content) <= 1 and all(part["type"] == "text" for part in content):
            why = "this pydantic-ai part's content is one string: the list reads back as the string"
            self.context.losses.add((*at, "content"), "content list", why, "spelling")
        elif sum(part["type"] == "text" for part in content) > 1:
            why = "this pydantic-ai part's content is one string: the text parts are joined"
            self.context.losses.add((*at, "content"), "text parts", why)
        texts: list[str] = []
        for index, part in enumerate(content):
            where = (*at, "content", index)
            KIT.claim(self.context.losses, part.get("provider_metadata"), where)
            if part["type"] == "text":
                texts.append(part["text"])
            else:
                self.context.losses.add(where, f"{part['type']} part", "this pydantic-ai part holds text only")
        return "".join(texts)
