"""OpenAI Chat -> Anthropic, direct: the pair with the most traffic (an agent written on the
OpenAI SDK, sent to Claude through a gateway).

The canonical path reads each message into canonical data and the Anthropic writer walks
that list again. Here the messages as given, proved by the admission walk to be what the
reader's closed front (:data:`~chatcodec._providers.openai_chat.common_shapes.COMMON_MESSAGES`)
takes, with no copy built (:func:`~.openai_chat_source.admitted`), are written
as Anthropic turns in one pass, for the shapes an agent's history is made of: a leading
system prompt (and a harness's system or developer message mid-session, a system turn by the writer's own
``encode_messages``, which the target rules move for a model that takes none), a final assistant
turn (a prefill, trimmed by the writer's prefill rule), user text and
images, assistant text, reasoning (litellm's signed ``thinking_blocks`` too) and function calls,
tool results of text and images, and an SDK dump's ``null`` fields. Every rule is the canonical side's own
function, called with the canonical part and the canonical place: the reasoning's reading
(:data:`~chatcodec._providers.openai_chat.plain_parts.STRING_FIELD_PARTS`: ``reasoning_content``, or
``reasoning`` alone as newer vLLM spells it) and its
verdict (:func:`~chatcodec._providers.anthropic.thinking.encode_thinking`; for litellm's signed
blocks asked once a request, then on every turn that differs: :func:`.signed_blocks`), the call's id,
name and argument rules (:func:`~chatcodec._providers.anthropic.parts.encode_tool_use`), a
result's id (:func:`~chatcodec._providers.anthropic.parts.result_id`, the tool-id mapping),
the image reading and writing (``decode_parts``, ``encode_part``: the data URL's split). The top
level of the usual agent request (model, tools, tool choice, a limit, ``stream``) is written
by its fields' rules (:mod:`.top_levels.openai_chat_to_anthropic`); any other top level is the
canonical reader's and writer's, run on the body without its messages, where the Anthropic
writer takes the turns written here in their place (:class:`DirectReading`).

A body of any other shape is handed back before anything is written (:func:`~.openai_chat_source.admitted`), and
a rule that answers outside the admitted shapes on the way (a thinking part sent as text,
an image it cannot carry) hands the conversion back too: the canonical path converts it
whole, and says what it refuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._direct.general_turns import marked_dialect
from chatcodec._direct.openai_chat_source import (
    INSTRUCTION_ROLES,
    NamedResults,
    UnadmittedError,
    admit,
    admitted_origins,
    read_result,
    read_user,
    write_directly,
)
from chatcodec._direct.openai_chat_to_anthropic_reasoned import WriterRules, reasoned_turn
from chatcodec._direct.openai_chat_to_anthropic_signed import signed_blocks, signed_call
from chatcodec._direct.top_levels.openai_chat_to_anthropic import begin_remembering, begun, finish, usual
from chatcodec._direct.top_levels.openai_chat_usual_remembered import recall
from chatcodec._providers.anthropic.capabilities import CAPABILITIES
from chatcodec._providers.anthropic.markers import KIT as TARGET_KIT
from chatcodec._providers.anthropic.messages import (
    AssistantTurns,
    contribute_message,
    encode_messages,
    encode_system,
    report_name,
)
from chatcodec._providers.anthropic.parts import encode_part, encode_tool_use, result_id
from chatcodec._providers.anthropic.thinking import encode_thinking
from chatcodec._providers.anthropic.tool_ids import MAPPING
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.families.claude.prefill import trimmed_prefill
from chatcodec._providers.history.turns import report_developer_roles
from chatcodec._providers.kit.cache import encode_cache_control
from chatcodec._providers.kit.provider_kit import forgotten_with_kits
from chatcodec._providers.openai_chat.assistant import decode_assistant
from chatcodec._providers.openai_chat.cache_control import take as take_cache_control
from chatcodec._providers.openai_chat.markers import KIT as SOURCE_KIT
from chatcodec._providers.openai_chat.parts import decode_part
from chatcodec._providers.openai_chat.plain_parts import STRING_FIELD_PARTS

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossKind, LossRecorder
    from chatcodec._providers.anthropic.encode_context import AnthropicContext
    from chatcodec.contract import Steps

TARGET = "anthropic"

_SANITIZE = MAPPING.sanitize
"""A result's call id as Anthropic takes it (the mapping's cache itself: no attribute looked up a result)."""
_USER_BLOCKS = frozenset({"document", "image", "text"})
"""The blocks a user part the walk admits is written as by ``encode_part`` (an image, a
document, a text with a cache marker)."""


class DirectReading(Reading):
    """The conversion's record for the Anthropic writer, carrying the turns this path writes
    (the writer takes its ``system`` and ``messages`` from :attr:`direct_turns`)."""

    __slots__ = ("_general", "_messages")

    def __init__(self, messages: list[dict[str, Any]], general: set[int]) -> None:
        super().__init__()
        self._messages = messages
        self._general = general

    def direct_turns(self, context: AnthropicContext) -> tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]:
        """The body's ``system`` and ``messages``, in the writer's place for them (:func:`write_turns`)."""
        return write_turns(self._messages, context, self, self._general)


_RULES = WriterRules(AssistantTurns, encode_thinking, encode_tool_use)
"""The writer's rules a reasoned turn is written by (:mod:`.openai_chat_to_anthropic_reasoned`)."""


def convert(payload: dict[str, Any], recorder: LossRecorder, writer: Codec) -> dict[str, Any] | None:
    """``payload`` written for Anthropic, its losses in ``recorder``; None when it is not of
    the shapes admitted (``recorder`` is then the caller's to drop)."""
    admission = admit(payload)
    if admission is None:
        return None
    noted = DirectReading(admission[0], admission[2])
    remembered, text = recall(payload, writer)  # a top level of this text written before (most of a first sight's)
    found = None if remembered is not None else usual(payload, writer, noted)  # the usual agent request
    messages, starts, general = admission
    developer = messages[0]["role"] == "developer"
    later = bool(general) and _later_developer(messages, general)  # (a harness's, mid-session)
    if found is None and remembered is None:  # (a developer message, reported before it: the canonical path's)
        return (
            None
            if developer or later
            else write_directly(payload, recorder, TARGET, writer, noted=noted, admission=admission)
        )
    if later:  # reported by the writer's history rule, first of what it writes, each at its place in the input
        recorder.trace(admitted_origins(payload, starts, general).place)
        report_developer_roles([messages[start] for start in starts], recorder, CAPABILITIES.display_name)
        recorder.trace(None)
    elif developer:
        report_developer_roles(messages[:1], recorder, CAPABILITIES.display_name)
    try:
        if found is not None:
            wire, context = begin_remembering(payload, found, recorder, noted, admission, writer=writer, text=text)
        elif remembered is not None:
            wire, context, found = begun(payload, remembered, recorder, noted, admission)
        else:  # (neither: written above)
            return None
        return finish(wire, write_turns(admission[0], context, noted, admission[2]), found, context)
    except Exception:  # whatever a rule raised (or UnadmittedError): the canonical path raises it, in its own words
        return None


def _later_developer(messages: list[dict[str, Any]], general: set[int]) -> bool:
    """Whether a developer message mid-session is among the ``general`` positions (the walk's)."""
    for position in general:  # noqa: SIM110 - a loop: a generator's frame cost more (most such sessions hold none)
        if messages[position]["role"] == "developer":
            return True
    return False


def write_turns(  # noqa: C901, PLR0912, PLR0915 - one loop
    messages: list[dict[str, Any]], context: AnthropicContext, noted: Reading, general: set[int]
) -> tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]:
    """The body's ``system`` and ``messages`` for admitted ``messages``
    (:func:`~.openai_chat_source.admitted`), each loss at the place the canonical writer names (the canonical
    message's index: a run of tool messages is one). A system prompt of parts and a tool
    result of parts with nothing else on it are written as a user's parts are (a plain text
    as it is, any other part by the reader's ``decode_part`` and the writer's ``encode_part``);
    one with a cache marker on the message is read as the reader reads it
    (:func:`~.openai_chat_source.read_user`, :func:`~.openai_chat_source.read_result`, with
    the conversion's reading ``noted``) and written by the writer's own ``encode_system`` or
    ``encode_part``. ``general``: the positions of the messages the admission walk found beyond a plain turn or
    a call id and a text (:func:`~.openai_chat_source.admitted`), which only those are asked about."""
    system: str | list[dict[str, Any]] | None = None
    start = 0
    if messages[0]["role"] in INSTRUCTION_ROLES:  # (a developer prompt reported before: :func:`convert`)
        start = 1
        while start < len(messages) and messages[start]["role"] == "system":  # a prompt of several messages
            start += 1  # (the walk proved each a system prompt's): read as the reader reads them
        if start == 1:
            system = _system(messages[0], context, noted)
        else:  # written by the writer's own rule, once (each message's markers and reports asked once)
            system = encode_system([read_user(message, noted) for message in messages[:start]], context)
    turns: list[dict[str, Any]] = []
    results: list[dict[str, Any]] | None = None  # the open user turn of tool results, which a user message joins
    index = start - 1  # the canonical index of the message being written
    proved: list[bool] = []  # the verdict on a signed turn's blocks, once proved (:func:`.signed_blocks`)
    written: AssistantTurns | None = None  # the turns the writer's rules write whole (``general_turn``)
    placed: list[int] = []  # where each sits in ``turns``
    names: NamedResults | None = None  # the results with the tool's name, reported (:func:`_tool_result`)
    for position, message in enumerate(messages[start:], start):
        role = message["role"]
        if role == "tool":
            if results is None:
                index += 1
                results = []
                turns.append({"role": "user", "content": results})
            if general and position in general:  # beyond a call id and a text: text parts, a name, a marker
                if names is None:
                    names = NamedResults(TARGET_KIT.claim)
                at = ("messages", index, "content", len(results))
                results.append(_tool_result(message, noted, context, at, names))
            else:  # a call id and a text (an SDK dump's null name beside them)
                tool_use_id = message["tool_call_id"]
                sent = result_id(tool_use_id, context) or _SANITIZE(tool_use_id)
                results.append({"type": "tool_result", "tool_use_id": sent, "content": message["content"]})
            continue
        index += 1
        if role in INSTRUCTION_ROLES:  # mid-session (the walk admitted no other): a system turn by the writer's rule
            turns += encode_messages([read_user(message, noted)] * (index + 1), index, context)
        elif role != "assistant":  # a user's: its text alone a turn of its own, asked here (a call each cost more)
            content = message["content"]
            read = general and position in general  # (a client's dialect: dialect_user)
            if results is None and content.__class__ is str and "cache_control" not in message:
                if read:  # a participant's name beside its text (dialect_user proved no other): the writer's
                    report_name(message, context, ("messages", index))  # report, the text its turn as it is
                turns.append({"role": "user", "content": content})
            else:
                _user_turn(message, turns, results, index, context, noted=noted, read=bool(read))
        elif general and position in general:  # OpenRouter's reasoning details, an index, a client's dialect
            turn = (
                None if marked_dialect(message) else reasoned_turn(message, index, context, _RULES)
            )  # a proved shape's (a named turn's too)
            if turn is None:
                if written is None:
                    written = AssistantTurns(context)
                placed.append(len(turns))  # read by the reader's decode_assistant, written by the writer's rules
                turn = written.write(decode_assistant(message, noted=noted), index)
            turns.append(turn)
        else:
            if "name" in message:  # a participant's (the walk proved a text or a null): the writer's report first
                report_name(message, context, ("messages", index))
            turns.append({"role": "assistant", "content": _assistant_blocks(message, index, context, proved)})
        results = None
    if messages[-1]["role"] == "assistant":  # a prefill: trimmed first, as the writer's ``finish`` trims it
        _prefill(turns[-1], index, context, general=bool(placed) and placed[-1] == len(turns) - 1)
    if written is not None:  # finished after every turn, as the writer finishes its turns
        _finish(written, turns, placed)
    return system, turns


def _prefill(turn: dict[str, Any], index: int, context: AnthropicContext, *, general: bool) -> None:
    """The final assistant turn (a prefill, the canonical ``index``) as the writer's ``finish`` sends
    it: a text's trailing whitespace, which Claude rejects, trimmed and reported by the rule the
    writer shares with Bedrock (``trimmed_prefill``); a turn of blocks whose last text ends in
    whitespace (its place counts the parts the writer dropped) or one the writer's rules write whole
    (``general``) is the canonical path's."""
    content = turn["content"]
    if general:
        raise UnadmittedError
    if content.__class__ is str:
        turn["content"] = trimmed_prefill(content, ("messages", index), context.losses)
    elif content and content[-1]["type"] == "text" and content[-1]["text"][-1:].isspace():
        raise UnadmittedError


def _finish(general: AssistantTurns, turns: list[dict[str, Any]], placed: list[int]) -> None:
    """The turns the writer's rules wrote whole, finished in their places (``placed``) in ``turns``."""
    finished = general.finish()
    if finished is None:  # a turn left empty: the whole writer's
        raise UnadmittedError
    for position, turn in zip(placed, finished, strict=True):
        turns[position] = turn


def _tool_result(
    message: dict[str, Any], noted: Reading, context: AnthropicContext, at: Steps, names: NamedResults
) -> dict[str, Any]:
    """The result block of a tool message beyond a call id and a text (``at``: its place in the
    canonical message of its run): parts with nothing else on the result (text parts as they
    are, an image by the part rules: :func:`_result_parts`), one with the tool's name as
    ``names`` writes it (the name's report by the writer's kit, then the result without it),
    or one with a cache marker on the message (:func:`_result_block`)."""
    if not names.reported(message, at, context.losses) and "cache_control" in message:  # (reported: as without
        return _result_block(message, noted, context, at)  # its name; one with a cache marker: read with both)
    output: Any = message["content"]  # a text, or text and image parts (the walk proved them)
    written = output if type(output) is str else _result_parts(output, context, at)  # nothing else on the result
    tool_use_id = message["tool_call_id"]
    sent = result_id(tool_use_id, context) or _SANITIZE(tool_use_id)
    return {"type": "tool_result", "tool_use_id": sent, "content": written}


_CONTENT = ("content",)
"""The step from a result's place to its parts'."""


def _result_parts(content: list[dict[str, Any]], context: AnthropicContext, at: Steps) -> list[dict[str, Any]]:
    """The blocks of a tool result's parts when the result holds nothing else (no name, no
    marker on the message: no bag), written as a user's parts are (:func:`_user_blocks`): the
    reader's ``decode_tool_result`` reads such a result's parts by ``decode_parts``, and the
    writer's ``_encode_tool_result`` writes them by ``encode_part`` (a plain text as it is),
    leaving out only an empty text, which the walk proved none is; a part it would drop hands
    the conversion back, as a user's does."""
    blocks: list[dict[str, Any]] = []
    _user_blocks(content, blocks, at + _CONTENT, context)  # (two tuples joined: a star build cost more a result)
    return blocks


def _user_turn(
    message: dict[str, Any],
    turns: list[dict[str, Any]],
    results: list[dict[str, Any]] | None,
    index: int,
    context: AnthropicContext,
    *,
    noted: Reading,
    read: bool,
) -> None:
    """A user message beyond a text alone (:func:`write_turns` writes that as it is): a turn of
    its own, or behind the tool results right before it (``results``, the blocks of the open
    turn) in their turn. One with a gateway's cache marker or the participant's name (``read``:
    the walk's ``dialect_user``) is read by the reader's ``decode_plain``
    (:func:`~.openai_chat_source.read_user`) and written by the writer's ``contribute_message``
    (a named one in a turn of its own by its ``encode_messages``: its text stays a string), as
    the canonical path writes it; one of audio parts (``read`` too) as its parts are, an
    audio part dropped and reported by the writer's ``encode_part`` (:func:`_user_blocks`), and
    a turn of its own left with no block not sent, as the writer finishes it."""
    if read and results is None and message.get("name") is not None:  # a turn of its own, written by the
        # writer's own encode_messages from the message at its index (the others before it are not read)
        turns += encode_messages([read_user(message, noted)] * (index + 1), index, context)
        return
    if "cache_control" in message or (read and message.get("name") is not None):
        if results is None:  # else behind the results, in their turn (the last)
            turns.append({"role": "user", "content": []})
        if not contribute_message(turns[-1], read_user(message, noted), index, context):
            raise UnadmittedError
    elif results is not None:  # joins their turn, behind them
        _user_blocks(message["content"], results, ("messages", index, "content"), context)
    else:
        blocks: list[dict[str, Any]] = []
        _user_blocks(message["content"], blocks, ("messages", index, "content"), context)
        if blocks:  # (every part audio: dropped, reported, no turn)
            turns.append({"role": "user", "content": blocks})


def _system(message: dict[str, Any], context: AnthropicContext, noted: Reading) -> str | list[dict[str, Any]] | None:
    """The body's ``system`` for an admitted system prompt: its text as it is, its text parts
    (:func:`_system_blocks`), or one with a gateway's cache marker on the message, read as the
    reader reads it (``decode_plain``: :func:`~.openai_chat_source.read_user`) and written by
    the writer's ``encode_system``."""
    content = message["content"]
    if "cache_control" in message:
        return encode_system([read_user(message, noted)], context)
    return content if type(content) is str else _system_blocks(content, context)


def _system_blocks(content: list[dict[str, Any]], context: AnthropicContext) -> list[dict[str, Any]]:
    """A system prompt of text parts (none blank: the walk proved them), read as the reader reads
    it (``decode_parts``) and written part by part by the writer's ``encode_part``
    (:func:`_user_blocks`), as ``encode_system`` writes the blocks of a system message of parts
    with nothing else on it (the canonical message of the role and its parts): a block each,
    in order, at the message's place; the writer's turn machinery finishes nothing here."""
    blocks: list[dict[str, Any]] = []
    _user_blocks(content, blocks, ("messages", 0, "content"), context)
    return blocks


def _result_block(message: dict[str, Any], noted: Reading, context: AnthropicContext, at: Steps) -> dict[str, Any]:
    """A tool result beyond a call id and a text or plain text parts (a cache marker), read as the reader
    reads it (:func:`~.openai_chat_source.read_result`) and written by the writer's
    ``encode_part``, as its results' general branch writes it."""
    block = encode_part(read_result(message, noted), context, at)
    if block is None:  # a result is always written: refused only if the caller changed it since
        raise UnadmittedError
    return block


def _assistant_blocks(message: Mapping[str, Any], index: int, context: AnthropicContext, proved: list[bool]) -> Any:
    """An admitted plain turn's ``content`` (its canonical ``index``): its reasoning (litellm's
    signed blocks: :func:`.signed_blocks`), its text and its calls, each by the writer's rule at
    its canonical place; a turn of text alone (an SDK dump's nulls beside it or not) its text as
    it is, as the writer writes the reader's string content."""
    calls: list[dict[str, Any]] | None = message.get("tool_calls")  # (an SDK dump's null: none)
    content = message.get("content")  # (a turn of calls may leave it out)
    blocks: list[dict[str, Any]] = []
    if "reasoning_content" not in message or message["reasoning_content"] is None:  # (litellm's thinking_blocks
        # never without it: the walk proved; a server's dump's null is one of its nulls)
        position = _thought(message, "reasoning", index, context) if "reasoning" in message else 0
        if not position and not calls and content.__class__ is str:  # (a turn of text parts: a block each, below)
            return content  # a bare content string stays one (a client's "tool_calls": [] beside it too)
    elif "thinking_blocks" in message:  # litellm's signed thinking (and the reasoning text it repeats)
        position = signed_blocks(message, blocks, index, context, proved)  # (the reader's reading of them)
    else:
        position = _thought(message, "reasoning_content", index, context)
    if content:  # (an empty text beside calls: spelling, no part)
        if content.__class__ is str:
            blocks.append({"type": "text", "text": content})
            position += 1
        else:  # text parts (the walk proved them plain): a block each
            for part in content:
                blocks.append({"type": "text", "text": part["text"]})
            position += len(content)
    for call in calls or ():
        if "extra_content" not in call:  # the usual call (a look: no ``len`` call a call)
            function = call["function"]
            part = {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}
        else:  # Gemini's signature beside it (the walk proved no other): its bag claimed, then the usual call
            part = signed_call(call, context, ("messages", index, "content", position))
        blocks.append(encode_tool_use(part, context, ("messages", index, "content", position)))
        position += 1
    return blocks


def _thought(message: Mapping[str, Any], field: str, index: int, context: AnthropicContext) -> int:
    """A plain turn's reasoning text in ``field`` (the walk proved it text, or an SDK dump's null:
    none), read as the reader reads that field and written by the writer's ``encode_thinking``,
    which drops it, reported (a text Claude cannot verify); the place of the turn's next part.
    One sent as text (the ``unsigned_thinking`` option) is the canonical path's."""
    thought = message[field]
    if thought is None:
        return 0
    if encode_thinking(STRING_FIELD_PARTS[field](thought), context, ("messages", index, "content", 0)) is not None:
        raise UnadmittedError
    return 1


def _user_blocks(content: Any, into: list[dict[str, Any]], place: Steps, context: AnthropicContext) -> None:
    """The blocks of admitted user (or system, or tool result) content at ``place``: a text part
    alone as it is; one with a gateway's cache marker (the walk proved it ``{"type":
    "ephemeral"}``: :func:`_marked_text`); any other part read by the reader's ``decode_part``
    and written by the writer's ``encode_part``."""
    if type(content) is str:
        into.append({"type": "text", "text": content})
        return
    for position, given in enumerate(content):
        if given["type"] == "text" and len(given) == 2:
            into.append({"type": "text", "text": given["text"]})
            continue
        at = (*place, position)
        block = _marked_text(given, context, at) if "cache_control" in given else None
        if block is not None:
            into.append(block)
            continue
        part: dict[str, Any] = decode_part(given)  # as ``decode_parts`` reads a part beyond a plain text
        block = encode_part(part, context, at)
        if block is None and part["type"] == "audio":  # dropped and reported (no turn holds audio)
            continue
        if block is None or block["type"] not in _USER_BLOCKS:  # dropped, or another block: the canonical path's
            raise UnadmittedError
        into.append(block)


def _marked_text(part: dict[str, Any], context: AnthropicContext, at: Steps) -> dict[str, Any] | None:
    """A text part with a gateway's cache marker beside its type and text alone (the walk proved
    it ``{"type": "ephemeral"}``, with a ``ttl`` text or without), read as the reader's
    ``decode_text_part`` reads it with nothing else to keep (its ``cache_control.take``: the
    canonical marker, its spelling marker in the part's bag, attached) and written by the
    writer's ``encode_part`` (the spelling reported, the marker put on the block as a
    breakpoint); None for a part of any other shape.

    What those rules answer depends on the marker alone (its ``ttl``), not on the text: the
    first part of a marker is written by them, and when they gave the text block of the part's
    text with the marker put on it by the context's ``cache`` (its breakpoint the last noted)
    and losses below the part's place, that verdict is the marker's (:data:`_MARKED_TEXTS`):
    a later part of it is its text put in a block by ``cache`` with that canonical marker, the
    losses repeated."""
    if part["type"] != "text" or len(part) != 3:
        return None
    ttl = part["cache_control"].get("ttl")
    known = _MARKED_TEXTS.get(ttl)
    if known is not None:
        context.losses.repeat(known[1], at)
        return context.cache({"type": "text", "text": part["text"]}, known[0], at)
    canonical: dict[str, Any] = {"type": "text", "text": part["text"]}
    bag = {"cache_control": part["cache_control"]}
    take_cache_control(bag, canonical)
    if "cache_control" not in canonical:
        return None
    marker, losses = canonical["cache_control"], context.losses
    count = losses.count()
    block = encode_part(SOURCE_KIT.attach(canonical, bag), context, at)
    report = losses.below(count, at)
    if (
        report is not None
        and block == {"type": "text", "text": part["text"], "cache_control": encode_cache_control(marker)}
        and context.breakpoints
        and context.breakpoints[-1].block is block
    ):
        if len(_MARKED_TEXTS) >= _MAX_MARKERS:  # (a ttl is the caller's text)
            _MARKED_TEXTS.clear()
        _MARKED_TEXTS[ttl] = (marker, report)
    return block


_MARKED_TEXTS: dict[str | None, tuple[dict[str, Any], list[tuple[Steps, str, str, LossKind]]]] = forgotten_with_kits({})
"""The verdict on a marked text part by its marker's ``ttl`` (None: none), proved by
:func:`_marked_text`: the canonical marker the reader reads and the losses the writer's rules
answered, below the part's place. A function of the marker and of what the kits declare (the
spelling's report), so kept across requests (a gateway's agents mark their system prompts the
same way every step) and forgotten when a kit is made."""
_MAX_MARKERS = 64
