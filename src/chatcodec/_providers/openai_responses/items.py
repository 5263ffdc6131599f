"""The assistant side of a Responses conversation, written: one canonical assistant turn ->
its items, in the order of its parts. What each item holds is said where items are read
(:mod:`.item_reading`); the two jobs share only the item shapes, so each is a module.

Rules on encode, from the API's errors:

* "Item 'rs_...' of type 'reasoning' was provided without its required following item":
  a reasoning item is only sent with the item that followed it, so one left last in a
  turn (its follower was dropped or never came) is dropped, and reported;
* reasoning produced elsewhere (an Anthropic signature, Gemini thoughts) means nothing to
  OpenAI and is never sent as a ``reasoning`` item: it is dropped and reported (an error
  under ``on_loss="error"``), never turned into text silently. Unsigned plain reasoning
  text (a compatible server's ``reasoning_content``, an interrupted stream) has no id and
  no ``encrypted_content``, which a replayed reasoning item needs, so it is dropped and
  reported the same way.
* in a response or stream (``output``, what a proxy hands its client), reasoning produced
  elsewhere is shown as what it is: a ``reasoning`` item whose ``summary_text`` is its
  text (the SDK's ``ResponseReasoningItem``: ``summary`` is required, ``encrypted_content``
  optional), as an OpenAI-compatible gateway in front of Claude or Gemini returns it. The
  signature or encrypted reasoning OpenAI cannot carry is reported; reasoning with no
  text (Anthropic's redacted thinking) is dropped and reported as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_responses.agents_sdk import is_placeholder_reasoning
from chatcodec._providers.openai_responses.carried_reasoning import Sealing, should_seal
from chatcodec._providers.openai_responses.markers import CONTENT, CUSTOM, ITEM, KIND, KIT, PROVIDER, STRING
from chatcodec._providers.openai_responses.parts import encode_opaque, output_part, part_bag
from chatcodec._providers.openai_responses.rules import CALL_ID_MAX_LENGTH, LONG_CALL_ID, note_call_ids
from chatcodec._providers.openai_responses.tools import SENT_AS_IS, request_tool_name
from chatcodec.codec_kit import PLAIN_TEXT, PLAIN_TOOL_USE, as_dict, as_list, kept_object, restore_fields
from chatcodec.contract import LossRecorder, Steps

Part = Mapping[str, Any]
"""A canonical assistant part, as data."""


class ItemWriter:
    """The items of one assistant turn being written, part by part (the stream encoder
    drives one too, so streamed items are grouped exactly as a response's output)."""

    __slots__ = ("for_request", "items", "losses", "open_message", "open_reasoning", "sealing", "steps", "unnamed")

    def __init__(self, losses: LossRecorder, for_request: bool, *, sealing: Sealing | None = None) -> None:
        self.losses: LossRecorder = losses
        self.for_request: bool = for_request
        self.sealing: Sealing | None = None if for_request else sealing
        """How other providers' signed reasoning is sealed into ``encrypted_content``
        (the ``encrypted_reasoning`` option; never in a request: :mod:`.carried_reasoning`)."""
        self.items: list[dict[str, Any]] = []
        self.steps: list[Steps] = []
        """Each item's place in the canonical turn (where a loss about it is reported)."""
        self.open_message: dict[str, Any] | None = None
        self.open_reasoning: dict[str, Any] | None = None
        self.unnamed: list[dict[str, Any]] = []
        """Output items built from another format, which have no id of their own."""

    def add_part(self, part: Part, at: Steps) -> None:
        """Write one part: into the open item it continues, or as a new item."""
        _encode_part(part, self, at)

    def is_unnamed(self, item: dict[str, Any]) -> bool:
        """Whether ``item`` was built from another format (it has no id of its own)."""
        return any(item is unnamed for unnamed in self.unnamed)

    def add(self, item: dict[str, Any], at: Steps) -> dict[str, Any]:
        self.items.append(item)
        self.steps.append(at)
        self.open_message = self.open_reasoning = None
        return item


def encode_assistant(
    message: Mapping[str, Any],
    losses: LossRecorder,
    at: Steps,
    *,
    for_request: bool = True,
    response_id: str | None = None,
    sealing: Sealing | None = None,
    holds: set[str] | None = None,
) -> list[dict[str, Any]]:
    """The items for one canonical assistant turn (a request's history, or a response's
    output, other providers' signed reasoning sealed when ``sealing``); a request's
    ``call_id`` over 64 characters is noted in ``holds`` (:data:`~.rules.LONG_CALL_ID`)."""
    if len(message) != 2 and not KIT.bare(message, 2):  # more than its role and content
        report_turn_fields(message, losses, at)
    content = message.get("content", "")
    if for_request and isinstance(content, str):
        return [{"role": "assistant", "content": content}]
    if for_request and not content:  # a response's output may be empty
        losses.add((*at, "content"), "empty assistant turn", "Responses has no item for a turn with nothing in it")
        return []
    if for_request:
        return request_turn(content, losses, at, holds)
    state = ItemWriter(losses, for_request, sealing=sealing)
    parts: list[Part] = [{"type": "text", "text": content}] if isinstance(content, str) else content
    for index, part in enumerate(parts if content else []):  # a response's output is output messages
        state.add_part(part, (*at, "content", index))
    _name_items(state, response_id)
    return state.items


def report_turn_fields(message: Mapping[str, Any], losses: LossRecorder, at: Steps) -> None:
    """A turn is a run of items, each carrying its own fields (on its parts' bags): the
    decoder keeps no bag, name or marker on the turn itself, so one there has no place (the
    OpenAI Chat direct pass asks it of a named plain turn, written as its parts)."""
    KIT.report_unplaced(
        losses, message.get("provider_metadata"), at, "a Responses turn is items; the turn has no fields"
    )
    if message.get("name") is not None:
        losses.add((*at, "name"), "participant name", "Responses items have no name")
    if message.get("cache_control") is not None:
        losses.add(
            (*at, "cache_control"), "cache_control", "Responses output items carry no cache breakpoint", "setting"
        )


def request_turn(parts: list[Part], losses: LossRecorder, at: Steps, holds: set[str] | None) -> list[dict[str, Any]]:
    """A request turn's items (``parts``: its content, a list of at least one part; the
    request's writer calls this for a turn of its role and parts alone, as
    :func:`encode_assistant` does). The parts agent sessions are made of (a text and nothing
    else, a call of arguments that open a JSON object and nothing else, reasoning of
    another provider, which writes no item) are written here, an item each; from the
    first other part on, an :class:`ItemWriter` takes over."""
    items: list[dict[str, Any]] = []
    after_text = False  # whether the last item is a text of this turn
    for index, part in enumerate(parts):
        kind = part["type"]
        if kind == "text" and len(part) == PLAIN_TEXT and not part["text"]:
            _empty_text(losses, (*at, "content", index))
        elif kind == "text" and len(part) == PLAIN_TEXT:
            if after_text:
                join_text(items[-1], part["text"])
            else:
                items.append({"role": "assistant", "content": part["text"]})
            after_text = True
        elif kind == "tool_use" and (
            (len(part) == PLAIN_TOOL_USE and part["arguments"][:1] == "{")
            or _foreign_bag_alone(part, losses, (*at, "content", index))
        ):
            name = part["name"]
            if name not in SENT_AS_IS:
                name = request_tool_name(name, losses, (*at, "content", index))
            items.append({"type": "function_call", "call_id": part["id"], "name": name, "arguments": part["arguments"]})
            if len(part["id"]) > CALL_ID_MAX_LENGTH and holds is not None:
                holds.add(LONG_CALL_ID)
            after_text = False
        elif not (kind == "thinking" and _foreign_reasoning(part, losses, (*at, "content", index))):
            return note_call_ids(_written_turn(parts, index, items, losses, at), holds)
    return items


def _foreign_bag_alone(part: Part, losses: LossRecorder, at: Steps) -> bool:
    """Whether a call's part is a plain call's fields and another provider's bag alone (Gemini's
    thought signature on a call of an agent on its OpenAI compatibility, sent back every turn),
    its arguments opening a JSON object: then the bag is claimed here, reported as lost at ``at``,
    and the call written as a plain one, as the :class:`ItemWriter`'s ``encode_tool_use`` writes
    a call whose bag holds nothing of this provider's (it restores no field of it)."""
    if len(part) != PLAIN_TOOL_USE + 1:
        return False
    metadata = part.get("provider_metadata")
    if metadata is None or PROVIDER in metadata or part.get("arguments", "")[:1] != "{":
        return False
    KIT.claim(losses, metadata, at)
    return True


def _foreign_reasoning(part: Part, losses: LossRecorder, at: Steps) -> bool:
    """Report reasoning of another provider with no bag or marker of this one, which a
    request drops whole (the ItemWriter asks this too: :func:`_dropped_whole`); False, with nothing
    reported, for any other thinking part. Its one loss says the part is gone, and with it
    another provider's bag on it (an OpenAI Chat turn's ``reasoning_content`` names its
    field there): reported apart, it would say the same place twice, as Anthropic's writer
    does not (issue 99)."""
    metadata = part.get("provider_metadata")
    if part.get("provider") == PROVIDER or part.get("cache_control") is not None or (metadata and PROVIDER in metadata):
        return False
    foreign_thinking(part.get("provider"), bool(part.get("signature") or part.get("encrypted")), losses, at)
    return True


def _written_turn(
    parts: list[Part], start: int, items: list[dict[str, Any]], losses: LossRecorder, at: Steps
) -> list[dict[str, Any]]:
    """The rest of a request turn from ``parts[start]`` on, through an :class:`ItemWriter`
    holding the ``items`` written so far (one per part, none left open)."""
    state = ItemWriter(losses, for_request=True)
    state.items = items
    state.steps = [(*at, "content", index) for index in range(start)]
    for index in range(start, len(parts)):
        state.add_part(parts[index], (*at, "content", index))
    _drop_unfollowed_reasoning(state)
    return state.items


_ID_PREFIXES = {"message": "msg", "function_call": "fc", "custom_tool_call": "ctc", "reasoning": "rs"}
"""The prefix of each output item kind's id, as OpenAI spells them (``msg_...``, ``fc_...``)."""


def _name_items(state: ItemWriter, response_id: str | None) -> None:
    """Give each output item built from another format an id (a response's output items
    have one; ``""`` is none): see :func:`name_item`. Ids read from a Responses payload
    are kept as they were."""
    for position, item in enumerate(state.items):
        if state.is_unnamed(item):
            name_item(item, response_id, position)


def name_item(item: dict[str, Any], response_id: str | None, position: int) -> None:
    """Name an output item built from another format: the kind's prefix and a digest of
    the response id and the item's position, so the same conversion always gives the same
    ids, streamed or not (the stream encoder names an item when it is added), and two
    answers' ids differ."""
    prefix = _ID_PREFIXES.get(str(item.get("type")))
    if prefix is not None:
        # surrogatepass: an id read from JSON may hold a lone surrogate, and it must still
        # name the item (the fuzz run found it: UnicodeEncodeError from here)
        seed = f"{response_id or ''}/{position}".encode("utf-8", "surrogatepass")
        import hashlib  # here, not at import: loading OpenSSL costs a fresh process's first conversion

        item["id"] = f"{prefix}_{hashlib.sha256(seed).hexdigest()[:48]}"
    if item.get("type") == "function_call":
        # a call is complete once written: OpenAI's output calls carry ``status``, and the
        # Open Responses ``FunctionCall`` requires it; a ``custom_tool_call`` has no
        # ``status`` (openai 3.54 ``ResponseCustomToolCall``), so none is invented for it
        item.setdefault("status", "completed")


def _encode_part(part: Part, state: ItemWriter, at: Steps) -> None:
    match part["type"]:
        case "text" | "refusal":
            _encode_output(part, state, at)
        case "thinking" if is_placeholder_reasoning(part):  # a Chat Completions model's, kept by the Agents SDK
            state.losses.add(at, "reasoning from a Chat Completions model", _PLACEHOLDER_REASONING)
        case "thinking":
            if not _dropped_whole(part, state, at):  # reported there, its bag with it
                _encode_thinking(part, state, at)
        case "tool_use":
            if state.sealing:
                part = _sealed_call_item(part, state, at)
            call = state.add(encode_tool_use(part, state.losses, at, for_request=state.for_request), at)
            if "id" not in call and not state.for_request:
                state.unnamed.append(call)
        case "opaque" if _message_content(part):
            _encode_output(part, state, at)
        case "opaque":
            wire = encode_opaque(part, state.losses, at)
            if wire is not None:
                state.add(wire, at)
        case kind:  # image, audio
            state.losses.add(at, f"assistant {kind} part", "Responses assistant items hold no media")


def _encode_output(part: Part, state: ItemWriter, at: Steps) -> None:
    kind = part["type"]
    bag = part_bag(part, state.losses, at)
    starts = ITEM in bag
    open_content = None if state.open_message is None else as_list(state.open_message.get("content"))
    if not starts and open_content is not None:  # a string-content item (live text ended as one) takes no more
        open_content.append(_content_part(part, bag, state.losses, at))
        return
    item = restore_fields(kept_object(bag, "item", (*at, "provider_metadata", PROVIDER), PROVIDER, take=True))
    if bag.get(ITEM) == "message" or not (starts or state.for_request):
        item["type"] = "message"
    if not (starts or state.for_request):  # a response's output message needs them (ResponseOutputMessage)
        item.update(id="", status="completed")
        state.unnamed.append(item)
    item["role"] = "assistant"
    plain = bag.get(STRING) or (state.for_request and not starts and not bag)  # another provider's: a plain item
    plain = plain and not part.get("citations")  # a string content has no annotations
    if plain and not bag and kind == "text" and not part["text"]:
        _empty_text(state.losses, at)
        return
    if plain and kind != "opaque":
        if part.get("cache_control") is not None:
            state.losses.add(
                (*at, "cache_control"), "cache_control", "Responses output items carry no breakpoint", "setting"
            )
        if kind == "refusal":
            state.losses.add(at, "refusal", "a Responses input message holds no refusal; sent as text")
        _plain_text(part["text"], state, at, item)
        return
    item["content"] = [_content_part(part, {k: v for k, v in bag.items() if k != ITEM}, state.losses, at)]
    state.open_message = item
    state.items.append(item)
    state.steps.append(at)


def _plain_text(text: str, state: ItemWriter, at: Steps, item: dict[str, Any]) -> None:
    """An assistant text as one string-content message item (``item``: its own fields),
    or, right after another plain text of the turn, one more part of that item."""
    if len(item) == 1 and _follows_text(state.items):
        join_text(state.items[-1], text)
        return
    item["content"] = text
    state.add(item, at)


def _empty_text(losses: LossRecorder, at: Steps) -> None:
    """An empty text part of another provider's assistant turn (an OpenAI-compatible
    ``"content": ""`` beside tool calls) is no item: it would reach the model as an extra
    empty assistant message. A Responses item of empty text (its part marked as one)
    goes back as it came, and so does a turn that is one empty string (the API takes
    ``{"role": "assistant", "content": ""}``, and the two spellings read the same)."""
    losses.add(at, "empty text", "an empty assistant text is no Responses item")


def _follows_text(items: list[dict[str, Any]]) -> bool:
    """Whether the last item is a plain assistant message of text (its role and content
    only: a text of the turn written here)."""
    if not items or len(items[-1]) != 2 or items[-1].get("role") != "assistant":
        return False
    content: object = items[-1].get("content")
    entries = as_list(content)
    return isinstance(content, str) or (entries is not None and all(as_dict(entry) is not None for entry in entries))


def join_text(item: dict[str, Any], text: str) -> None:
    """One more text of an assistant turn into the plain message item before it: a turn
    of several texts is one message item of several ``output_text`` parts (an assistant
    message's own shape; an item per text would reach the model as several messages and
    read back as several turns)."""
    content: object = item["content"]
    parts: list[Any] = [{"type": "output_text", "text": content, "annotations": []}] if isinstance(content, str) else []
    entries = as_list(content)
    if entries is not None:
        parts = entries
    parts.append({"type": "output_text", "text": text, "annotations": []})
    item["content"] = parts


def _message_content(part: Part) -> bool:
    """Whether ``part`` is a message item's content part of a kind added later."""
    return part.get("provider") == PROVIDER and KIT.marker(part.get("provider_metadata"), CONTENT) is True


def _content_part(part: Part, bag: dict[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """A message item's content part: ``output_text``, ``refusal``, or one kept whole."""
    if part["type"] == "opaque":
        if part.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", "the part is sent verbatim, without a breakpoint")
        return dict(part["data"])
    return output_part(part, bag, losses, at)


def _dropped_whole(part: Part, state: ItemWriter, at: Steps) -> bool:
    """Whether a request drops ``part``, another provider's reasoning, whole (reported by
    :func:`_foreign_reasoning`, the shortcut's rule); never a part a sealing writer carries."""
    return (
        state.for_request and not (state.sealing and should_seal(part)) and _foreign_reasoning(part, state.losses, at)
    )


def _encode_thinking(part: Part, state: ItemWriter, at: Steps) -> None:
    if part.get("cache_control") is not None:
        state.losses.add(
            (*at, "cache_control"), "cache_control on reasoning", "Responses reasoning has no breakpoint", "setting"
        )
    bag = part_bag(part, state.losses, at)
    provider, text = part.get("provider"), part.get("text", "")
    if provider != PROVIDER and not (provider is None and "id" in bag):
        if state.sealing and should_seal(part):
            _sealed_reasoning_item(part, state, at)
            return
        if not state.for_request and text:
            _foreign_reasoning_item(part, state, at)
            return
        foreign_thinking(provider, bool(part.get("signature") or part.get("encrypted")), state.losses, at)
        return
    item: dict[str, Any] | None = state.open_reasoning
    if item is None or ITEM in bag:
        item = {**restore_fields({k: v for k, v in bag.items() if k != "entry"}), "type": "reasoning", "summary": []}
        if bag.get("_empty_content"):
            item["content"] = []
        state.add(item, at)
        state.open_reasoning = item
    entry = kept_object(bag, "entry", (*at, "provider_metadata", PROVIDER), PROVIDER)
    kind = bag.get(KIND)
    if kind == "content":
        content = as_list(item.get("content"))
        if content is None:
            content = item["content"] = []
        content.append({"type": "reasoning_text", **entry, "text": text})
    elif kind != "empty" or text:
        summary = as_list(item.get("summary"))
        if summary is None:
            summary = item["summary"] = []
        summary.append({"type": "summary_text", **entry, "text": text})
    if part.get("encrypted") is not None:
        item["encrypted_content"] = part["encrypted"]


def _foreign_reasoning_item(part: Part, state: ItemWriter, at: Steps) -> None:
    """Another provider's reasoning in a response's output: a reasoning item with its text
    as the summary (its id made up like a message item's)."""
    if part.get("signature") or part.get("encrypted"):
        why = "a Responses reasoning item carries OpenAI's encrypted_content only"
        state.losses.add(at, f"signature of reasoning from {part.get('provider') or 'another provider'}", why)
    item = {"type": "reasoning", "id": "", "summary": [{"type": "summary_text", "text": part["text"]}]}
    state.add(item, at)
    state.unnamed.append(item)  # named ``rs_...`` with the response's other items
    state.open_reasoning = None  # a following part of its own starts its own item


def _sealed_reasoning_item(part: Part, state: ItemWriter, at: Steps) -> None:
    """Another provider's signed reasoning in a response's output, sealed whole into the
    item's ``encrypted_content`` (its text shown as the summary) so the client's next
    request gives it back exactly (:mod:`.carried_reasoning`)."""
    text = part.get("text", "")
    summary = [{"type": "summary_text", "text": text}] if text else []
    item = {
        "type": "reasoning",
        "id": "",
        "summary": summary,
        "encrypted_content": (state.sealing or Sealing()).seal(part),
    }
    state.add(item, at)
    state.unnamed.append(item)
    state.open_reasoning = None


def _sealed_call_item(part: Part, state: ItemWriter, at: Steps) -> Part:
    """A reasoning item sealing the call's other providers' bags (a Gemini signature),
    written before the call; the call without them."""
    sealed, stripped = (state.sealing or Sealing()).seal_call(part)
    if sealed is not None:
        item: dict[str, Any] = {"type": "reasoning", "id": "", "summary": [], "encrypted_content": sealed}
        state.add(item, at)
        state.unnamed.append(item)
    return stripped


_PLACEHOLDER_REASONING = (
    "the OpenAI Agents SDK stored it with its provider_data or placeholder id: no Responses reasoning item"
    " stands for it, and the SDK leaves it out too"
)


def foreign_thinking(provider: str | None, signed: bool, losses: LossRecorder, at: Steps) -> None:
    """Reasoning that is not OpenAI's (``signed``: it carries another provider's signature
    or encrypted reasoning) is never sent as a Responses reasoning item: reported."""
    if provider is not None or signed:
        who = provider or "another provider"
        why = "OpenAI cannot verify it and it is never sent as a Responses reasoning item"
        losses.add(at, f"reasoning from {who}", why)
    else:
        why = "a replayed Responses reasoning item needs the id and encrypted_content OpenAI gave it"
        losses.add(at, "unsigned reasoning text", why)


def encode_tool_use(part: Part, losses: LossRecorder, at: Steps, *, for_request: bool = True) -> dict[str, Any]:
    """A ``function_call`` (or ``custom_tool_call``) item; the bag's ``id`` echoed verbatim.
    In a request the name follows OpenAI's rule (a response says what the model called)."""
    name, arguments = part["name"], part.get("arguments", "")
    bag = part_bag(part, losses, at)
    if for_request:
        name = request_tool_name(name, losses, at)
    elif not name.strip():  # a request refuses it (tool_names); what a model called is kept
        losses.add((*at, "name"), "blank tool name", "OpenAI clients cannot dispatch a call without a name")
    if part.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", "Responses function calls carry no breakpoint", "setting")
    if part.get("kind") == "custom" or bag.get(CUSTOM):  # the marker: data stored before the kind
        return {
            **restore_fields(bag),
            "type": "custom_tool_call",
            "call_id": part["id"],
            "name": name,
            "input": arguments,
        }
    return {
        **restore_fields(bag),
        "type": "function_call",
        "call_id": part["id"],
        "name": name,
        "arguments": call_arguments(arguments, losses, at),
    }


def call_arguments(arguments: str, losses: LossRecorder, at: Steps) -> str:
    """A ``function_call``'s ``arguments``: the API parses them as JSON and rejects "",
    so a call without arguments is "{}", as in openai-chat, reported."""
    if arguments.strip():
        return arguments
    losses.add((*at, "arguments"), "empty tool arguments", "Responses needs JSON; sent '{}'")
    return "{}"


def _drop_unfollowed_reasoning(state: ItemWriter) -> None:
    """A reasoning item last in the turn has lost the item that must follow it."""
    while state.items and state.items[-1].get("type") == "reasoning":
        state.items.pop()
        why = "the API rejects a reasoning item without its required following item"
        state.losses.add(state.steps.pop(), "reasoning item with nothing after it", why)
