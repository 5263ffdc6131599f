"""Where each canonical message of an OpenAI Chat request came from
(:mod:`chatcodec._providers.kit.origins`): consecutive ``tool`` (and ``function``)
messages are one tool message, each result at its own message; an assistant message's
calls are parts after its content, each at its ``tool_calls`` entry."""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict
from chatcodec.contract import Steps

_RESULT_ROLES = ("tool", "function")


_NONE: Mapping[str, Any] = {}
"""A message the reader did not give (an input it reads otherwise): no parts to place."""


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    count, origin = origins_by_index(payload, messages)
    return [origin(index) for index in range(count)]


def origins_by_index(
    payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]
) -> tuple[int, Callable[[int], Origin]]:
    """How many messages ``payload`` is read as, and the origin of one by its index, built
    when asked (a loss names a few): one pass notes where each starts (a run of results: at
    its first)."""
    listed: list[Any] = as_list(payload.get("messages")) or []
    starts: list[int] = []
    after_result = False
    for index, message in enumerate(listed):
        result = is_dict(message) and message.get("role") in _RESULT_ROLES
        if not (result and after_result):
            starts.append(index)
        after_result = result
    return origins_at_starts(payload, messages, starts)


def origins_at_starts(
    payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]] | None, starts: Sequence[int]
) -> tuple[int, Callable[[int], Origin]]:
    """:func:`origins_by_index` when where each message starts is known already (a direct
    path's admission found it, by the same rule, before writing): no pass over the input.
    ``messages`` None: a body a direct path admitted, whose assistant turns the reader reads
    as plain (:func:`plain_turn_origin`), so no canonical message is read to place a part."""
    listed: list[Any] = as_list(payload.get("messages")) or []

    def origin(canonical: int) -> Origin:
        start = starts[canonical]
        at: Steps = ("messages", start)
        message = listed[start]
        role = message.get("role") if is_dict(message) else None
        if role in _RESULT_ROLES:
            end = starts[canonical + 1] if canonical + 1 < len(starts) else len(listed)
            return Origin(at, parts=tuple(("messages", index) for index in range(start, end)))
        if role == "assistant":
            if messages is None:
                return plain_turn_origin(start, message)
            return assistant_origin(at, message, messages[canonical] if canonical < len(messages) else _NONE)
        return Origin(at)

    return len(starts), origin


_REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_details", "thinking_blocks", "thinking")
"""The fields a compatible server keeps an answer's reasoning in (read as thinking parts)."""


def assistant_origin(
    at: Steps, wire: Mapping[str, Any], message: Mapping[str, Any], calls: str = "tool_calls"
) -> Origin:
    """An assistant message's parts: its calls at their ``calls`` entries, its thinking at
    the reasoning field it came from, the rest at the wire content's parts when they are as
    many (a content string: the one text part), else at the message."""
    content = as_list(message.get("content"))
    if content is None:
        return Origin(at)
    reasoning = None
    for key in _REASONING_FIELDS:
        if wire.get(key) is not None:  # (an SDK dump's null beside the field it came from is no place of it)
            reasoning = key
            break
    kinds: list[object] = []
    own = 0  # the parts the wire content holds: neither a call nor the reasoning field's thinking
    for part in content:
        kind: object = part.get("type") if is_dict(part) else ""
        kinds.append(kind)
        if kind != "tool_use" and (kind != "thinking" or not reasoning):
            own += 1
    sent = wire.get("content")
    sent_parts = as_list(sent)
    listed = sent_parts is not None and len(sent_parts) == own
    single = isinstance(sent, str) and own == 1
    parts: list[Steps] = []
    called = placed = 0
    for kind in kinds:
        if kind == "tool_use":
            parts.append((*at, calls, called))
            called += 1
        elif kind == "thinking" and reasoning:
            parts.append((*at, reasoning))
        elif listed:
            parts.append((*at, "content", placed))
            placed += 1
        else:
            parts.append((*at, "content") if single else at)
    return Origin(at, parts=tuple(parts))


def plain_turn_origin(start: int, wire: Mapping[str, Any]) -> Origin:
    """:func:`assistant_origin` of the input's message ``start``, a turn the reader reads as plain
    (``plain_turn.read_plain_turn``), placed from its own fields (:func:`plain_turn_part`)."""
    if _bare(wire):
        return Origin(("messages", start))
    parts: list[Steps] = []
    part = plain_turn_part(start, wire, 0)
    while part is not None:
        parts.append(part)
        part = plain_turn_part(start, wire, len(parts))
    return Origin(("messages", start), parts=tuple(parts))


def plain_turn_part(start: int, wire: Mapping[str, Any], position: int) -> Steps | None:
    """Where the part at ``position`` of the input's message ``start`` is, a turn the reader
    reads as plain (``reasoning_content`` text, ``content`` text or ``null``, a list of
    function calls: ``plain_turn.read_plain_turn`` reads its thinking, its text and its
    calls, in that order), or a direct path admits with its reasoning as ``reasoning`` alone (newer
    vLLM's spelling: a thinking part, as the reader reads it) or with litellm's signed ``thinking_blocks``
    beside the ``reasoning_content`` that copies them (a thinking part a block, all placed at
    the first reasoning field, as :func:`assistant_origin` places them): the thinking at
    ``reasoning_content``, the text at ``content``,
    each call at its ``tool_calls`` entry; None past its last part, and for a bare turn (the
    tests hold it equal to :func:`assistant_origin` of the canonical message)."""
    # the reasoning asked before the bare check: a turn holding one beside its role and content is
    # never bare, and most losses name a turn's reasoning
    if wire.get("reasoning_content") is not None:
        blocks = wire.get("thinking_blocks")  # litellm's: a thinking part each, reasoning_content their copy
        thinking = len(blocks) if blocks else 1
        if 0 <= position < thinking:
            return ("messages", start, "reasoning_content")
        position -= thinking
    elif wire.get("reasoning") is not None:  # newer vLLM's spelling, the turn's one reasoning field
        if not position:
            return ("messages", start, "reasoning")
        position -= 1
    elif _bare(wire):
        return None
    content: Any = wire.get("content")
    calls = wire.get("tool_calls")
    if content.__class__ is list:  # text parts (a direct path admits them plain): each at its place
        if 0 <= position < len(content):
            return ("messages", start, "content", position)
        position -= len(content)
    elif content is not None and (content or not calls):  # (an empty text beside calls: spelling, no part)
        if not position:
            return ("messages", start, "content")
        position -= 1
    return ("messages", start, "tool_calls", position) if calls and 0 <= position < len(calls) else None


def _bare(wire: Mapping[str, Any]) -> bool:
    """A turn the reader reads with its content as that string: a role and a content string
    (``messages._read_messages``), or beside them only an SDK dump's or a server's nulls and an
    empty list of calls (a lone content string, by the general reading: the walk proved nothing
    else there): no parts to place, its content is placed as given."""
    if type(wire.get("content")) is not str:
        return False
    return len(wire) == 2 or (
        not wire.get("tool_calls") and wire.get("reasoning_content") is None and wire.get("reasoning") is None
    )


class AdmittedOrigins:
    """A direct path's loss places (:meth:`chatcodec._losses.LossRecorder.trace` takes :meth:`place`): canonical
    paths traced to a body its admission took (a leading system prompt, user messages, plain
    assistant turns, runs of tool results), from where the admission found each message
    starts. A part (most losses name one) is placed from its message's own fields (a result
    at its message of the run, an assistant turn's part by :func:`plain_turn_part`), any
    other path by the message's :class:`~chatcodec.codec_kit.Origin` (:func:`origins_at_starts`):
    no canonical message is read, where :class:`~chatcodec._providers.kit.origins.Origins`
    reads the one a loss names first."""

    __slots__ = ("_general", "_listed", "_origins", "_payload", "_read", "_starts")

    def __init__(
        self,
        payload: Mapping[str, Any],
        starts: Sequence[int],
        read: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
        general: Container[int] = (),
    ) -> None:
        self._payload = payload
        self._listed: list[Any] = payload["messages"]
        self._starts = starts
        self._read = read
        """The reader's general reading of an assistant turn (its canonical message), which the
        direct path read the turns at ``general`` by: their parts placed by :func:`assistant_origin`."""
        self._general = general
        """The positions (in the messages) of the turns read generally, as the admission found them."""
        self._origins: dict[int, Origin] = {}

    def _general_origin(self, start: int, message: Mapping[str, Any]) -> Origin | None:
        """The origin of a turn read generally (:attr:`_read`), once a turn; None for a plain turn."""
        if self._read is None or start not in self._general:
            return None
        found = self._origins.get(start)
        if found is None:
            found = self._origins[start] = assistant_origin(("messages", start), message, self._read(message))
        return found

    def place(self, path: Steps) -> Steps:
        """``path`` (``("messages", 2, "content", 0)``) as the input numbers it; any other path
        as it is. A method, traced by its bound method (``recorder.trace(origins.place)``):
        a call the interpreter makes without looking ``__call__`` up on each loss."""
        if len(path) == 4:
            head, index, field, position = path
            starts = self._starts
            if (  # a part
                field == "content"
                and head == "messages"
                and type(index) is int
                and type(position) is int
                and 0 <= index < len(starts)
            ):
                start = starts[index]
                message = self._listed[start]
                role = message["role"]
                if role == "assistant":
                    general = self._general_origin(start, message)
                    part = plain_turn_part(start, message, position) if general is None else general.place(path[2:])
                    if part is not None:
                        return part
                elif role in _RESULT_ROLES:
                    end = starts[index + 1] if index + 1 < len(starts) else len(self._listed)
                    if 0 <= position < end - start:
                        return ("messages", start + position)
        if len(path) < 2 or path[0] != "messages" or type(path[1]) is not int:
            return path
        index = path[1]
        if not 0 <= index < len(self._starts):
            return path
        if self._general:
            start = self._starts[index]
            message = self._listed[start]
            if message["role"] == "assistant":
                general = self._general_origin(start, message)
                if general is not None:
                    return general.place(path[2:])
        return origins_at_starts(self._payload, None, self._starts)[1](index).place(path[2:])
