"""OpenAI Chat -> OpenAI Responses, direct: an agent's Chat Completions history sent to a model
OpenAI serves only through the Responses API (or a gateway that speaks it).

The canonical path reads each message into canonical data and the Responses writer walks that
list again. Here the messages as given, proved to be what the closed front takes
(:func:`~.openai_chat_source.admit`), are written as ``input`` items in one pass, for the shapes
an agent's history is made of. Every rule is the canonical side's own function, called with the
canonical part and the canonical place: an assistant turn's parts (the reasoning's reading,
:func:`~chatcodec._providers.openai_chat.plain_parts.reasoning_content_thinking`, or
:func:`~chatcodec._providers.openai_chat.plain_parts.reasoning_thinking` for ``reasoning`` alone) are written by
the writer's own :func:`~chatcodec._providers.openai_responses.items.request_turn` (reasoning
that Responses cannot replay reported, a call's name rule, a long ``call_id`` noted for the
target rule); a tool result is
:func:`~chatcodec._providers.openai_responses.messages.plain_output`; user parts are the
reader's ``decode_parts`` and the writer's ``encode_parts`` (the image detail, a ``file:`` URL
reported). An image's ``data:`` URL is read as the URL it is, not split into its media type and
base64 data (``split=False``): the Responses writer sends a base64 source as the data URL it was
split from, character for character, and a URL source as given, so the output and the losses are
the same either way, and the split (a copy of each screenshot's data) is not needed. The
canonical path splits them; the tests hold the two equal.

The top level of the usual agent request (model, tools, tool choice, a limit, ``stream``) is
written by its fields' rules (:mod:`.top_levels.openai_chat_to_openai_responses`); any other top
level (model, tools, settings, target rules) is the canonical reader's and writer's, run on the
body without its messages, where the Responses writer takes the items written here as its
``input`` (:class:`DirectReading`).

A body of any other shape is handed back before anything is written, and so is one a rule
refuses on the way: the canonical path converts it whole, and says what it refuses.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from chatcodec._direct.general_turns import Found, marked_dialect, parts_alone
from chatcodec._direct.openai_chat_assistant_turns import general_shape
from chatcodec._direct.openai_chat_source import (
    NamedResults,
    admit,
    read_result,
    read_user,
    without_name,
    write_directly,
)
from chatcodec._direct.top_levels.openai_chat_to_openai_responses import usual, write
from chatcodec._direct.top_levels.openai_chat_usual_remembered import recall
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.families.google.thought_signatures import attach_signature
from chatcodec._providers.kit.provider_kit import forgotten_with_kits
from chatcodec._providers.openai_chat.assistant import decode_assistant
from chatcodec._providers.openai_chat.parts import decode_parts
from chatcodec._providers.openai_chat.plain_parts import reasoning_content_thinking, reasoning_thinking
from chatcodec._providers.openai_chat.reasoning import BLOCKS, decode_reasoning, reasoning_shape, whole_shape
from chatcodec._providers.openai_chat.tool_calls import decode_tool_call
from chatcodec._providers.openai_responses.items import encode_assistant, report_turn_fields, request_turn
from chatcodec._providers.openai_responses.markers import KIT as TARGET_KIT
from chatcodec._providers.openai_responses.messages import (
    encode_message,
    encode_parts,
    encode_result,
    note_long_call_id,
    output_or_empty,
    plain_output,
    report_name,
)

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossKind, LossRecorder
    from chatcodec._providers.contract.context import EncodeContext
    from chatcodec.contract import Steps

TARGET = "openai-responses"


class DirectReading(Reading):
    """The conversion's record for the Responses writer, carrying the items this path writes
    (the writer takes its ``input`` from :attr:`direct_items`)."""

    __slots__ = ("_general", "_messages")

    def __init__(self, messages: list[dict[str, Any]], general: set[int]) -> None:
        super().__init__()
        self._messages = messages
        self._general = general

    def direct_items(self, context: EncodeContext) -> list[dict[str, Any]]:
        """The body's ``input``, in the writer's place for it (:func:`write_items`)."""
        return write_items(self._messages, context, self, self._general)


def convert(payload: dict[str, Any], recorder: LossRecorder, writer: Codec) -> dict[str, Any] | None:
    """``payload`` written for OpenAI Responses, its losses in ``recorder``; None when it is
    not of the shapes admitted (``recorder`` is then the caller's to drop)."""
    admission = admit(payload)
    if admission is None:
        return None
    noted = DirectReading(admission[0], admission[2])
    remembered, text = recall(payload, writer)  # a top level of this text read before (most of a first sight's)
    found = None if remembered is not None else usual(payload, writer, noted)  # the usual agent request
    if found is None and remembered is None:
        return write_directly(payload, recorder, TARGET, writer, noted=noted, admission=admission)
    try:
        return write(
            payload,
            found,
            recorder,
            noted,
            admission,
            items=noted.direct_items,
            writer=writer,
            remembered=remembered,
            text=text,
        )
    except Exception:  # whatever a rule raised (or UnadmittedError): the canonical path raises it, in its own words
        return None


def write_items(  # noqa: PLR0912, PLR0915 - one loop
    messages: list[dict[str, Any]], context: EncodeContext, noted: Reading, general: set[int]
) -> list[dict[str, Any]]:
    """The ``input`` items for admitted ``messages`` (:func:`~.openai_chat_source.admitted`),
    each loss at the place the canonical writer names (the canonical message's index: a run
    of tool messages is one). An assistant turn's parts are those the reader's
    ``read_plain_turn`` reads from the front's copy (an SDK dump's nulls, which it notes
    for its own writer only, pass by here as they pass by this writer). A tool result beyond
    a call id and a text (parts, a cache marker) is read as the reader reads it
    (:func:`~.openai_chat_source.read_result`, with the conversion's reading ``noted``) and
    written by the writer's ``encode_result``. ``general``: the positions of the messages the
    admission walk found beyond a plain turn or a call id and a text
    (:func:`~.openai_chat_source.admitted`), which only those are read so."""
    holds = context.holds
    items: list[dict[str, Any]] = []
    index = -1  # the canonical index of the message being written
    position = 0  # a tool result's place in its canonical message
    results = False  # whether the last message was a tool result (a run of them is one message)
    proved = _proved()  # the verdict on a general turn's shape (:func:`_general_items`)
    names: NamedResults | None = None  # the results with the tool's name, reported (:func:`_result_item`)
    for at, message in enumerate(messages):
        role = message["role"]
        content: Any = message.get("content")  # (an assistant turn of calls may leave it out)
        read = at in general if general else False  # beyond a plain turn, or a call id and a text (a null name)
        if role == "tool":
            if not results:
                index += 1
                results = True
                position = 0
            if not read:
                items.append(plain_output(message["tool_call_id"], content, holds))
            else:
                if names is None:
                    names = NamedResults(TARGET_KIT.claim)
                items.append(_result_item(message, context, noted, ("messages", index, "content", position), names))
            position += 1
            continue
        results = False
        index += 1
        if type(content) is str and (
            len(message) == 2
            or (role != "assistant" and "cache_control" not in message and (not read or role == "user"))
        ):
            if read:  # a user's name beside its text (dialect_user proved no other; a system turn mid-session is
                report_name(message, context.losses, ("messages", index))  # read): the writer's report
            items.append({"role": role, "content": content})  # a role and its text (and a null name)
        elif role == "assistant" and read:  # OpenRouter's reasoning details, an empty text, a call's index
            if not marked_dialect(message):  # (the walk proved it one of the two: a reasoned turn's shape is proved)
                items += _general_items(message, context, ("messages", index), proved)
            else:  # a client's dialect (dialect_turn): the reader's reading, the writer's rule
                turn = decode_assistant(message, noted=noted)
                items += encode_assistant(turn, context.losses, ("messages", index), holds=holds)
        elif role == "assistant":
            items += _turn_items(message, context, ("messages", index), holds)
        else:
            items.append(_message_item(message, context, noted, ("messages", index), read=read))
    return items


_PROVED: dict[tuple[Any, ...], Found | None] = forgotten_with_kits({})
"""The verdict on each shape of general turn (:func:`~.openai_chat_assistant_turns.general_shape`):
when its parts write what the reader's and writer's general rules write
(:func:`_general_items`) and report nothing before the parts' own losses
(:func:`~.general_turns.parts_alone`), ``[]``; else None.
It depends on the shape alone (the bags the general reading adds are named by the turn's
fields and its calls' keys, the values of which no writer rule reads), so it is asked once per
shape a process, not per request: a dataset's rows and a gateway's agents send the turns of a
few shapes. Bounded: the admitted fields are a few (:data:`~.openai_chat_assistant_turns._REASONED_KEYS`).
Cleared when a kit is made (its declarations decide what the writer reports)."""
_MAX_PROVED = 256


def _proved() -> dict[tuple[Any, ...], Found | None]:
    """:data:`_PROVED`, forgotten whole past its bound."""
    if len(_PROVED) >= _MAX_PROVED:
        _PROVED.clear()
    return _PROVED


def _result_item(
    message: dict[str, Any], context: EncodeContext, noted: Reading, at: Steps, names: NamedResults
) -> dict[str, Any]:
    """The output item of a tool message beyond a call id and a text (``at``: its place in the
    canonical message of its run): one of its call id and text parts alone by the writer's
    ``plain_output`` of their ``encode_parts`` (the reader's ``decode_parts`` of them: such a
    result has no bag), one with the tool's name as ``names`` writes it (the name's report by
    the writer's kit, then the result without it), any other read as the reader reads
    it (:func:`~.openai_chat_source.read_result`, with the conversion's reading ``noted``) and
    written by the writer's ``encode_result``."""
    reported = names.reported(message, at, context.losses)  # the tool's name (written as without it)
    content = message["content"]
    size = len(message) - 1 if reported else len(message)  # its fields beyond a name reported
    if size == 3 and type(content) is list:  # a call id and parts: no bag
        parts = cast("list[dict[str, Any]]", content)
        output = output_or_empty(_input_parts(parts, context, at), _NO_BAG)  # every part dropped: the empty text
        return plain_output(message["tool_call_id"], output, context.holds)
    if size == 3:  # a call id and a text: the name was all else there was
        return plain_output(message["tool_call_id"], content, context.holds)
    return _read_item(without_name(message) if reported else message, context, noted, at)


_NO_BAG: Mapping[str, Any] = MappingProxyType({})
"""The bag of a result of its call id and parts: none."""


def _read_item(message: dict[str, Any], context: EncodeContext, noted: Reading, at: Steps) -> dict[str, Any]:
    """A tool message's output item as the canonical path writes it: the reader's reading
    (:func:`~.openai_chat_source.read_result`), the writer's ``encode_result``."""
    result = read_result(message, noted)
    note_long_call_id(result["tool_use_id"], context.holds)  # the item's call_id is this id
    return encode_result(result, context, at)


def _general_items(
    message: dict[str, Any], context: EncodeContext, at: Steps, proved: dict[tuple[Any, ...], Found | None]
) -> list[dict[str, Any]]:
    """The items of a turn of OpenRouter's reasoning details (an empty text, a call's index:
    :func:`~.openai_chat_assistant_turns.general_turn`): read by the reader's ``decode_assistant`` and
    written by the writer's ``encode_assistant``, or as its parts (:func:`_turn_items`).

    The general reading differs from the parts only by its bags: the turn's (a ``null``
    refusal: spelling) and each call's (the SDK's index), which depend on nothing of the turn
    but its fields and which calls carry an index (its shape,
    :func:`~.openai_chat_assistant_turns.general_shape`). So the first turn of a shape is written both
    ways (the parts' losses taken back, their call ids noted in a copy), and when the items,
    the losses and the notes are the same, that verdict is the shape's (``proved``, kept
    across requests: :data:`_PROVED`): a later turn of the shape is written as its parts,
    the writer's rules asked of each part."""
    shape = general_shape(message)
    verdict = proved.get(shape, _UNSEEN)
    if verdict is not _UNSEEN and verdict is not None:  # (proved: nothing reported before its parts)
        return _reasoned_items(message, context, at, context.holds, reasoning_shape(message))
    losses, holds = context.losses, context.holds
    count = losses.count()
    held = set(holds) if verdict is _UNSEEN and holds is not None else None  # the notes before, for the trial
    items = encode_assistant(decode_assistant(message), losses, at, holds=holds)
    if verdict is _UNSEEN:
        found = losses.below(count, at)
        middle = losses.count()
        trial = _reasoned_items(message, context, at, held, reasoning_shape(message))
        alone = found is not None and parts_alone(found, losses.below(middle, at))
        proved[shape] = [] if alone and trial == items and held == holds else None
        losses.take_back(middle)
    return items


def _turn_items(
    message: dict[str, Any], context: EncodeContext, at: Steps, holds: set[str] | None
) -> list[dict[str, Any]]:
    """An assistant turn's items: its parts as the reader reads a closed copy's (its reasoning
    fields by ``decode_reasoning`` when litellm's signed ``thinking_blocks`` are there; a
    general turn's, OpenRouter's ``reasoning_details``, are :func:`_reasoned_items`'), written
    by the writer's ``request_turn`` (its long call ids noted in ``holds``)."""
    if "name" in message:  # a participant's (the walk proved a text or a null): the writer's report first
        report_turn_fields(message, context.losses, at)
    if "thinking_blocks" in message:  # the reader's reading of its reasoning fields (a copy marked), once a shape
        return _reasoned_items(message, context, at, holds, _signed_shape(message))
    parts: list[Mapping[str, Any]] = []
    if (thought := message.get("reasoning_content")) is not None:
        parts.append(reasoning_content_thinking(thought))
    elif (thought := message.get("reasoning")) is not None:  # newer vLLM's spelling (the walk: its one field)
        parts.append(reasoning_thinking(thought))
    return request_turn([*parts, *_said(message)], context.losses, at, holds)


def _signed_shape(message: Mapping[str, Any]) -> tuple[Any, ...]:
    """What the thinking parts ``decode_reasoning`` reads from a turn of litellm's signed
    ``thinking_blocks`` are, but for their texts (:func:`_reasoned_items`' key): the admission
    proved each block Claude's ``thinking`` block of a text and a signature alone, and the
    ``reasoning_content`` beside them their texts joined (``signed``), so the parts are one a
    block, of the same fields and bags, and differ in their texts and signatures, and in which
    of those are empty. Tagged apart from any ``reasoning_shape`` (a tuple of entries first)."""
    blocks = message[BLOCKS]
    if len(blocks) == 1 and len(blocks[0]) == 3:  # litellm's usual turn, a signed block: no list built
        block = blocks[0]
        return (BLOCKS, (not block["thinking"], not block["signature"]))
    return (BLOCKS, *[_block_shape(block) for block in blocks])


def _block_shape(block: Mapping[str, Any]) -> tuple[Any, ...]:
    """One block's part in :func:`_signed_shape`: whether its text and signature are empty; for a
    block of a text alone (no signature), that it is one and whether its text is; for a redacted
    block (its ``data`` alone: the admission proved it not empty), that it is one."""
    if "data" in block:
        return ("redacted",)
    if "signature" not in block:
        return ("unsigned", not block["thinking"])
    return (not block["thinking"], not block["signature"])


def _said(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """An assistant turn's text (a string, or text parts) and calls as the reader's parts (a closed
    copy's: no bags; an empty text beside calls is spelling, no part)."""
    content = message.get("content")
    parts: list[Mapping[str, Any]]
    if content:  # a text, or text parts (the walk proved them plain)
        parts = (
            [{"type": "text", "text": content}]
            if content.__class__ is str
            else [{"type": "text", "text": part["text"]} for part in content]
        )
    else:  # (an empty text beside calls: spelling, no part)
        parts = [] if content is None or message.get("tool_calls") else [{"type": "text", "text": content}]
    for call in message.get("tool_calls") or ():
        if "extra_content" in call:  # Gemini's signature beside it (the walk proved no other): the reader's reading
            parts.append(_signed_call(call))
            continue
        function = call["function"]
        name, arguments = function["name"], function["arguments"]
        parts.append({"type": "tool_use", "id": call["id"], "name": name, "arguments": arguments})
    return parts


def _signed_call(call: dict[str, Any]) -> dict[str, Any]:
    """The reader's part of a call with Gemini's thought signature (the walk proved its shape: a
    plain call's fields and ``extra_content.google.thought_signature`` alone): a plain call's part
    with the signature attached to it by the reader's own ``attach_signature``. What
    ``decode_tool_call`` reads of that shape differs from call to call in those texts alone, so
    its reading of the first such call (a signature not empty) proves the attachment the same
    (:data:`_SIGNED_READ`), and later calls are not read again."""
    function = call["function"]
    plain = {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}
    signature = call["extra_content"]["google"]["thought_signature"]
    if _SIGNED_READ and signature:
        return attach_signature(plain, signature)
    part = decode_tool_call(call)
    if signature and part == attach_signature(plain, signature):
        _SIGNED_READ[True] = True
    return part


_SIGNED_READ: dict[bool, bool] = forgotten_with_kits({})
"""Holds one entry once :func:`_signed_call` proved the reader's reading of a signed call (kept for
the process; forgotten when a kit is made, as the reader's bags are its kit's)."""


_STAND_INS: dict[tuple[Any, ...], list[dict[str, Any]] | None] = forgotten_with_kits({})
"""The thinking parts of one turn of each reasoning shape (``reasoning_shape``, or
:func:`_signed_shape`), their texts changed (none of the caller's kept), which the Responses
writer was proved not to write (:func:`_reasoned_items`), or None when it does; kept across
requests, as :data:`_PROVED` is.
Bounded: forgotten whole past :data:`_MAX_PROVED` shapes."""
_UNSEEN: Any = object()
"""A reasoning shape not met yet (:func:`_reasoned_items`)."""
_TEXTS = ("text", "signature", "encrypted")
"""The fields of a thinking part that stand for its texts (what a shape holds only as empty or not)."""


def _reasoned_items(
    message: Mapping[str, Any],
    context: EncodeContext,
    at: Steps,
    holds: set[str] | None,
    shape: tuple[Any, ...] | None,
) -> list[dict[str, Any]]:
    """A turn's items with its reasoning fields read: OpenRouter's ``reasoning_details``
    (``shape``: the turn's ``reasoning_shape``) or litellm's signed ``thinking_blocks``
    (:func:`_signed_shape`, whole as the admission proved it).

    The parts ``decode_reasoning`` reads from turns of one shape differ in their
    texts alone, and the writer drops another provider's reasoning whole, its texts unread
    (one loss a part). So the first turn of a shape is written twice, with its parts and with
    their texts changed (the trial's losses taken back, its call ids noted in a copy); when
    the items, the losses and the notes are the same, the changed parts stand in for a later
    turn's (:data:`_STAND_INS`): the writer's ``request_turn`` asks its rules of them, at their
    places, and the turn's reasoning fields are not read again."""
    try:
        known = _UNSEEN if shape is None else _STAND_INS.get(shape, _UNSEEN)
    except TypeError:  # an entry's value of no hash (a list): read, and kept nowhere
        shape = None
        known = _UNSEEN
    said = _said(message)
    losses = context.losses
    if known is not None and known is not _UNSEEN:
        return request_turn([*known, *said], losses, at, holds)
    read = decode_reasoning(message)[0]
    held = set(holds) if holds is not None and shape is not None and known is _UNSEEN else None
    count = losses.count()
    items = request_turn([*read, *said], losses, at, holds)
    if shape is not None and known is _UNSEEN:
        found = losses.below(count, at)
        middle = losses.count()
        changed = [{**part, **{key: _other(part[key]) for key in _TEXTS if key in part}} for part in read]
        trial = request_turn([*changed, *said], losses, at, held)
        same = found is not None and trial == items and held == holds and losses.below(middle, at) == found
        losses.take_back(middle)
        if len(_STAND_INS) >= _MAX_PROVED:
            _STAND_INS.clear()
        _STAND_INS[shape] = changed if same and (shape[0] == BLOCKS or whole_shape(shape)) else None
    return items


def _other(text: object) -> object:
    """Another text of the same emptiness, none of the caller's (:func:`_reasoned_items`' trial,
    and what the memory keeps)."""
    return text if not text or type(text) is not str else "\x00"


def _message_item(
    message: dict[str, Any], context: EncodeContext, noted: Reading, at: Steps, *, read: bool
) -> dict[str, Any]:
    """A system or user message of parts (:func:`_input_parts`), or a user message with a
    gateway's cache marker, the participant's name or an audio part (``read``: the walk's
    ``dialect_user``), read by the reader's ``decode_plain``
    (:func:`~.openai_chat_source.read_user`) and written by the writer's own ``encode_message``
    (the marker a breakpoint on the last part, the name reported)."""
    if read or "cache_control" in message:
        return encode_message(read_user(message, noted, split=False), context, at)
    return {"role": message["role"], "content": _input_parts(message["content"], context, at)}


def _input_parts(parts: list[dict[str, Any]], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """The ``input`` parts of a message's or a tool result's ``parts`` (at ``at``): the reader's
    ``decode_parts`` and the writer's ``encode_parts``, or, for parts of a shape proved before
    (:func:`_parts_shape`: a system prompt with a cache marker on a part, a task or a result with a
    document or a screenshot), that shape's parts with these texts in them (:data:`_TEXT_ITEMS`).

    The first parts of a shape are written, then tried with their texts changed (a text's, a
    document's data and file name, an image's URL but its head); when the parts are the trial's
    with the texts in their places and the losses the same, later parts of the shape are a
    ``marshal`` copy of the trial's with their own texts, the losses repeated."""
    shape = _parts_shape(parts)
    if shape is _TEXTS_ALONE:  # the reader reads a text part as it is (the walk proved none blank)
        return encode_parts(parts, context, at)
    losses = context.losses
    known = _UNSEEN if shape is None else _TEXT_ITEMS.get(shape, _UNSEEN)
    if known is not None and known is not _UNSEEN:  # a shape proved: its parts, these texts in them
        written, found = known
        if found:  # (most shapes write none)
            losses.repeat(found, at)
        return _filled(written, parts)
    read = cast("list[dict[str, Any]]", decode_parts(parts, split=False))  # a list gives a list
    count = losses.count()
    content = encode_parts(read, context, at)
    if shape is not None:
        found = losses.below(count, at)
        middle = losses.count()
        trial = encode_parts([_changed(part) for part in read], context, at)
        text = marshal.dumps(trial)
        same = found is not None and losses.below(middle, at) == found and _filled(text, parts) == content
        losses.take_back(middle)
        if len(_TEXT_ITEMS) >= _MAX_PROVED:
            _TEXT_ITEMS.clear()
        _TEXT_ITEMS[shape] = (text, found) if same and found is not None else None
    return content


_TEXT_ITEMS: dict[tuple[Any, ...], tuple[bytes, list[tuple[Steps, str, str, LossKind]]] | None] = forgotten_with_kits(
    {}
)
"""The ``input`` parts of a message's or a result's parts by their shape (:func:`_parts_shape`),
as the writer wrote them from its parts with their texts changed (a ``marshal`` text: each use a
new copy, none of the caller's texts kept), and the losses below the parts' place, when one
message of the shape was written as those parts with its own texts in their places and the same
losses (:func:`_input_parts`); None when not. Kept across requests and bounded as
:data:`_STAND_INS`."""


def _parts_shape(parts: list[dict[str, Any]]) -> tuple[Any, ...] | None:
    """What the reader's ``decode_parts`` and the writer's ``encode_parts`` see of text, document
    and image parts but their texts: each text part's fields in order, its cache marker's fields
    and values, whether its text is empty; each document's (:func:`_document_shape`) and image's
    (:func:`_image_shape`); None for content of another part or a marker of values beyond texts;
    :data:`_TEXTS_ALONE` for parts all plain texts (the writer's ``encode_parts`` of them as they are)."""
    shape: list[Any] = []
    worth = False
    for part in parts:
        kind = part["type"]
        if kind != "text":
            entry = _document_shape(part) if kind == "file" else _image_shape(part) if kind == "image_url" else None
            if entry is None:
                return None
            shape.append(entry)
            worth = True
            continue
        if len(part) == 2:
            shape.append(not part["text"])
            continue
        marker: Any = part.get("cache_control")
        if len(part) != 3 or marker.__class__ is not dict:
            return None
        for value in marker.values():  # a loop: a generator's frame cost more, cold
            if value.__class__ is not str:
                return None
        shape.append((tuple(part), tuple(marker.items()), not part["text"]))
        worth = True
    return tuple(shape) if worth else _TEXTS_ALONE


_TEXTS_ALONE: tuple[Any, ...] = ("plain texts",)
""":func:`_parts_shape`'s answer for parts all plain texts, which the reader reads as they are."""


def _document_shape(part: dict[str, Any]) -> tuple[Any, ...] | None:
    """What the reader and the writer see of a document part (OpenAI's ``file``, as the front
    took it) of a ``data:`` URL but its texts: its file's fields in order, the URL's head (before
    its first comma: the media type, which says whether the reader splits it and how the writer
    writes it back), whether the URL is ASCII (the reader's ``fits_a_data_url``), whether its
    file name is empty; None for a part with a marker, a file by id, or data that is no such URL
    (read every time)."""
    if len(part) != 2:
        return None
    file = part["file"]
    data = file.get("file_data")
    if data is None or "file_id" in file:
        return None
    comma = data.find(",", 0, _LONGEST_HEAD)
    if comma < 0 or not data.startswith(_DATA):
        return None
    return (tuple(file), data[:comma], data.isascii(), not file.get("filename"))


def _image_shape(part: dict[str, Any]) -> tuple[Any, ...] | None:
    """What the reader (its URL read as given: ``split=False``) and the writer see of an image part
    of a ``data:`` URL but its text: its ``image_url``'s fields in order, its detail, the URL's head
    (before its first comma: its media type); None for a part with a marker, litellm's bare URL,
    or a URL of another scheme or of no comma near its start (read every time)."""
    image: Any = part["image_url"]
    if len(part) != 2 or image.__class__ is not dict:
        return None
    url = image["url"]
    comma = url.find(",", 0, _LONGEST_HEAD)
    if comma < 0 or not url.startswith(_DATA):
        return None
    return (tuple(image), image.get("detail"), url[:comma])


_LONGEST_HEAD = 128
"""The longest ``data:`` URL head a shape holds (a media type and its parameters): a URL of a
longer head is read every time, and no shape keeps more of the caller's text."""
_DATA = "data:"
"""The scheme of the URLs a shape holds the head of (another URL's head is a caller's address)."""


def _changed(part: Mapping[str, Any]) -> dict[str, Any]:
    """A read part with its texts changed (:func:`_input_parts`' trial): a text's, a document's
    base64 data and file name, an image's URL but its head."""
    if part["type"] == "text":
        return {**part, "text": _other(part["text"])}
    changed = {**part}
    source: Mapping[str, Any] = part.get("source") or {}
    kind = source.get("type")
    if kind == "base64":
        changed["source"] = {**source, "data": _other(source["data"])}
    elif kind == "url":  # its head kept (the shape's), the rest changed
        url: str = source["url"]
        changed["source"] = {**source, "url": url[: url.find(",") + 1] + "\x00"}
    if "filename" in part:
        changed["filename"] = _other(part["filename"])
    return changed


def _filled(written: bytes, parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A new copy of the ``input`` parts ``written`` (:data:`_TEXT_ITEMS`), each holding the
    texts of its part of ``parts`` (as many, in order; a proved shape's): a text's, a document's
    data URL and file name, an image's URL."""
    content: list[dict[str, Any]] = marshal.loads(written)
    if len(content) != len(parts):
        return []  # not these parts': no proof
    for item, part in zip(content, parts, strict=True):
        if part["type"] == "text":
            item["text"] = part["text"]
            continue
        if part["type"] == "image_url":  # an image of a data URL, read as given (_image_shape)
            item["image_url"] = part["image_url"]["url"]
            continue
        file = part["file"]  # a document of a data URL (_document_shape)
        item["file_data"] = file["file_data"]
        if "filename" in file:
            item["filename"] = file["filename"]
    return content
