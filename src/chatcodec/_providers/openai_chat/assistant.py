"""Assistant messages (in requests and in responses), both ways.

OpenAI spreads one assistant turn over fields: reasoning (on compatible servers), then
``content`` (a string, ``null``, or a list of text/refusal parts), then ``refusal``, then
``tool_calls``. Decoding lists the parts in that order. A canonical message whose parts
are interleaved otherwise (text, tool call, text) cannot keep its order; the encoder then
records a loss naming the message and writes the fields in OpenAI's order.

Content form: a message holding only a ``content`` string decodes to a canonical string;
otherwise the string becomes a text part. Encoding writes ``content`` as a string whenever
that reads back the same (one plain text part next to reasoning, refusal or tool calls),
and as a list of parts otherwise; the ``_content`` marker keeps the payload's own choice
(``"list"``, or ``"absent"`` for no ``content`` key; ``null`` is the default). A response
message must be a string (the SDK's ``ChatCompletionMessage.content``), so there several
parts are joined, with a loss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat import (
    cache_control,
    citations,
    functions,
    parts,
    reasoning,
    server_tools,
    thought_signatures,
)
from chatcodec._providers.openai_chat.markers import EMPTY, KIT, PROVIDER, opaque
from chatcodec._providers.openai_chat.null_spelling import (
    message_fields,
    nulls_as_spelling,
    spelled_nulls,
    with_own_fields,
)
from chatcodec._providers.openai_chat.plain_turn import read_plain_turn
from chatcodec._providers.openai_chat.tool_calls import (
    TAKEN,
    TAKES,
    decode_tool_call,
    plain_call_wire,
    write_calls,
)
from chatcodec.codec_kit import PLAIN_MESSAGE, PLAIN_TEXT, PLAIN_TOOL_USE, as_dict, as_list, leftovers, wire_fields

if TYPE_CHECKING:
    from chatcodec.contract import LossRecorder, Reading, Steps

Part = Mapping[str, Any]
"""A canonical part's data (as a part model dumps it; a key holding its default may be absent)."""


class ContentKind(Enum):
    """What a part that belongs in ``content`` is, as far as the string form is concerned."""

    PLAIN_TEXT = "plain text"
    """A text part with no cache marker and no bag: a string can hold it."""
    PLAIN_REFUSAL = "plain refusal"
    """A refusal with no wire fields of its own: the ``refusal`` field can hold it."""
    OTHER = "other"
    """Anything else: only the list form holds it."""


_STRING_SHAPES = (
    (),
    (ContentKind.PLAIN_TEXT,),
    (ContentKind.PLAIN_REFUSAL,),
    (ContentKind.PLAIN_TEXT, ContentKind.PLAIN_REFUSAL),
)
"""The ``content`` layouts a string (plus the ``refusal`` field) writes exactly."""


def writes_string(kinds: Sequence[ContentKind], field_refusals: int, others: bool) -> bool:
    """Whether the encoder writes ``content`` as a string, given the kinds of the parts
    that belong in ``content``, the refusals from the ``refusal`` field, and whether
    reasoning or tool calls come with them."""
    shape = tuple(kinds)
    if shape not in _STRING_SHAPES or shape.count(ContentKind.PLAIN_REFUSAL) + field_refusals > 1:
        return False
    lone_text = shape == (ContentKind.PLAIN_TEXT,) and not others and not field_refusals
    return not lone_text  # a lone plain text already decodes as a string


# --- decode --------------------------------------------------------------------------


def decode_assistant(
    message: Mapping[str, Any],
    *,
    response: bool = False,
    ids: functions.CallIds | None = None,
    closed: bool = False,
    noted: Reading | None = None,
) -> dict[str, Any]:
    """A wire assistant message (request history or, with ``response``, a response's),
    canonical; ``ids`` names the conversation's deprecated ``function_call`` entries;
    ``closed``: the message is the closed front's copy (``common_shapes.py``); ``noted``: a
    conversion's record, where its markers for this format's writer (:func:`~.plain_turn.read_plain_turn`)."""
    if len(message) == 2 and type(message.get("content")) is str:  # a role and a content string: nothing else
        return {"role": "assistant", "content": message["content"]}
    plain = read_plain_turn(message, closed, noted, response=response)
    if plain is not None:
        return plain
    return decode_general(message, response=response, ids=ids)


def decode_general(
    message: Mapping[str, Any], *, response: bool = False, ids: functions.CallIds | None = None
) -> dict[str, Any]:
    """A wire assistant message of a shape beyond a plain turn's, canonical, field by field
    (:func:`decode_assistant`'s general reading)."""
    thinking, mapped = reasoning.decode_reasoning(message)
    mapped.append("role")
    canonical: dict[str, Any] = {"role": "assistant"}
    if message.get("name") is not None:
        canonical["name"] = message["name"]
        mapped.append("name")
    if message.get("refusal") is not None:
        mapped.append("refusal")
    wire_calls = as_list(message.get("tool_calls")) or []
    server_parts, taken, fields_rest = server_tools.decode_server_tools(message, wire_calls)
    if server_parts:
        mapped.append(server_tools.FIELDS)
    call_parts = [decode_tool_call(call) for position, call in enumerate(wire_calls) if position not in taken]
    function_call = as_dict(message.get("function_call"))
    if function_call is not None:
        call_parts.append(functions.decode_function_call(function_call, ids or functions.CallIds()))
        mapped.append("function_call")
    refusal = message.get("refusal")
    content = message.get("content")
    cited = (
        citations.read_message_citations(message, mapped) if response and isinstance(content, str) and content else None
    )
    if (
        not thinking
        and not call_parts
        and not server_parts
        and refusal is None
        and isinstance(content, str)
        and cited is None
    ):
        canonical["content"] = content
        bag: dict[str, Any] = nulls_as_spelling(leftovers(message, [*mapped, "content"]), answer=response)
        cache_control.take(bag, canonical)
        return KIT.attach(canonical, bag)
    bag = {}
    items = _decode_content(content, message, bag, cited, called=bool(call_parts) and not response)
    listed = isinstance(content, list)
    others = bool(thinking or call_parts or server_parts)
    if listed and (response or writes_string([_kind(item) for item in items], refusal is not None, others)):
        bag["_content"] = "list"  # a response's content is written as a string unless marked
    body = [*thinking, *server_parts, *items]
    if isinstance(refusal, str):
        body.append(KIT.attach({"type": "refusal", "text": refusal}, {"_field": "refusal"} if listed else {}))
    body.extend(call_parts)
    if as_list(message.get("tool_calls")):
        mapped.append("tool_calls")
    canonical["content"] = body
    bag.update(leftovers(message, [*mapped, "content"]))
    nulls_as_spelling(bag, answer=response)
    if fields_rest:
        bag[server_tools.FIELDS] = fields_rest
    cache_control.take(bag, canonical)
    return KIT.attach(canonical, bag)


def _decode_content(
    content: object,
    message: Mapping[str, Any],
    bag: dict[str, Any],
    cited: dict[str, Any] | None = None,
    *,
    called: bool = False,
) -> list[dict[str, Any]]:
    """A turn's ``content`` as parts (``called``: a request's turn with calls, beside which an
    empty text says nothing: spelling, :data:`~.markers.EMPTY`, no part)."""
    if content == "" and called:
        bag["_content"] = EMPTY
        return []
    if isinstance(content, str):  # with its citations, a response message's
        return [{"type": "text", "text": content, **cited} if cited else {"type": "text", "text": content}]
    listed = as_list(content)
    if listed is not None:
        return [_decode_item(item) for item in listed]
    if "content" not in message:
        bag["_content"] = "absent"
    return []


def _decode_item(item: dict[str, Any]) -> dict[str, Any]:
    match item.get("type"):
        case "text":
            return parts.decode_text_part(item)
        case "refusal":
            return KIT.attach({"type": "refusal", "text": item["refusal"]}, leftovers(item, ("type", "refusal")))
        case "thinking":
            return reasoning.decode_content_thinking(item)
        case _:
            return server_tools.content_block(item) or opaque(item)


def _kind(part: Part) -> ContentKind:
    """What a canonical part that belongs in ``content`` is, for the string form."""
    kind = part["type"]
    if kind == "text":
        if len(part) == PLAIN_TEXT or (
            part.get("cache_control") is None and not KIT.own(part.get("provider_metadata"))
        ):
            return ContentKind.PLAIN_TEXT
        return ContentKind.OTHER
    if kind == "refusal" and not wire_fields(KIT.own(part.get("provider_metadata"))):
        return ContentKind.PLAIN_REFUSAL
    return ContentKind.OTHER


# --- encode --------------------------------------------------------------------------

_SLOTS = {
    "reasoning_content": 0,
    "reasoning": 1,
    "reasoning_details": 2,
    "thinking_blocks": 2,
    "server": 3,
    "item": 4,
    "refusal": 5,
    "call": 6,
}
"""Where each kind of part goes, in OpenAI's order of the fields."""
_ITEM, _CALL = _SLOTS["item"], _SLOTS["call"]
_ON_PARTS = "OpenAI cache breakpoints sit on content parts"


class _Layout:
    """The parts of one canonical message, sorted into the wire fields they go to (each
    with its index in the message's ``content``; a loss path is built only for a loss)."""

    __slots__ = (
        "at",
        "calls",
        "items",
        "losses",
        "ordered",
        "reasoning_field",
        "refusals",
        "server",
        "thinking",
        "top",
    )

    def __init__(self, reasoning_field: str | None, losses: LossRecorder, at: Steps) -> None:
        self.reasoning_field = reasoning_field
        """Where another provider's reasoning goes (the option), or None: dropped."""
        self.losses = losses
        self.at = at
        """The message's place."""
        self.thinking: list[tuple[Part, str, int]] = []
        self.items: list[tuple[Part, int]] = []
        self.refusals: list[Part] = []
        self.calls: list[tuple[Part, int]] = []
        self.server: list[Part] = []
        self.ordered = True
        """Whether the parts came in OpenAI's order of the fields (else a loss)."""
        self.top = 0
        """The furthest field a part went to so far."""

    def place(self, slot: int) -> None:
        if slot < self.top:
            self.ordered = False
        else:
            self.top = slot

    def kinds(self) -> list[ContentKind]:
        return [_kind(part) for part, _ in self.items]


def encode_assistant(
    message: Mapping[str, Any], reasoning_field: str | None, losses: LossRecorder, at: Steps, *, response: bool = False
) -> dict[str, Any]:
    """The wire assistant message for a canonical one; ``response`` writes the stricter
    response shape."""
    if "cache_control" in message:
        message = cache_control.onto_last_part(message, losses, at)
    content = message.get("content", "")
    if len(message) == PLAIN_MESSAGE and not response and "content" in message:  # nothing on the message but its parts
        if type(content) is str:  # the wire message as it is
            return {"role": "assistant", "content": content}
        plain = _write_plain_turn(content, reasoning_field, losses, at)
        if plain is not None:
            return plain
    metadata = message.get("provider_metadata")
    KIT.report_foreign(losses, metadata, at)
    bag = KIT.own(metadata)
    # a request's own keys follow the fields written (a fine-tuning row's weight stays last);
    # a response's lead, as its recordings keep them
    fields = (message_fields(bag) if response else spelled_nulls(bag)) if bag else {}
    citations.place_annotations(fields, content, bag, losses, at, response=response)  # before the fields written
    wire: dict[str, Any] = {**fields, "role": "assistant"}
    name = message.get("name")
    if name is not None:
        wire["name"] = name
    cache_control.write(wire, message.get("cache_control"), metadata, losses, at, why=_ON_PARTS)
    if isinstance(content, str):
        wire["content"] = content
        return with_own_fields(wire, bag)
    layout = _lay_out(content, reasoning_field, losses, at)
    if not layout.ordered:
        why = "OpenAI carries reasoning, then content, then refusal, then tool calls"
        losses.add((*at, "content"), "order of the assistant message's parts", why)
    if layout.thinking:
        writer = reasoning.ReasoningWriter(losses, output=response)
        for part, target, index in layout.thinking:
            writer.add(part, target, (*at, "content", index))
        wire.update(writer.fields(at))
    _write_content(wire, layout, bag, losses, at, response=response)
    if layout.calls:
        write_calls(wire, layout.calls, losses, at, response=response)
    if layout.server:
        server_tools.write_server_parts(wire, layout.server, wire.get(server_tools.FIELDS))
    return with_own_fields(wire, bag)


def _write_plain_turn(
    content: list[Part], reasoning_field: str | None, losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    """The wire message of a plain agent turn, or None: its own ``reasoning_content``
    (as this codec read it), then text parts holding nothing else, then calls holding
    nothing else (other providers' bags reported) under names OpenAI takes, and another
    provider's thinking anywhere, dropped with no ``reasoning_field``: what the general
    writing below gives it, and the same losses (parts looked at before anything is written)."""
    texts: list[Part] = []
    calls: list[Part] = []
    dropped: list[int] = []
    bagged: list[int] = []  # calls with other providers' bags (Gemini's, Anthropic's): reported
    thought: str | None = None
    for index, part in enumerate(content):
        kind = part["type"]
        if kind == "text" and not calls and plain_text(part):  # (another provider's spelling dropped)
            texts.append(part)
        elif (
            kind == "tool_use"
            and len(part) == PLAIN_TOOL_USE
            and "arguments" in part
            and (part["name"] in TAKEN or TAKES(part["name"]))
        ):
            calls.append(part)
        elif kind == "tool_use" and foreign_bag_only(part):
            calls.append(part)
            bagged.append(index)
        elif (
            kind == "thinking"
            and reasoning_field is None
            and part.get("provider") != PROVIDER
            and not reasoning.read_here(part)  # a Claude part read from Anthropic has no bag
        ):
            dropped.append(index)
        elif kind == "thinking" and thought is None and not texts and not calls and _own_reasoning_content(part):
            thought = part.get("text", "")
        else:
            return None
    report_plain_turn(content, dropped, bagged, losses, at)
    written: list[dict[str, Any]] = []
    for part in calls:  # a loop: a comprehension's own frame cost more than a turn's few calls (CPython 3.11)
        written.append(plain_call_wire(part, part["name"]))
    return plain_turn_wire(texts, written, thought)


def plain_turn_wire(texts: Sequence[Part], calls: list[dict[str, Any]], thought: str | None) -> dict[str, Any]:
    """The wire message of a plain agent turn: its ``reasoning_content``, its text parts (one
    beside calls or reasoning as a string, which reads back as that one text) and its calls
    as written (:func:`~.tool_calls.plain_call_wire`). :func:`_write_plain_turn`'s, and a
    direct path's (:mod:`chatcodec._direct`)."""
    wire: dict[str, Any] = {"role": "assistant"}
    if thought is not None:
        wire["reasoning_content"] = thought
    if len(texts) == 1 and (calls or thought is not None):
        wire["content"] = texts[0]["text"]
    else:
        wire["content"] = [{"type": "text", "text": part["text"]} for part in texts] if texts else None
    if calls:
        wire["tool_calls"] = calls
    return wire


def report_plain_turn(
    content: Sequence[Part] | Mapping[int, Part], dropped: list[int], bagged: list[int], losses: LossRecorder, at: Steps
) -> None:
    """A plain turn's losses in the general writing's order: reasoning dropped, then bags on calls
    (``content``: the turn's parts by position, at least those named; a direct path's too)."""
    for index in dropped:
        reasoning.drop_loss(content[index].get("provider"), losses, (*at, "content", index))
    for index in bagged:
        KIT.report_foreign(losses, content[index]["provider_metadata"], (*at, "content", index))


def plain_text(part: Part) -> bool:
    """A text part holding nothing else, or nothing but another provider's spelling (an SDK dump's
    ``null`` citations: dropped, nothing reported), which a plain turn writes as its text."""
    return len(part) == PLAIN_TEXT or KIT.bare(part, PLAIN_TEXT)


def foreign_bag_only(call: Part) -> bool:
    """A call of an id, a name OpenAI takes, arguments and other providers' bags, none with a
    Gemini thought signature (:func:`_encode_call` writes one into the call), alone."""
    metadata = call.get("provider_metadata")
    if len(call) != 5 or metadata is None or "arguments" not in call or PROVIDER in metadata:
        return False
    return thought_signatures.split_signature(metadata)[0] is None and (call["name"] in TAKEN or TAKES(call["name"]))


_OWN_REASONING = {PROVIDER: {"field": "reasoning_content"}}
_THINKING_KEYS = frozenset({"type", "text", "provider", "provider_metadata"})


def _own_reasoning_content(part: Part) -> bool:
    """A thinking part this codec read from ``reasoning_content``, with nothing else."""
    return (
        part.get("provider") == PROVIDER
        and part.get("provider_metadata") == _OWN_REASONING
        and part.keys() <= _THINKING_KEYS
    )


def _lay_out(content: list[Part], reasoning_field: str | None, losses: LossRecorder, at: Steps) -> _Layout:
    layout = _Layout(reasoning_field, losses, at)
    for index, part in enumerate(content):
        kind = part["type"]
        if kind == "text":
            layout.items.append((part, index))
            if part["text"]:  # an empty one says nothing, wherever it stood
                layout.place(_ITEM)
        elif kind == "tool_use":
            layout.calls.append((part, index))
            layout.place(_CALL)
        else:
            slot = _place(part, index, layout)
            if slot is not None:
                layout.place(_SLOTS[slot])
    return layout


def _place(part: Part, index: int, layout: _Layout) -> str | None:
    """Where a part other than a text or a tool call goes (None: nowhere, reported)."""
    kind, losses, at = part["type"], layout.losses, layout.at
    if kind == "thinking":
        target = reasoning.field_for(part, layout.reasoning_field)
        if target is None:
            reasoning.drop_loss(part.get("provider"), losses, (*at, "content", index))
            return None
        if target == reasoning.CONTENT:
            if not part.get("text") and part.get("provider") != PROVIDER:  # redacted: its encrypted form alone
                why = "a Mistral thinking chunk is plain text, and this thinking has none (only its encrypted form)"
                losses.add((*at, "content", index), "redacted thinking", why)
                return None
            layout.items.append((part, index))
            return "item"
        layout.thinking.append((part, target, index))
        return target
    if kind == "refusal":
        if KIT.marker(part.get("provider_metadata"), "_field") == "refusal":
            layout.refusals.append(part)
            return "refusal"
        layout.items.append((part, index))
        return "item"
    if kind == "opaque":
        return _place_opaque(part, index, layout)
    losses.add(
        (*at, "content", index), f"{kind} part", "OpenAI assistant messages hold only text, refusals and tool calls"
    )
    return None


def _place_opaque(part: Part, index: int, layout: _Layout) -> str | None:
    losses, at = layout.losses, layout.at
    if server_tools.in_content(part):
        layout.items.append((part, index))
        return "item"
    if server_tools.is_server_part(part):
        layout.server.append(part)
        return "server"
    provider = part["provider"]
    if provider != PROVIDER:
        losses.add((*at, "content", index), f"{provider} block", f"{PROVIDER} cannot carry another provider's block")
        return None
    if KIT.marker(part.get("provider_metadata"), "_in") == "tool_calls":
        layout.calls.append((part, index))
        return "call"
    layout.items.append((part, index))
    return "item"


def _write_content(
    wire: dict[str, Any], layout: _Layout, bag: dict[str, Any], losses: LossRecorder, at: Steps, *, response: bool
) -> None:
    kinds = layout.kinds()
    listed = bag.get("_content") == "list"
    as_string = writes_string(kinds, len(layout.refusals), bool(layout.thinking or layout.calls or layout.server))
    if response and kinds == [ContentKind.PLAIN_TEXT]:
        as_string = True  # a lone text reads back as a string: the normal response shape
    if response and not listed and not as_string:
        _write_joined(wire, layout, losses, at)
        return
    if listed or not as_string:
        encoded = (_encode_item(part, losses, (*at, "content", index)) for part, index in layout.items)
        wire["content"] = [item for item in encoded if item is not None]
        _write_refusal(wire, layout.refusals, losses, at)
        return
    _report_foreign_texts(layout, losses, at)
    texts = [part for part, _ in layout.items if part["type"] == "text"]
    if texts:
        wire["content"] = texts[0]["text"]
    elif (spelled := bag.get("_content")) != "absent":
        wire["content"] = "" if spelled == EMPTY else None
    item_refusals = [part for part, _ in layout.items if part["type"] == "refusal"]
    _write_refusal(wire, [*item_refusals, *layout.refusals], losses, at)


def _write_joined(wire: dict[str, Any], layout: _Layout, losses: LossRecorder, at: Steps) -> None:
    """A response message: text parts joined into one string, refusals into ``refusal``."""
    _report_foreign_texts(layout, losses, at)
    texts = [part["text"] for part, _ in layout.items if part["type"] == "text"]
    refusals = [part for part, _ in layout.items if part["type"] == "refusal"]
    for part, index in layout.items:
        if part["type"] in ("thinking", "opaque"):
            why = "a response message's content is a string"
            losses.add((*at, "content", index), f"{part['type']} part in content", why)
    said = [part for part, _ in layout.items if part["type"] != "text" or part["text"]]
    if len(said) > 1:  # an empty text part joins as nothing
        why = "a response message's content is one string"
        losses.add((*at, "content"), f"{len(said)} content parts joined", why)
    wire["content"] = "".join(texts) if texts else None
    _write_refusal(wire, [*refusals, *layout.refusals], losses, at)


def _report_foreign_texts(layout: _Layout, losses: LossRecorder, at: Steps) -> None:
    """Text parts written as a plain string carry no bag: another provider's data on one
    is reported, as it is on a listed part (an unknown key on an
    Anthropic assistant text block vanished into the string)."""
    for part, index in layout.items:
        if part["type"] == "text" and len(part) > 2:
            KIT.report_foreign(losses, part.get("provider_metadata"), (*at, "content", index))


def _write_refusal(wire: dict[str, Any], refusals: list[Part], losses: LossRecorder, at: Steps) -> None:
    if not refusals:
        return
    if len(refusals) > 1:
        losses.add((*at, "content"), f"{len(refusals)} refusals joined", "OpenAI has one refusal field")
    for part in refusals:
        KIT.report_foreign(losses, part.get("provider_metadata"), (*at, "content"))
        if part.get("cache_control") is not None:
            losses.add((*at, "content"), "cache_control", "the refusal field takes no cache breakpoint")
    wire["refusal"] = "".join(part["text"] for part in refusals)


def _encode_item(part: Part, losses: LossRecorder, steps: Steps) -> dict[str, Any] | None:
    """A part written in a ``content`` list."""
    kind = part["type"]
    if kind == "text" and len(part) == PLAIN_TEXT:
        return dict(part)
    metadata = part.get("provider_metadata")
    KIT.report_foreign(losses, metadata, steps)
    if kind == "text":
        return parts.encode_text_part(part, losses, steps)
    if kind == "refusal":
        if part.get("cache_control") is not None:
            losses.add((*steps, "cache_control"), "cache_control", "refusal parts take no cache breakpoint")
        return {**wire_fields(KIT.own(metadata)), "type": "refusal", "refusal": part["text"]}
    if kind == "thinking":
        return reasoning.encode_content_thinking(part, losses, steps)
    if server_tools.in_content(part):
        return dict(part["data"])
    return parts.encode_opaque(part, losses, steps)
