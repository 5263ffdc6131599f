"""Where each canonical message came from in the payload a reader was given, so a loss
found while writing names the place in the caller's input, not in the canonical list.

A reader does not number messages as its input does: a top-level system field (Anthropic
``system``, Gemini ``systemInstruction``, Bedrock ``system``, Responses ``instructions``)
becomes message 0 and shifts the rest, consecutive OpenAI Chat or Ollama ``tool``
messages become one tool message, a user turn's results and other blocks become two
messages (Anthropic, Bedrock, Gemini), Responses items are grouped into messages. Each
provider's ``origins.py`` says where its messages came from, read from the input again
only when a loss is reported (:meth:`chatcodec._losses.LossRecorder.trace`), so a
conversion without losses pays nothing for it.

A loss names a few messages of a history, so an ``origins.py`` may also give
``origins_by_index(payload, messages)``: how many messages the input is read as, and a function
giving the origin of one by its index (one pass over the input says where each starts; the
origin, with its parts, is built only for a message a loss names). Its ``message_origins`` is
then every index's origin. A folder without one is read through its ``message_origins`` list.
A folder may also give ``origins_at_starts(payload, messages, starts)``, the same when where each
message starts is known already: a direct path's admission found it, and the input is not
passed over again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

from chatcodec._losses import Steps
from chatcodec._narrow import as_list
from chatcodec._public_label import shown_as

Message = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Origin:
    """Where one canonical message is in the input."""

    at: Steps
    """The input's message (``("messages", 0)``; ``("system",)`` for a top-level system)."""
    content: Steps | None = None
    """Where its content is (``at`` + ``content`` when not given: Gemini's ``parts``, or
    the top-level system field itself)."""
    parts: tuple[Steps, ...] | None = None
    """Where each of its parts is, when not ``content`` + the part's index (grouped
    results, split turns, calls kept beside the content)."""

    def place(self, rest: Steps) -> Steps:
        """``rest`` (the steps after ``("messages", i)``) in the input."""
        if not rest or rest[0] != "content":
            return (*self.at, *rest)
        if len(rest) >= 2 and rest[1].__class__ is int:
            position = int(rest[1])
            if self.parts is not None:
                if 0 <= position < len(self.parts):
                    return (*self.parts[position], *rest[2:])
                return self.at  # a part the input does not hold as one (made up by the reader)
        content = (*self.at, "content") if self.content is None else self.content
        return (*content, *rest[1:])


@dataclass(frozen=True, slots=True)
class OriginsByIndex:
    """The origins of the messages read from an input, each built when asked: what a
    loss needs is the origin of the message it names, not every message's."""

    count: int
    """How many canonical messages the input is read as."""
    origin: Callable[[int], Origin]
    """The origin of the canonical message at an index (``0 <= index < count``)."""

    def every(self) -> list[Origin]:
        """Every message's origin, in order (``message_origins``' list)."""
        return [self.origin(index) for index in range(self.count)]

    @classmethod
    def listed(cls, origins: Sequence[Origin]) -> OriginsByIndex:
        """Every message's origin, found at once (an outside codec's ``message_origins``)."""
        return cls(len(origins), origins.__getitem__)


def _none(index: int) -> Origin:
    raise IndexError(index)


_NOTHING = OriginsByIndex(0, _none)
"""No origin found: every path is named as the canonical messages number it."""

_REFUSED = (KeyError, TypeError, ValueError, AttributeError, IndexError)
"""What reading an input the reader refused may raise: its losses are named as it numbers them."""


class Origins:
    """Canonical message paths traced to the input: ``find`` reads the input again when a
    path is first asked (:func:`origins_in`), and the origin of each message a path names is
    built, and checked against that message (:func:`checked_origin`), once."""

    __slots__ = ("_find", "_found", "_messages", "_placed")

    def __init__(self, find: Callable[[], OriginsByIndex], messages: Sequence[Message]) -> None:
        self._find = find
        self._messages = messages
        self._found: OriginsByIndex | None = None
        self._placed: dict[int, Origin] = {}

    def __call__(self, path: Steps) -> Steps:
        """``path`` (``("messages", 2, "content", 0)``) as the input numbers it; any other path as it is."""
        if len(path) < 2 or path[0] != "messages" or path[1].__class__ is not int:
            return path
        index = int(path[1])
        origin = self._placed.get(index)
        if origin is None:
            found = self._read() if self._found is None else self._found
            if not 0 <= index < found.count:
                return path
            try:
                origin = checked_origin(found.origin(index), self._messages[index])
            except _REFUSED:  # an input a reader refused
                self._found = _NOTHING
                return path
            self._placed[index] = origin
        return origin.place(path[2:])

    def _read(self) -> OriginsByIndex:
        """What ``find`` says, none when the input is not read as the messages are counted."""
        try:
            found = self._find()
        except _REFUSED:  # an input a reader refused
            found = _NOTHING
        self._found = found if found.count == len(self._messages) else _NOTHING
        return self._found


def checked_origin(origin: Origin, message: Message) -> Origin:
    """``origin`` with its ``parts`` kept only where they count ``message``'s parts (a reader
    that made up or merged a part: the input's message is named, not a guess of the part)."""
    if origin.parts is not None:
        content = as_list(message.get("content"))
        if content is not None and len(content) != len(origin.parts):
            return Origin(origin.at, origin.content, ())
    return origin


FindOrigins = Callable[[Mapping[str, Any], Sequence[Message]], list[Origin]]
"""A folder's ``message_origins(payload, messages)``: every message's origin."""
OriginsFinder = Callable[[Mapping[str, Any], Sequence[Message]], tuple[int, Callable[[int], Origin]]]
"""A folder's ``origins_by_index(payload, messages)``: the count of messages, and each one's origin by index."""


StartsFinder = Callable[[Mapping[str, Any], Sequence[Message], Sequence[int]], tuple[int, Callable[[int], Origin]]]
"""A folder's ``origins_at_starts(payload, messages, starts)``: ``origins_by_index`` when
where each message starts in the input is known already."""


def origins_in(
    module: ModuleType | None,
    payload: Mapping[str, Any],
    messages: Sequence[Message],
    starts: Sequence[int] | None = None,
) -> OriginsByIndex:
    """Where ``messages`` (read from ``payload``) came from, as the folder's origins ``module``
    says: its ``origins_at_starts`` when ``starts`` (where each message starts in the input,
    a direct path's admission) is given and it has one, else its ``origins_by_index``, else
    its ``message_origins`` list; none without a module."""
    if module is None:
        return _NOTHING
    if starts is not None:
        at_starts: StartsFinder | None = getattr(module, "origins_at_starts", None)
        if at_starts is not None:
            return OriginsByIndex(*at_starts(payload, messages, starts))
    by_index: OriginsFinder | None = getattr(module, "origins_by_index", None)
    if by_index is not None:
        return OriginsByIndex(*by_index(payload, messages))
    find: FindOrigins = module.message_origins
    return OriginsByIndex.listed(find(payload, messages))


def origins_module(package: str | None) -> ModuleType | None:
    """The module saying where a provider folder's messages came from: the folder's
    ``origins.py``, or the module its ``markers.ROLES`` names for ``"origins"`` (a family's);
    ``None`` for a folder without one."""
    if not package:
        return None
    roles: Mapping[str, str] = getattr(sys.modules.get(f"{package}.markers"), "ROLES", {})
    name = roles.get("origins") or f"{package}.origins"
    try:
        return sys.modules.get(name) or import_module(name)
    except ModuleNotFoundError:
        return None


def system_origin(at: Steps) -> Origin:
    """A top-level system field (a string, or a list of blocks) read as message 0: its
    blocks are the message's parts, in order."""
    return Origin(at, at)


def split_turn(
    at: Steps, blocks: Sequence[object], is_result: Callable[[object], bool], skip: Callable[[object], bool]
) -> list[Origin]:
    """A user turn read as its results' tool message then its other blocks' user message
    (Anthropic, Bedrock): the origins of the one or two messages; ``skip``: a block that
    is no part of its own (a cache point the reader joins to the part before)."""
    results: list[Steps] = []
    rest: list[Steps] = []
    for position, block in enumerate(blocks):
        if skip(block):
            continue
        (results if is_result(block) else rest).append((*at, "content", position))
    found = [Origin(at, parts=tuple(results))] if results else []
    if rest or not results:
        found.append(Origin(at, parts=tuple(rest)))
    return found


def origins_by_run(at: Steps, key: str, blocks: Sequence[object], is_result: Callable[[object], bool]) -> list[Origin]:
    """A turn read as one message per run of results and of other parts, in order
    (Gemini): the origins of its messages (one, empty, for a turn of no parts)."""
    found: list[Origin] = []
    current: list[Steps] = []
    kind: bool | None = None
    for position, block in enumerate(blocks):
        result = is_result(block)
        if kind is not None and result != kind:
            found.append(Origin(at, (*at, key), tuple(current)))
            current = []
        kind = result
        current.append((*at, key, position))
    found.append(Origin(at, (*at, key), tuple(current)))
    return found


shown_as("chatcodec.codec_kit", Origin, split_turn, system_origin, origins_by_run)
