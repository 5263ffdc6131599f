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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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


class Origins:
    """Canonical message paths traced to the input, found when first asked
    (``find`` reads the input again)."""

    __slots__ = ("_find", "_origins")

    def __init__(self, find: Callable[[], Sequence[Origin]]) -> None:
        self._find = find
        self._origins: Sequence[Origin] | None = None

    def __call__(self, path: Steps) -> Steps:
        """``path`` (``("messages", 2, "content", 0)``) as the input numbers it; any other path as it is."""
        if len(path) < 2 or path[0] != "messages" or path[1].__class__ is not int:
            return path
        if self._origins is None:
            try:
                self._origins = self._find()
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # an input a reader refused
                self._origins = ()
        index = int(path[1])
        if not 0 <= index < len(self._origins):
            return path
        return self._origins[index].place(path[2:])


def checked(origins: list[Origin], messages: Sequence[Message]) -> list[Origin]:
    """``origins`` with each one's ``parts`` kept only where they count the canonical
    message's parts (a reader that made up or merged a part: the input's message is
    named, not a guess of the part); none when the messages are not counted alike."""
    if len(origins) != len(messages):
        return []
    for index, (origin, message) in enumerate(zip(origins, messages, strict=True)):
        content = as_list(message.get("content"))
        if origin.parts is not None and content is not None and len(content) != len(origin.parts):
            origins[index] = Origin(origin.at, origin.content, ())
    return origins


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
