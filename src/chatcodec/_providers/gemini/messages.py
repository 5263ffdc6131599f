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

An empty text in a model turn (an OpenAI-compatible ``"content": ""``, beside tool calls
or alone) is not written: Gemini refuses it, 400 "Unable to submit request because it has
an empty text parameter" (the Gemini API and Vertex; obsidian-smart-composer#218,
autogen#5762); a turn left with no part (its only part was left out) is not sent. Both are reported, as Anthropic
and Bedrock report theirs. A user turn's empty text beside other parts is left out too
(reported): it carries nothing, and Vertex AI refuses it (400 "Unable to submit request
because it must have a text parameter", pydantic-ai#2032). A user turn of one empty text
is written as it is: the Gemini API took one in a recorded request (pydantic-ai's
``test_google_instructions_only_with_tool_calls``), and leaving it out would empty the turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from chatcodec._providers.gemini import wire as shapes
from chatcodec._providers.gemini.markers import JOINED, KIT, NO_CACHE_MARKER, STRING_SYSTEM
from chatcodec._providers.gemini.parts import (
    GeminiContext,
    PartDecoding,
    decode_call,
    decode_part,
    encode_part,
    is_whole_call,
)
from chatcodec._providers.gemini.results import decode_result
from chatcodec._providers.gemini.signatures import apply_signature_rule, missing_signature_policy, needs_signatures
from chatcodec.codec_kit import PLAIN_TEXT, absent_keys, is_marker, leftovers, mark_absent, restore_fields, shape_fields
from chatcodec.contract import DecodeContext, Steps

_TURN_FIELDS = shape_fields(shapes.Content)
"""The fields a turn's shape types (``wire.py``), both read here."""

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


def decode_messages(
    contents: list[Any], context: DecodeContext, *, model: str | None = None, digits: int = 0
) -> list[dict[str, Any]]:
    """Canonical messages (as dicts) for the wire ``contents`` list (``digits``: the
    contents were checked by the closed request schema, see :class:`~.parts.PartDecoding`)."""
    canonical: list[dict[str, Any]] = []
    reading = PartDecoding(model=model, digits=digits)
    for index, content in enumerate(contents):
        reading.container = index
        if content.get("role") == "model":
            canonical.append(_decode_answer(content, reading))
        else:
            _decode_user_turn(content, reading, canonical)
    return canonical


def _turn_bag(content: dict[str, Any], role: object) -> dict[str, Any]:
    """A content's fields other than its parts and its ``user`` / ``model`` role, and
    which of the two it left out."""
    bag = leftovers(content, _TURN_FIELDS if role in ("user", "model") else ("parts",))
    mark_absent(bag, content, *_TURN_FIELDS)
    return bag


def _decode_answer(content: dict[str, Any], context: PartDecoding) -> dict[str, Any]:
    """The assistant message of a ``model`` turn; its calls are the ones results answer
    next. A part of text alone, or a whole call alone, is read first."""
    answer: list[dict[str, Any]] = []
    calls: list[tuple[str, str]] = []
    for index, part in enumerate(content.get("parts") or ()):
        if len(part) == 1:
            if "text" in part:
                answer.append({"type": "text", "text": part["text"]})
                continue
            if "functionCall" in part and (context.digits or is_whole_call(part["functionCall"])):
                decoded = decode_call(part, context, index)  # the closed schema takes whole calls only
                calls.append((decoded["id"], decoded["name"]))
                answer.append(decoded)
                continue
        decoded = decode_part(part, "model", context, index)
        if decoded["type"] == "tool_use":
            calls.append((decoded["id"], decoded["name"]))
        answer.append(decoded)
    context.open_calls.calls = calls  # a new model turn: its calls replace the old ones
    message: dict[str, Any] = {"role": "assistant", "content": answer}
    if len(content) != 2 or "parts" not in content:
        return KIT.attach(message, _turn_bag(content, "model"))
    return message


def _decode_user_turn(content: dict[str, Any], context: PartDecoding, messages: list[dict[str, Any]]) -> None:
    """A user turn's runs of results and of other parts, one message each, in wire order;
    the later ones carry the ``_joined`` marker. A part of text alone, or a result alone,
    is read first."""
    first = len(messages)
    current: list[dict[str, Any]] | None = None
    current_role = ""
    for index, part in enumerate(content.get("parts") or ()):
        size = len(part)
        if size == 1 and "text" in part:
            role, decoded = "user", {"type": "text", "text": part["text"]}
        elif size == 1 and "functionResponse" in part:
            role, decoded = "tool", decode_result(part, context.open_calls, context.container, index)
        else:
            decoded = decode_part(part, "user", context, index)
            role = "tool" if decoded["type"] == "tool_result" else "user"
        if current is None:
            current = [decoded]
            messages.append({"role": role, "content": current})
        elif current_role != role:
            current = [decoded]
            messages.append({"role": role, "content": current, "provider_metadata": {KIT.name: {JOINED: True}}})
        else:
            current.append(decoded)
        current_role = role
    if current is None:
        messages.append({"role": "user", "content": []})
    wire_role: object = content.get("role")
    if len(content) != 2 or wire_role != "user" or "parts" not in content:
        KIT.attach(messages[first], _turn_bag(content, wire_role))


# --- encoding ----------------------------------------------------------------------------


class WireTurn:
    """One wire content being built from one or more canonical messages (a plain class:
    a dataclass's ``default_factory=list[...]`` calls a generic alias per turn, which
    raises and clears an ``AttributeError`` inside, about a tenth of a request's writing)."""

    __slots__ = ("bag", "emptied", "first_call", "holds_results", "message", "parts", "role")

    def __init__(self, role: Literal["user", "model"], message: int) -> None:
        self.role: Literal["user", "model"] = role
        self.message: int = message
        """The index of the (first) canonical message it is built from."""
        self.parts: list[dict[str, Any]] = []
        self.bag: dict[str, Any] = {}
        self.holds_results: bool = False
        self.emptied: bool = False
        """Whether a part of it was left out (a turn left with no part is not sent)."""
        self.first_call: tuple[dict[str, Any], int] | None = None
        """A ``model`` turn's first ``functionCall`` part and the index of the canonical
        part it came from (the thought-signature rule reads it, :mod:`.signatures`)."""

    def wire(self) -> dict[str, Any]:
        """The wire content (a key the payload left out stays out while it says nothing)."""
        return content_fields(self.bag, self.role, self.parts)


def content_fields(bag: dict[str, Any], role: str | None, parts: list[dict[str, Any]]) -> dict[str, Any]:
    """A wire ``Content``: its bag's fields, ``role`` and ``parts``."""
    if not bag:
        return {"parts": parts} if role is None else {"role": role, "parts": parts}
    absent = absent_keys(bag)
    wire = restore_fields(bag)
    if role is not None and "role" not in absent and "role" not in wire:
        wire["role"] = role
    if parts or "parts" not in absent:
        wire["parts"] = parts
    return wire


def leading_system_count(messages: Sequence[Mapping[str, Any]]) -> int:
    """How many leading system (and developer) messages go to ``systemInstruction``."""
    count = 0
    while count < len(messages) and messages[count]["role"] in ("system", "developer"):
        count += 1
    return count


def encode_system(messages: Sequence[Mapping[str, Any]], context: GeminiContext) -> dict[str, Any] | str | None:
    """``systemInstruction`` for the leading system messages (their parts in order); one
    string message that came as a string goes back as one."""
    if not messages:
        return None
    first = messages[0]
    if (
        len(messages) == 1
        and isinstance(first["content"], str)
        and KIT.marker(first.get("provider_metadata"), STRING_SYSTEM)
    ):
        bag = _message_bag(first, context, ("messages", 0))
        if not any(not is_marker(key) for key in bag):
            return first["content"]
    turn = WireTurn("user", 0)
    for index, message in enumerate(messages):
        if len(message) != 2:
            bag = _message_bag(message, context, ("messages", index))
            if index == 0:
                turn.bag = bag
        _write_parts(turn, message, index, context)
    return content_fields(turn.bag, None, turn.parts)


def encode_messages(messages: list[Mapping[str, Any]], start: int, context: GeminiContext) -> list[dict[str, Any]]:
    """The wire ``contents`` for ``messages[start:]``, with the thought-signature rule of
    the context's model applied (the ``missing_signature`` option, see :mod:`.signatures`)."""
    turns = encode_turns(messages, start, context)
    if any(turn.emptied and not turn.parts for turn in turns):
        turns = _without_emptied(turns, context)
    if needs_signatures(context.model):
        policy = missing_signature_policy(context.option("missing_signature"))
        apply_signature_rule(turns, policy, context.losses, context.unsigned_by_gemini)
    return [turn.wire() for turn in turns]


def _without_emptied(turns: list[WireTurn], context: GeminiContext) -> list[WireTurn]:
    """The turns but those left with no part, or given none (reported): Gemini refuses a turn
    of ``parts: []`` ("contents.parts must not be empty"), so none is ever sent."""
    kept: list[WireTurn] = []
    for turn in turns:
        if turn.emptied and not turn.parts:
            why = "nothing in it could be sent, and Gemini refuses a turn with no parts"
            context.losses.add(("messages", turn.message), "empty message", why)
        else:
            kept.append(turn)
    return kept


_EMPTY_TEXT = 'Gemini refuses an empty text part (400 "empty text parameter")'


def encode_turns(messages: Sequence[Mapping[str, Any]], start: int, context: GeminiContext) -> list[WireTurn]:
    """The wire turns for ``messages[start:]``: an assistant message is a ``model`` turn;
    results join the user turn of the results before them, and a message decoded from a
    user turn it shared (``_joined``) joins it again."""
    turns: list[WireTurn] = []
    for index in range(start, len(messages)):
        message = messages[index]
        role = message["role"]
        if role == "assistant":
            turn = WireTurn("model", index)
            turns.append(turn)
        else:
            if role not in ("user", "tool"):
                what = "text message" if role == "text" else "system message"
                context.losses.add(
                    ("messages", index), what, "Gemini has no such turn after the start; sent as user text"
                )
            results = role == "tool"
            turn = _joinable(turns, message, results=results) or _new_user_turn(turns, index)
            turn.holds_results = turn.holds_results or results
        if len(message) != 2:  # a name, a cache marker, a bag: the plain message has none
            bag = _message_bag(message, context, ("messages", index))
            if not turn.parts and not turn.bag:
                turn.bag = bag
        _write_parts(turn, message, index, context)
    return turns


def _new_user_turn(turns: list[WireTurn], index: int) -> WireTurn:
    turn = WireTurn("user", index)
    turns.append(turn)
    return turn


def _joinable(turns: list[WireTurn], message: Mapping[str, Any], *, results: bool) -> WireTurn | None:
    """The previous user turn when ``message`` belongs in it: results join results (and a
    message decoded from that very turn joins it again)."""
    if not turns or turns[-1].role != "user":
        return None
    if (results and turns[-1].holds_results) or KIT.marker(message.get("provider_metadata"), JOINED) is True:
        return turns[-1]
    return None


def _message_bag(message: Mapping[str, Any], context: GeminiContext, at: Steps) -> dict[str, Any]:
    bag = KIT.claim(context.losses, message.get("provider_metadata"), at)
    bag.pop(JOINED, None)
    if message.get("name") is not None:
        context.losses.add((*at, "name"), "participant name", "Gemini turns have no name")
    if message.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", NO_CACHE_MARKER, "setting")
    return bag


def _write_parts(turn: WireTurn, message: Mapping[str, Any], index: int, context: GeminiContext) -> None:
    """The wire parts of ``message`` (at ``index``) into ``turn``, noting a model turn's
    first call; a text part with nothing beside its text is written as it is."""
    content: str | list[Mapping[str, Any]] = message.get("content", "")
    model = turn.role == "model"
    if isinstance(content, str):
        if model and not content:
            turn.emptied = True
            context.losses.add(("messages", index, "content"), "empty text", _EMPTY_TEXT)
        else:
            turn.parts.append({"text": content})
        return
    parts = turn.parts
    if not content:  # a turn of nothing: left out unless another message's parts join it (_without_emptied)
        turn.emptied = True
    for position, part in enumerate(content):
        if part["type"] == "text" and len(part) == PLAIN_TEXT:
            if not part["text"] and (model or len(content) > 1):
                turn.emptied = True
                context.losses.add(("messages", index, "content", position), "empty text", _EMPTY_TEXT)
            else:
                parts.append({"text": part["text"]})
            continue
        wire = encode_part(part, context, ("messages", index, "content", position))
        if wire is None:  # reported by encode_part
            turn.emptied = True
            continue
        parts.append(wire)
        if turn.first_call is None and turn.role == "model" and "functionCall" in wire:
            turn.first_call = (wire, position)
