"""Whether every text the shaping kept is in a rendering: a template's silent drop made a loss.

A template that skips a part (an earlier turn's reasoning, the text beside a call, a field it
does not read) writes no error: the text is simply absent. So each kept text is looked for in
the rendering, and one not found is a loss at its canonical path. ``render`` asks of one
rendering; ``render_turns`` on a prefix-stable template asks of all its prompts at once, which
are prefixes of one text (:func:`shown` up to a prefix's end).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, Final

from chatcodec import AnyMessage
from chatcodec.contract import LossRecorder, Steps

NOT_RENDERED: Final = (
    "the chat template does not render it (it drops this turn's reasoning, the text beside a "
    "call, or reads no such field)"
)
"""Why a kept text absent from the rendering is a loss."""


def message_starts(count: int, ends: list[int | None], origins: list[int]) -> list[int]:
    """For each canonical message, where the text before it is known to end (0 where no end
    before it is known): where its own text is looked for first."""
    starts = [0] * count
    last_end = 0
    position = 0
    for index in range(count):
        while position < len(origins) and origins[position] < index:
            end = ends[position]
            last_end = end if end is not None else last_end
            position += 1
        starts[index] = last_end
    return starts


def check_rendered(
    messages: Sequence[AnyMessage], text: str, recorder: LossRecorder, reported: set[str], starts: list[int]
) -> None:
    """Every text the shaping kept must be in the rendering: a template that skips a part
    leaves a loss, not a silence; ``reported`` are the canonical paths the shaping already
    reported. Each text is looked for from where its message starts (``starts``) before the
    whole text, so a rendering showing every text in its place is read once, not once per text."""
    for index, message in enumerate(messages):  # checked_pieces' walk, with no generator a piece
        content = message.content
        start = starts[index]
        for position, what, value in [(None, "text", content)] if isinstance(content, str) else _pieces(content):
            if not shown(value, text, start) and not (reported and _within(_path(index, position), reported)):
                lose(recorder, index, position, what)


def checked_pieces(messages: Sequence[AnyMessage], reported: set[str]) -> Iterator[tuple[int, int | None, str, str]]:
    """Each text to look for: its message, its part's position (None for a string content),
    what it is and its text; those at or under a ``reported`` path left out."""
    for index, message in enumerate(messages):
        content = message.content
        pieces = [(None, "text", content)] if isinstance(content, str) else _pieces(content)
        for position, what, value in pieces:
            if not reported or not _within(_path(index, position), reported):
                yield index, position, what, value


def lose(recorder: LossRecorder, index: int, position: int | None, what: str) -> None:
    """Record that the text at ``position`` of message ``index`` is not in the rendering."""
    steps: Steps = ("messages", index) if position is None else ("messages", index, "content", position)
    recorder.add(steps, what, NOT_RENDERED)


def _escaped(stripped: str) -> str | None:
    """The inside of ``stripped``'s JSON string (a template writing it with ``tojson``, as
    gpt-oss writes a tool result), None where that is the text itself."""
    escaped = json.dumps(stripped, ensure_ascii=False)[1:-1]
    return None if escaped == stripped else escaped


def _path(index: int, position: int | None) -> str:
    return f"$.messages[{index}]" + ("" if position is None else f".content[{position}]")


def _within(path: str, reported: set[str]) -> bool:
    """Whether a loss at ``path`` or around it (``$.messages[1].content``) is already reported:
    the path or one of the paths it goes on from (before a ``[`` or a ``.``) looked up, so the
    check costs the path's length, not the count of losses (one a message where a template
    drops every answer's reasoning)."""
    return path in reported or any(path[:at] in reported for at, char in enumerate(path) if char in "[.")


def _pieces(content: Sequence[Any]) -> list[tuple[int | None, str, str]]:
    pieces: list[tuple[int | None, str, str]] = []
    for position, part in enumerate(content):  # per part: a loop, no list made for each
        kind = getattr(part, "type", "")
        if kind == "text":
            pieces.append((position, "text part", part.text))
        elif kind == "tool_use":
            if part.kind == "function":
                pieces.append((position, "tool call", part.name))
        elif kind == "thinking":
            if not part.redacted:
                pieces.append((position, "thinking part", part.text))
        elif kind == "tool_result" and isinstance(part.content, str):
            pieces.append((position, "tool result", part.content))
    return pieces


def shown(value: str, text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``value`` is in ``text[:end]``, trimmed or as a JSON string's inside (a template
    writing it with ``tojson``), looked for from ``start`` (where its message starts) first,
    then anywhere; a blank text has no spelling to look for: every rendering shows it. The
    JSON spelling is made only when the trimmed text is not found: it costs an encoding of
    the whole text, and most texts are found as they are."""
    stripped = value.strip()
    if not stripped or text.find(stripped, start, end) >= 0 or (start > 0 and text.find(stripped, 0, end) >= 0):
        return True
    escaped = _escaped(stripped)
    return escaped is not None and (
        text.find(escaped, start, end) >= 0 or (start > 0 and text.find(escaped, 0, end) >= 0)
    )
