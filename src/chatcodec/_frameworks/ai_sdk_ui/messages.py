"""``UIMessage``s <-> canonical messages.

A system or user ``UIMessage`` is one canonical message. An assistant ``UIMessage`` holds a
whole tool loop: its parts are the steps' text, reasoning and calls, each tool part holding
its call's outcome too. It reads as the canonical turns a provider sends: an assistant
message with the calls, a tool message with the results of the tool parts answered, and,
where a ``step-start`` part begins a step after answered calls, the next assistant message
(marked ``_cont``), as the AI SDK's own ``convertToModelMessages`` splits it; a
provider-executed tool part stays in the assistant message (:mod:`.server_tools`); a tool
part's approval reads as the ``ModelMessage`` parts that function makes of it
(:mod:`.approvals`), folded back into the part when written. The message's ``id`` and
``metadata`` ride in the first canonical message's bag; ``step-start`` parts are markers on the
part after them (``_steps``) or the message (``_trailing_steps``), so the ``UIMessage`` written
back is the one read. Writing folds each tool message's results back
into their calls' parts, and an assistant message after a tool message into the same
``UIMessage`` after a ``step-start``, as the AI SDK keeps a loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.ai_sdk import bags, pending_approvals
from chatcodec._frameworks.ai_sdk.media import placed
from chatcodec._frameworks.ai_sdk_ui import approvals
from chatcodec._frameworks.ai_sdk_ui.markers import KIT, PROVIDER
from chatcodec._frameworks.ai_sdk_ui.parts import decode_part, encode_part
from chatcodec._frameworks.ai_sdk_ui.server_tools import ServerCalls, decode_server_tool, is_server_tool
from chatcodec._frameworks.ai_sdk_ui.tool_parts import DYNAMIC, answer, decode_tool, encode_call, is_tool_part
from chatcodec.codec_kit import leftovers, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps

STEP = {"type": "step-start"}
STRING_FORM = {"state": "done"}
"""A UIMessage holds parts only: a turn of one plain text part reads as the string form
(``content: "..."``, as a user's typed message is), so a canonical list of one plain text
part is written with the ``state`` a stored part has once streamed (read back as the part's
``_state`` marker), and both forms come back as they were."""
_NO_CALL = "a UI tool output sits on its call's part, not in the history: written as a dynamic tool part with no input"


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Stored ``UIMessage``s as canonical message dicts (an assistant one as several)."""
    del context  # nothing shared between messages
    canonical: list[dict[str, Any]] = []
    for message in wire:
        canonical += decode_message(message, len(canonical))
    return pending_approvals.fold(canonical)


class _Turns:
    """The canonical messages one ``UIMessage`` reads as, built part by part."""

    def __init__(self, role: str, head: dict[str, Any]) -> None:
        self.role = role
        self.done: list[dict[str, Any]] = []
        self.content: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        self.approvals: list[list[Any]] = []  # the tool message's approval responses, with their places
        self.bag: dict[str, Any] = head
        self.steps = 0

    def add(self, part: dict[str, Any]) -> None:
        if self.steps and (self.results or self.approvals):
            self.flush()
            self.bag = {"_cont": True}
        if self.steps:
            part.setdefault("provider_metadata", {}).setdefault(KIT.name, {})["_steps"] = self.steps
            self.steps = 0
        self.content.append(part)

    def flush(self) -> None:
        content: str | list[dict[str, Any]] = self.content
        text = _plain_text(self.content)
        if text is not None:  # the string form (:data:`STRING_FORM`): the step-starts before it are the message's
            content, steps = text
            if steps:
                self.bag["_steps"] = steps
        self.done.append(bags.attach(KIT, {"role": self.role, "content": content}, self.bag))
        if self.results or self.approvals:
            tool: dict[str, Any] = {"role": "tool", "content": self.results}
            if self.approvals:
                tool["provider_metadata"] = {approvals.MODEL: {"approvals": self.approvals}}
            self.done.append(tool)
        self.content, self.results, self.approvals = [], [], []

    def tool(self, part: dict[str, Any]) -> None:
        """A tool part: its call (and its approval request) here, its approval response and
        result in the tool message after the turn, each in ``convertToModelMessages``'s place."""
        call, result = decode_tool(part)
        self.add(call)
        request, response = approvals.read(part)
        if request is not None:
            self.add(request)
        if response is not None:
            self.approvals.append([len(self.results) + len(self.approvals), response])
        if result is not None:
            self.results.append(result)

    def close(self) -> list[dict[str, Any]]:
        if self.steps:
            self.bag["_trailing_steps"] = self.steps
        self.flush()
        return self.done


def _plain_text(content: list[dict[str, Any]]) -> tuple[str, int] | None:
    """The text and the step-starts before it of a turn that is one plain text part (a UI
    ``{"type": "text", "text": ...}`` and nothing else), read as the string form; else None."""
    if len(content) != 1 or content[0]["type"] != "text" or len(content[0]) > 3:
        return None
    part = content[0]
    metadata = part.get("provider_metadata")
    if metadata is None and len(part) == 2:
        return part["text"], 0
    steps = KIT.marker(metadata, "_steps")
    if metadata == {KIT.name: {"_steps": steps}} and isinstance(steps, int):
        return part["text"], steps
    return None


def made_up_id(index: int) -> str:
    """The id the writer gives a ``UIMessage`` (which requires one) starting at canonical
    message ``index`` when its message has none: read back as no id, since writing it again
    at the same place gives it again (a value equal to the default is no data)."""
    return f"message-{index}"


def decode_message(message: dict[str, Any], index: int = 0) -> list[dict[str, Any]]:
    """One ``UIMessage`` (checked by :mod:`.wire`) as canonical message dicts, the first at
    canonical ``index``."""
    role = message["role"]
    head = leftovers(message, ("role", "parts"))
    if head.get("id") == made_up_id(index):
        del head["id"]
    turns = _Turns(role, head)
    for part in message["parts"]:
        if part.get("type") == "step-start" and len(part) == 1:
            turns.steps += 1
        elif role == "assistant" and is_tool_part(part) and is_server_tool(part):
            for server_part in decode_server_tool(part):
                turns.add(server_part)
        elif role == "assistant" and is_tool_part(part):
            turns.tool(part)
        else:
            turns.add(placed(decode_part(part), part, role, PROVIDER))
    return turns.close()


class _Writer:
    """``UIMessage``s built from canonical messages, folding results and continued turns in."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.out: list[dict[str, Any]] = []
        self.calls: dict[str, dict[str, Any]] = {}
        self.server = ServerCalls(context)
        self.approvals = approvals.Approvals(context.losses)
        self.after_results = False

    def message(self, message: Mapping[str, Any], at: Steps) -> None:
        losses = self.context.losses
        role = message["role"]
        if role == "tool":
            self.results(message, at)
            return
        if role not in ("system", "user", "assistant"):
            losses.add(
                (*at, "role"), f"{role} role", "a UIMessage is a system, user or assistant message; written as one"
            )
            role = "system" if role == "developer" else "user"
        for key in ("name", "cache_control"):
            if message.get(key) is not None:
                losses.add((*at, key), key, f"a UIMessage has no {key}")
        metadata, answers = pending_approvals.take_from(message.get("provider_metadata"))
        bag = bags.claim(KIT, losses, metadata, at)
        continued = bag.pop("_cont", None)
        trailing = bag.pop("_trailing_steps", None) or 0
        follows = role == "assistant" and bool(self.out) and self.out[-1]["role"] == "assistant"
        parts: list[dict[str, Any]]
        fresh = False
        if follows and (continued or ("id" not in bag and self.after_results)):
            parts = self.out[-1]["parts"]
            if not continued:
                parts.append(dict(STEP))
        elif message["content"] == [] and role != "assistant":
            why = f"a {role} UIMessage holds at least one part (the AI SDK refuses an empty one): not written"
            losses.add((*at, "content"), f"empty {role} message", why)
            return
        else:
            parts = []
            target: dict[str, Any] = {
                "id": bag.pop("id", None) or made_up_id(int(at[-1])),
                "role": role,
                "parts": parts,
            }
            target.update(wire_fields(bag))
            self.out.append(target)
            fresh = True
        self.after_results = False
        self.content(message["content"], bag, parts, at)
        for response in answers:  # approvals answered before their calls ran: on the calls' parts
            self.approvals.respond(response, at)
        parts.extend(dict(STEP) for _ in range(int(trailing)))
        if fresh and not parts and message["content"]:
            self.out.pop()
            why = "none of its parts has a place in a UIMessage: left out, as the AI SDK leaves out a turn with nothing"
            losses.add(at, f"{role} message", why)

    def content(
        self, content: str | Sequence[Mapping[str, Any]], bag: dict[str, Any], parts: list[dict[str, Any]], at: Steps
    ) -> None:
        """A message's content as parts, each form spelt so it reads back as it was (:data:`STRING_FORM`)."""
        if isinstance(content, str):
            parts.extend(dict(STEP) for _ in range(int(bag.pop("_steps", None) or 0)))
            parts.append({"type": "text", "text": content})
            return
        start = len(parts)
        self.parts(content, parts, at)
        while start < len(parts) and parts[start] == STEP:  # the part's own step-starts
            start += 1
        only = content[0] if len(content) == 1 else None
        if only is not None and only["type"] == "text" and parts[start:] == [{"type": "text", "text": only["text"]}]:
            parts[start].update(STRING_FORM)  # else read back as the string form

    def parts(self, content: Sequence[Mapping[str, Any]], parts: list[dict[str, Any]], at: Steps) -> None:
        for index, part in enumerate(content):
            where = (*at, "content", index)
            steps = KIT.marker(part.get("provider_metadata"), "_steps")
            parts.extend(dict(STEP) for _ in range(steps if isinstance(steps, int) else 0))
            if part["type"] == "opaque" and self.server.write(part, parts, where):
                continue
            if part["type"] == "tool_use":
                tool = encode_call(part, self.context, where)
                self.calls[part["id"]] = tool
                parts.append(tool)
                continue
            if approvals.is_request(part):
                self.approvals.request(part["data"], self.calls, where)
                continue
            encoded = encode_part(part, self.context, where)
            if encoded is not None:
                parts.append(encoded)

    def results(self, message: Mapping[str, Any], at: Steps) -> None:
        losses = self.context.losses
        metadata, responses = approvals.take_responses(message.get("provider_metadata"))
        bags.claim(KIT, losses, metadata, at)
        for response in responses:
            self.approvals.respond(response, at)
        for index, result in enumerate(message["content"]):
            where = (*at, "content", index)
            tool = self.calls.pop(result["tool_use_id"], None)
            if tool is None:
                losses.add(
                    where,
                    "tool result",
                    _NO_CALL,
                )
                tool = {"type": DYNAMIC, "toolName": result.get("name") or "", "toolCallId": result["tool_use_id"]}
                self._assistant(at).append(tool)
            answer(tool, result, self.context, where)
        self.after_results = True

    def _assistant(self, at: Steps) -> list[dict[str, Any]]:
        if not self.out or self.out[-1]["role"] != "assistant":
            self.out.append({"id": made_up_id(int(at[-1])), "role": "assistant", "parts": []})
        parts: list[dict[str, Any]] = self.out[-1]["parts"]
        return parts


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as ``UIMessage``s."""
    writer = _Writer(context)
    for index, message in enumerate(messages[start:], start):
        writer.message(message, ("messages", index))
    return writer.out
