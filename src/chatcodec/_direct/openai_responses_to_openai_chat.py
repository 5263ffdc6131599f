"""OpenAI Responses -> OpenAI Chat, direct: an agent written on the Responses API (the
OpenAI Agents SDK, Codex-style clients) sent to a Chat Completions server through a gateway.

The canonical path reads each item into canonical data (a run of assistant items one turn, a run of
call outputs one tool message) and the OpenAI Chat writer walks that list again. Here the closed
front's validated copy of the items (the reader's own front,
:data:`~chatcodec._providers.openai_responses.wire.ITEMS`) is written as Chat messages in one pass,
for the shapes an agent's history is made of: system, developer and user messages, bare or typed as
Codex sends them (their text parts, a cache breakpoint on them, and a user's images and files), an
assistant turn's reasoning item (summary texts and encrypted content, as the Agents SDK replays it),
text and function calls, custom (freeform) calls as Codex sends its ``apply_patch`` (read by the
reader's ``decode_item``, written by the Chat writer's ``encode_call``: OpenAI Chat has freeform
calls, so no shared history rule acts on them), and outputs of text or parts (a screenshot tool's
image or a file moved to a user message after the run of results by the Chat writer's
``result_content``, a loss each). Every rule is the canonical side's own function, called with the
canonical part and the canonical place: the image reading and writing (the Responses reader's
``decode_parts``, the Chat writer's ``encode_part``: the data URL's text), a call's wire form
(:func:`~chatcodec._providers.openai_chat.tool_calls.plain_call_wire`, for a name OpenAI takes as it
is), reasoning Chat has no field for (the Chat writer's ``drop_loss`` per thinking part, unless the
``reasoning_field`` option names one). The top level (model, tools, settings, target rules, servers)
is the canonical reader's and writer's, run on the body without its items; the Chat writer takes the
messages written here in their place (:class:`DirectReading`).

A top-level ``instructions`` (the Agents SDK sends its agent's) is the canonical reader's leading
system message: written first, every other message's index one further. An assistant turn as a
model's output is replayed (the Agents SDK's typed ``message`` item of one ``output_text``, with the
``phase`` Codex models ask back, or its text beside that ``phase`` as the SDK's easy input message
takes it since 2026, calls with their ``id`` and ``status``) is written in the same
pass: each item's id, status and phase are the reader's bag (``decode_item``: ``split_fields``),
which the Chat writer reports (``report_foreign``) at the item's part, asked once per shape of item
(:mod:`.openai_responses_to_openai_chat_replayed`). A turn of a typed message of other parts (a
refusal, several texts, a text's annotations: url citations after a web search, reported first as
the Chat writer's codec reports a request's), or after reasoning, or whose reasoning item holds its
reasoning texts (``content``) or a ``status``, is read by the reader's ``decode_messages`` and
written by the Chat writer's ``encode_assistant_message``, the canonical path's own two steps for
that one message, as is a
turn holding a hosted tool's call (a ``web_search_call``, a ``local_shell_call``: kept whole by the
reader, dropped with a loss by the writer), and a run of the caller's items kept whole
(``item_reference``, ``local_shell_call_output``: a user message of them, written by the Chat writer's
``encode_plain_message``, which drops it with its losses). A call output with its ``id`` and ``status``
(as the API lists input items) is written as the plain one, its bag's losses the writer's
(:func:`.read_output`). A body of any other shape (a typed input message holding more than its
role and content, reasoning sealed by chatcodec, a custom call's output whose
call is not in the input, calls answered out of place, a call or output naming a hosted call's id,
which the shared history rules drop) is handed back before anything is written (:func:`admitted`),
and a rule that answers outside the admitted shapes on the way (an image Chat cannot carry, a tool
name it rewrites) hands the conversion back too: the canonical path converts it whole, and says what
it refuses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from chatcodec._conversion import read_request_data, trace_source, write_request_data
from chatcodec._direct.canonical_messages import CanonicalMessages
from chatcodec._direct.openai_responses_to_openai_chat_replayed import (
    CALLS,
    HOSTED,
    ITEMS_KEPT_WHOLE,
    OUTPUTS,
    PLAIN_CALL,
    UnadmittedError,
    dropped_call,
    kept_whole,
    one_text,
    output_message,
    plain_reasoning,
    read_call,
    read_output,
    replayed_reasoning,
    replayed_text,
    report_citations,
    said_message,
    unanswered,
    written_output,
)
from chatcodec._losses import LossRecorder
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.openai_chat import reasoning
from chatcodec._providers.openai_chat.assistant import encode_assistant
from chatcodec._providers.openai_chat.markers import KIT as CHAT_KIT
from chatcodec._providers.openai_chat.messages import encode_assistant_message, encode_plain_message, result_content
from chatcodec._providers.openai_chat.parts import encode_part
from chatcodec._providers.openai_chat.tool_calls import TAKEN, TAKES, encode_call, plain_call_wire
from chatcodec._providers.openai_responses.item_reading import decode_item
from chatcodec._providers.openai_responses.messages import decode_messages
from chatcodec._providers.openai_responses.parts import SYSTEM_KINDS, USER_KINDS, decode_parts
from chatcodec._providers.openai_responses.wire import ITEMS

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec.contract import EncodeContext, Steps

SOURCE, TARGET = "openai-responses", "openai-chat"

_ROLES = frozenset({"system", "developer", "user", "assistant"})
"""The roles of a bare message item admitted (``{"role": ..., "content": ...}``, no ``type``)."""


class DirectReading(Reading):
    """The conversion's record for the OpenAI Chat writer, carrying the messages this path
    writes (the writer takes its ``messages`` from :attr:`direct_messages`)."""

    __slots__ = ("_admission", "_instructions", "_items", "_read")

    def __init__(
        self, items: list[dict[str, Any]], instructions: str | None, admission: Admission, read: CanonicalMessages
    ) -> None:
        super().__init__()
        self._items = items
        self._instructions = instructions
        self._admission = admission
        self._read = read

    def direct_messages(self, context: EncodeContext) -> list[dict[str, Any]]:
        """The body's ``messages``, in the writer's place for them (:func:`write_messages`)."""
        return write_messages(self._items, context, self._instructions, self._admission, self._read)


def convert(payload: dict[str, Any], recorder: LossRecorder, writer: Codec) -> dict[str, Any] | None:
    """``payload`` written for OpenAI Chat, its losses in ``recorder``; None when it is not
    of the shapes admitted (``recorder`` is then the caller's to drop)."""
    items: Any = payload.get("input")
    instructions: Any = payload.get("instructions")  # a string, or absent (a list of items: the canonical path's)
    plain = items.__class__ is list and (instructions is None or type(instructions) is str)
    admission = admitted(items) if plain else None
    validated = None if admission is None else ITEMS.front(items)
    if validated is None or admission is None:
        return None
    read = CanonicalMessages(validated, admission.starts, SOURCE, decode_messages)
    noted = DirectReading(validated, instructions, admission, read)
    try:
        canonical = read_request_data({**payload, "input": []}, SOURCE, noted=noted)
        read.lead(canonical.get("messages") or ())
        trace_source(recorder, payload, SOURCE, canonical, messages=read)
        if admission.cited:
            report_citations(admission.cited, read, len(read) - len(admission.starts), recorder, writer)
        return write_request_data(canonical, TARGET, recorder, noted=noted, writer=writer)
    except Exception:  # whatever a rule raised (or UnadmittedError): the canonical path raises it, in its own words
        return None


class Admission(NamedTuple):
    """What :func:`admitted` found of a body's items."""

    starts: list[int]
    """Where each canonical message starts (an item's position)."""
    read: dict[int, int]
    """The assistant turns written from their canonical message (:func:`write_messages`),
    by the position of their first item: the index of the turn among ``starts``."""
    replayed: bool
    """Whether a function call holds its ``id`` or ``status`` (as a model's output is replayed):
    :func:`write_messages` then looks at each call's keys."""
    custom: bool = False
    """Whether a custom call is among the items: :func:`write_messages` then looks for them."""
    kept: bool = False
    """Whether a call output holds its ``id`` or ``status``, or a hosted call is written in the
    pass: :func:`write_messages` then looks for them."""
    cited: list[int] | None = None
    """The turns (among ``starts``) holding a text's annotations, which :func:`convert` reports
    first, as the Chat writer's codec reports a request's url citations; written from their
    canonical message."""


def admitted(items: list[Any]) -> Admission | None:  # noqa: C901, PLR0912, PLR0915 - one loop: a call per item cost a third more
    """Where each canonical message of ``items`` starts (an assistant's text and the calls
    after it are one, a run of call outputs one), when they hold only the shapes
    :func:`write_messages` writes and nothing the shared history rules act on (the
    reader's ``plain_history``): bare message items of a string (a user's may hold text
    and image parts), an assistant's text starting its turn, plain function calls, each
    run of them followed by outputs of text. A turn that holds what a model's output
    replayed holds (the Agents SDK's: a typed ``message`` item of ``output_text`` and
    ``refusal`` parts, a call with its ``id`` and ``status``, reasoning with its
    ``content`` or ``status``) is admitted too; one :func:`write_messages` does not write
    itself (a message of other parts than one text, after reasoning; reasoning with its
    ``content`` or ``status``) is noted in :attr:`Admission.read`: it is written from its
    canonical message. None for any other.

    Asked of the body as given, before the closed front validates it: a body handed back
    costs this walk, not a validation the canonical path then does again. It looks at keys,
    types and roles only; the front checks every value after it."""
    if not items:
        return None
    starts: list[int] = []
    read: dict[int, int] = {}
    cited: list[int] = []  # the turns holding a text's annotations (url citations), in order
    replayed = kept = False
    custom: set[str] = set()  # the call ids of the custom calls so far (their outputs answer them)
    hosted: set[str] = set()  # the ids of the items kept whole (:func:`.kept_whole`)
    bare = False  # the open turn holds hosted calls, and no text or call yet
    previous = ""  # the last item: "reasoning", "text" (an assistant's), "call", "output", "" (another message)
    for position, item in enumerate(items):
        kind = item.get("type") if item.__class__ is dict else False
        if bare and kind not in HOSTED and kind != "reasoning":
            bare = False  # its text (a bare one: a typed message's is read at another place) or a call follows
            if kind not in _CALL_KINDS and (kind is not None or item.get("role") != "assistant"):
                read[starts[-1]] = len(starts) - 1  # no part the writer writes: it drops the message
        if kind in _CUSTOM_KINDS:  # Codex's apply_patch and its output (one look for every other item)
            if kind == "custom_tool_call":  # a freeform call, written by the writer's rule
                call_id = item.get("call_id")
                if not item.keys() <= _CUSTOM_CALL_KEYS or "input" not in item or type(call_id) is not str:
                    return None
                custom.add(call_id)
                if previous != "text" and previous != "call" and previous != "reasoning" and previous != "hosted":  # noqa: PLR1714
                    starts.append(position)
                previous = "call"
                continue
            call_id = item.get("call_id")  # an output of a custom call of this input, as a call's output is
            if type(call_id) is not str or call_id not in custom:
                return None  # (one chained through previous_response_id is marked: the canonical path's)
            kind = "function_call_output"
        if kind == "function_call":
            if "arguments" not in item or "name" not in item or "call_id" not in item:
                return None
            if previous != "text" and previous != "call" and previous != "reasoning" and previous != "hosted":  # noqa: PLR1714
                starts.append(position)
            if len(item) != PLAIN_CALL:  # a replayed call's id and status
                if not item.keys() <= _CALL_KEYS:
                    return None
                replayed = True
            previous = "call"
            continue
        if previous == "call" and kind != "function_call_output":  # calls answered first
            return None
        if previous == "reasoning" and kind is not None and kind != "message" and kind not in HOSTED:
            return None  # its turn's text, calls or hosted calls follow
        if kind == "function_call_output":
            output = item.get("output")
            if "call_id" not in item or (type(output) is not str and not _result_parts(output)):
                return None
            if len(item) != 3:  # as the API lists it: its id and status, the SDK's nulls
                if not _listed_output(item):
                    return None
                kept = True
            if previous != "output":
                starts.append(position)
            previous = "output"
            continue
        if kind == "reasoning":  # first in its turn, or after a hosted call of a turn read whole
            if previous == "text":
                return None
            if previous != "hosted":
                starts.append(position)
            if not plain_reasoning(item):  # its content or status: the turn from its canonical message
                if not replayed_reasoning(item):
                    return None
                read[starts[-1]] = len(starts) - 1
            previous = "reasoning"
            continue
        if (kind is not None and (kind != "message" or item.get("role") == "assistant")) or (
            kind is None and len(item) != 2 and item.get("role") == "assistant"  # (an easy message with its phase)
        ):
            if (
                kind is not None and kind != "message"
            ):  # a hosted tool's call, a reference (any other: the canonical path's)
                if kind not in ITEMS_KEPT_WHOLE or not kept_whole(item, kind, hosted):
                    return None
                if kind not in HOSTED:  # the caller's, a run of them one user message
                    if previous == "reasoning":
                        return None
                    if previous != "carried":
                        starts.append(position)
                    read[starts[-1]] = len(starts) - 1
                    previous = "carried"
                    continue
                if previous == "text":  # the model's, after its text: the writer's losses in another order
                    read[starts[-1]] = len(starts) - 1
                else:  # before its text and calls (after its reasoning or another hosted call): written here
                    if previous != "reasoning" and previous != "hosted":  # noqa: PLR1714
                        starts.append(position)
                    bare = kept = True
                previous = "hosted"
                continue
            # a model's output message, replayed (a turn's first: its calls may follow)
            annotated = None if previous == "text" else output_message(item)
            said = annotated is None and previous != "text" and said_message(item)  # a text with its phase, id, status
            if annotated is None and not said:
                return None
            if previous != "reasoning" and previous != "hosted":  # noqa: PLR1714
                starts.append(position)
            if (
                annotated or previous == "reasoning" or (not said and not one_text(item["content"]))
            ):  # from its canonical message
                read[starts[-1]] = len(starts) - 1
                if annotated and (not cited or cited[-1] != len(starts) - 1):  # its url citations reported first
                    cited.append(len(starts) - 1)
            previous = "text"
            continue
        if len(item) != (2 if kind is None else 3):  # a typed input message (Codex's): read as the bare one
            return None
        role = item.get("role")
        content = item.get("content")
        if role.__class__ is not str or role not in _ROLES:  # a tag of any other type is the front's to refuse
            return None
        if type(content) is not str and (role == "assistant" or not _parts(content, role)):
            return None
        if previous != "reasoning" and (previous != "hosted" or role != "assistant"):
            starts.append(position)  # (an assistant's text after its reasoning or a hosted call is the same turn)
        elif role != "assistant":
            return None
        previous = "text" if role == "assistant" else ""
    if previous == "reasoning" or (hosted and not unanswered(hosted, items)):
        return None
    if bare:
        read[starts[-1]] = len(starts) - 1
    return Admission(starts, read, replayed, bool(custom), kept, cited)


_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments", "id", "status"})
_OUTPUT_KEYS = frozenset({"type", "call_id", "output", "id", "status", "caller", "created_by", "name", "namespace"})
"""A call output's fields as the API lists input items (the SDK's ``ResponseFunctionToolCallOutputItem``)."""


def _listed_output(item: dict[str, Any]) -> bool:
    """Whether a call output holds, beside its type, call id and output, only fields of a listed
    item of text or null (its ``id`` and ``status``, the SDK's dump of its unset fields): the
    reader's bag, reported by the Chat writer (:func:`.read_output`; a null is no loss). A name
    (the writer's loss on a tool message) or an object (a ``caller``: a bag the reader notes
    as deep) is the canonical path's; the front checks the values."""
    if not item.keys() <= _OUTPUT_KEYS:
        return False
    for key, value in item.items():
        if value is not None and key not in _OUTPUT_OWN and (type(value) is not str or key == "name"):
            return False
    return True


_OUTPUT_OWN = ("type", "call_id", "output")

_CALL_KINDS = ("function_call", "custom_tool_call")
_CUSTOM_KINDS = ("custom_tool_call", "custom_tool_call_output")
"""A custom call's and its output's types (a tuple: an item's ``type`` may be any value before the front)."""
_CUSTOM_CALL_KEYS = frozenset({"type", "call_id", "name", "input", "id", "status"})
"""A custom call's fields as a model wrote it (its ``id`` and ``status`` the reader's bag, reported
by the Chat writer's ``encode_custom_call``, the front checks their values)."""


def _parts(content: Any, role: str) -> bool:
    """A list of text parts, and a user's images and files (the front checks their values; the
    reader's bag on a part, such as an image's absent ``detail``, is the Chat writer's
    ``encode_part``'s to claim or report, as on the canonical path)."""
    if content.__class__ is not list or not content:
        return False
    for part in content:
        kind = part.get("type") if part.__class__ is dict else None
        if kind != "input_text" and (kind not in _USER_MEDIA or role != "user"):
            return False
    return True


_USER_MEDIA = ("input_image", "input_file")
"""The parts beside text a user message admitted holds (read and written by the part rules; a tuple:
a part's ``type`` may be any value before the front, a list too)."""


def _result_parts(output: Any) -> bool:
    """A call output of text parts, and images and files (a screenshot tool's: the Chat writer's
    ``result_content`` keeps the texts in the tool message and moves the media to a user message
    after the run of results, a loss each; the front checks their values)."""
    if output.__class__ is not list or not output:
        return False
    for part in output:
        kind = part.get("type") if part.__class__ is dict else None
        if kind != "input_text" and kind not in _USER_MEDIA:
            return False
    return True


def write_messages(  # noqa: C901, PLR0912, PLR0915 - one loop
    items: list[dict[str, Any]],
    context: EncodeContext,
    instructions: str | None,
    admission: Admission,
    read: CanonicalMessages,
) -> list[dict[str, Any]]:
    """The body's ``messages`` for admitted ``items`` (:func:`admitted`) after the top-level
    ``instructions`` (the canonical reader's leading system message, which the Chat writer
    writes as a plain one: the reader's marker is for the Responses writer alone), each loss
    at the place the canonical writer names (the canonical message's index: an assistant's
    reasoning, text and calls are one, a run of outputs one). A turn in
    :attr:`Admission.read` is its canonical message (``read``: the reader's own reading of
    its items) written by the Chat writer's ``encode_assistant_message``."""
    messages: list[dict[str, Any]] = []
    append = messages.append
    turn: dict[str, Any] | None = None  # the open assistant message, which the calls after it join
    listed: list[dict[str, Any]] = []  # the assistant messages whose lone text is a list of one part
    index = -1  # the canonical index of the message being written
    outputs = False  # whether the last item was a call output (a run of them is one canonical message)
    result = -1  # the result of the open tool message
    leading = 0  # the canonical messages before the items' (the instructions)
    if instructions is not None:
        leading = 1
        index = 0
        append({"role": "system", "content": instructions})
    by_reading, starts = admission.read, admission.starts
    position = -1  # counted only when a turn is written from its canonical message (by_reading)
    skip = 0  # the items up to here are such a turn
    thinking: dict[int, int] = {}  # the thinking parts of a turn (its reasoning item's) by its index
    replayed_calls, custom_calls, kept = admission.replayed, admission.custom, admission.kept
    moved: list[dict[str, Any]] = []  # a run of results' media, sent in a user message after it (the Chat writer's)
    for item in items:
        if by_reading:
            position += 1
            if position < skip:
                continue
            at = by_reading.get(position)
            if at is not None:
                index = at + leading
                skip = starts[at + 1] if at + 1 < len(starts) else len(items)
                if moved:  # after the run of results before it
                    append({"role": "user", "content": moved})
                    moved = []
                message = read[index]
                if message["role"] == "assistant":
                    field = reasoning.option(context, ("options", reasoning.PUBLIC_OPTION))
                    encode_assistant_message(message, messages, field, context.losses, ("messages", index))
                else:  # items kept whole (a reference): a user message of them, or none (a loss)
                    written = encode_plain_message(message, context, ("messages", index))
                    if written is not None:
                        append(written)
                turn = None
                outputs = False
                continue
        kind = item.get("type")
        if custom_calls and kind in _CUSTOM_KINDS:  # written as a call (its own rule) or a call's output
            kind = "function_call_output" if kind == "custom_tool_call_output" else "function_call"
        if kind == "function_call_output":
            if not outputs:
                index += 1
                outputs = True
                turn = None
                result = -1
            result += 1
            output = item["output"]
            if kept and len(item) != 3:  # its id and status, as the API lists input items: the bag's losses first
                reported = OUTPUTS.get(tuple(item)) if None not in item.values() else None
                for what, why, loss_kind in (
                    read_output(item, CHAT_KIT.report_foreign) if reported is None else reported
                ):
                    context.losses.add(("messages", index, "content", result), what, why, loss_kind)
            if type(output) is not str:  # (an output of text parts alone read once a shape)
                output = written_output(output, moved, context, ("messages", index, "content", result), result_content)
            append({"role": "tool", "tool_call_id": item["call_id"], "content": output})
            continue
        outputs = False
        if moved:  # the run of results ended: its media after it
            append({"role": "user", "content": moved})
            moved = []
        if kind == "function_call":
            if turn is None:
                index += 1
                turn = {"role": "assistant", "content": None, "tool_calls": []}
                append(turn)
            calls: list[dict[str, Any]] | None = turn.get("tool_calls")
            if calls is None:
                calls = turn["tool_calls"] = []
            if custom_calls and "input" in item:  # a custom call (a function call holds none: admitted)
                place = len(calls) + (thinking.get(index, 0) if thinking else 0) + (turn["content"] is not None)
                calls.append(custom_call(item, context, ("messages", index, "content", place)))
                continue
            append_call(calls, item)
            if replayed_calls and len(item) != PLAIN_CALL:  # its id and status, as a model's output is replayed
                reported = CALLS.get(tuple(item)) if None not in item.values() else None
                if reported is None:
                    reported = read_call(item, CHAT_KIT.report_foreign)
                place = len(calls) - 1 + (thinking.get(index, 0) if thinking else 0) + (turn["content"] is not None)
                for what, why, loss_kind in reported:
                    context.losses.add(("messages", index, "content", place), what, why, loss_kind)
            continue
        if kind == "reasoning":  # (admitted first in its turn, or after its hosted calls)
            place = 0
            if turn is None:
                index += 1
                turn = {"role": "assistant", "content": None}
                append(turn)
                listed.append(turn)
            else:
                place = thinking[index]
            thinking[index] = place + (len(item["summary"]) or 1)
            _drop_reasoning(item, index, context, place)
            continue
        if kept and kind in HOSTED:  # (admitted before its turn's text and calls) a part the writer drops
            if turn is None:
                index += 1
                turn = {"role": "assistant", "content": None}
                append(turn)
                listed.append(turn)
            place = thinking.get(index, 0)
            thinking[index] = place + 1
            for what, why, loss_kind in dropped_call(item, encode_assistant):
                context.losses.add(("messages", index, "content", place), what, why, loss_kind)
            continue
        role, content = item["role"], item["content"]
        if role == "assistant":
            if kind is not None or len(item) != 2:  # a model's text replayed (admitted: one text, first in its turn)
                replayed = replayed_text(item, CHAT_KIT.report_foreign)
                if replayed is None:
                    raise UnadmittedError
                index += 1
                turn = {"role": "assistant", "content": replayed[0]}
                append(turn)
                listed.append(turn)
                for what, why, loss_kind in replayed[1]:
                    context.losses.add(("messages", index, "content", 0), what, why, loss_kind)
                continue
            if turn is None or turn["content"] is not None:  # a turn of its own (not its reasoning's text)
                index += 1
                turn = {"role": "assistant", "content": content}
                append(turn)
            turn["content"] = content
            continue
        index += 1
        turn = None
        if type(content) is not str:
            content = _parts_written(
                content, USER_KINDS if role == "user" else SYSTEM_KINDS, ("messages", index), context
            )
        append({"role": role, "content": content})
    if moved:
        append({"role": "user", "content": moved})
    for message in listed:  # a text beside dropped reasoning, or holding a bag, and no call: a list of the one part
        if "tool_calls" not in message and type(message["content"]) is str:
            message["content"] = [{"type": "text", "text": message["content"]}]
    return messages


def _drop_reasoning(item: dict[str, Any], index: int, context: EncodeContext, first: int) -> None:
    """A reasoning item's thinking parts (one per summary text, or one), which Chat has no
    field for without the ``reasoning_field`` option: each dropped with the Chat writer's
    loss at its canonical place (the turn's parts from ``first``)."""
    if reasoning.option(context, ("options", reasoning.PUBLIC_OPTION)) is not None:
        raise UnadmittedError  # written into a field: the canonical path's
    for position in range(first, first + (len(item["summary"]) or 1)):
        reasoning.drop_loss(SOURCE, context.losses, ("messages", index, "content", position))


def append_call(calls: list[dict[str, Any]], item: dict[str, Any]) -> None:
    """A plain function call item as the Chat writer writes its plain call: a name OpenAI
    takes as it is (another one is rewritten, with a loss: the canonical path's)."""
    name = item["name"]
    if name not in TAKEN and not TAKES(name):
        raise UnadmittedError
    part = {"type": "tool_use", "id": item["call_id"], "name": name, "arguments": item["arguments"]}
    calls.append(plain_call_wire(part, name))


def custom_call(item: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A custom (freeform) call item as the Responses reader reads it (``decode_item``: a
    ``tool_use`` of ``kind: custom``, its ``id`` and ``status`` in its bag) and the Chat writer
    writes it (``encode_call``: OpenAI's custom call, the bag reported at ``at``), for a name
    OpenAI takes as it is (another one is rewritten, with a loss: the canonical path's). OpenAI
    Chat has freeform calls, so the shared history rules leave such a turn as it is."""
    name = item["name"]
    if name not in TAKEN and not TAKES(name):
        raise UnadmittedError
    (part,) = decode_item(item)
    written = encode_call(part, context.losses, at, response=False)
    if written is None:
        raise UnadmittedError
    return written


def _parts_written(
    content: list[Any], kinds: frozenset[str], at: Steps, context: EncodeContext
) -> list[dict[str, Any]]:
    """A message's parts, read by the Responses reader's ``decode_parts`` (the ``kinds`` it
    takes there) and written by the Chat writer's ``encode_part`` (a cache breakpoint on a text
    part its ``cache_control``), each at its canonical place (``at``: the canonical message's;
    a call output's are the writer's ``result_content``'s, which moves its media)."""
    written: list[dict[str, Any]] = []
    for position, part in enumerate(decode_parts(content, kinds)):
        encoded = encode_part(part, context, (*at, "content", position))
        if encoded is None:  # dropped (a loss): the canonical path's, which may drop the message
            raise UnadmittedError
        written.append(encoded)
    return written
