"""Gemini ``contents`` <-> canonical messages.

Gemini has two roles, ``user`` and ``model``; tool results are ``functionResponse``
parts of a user turn, and the system prompt is the separate ``systemInstruction``.
Decoding splits a user turn into a tool message (its results) and user messages (its
other parts), in wire order; a message that shared its wire turn with the one before
carries the ``_joined`` marker, so encoding puts it back in the same turn.

Encoding maps ``assistant`` to ``model`` and everything else to ``user``: the results of
consecutive tool messages go in one user turn (Gemini wants every response of a model
turn together), leading system messages become ``systemInstruction`` (several are joined
in order), and a later system message is sent as user text (a loss: Gemini has no
mid-conversation instruction). Each part is encoded on its own (:mod:`.parts`), then the
thought-signature rule is applied (:mod:`.signatures`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, assert_never

from chatcodec.messages import AnyMessage, AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage
from chatcodec.providers.gemini.call_ids import OpenCalls
from chatcodec.providers.gemini.markers import JOINED, KIT, STRING_SYSTEM
from chatcodec.providers.gemini.media import Turn
from chatcodec.providers.gemini.parts import GeminiContext, PartDecoding, decode_part, encode_part
from chatcodec.providers.gemini.signatures import apply_signature_rule, missing_signature_policy, needs_signatures
from chatcodec.providers.kit import Steps, absent_keys, is_marker, leftovers, mark_absent, restore_fields
from chatcodec.providers.kit.context import DecodeContext

WirePart = tuple[dict[str, Any], Steps]
"""A wire part with the canonical path it came from (for loss reports)."""

# --- decoding ----------------------------------------------------------------------------


def decode_system(content: dict[str, Any] | str) -> dict[str, Any]:
    """The canonical system message for ``systemInstruction``: a ``Content``, or a bare
    string as google-genai config dumps carry it (``system_instruction="..."``)."""
    if isinstance(content, str):
        return KIT.attach({"role": "system", "content": content}, {STRING_SYSTEM: True})
    context = PartDecoding()
    parts = [decode_part(part, "system", context, index) for index, part in enumerate(content.get("parts") or [])]
    bag = leftovers(content, ("parts",))
    mark_absent(bag, content, "parts")
    return KIT.attach({"role": "system", "content": parts}, bag)


def decode_messages(contents: list[Any], context: DecodeContext, *, model: str | None = None) -> list[dict[str, Any]]:
    """Canonical messages (as dicts) for the wire ``contents`` list."""
    canonical: list[dict[str, Any]] = []
    open_calls = OpenCalls()
    for index, content in enumerate(contents):
        reading = PartDecoding(model=model, container=index, open_calls=open_calls)
        canonical.extend(_decode_content(content, reading))
    return canonical


def _decode_content(content: dict[str, Any], context: PartDecoding) -> list[dict[str, Any]]:
    role = content.get("role")
    bag = leftovers(content, ("role", "parts") if role in ("user", "model") else ("parts",))
    mark_absent(bag, content, "role", "parts")
    parts: list[dict[str, Any]] = content.get("parts") or []
    if role == "model":
        answer = [decode_part(part, "model", context, index) for index, part in enumerate(parts)]
        context.open_calls.reset([(part["id"], part["name"]) for part in answer if part["type"] == "tool_use"])
        return [KIT.attach({"role": "assistant", "content": answer}, bag)]
    messages: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        kind = "tool" if "functionResponse" in part else "user"
        decoded = decode_part(part, "user", context, index)
        if kind == "tool" and decoded["type"] != "tool_result":
            kind = "user"
        if not messages or messages[-1]["role"] != kind:
            messages.append({"role": kind, "content": []})
        messages[-1]["content"].append(decoded)
    if not messages:
        messages.append({"role": "user", "content": []})
    KIT.attach(messages[0], bag)
    for message in messages[1:]:
        message["provider_metadata"] = {KIT.name: {JOINED: True}}
    return messages


# --- encoding ----------------------------------------------------------------------------


@dataclass
class WireTurn:
    """One wire content being built from one or more canonical messages."""

    role: Literal["user", "model"]
    at: Steps
    parts: list[WirePart] = field(default_factory=list[WirePart])
    bag: dict[str, Any] = field(default_factory=dict[str, Any])
    holds_results: bool = False

    def wire(self) -> dict[str, Any]:
        """The wire content (a key the payload left out stays out while it says nothing)."""
        return content_fields(self.bag, self.role, [part for part, _ in self.parts])


def content_fields(bag: dict[str, Any], role: str | None, parts: list[dict[str, Any]]) -> dict[str, Any]:
    """A wire ``Content``: its bag's fields, ``role`` and ``parts``."""
    absent = absent_keys(bag)
    wire = restore_fields(bag)
    if role is not None and "role" not in absent and "role" not in wire:
        wire["role"] = role
    if parts or "parts" not in absent:
        wire["parts"] = parts
    return wire


def leading_system_count(messages: list[AnyMessage]) -> int:
    """How many leading system messages go to ``systemInstruction``."""
    count = 0
    while count < len(messages) and isinstance(messages[count], SystemMessage):
        count += 1
    return count


def encode_system(messages: list[AnyMessage], context: GeminiContext) -> dict[str, Any] | str | None:
    """``systemInstruction`` for the leading system messages (their parts in order); one
    string message that came as a string goes back as one."""
    if not messages:
        return None
    first = messages[0]
    if len(messages) == 1 and isinstance(first.content, str) and KIT.marker(first.provider_metadata, STRING_SYSTEM):
        bag = _message_bag(first, context, ("messages", 0))
        if not any(not is_marker(key) for key in bag):
            return first.content
    turn = WireTurn("user", ("messages", 0))
    for index, message in enumerate(messages):
        at: Steps = ("messages", index)
        bag = _message_bag(message, context, at)
        if index == 0:
            turn.bag = bag
        turn.parts.extend(_parts(message, context, at))
    return content_fields(turn.bag, None, [part for part, _ in turn.parts])


def encode_messages(messages: list[AnyMessage], start: int, context: GeminiContext) -> list[dict[str, Any]]:
    """The wire ``contents`` for ``messages[start:]``, with the thought-signature rule of
    the context's model applied (the ``missing_signature`` option, see :mod:`.signatures`)."""
    turns = encode_turns(messages, start, context)
    if needs_signatures(context.model):
        policy = missing_signature_policy(context.option("missing_signature"))
        apply_signature_rule(turns, policy, context.losses, context.unsigned_by_gemini)
    return [turn.wire() for turn in turns]


def encode_turns(messages: list[AnyMessage], start: int, context: GeminiContext) -> list[WireTurn]:
    """The wire turns for ``messages[start:]``."""
    turns: list[WireTurn] = []
    for index in range(start, len(messages)):
        message = messages[index]
        at: Steps = ("messages", index)
        match message:
            case AssistantMessage():
                turn = WireTurn("model", at)
                turns.append(turn)
            case ToolMessage():
                turn = _joinable(turns, message, results=True) or _new_user_turn(turns, at)
                turn.holds_results = True
            case UserMessage() | TextMessage() | SystemMessage():
                if not isinstance(message, UserMessage):
                    what = "system message" if isinstance(message, SystemMessage) else "text message"
                    context.losses.add(at, what, "Gemini has no such turn after the start; sent as user text")
                turn = _joinable(turns, message, results=False) or _new_user_turn(turns, at)
            case _:
                assert_never(message)
        bag = _message_bag(message, context, at)
        if not turn.parts and not turn.bag:
            turn.bag = bag
        turn.parts.extend(_parts(message, context, at))
    return turns


def _new_user_turn(turns: list[WireTurn], at: Steps) -> WireTurn:
    turn = WireTurn("user", at)
    turns.append(turn)
    return turn


def _joinable(turns: list[WireTurn], message: AnyMessage, *, results: bool) -> WireTurn | None:
    """The previous user turn when ``message`` belongs in it: results join results (and a
    message decoded from that very turn joins it again)."""
    if not turns or turns[-1].role != "user":
        return None
    if KIT.marker(message.provider_metadata, JOINED) is True or (results and turns[-1].holds_results):
        return turns[-1]
    return None


def _message_bag(message: AnyMessage, context: GeminiContext, at: Steps) -> dict[str, Any]:
    bag = KIT.claim(context.losses, message.provider_metadata, at)
    bag.pop(JOINED, None)
    if message.name is not None:
        context.losses.add((*at, "name"), "participant name", "Gemini turns have no name")
    if message.cache_control is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Gemini caches whole prompts (cachedContent)", "setting"
        )
    return bag


def _parts(message: AnyMessage, context: GeminiContext, at: Steps) -> list[WirePart]:
    if isinstance(message.content, str):
        return [({"text": message.content}, at)]
    parts: list[WirePart] = []
    for index, part in enumerate(message.content):
        part_at = (*at, "content", index)
        wire = encode_part(part, context, part_at)
        if wire is not None:
            parts.append((wire, part_at))
    return parts


def turn_kind(role: str) -> Turn:
    """The kind of parts a wire role holds."""
    return "model" if role == "model" else "user"
