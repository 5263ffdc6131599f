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


def message_ends(count: int, ends: list[int | None], origins: list[int]) -> list[int | None]:
    """For each canonical message, where its rendering is known to end (the end of the last
    shaped message it became), None where that is not known."""
    found: list[int | None] = [None] * count
    for origin, end in zip(origins, ends, strict=True):
        if 0 <= origin < count:
            found[origin] = end
    return found


def check_rendered(
    messages: Sequence[AnyMessage],
    text: str,
    recorder: LossRecorder,
    reported: set[str],
    starts: list[int],
    *,
    ends: Sequence[int | None] = (),
) -> None:
    """Every text the shaping kept must be in the rendering: a template that skips a part
    leaves a loss, not a silence; ``reported`` are the canonical paths the shaping already
    reported. Each text is looked for from where its message starts (``starts``) before the
    whole text, so a rendering showing every text in its place is read once, not once per text.

    A text found only outside its message's rendering (``ends``: where each is known to end)
    may be another message's: the same answer repeated, or quoted in a later question, while
    the template dropped it here. Such a text counts as shown only where one of its places is
    no other message's own text (a template that moves a text, as one writing the system
    prompt into the last question, leaves it at a place no message's text explains)."""
    displaced: list[tuple[int, int | None, str, str]] = []
    for index, message in enumerate(messages):  # checked_pieces' walk, with no generator a piece
        content = message.content
        start = starts[index]
        end = ends[index] if index < len(ends) else None
        for position, what, value in [(None, "text", content)] if isinstance(content, str) else _pieces(content):
            stripped = value.strip()
            at = text.find(stripped, start)  # (one search for most texts: found in their place)
            if not stripped or (at >= 0 and (end is None or at + len(stripped) <= end)):
                continue
            if reported and _within(_path(index, position), reported):
                continue
            if not shown(value, text, start):
                lose(recorder, index, position, what)
            elif end is not None and end > start and not shown(value, text, start, end, anywhere=False):
                displaced.append((index, position, what, value))
    if displaced:
        _settle_displaced(messages, text, recorder, displaced, starts=starts, ends=ends)


def _settle_displaced(
    messages: Sequence[AnyMessage],
    text: str,
    recorder: LossRecorder,
    displaced: list[tuple[int, int | None, str, str]],
    *,
    starts: list[int],
    ends: Sequence[int | None],
) -> None:
    """A loss for each text found only at places other messages' own texts explain: every
    place it is at lies in another message's known rendering, one of whose texts holds it."""
    for index, position, what, value in displaced:
        if all(
            owner is not None and owner != index and _holds(messages[owner], place)
            for owner, place in _places(value, text, starts, ends)
        ):
            lose(recorder, index, position, what)


_MOST_PLACES: Final = 64
"""Past this many places a text is taken as shown (a short text found everywhere says nothing)."""


def _places(value: str, text: str, starts: list[int], ends: Sequence[int | None]) -> Iterator[tuple[int | None, str]]:
    """Each place ``value`` (trimmed, or as a JSON string's inside) is at in ``text``: the
    message whose known rendering holds it whole (None: none, or past :data:`_MOST_PLACES`), and
    the spelling found."""
    stripped = value.strip()
    count = 0
    for form in (stripped, _escaped(stripped)):
        if not form:
            continue
        at = text.find(form)
        while at >= 0:
            count += 1
            if count > _MOST_PLACES:
                yield None, form
                return
            yield _owner(at, at + len(form), starts, ends), form
            at = text.find(form, at + 1)


def _owner(first: int, last: int, starts: list[int], ends: Sequence[int | None]) -> int | None:
    """The one message whose known rendering holds ``text[first:last]``, or None."""
    owners = [
        index
        for index, end in enumerate(ends)
        if end is not None and starts[index] <= first and last <= end and end > starts[index]
    ]
    return owners[0] if len(owners) == 1 else None


def _holds(message: AnyMessage, form: str) -> bool:
    """Whether one of ``message``'s own texts holds ``form`` (as it is, or as its JSON inside)."""
    content = message.content
    pieces = [(None, "text", content)] if isinstance(content, str) else _pieces(content)
    return any(form in value or form in (_escaped(value) or "") for _, _, value in pieces)


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


def shown(value: str, text: str, start: int = 0, end: int | None = None, *, anywhere: bool = True) -> bool:
    """Whether ``value`` is in ``text[:end]``, trimmed or as a JSON string's inside (a template
    writing it with ``tojson``), looked for from ``start`` (where its message starts) first,
    then (``anywhere``) from the beginning; a blank text has no spelling to look for: every
    rendering shows it. The JSON spelling is made only when the trimmed text is not found: it
    costs an encoding of the whole text, and most texts are found as they are."""
    again = anywhere and start > 0
    stripped = value.strip()
    if not stripped or text.find(stripped, start, end) >= 0 or (again and text.find(stripped, 0, end) >= 0):
        return True
    escaped = _escaped(stripped)
    return escaped is not None and (text.find(escaped, start, end) >= 0 or (again and text.find(escaped, 0, end) >= 0))
