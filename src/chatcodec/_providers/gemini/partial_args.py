"""Vertex AI's streamed function-call arguments (``partialArgs``).

With ``streamFunctionCallArguments`` on, Vertex sends a call in pieces: ``functionCall
{name, willContinue: true}``, then chunks of ``{partialArgs: [{jsonPath: "$.location",
stringValue: "Bos", willContinue: true}], willContinue: true}``, then an empty
``functionCall {}`` that ends the call (seen in the Vercel AI SDK's recorded fixtures,
``google-stream-tool-call-arguments``). A string value arrives in pieces under one path
and is joined; ``numberValue``, ``boolValue`` and ``nullValue`` arrive whole. The pieces
are gathered and the call's argument object is given as compact JSON text when the call
ends, which is what the non-streamed body's ``args`` decodes to.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from chatcodec import StreamError
from chatcodec.codec_kit import as_dict, as_list, compact_json

_STEP = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")
_VALUE_KEYS = ("stringValue", "numberValue", "boolValue", "nullValue")


class PartialCall:
    """A call whose arguments are still arriving."""

    __slots__ = ("arguments", "call", "index")

    def __init__(self, index: int, call: dict[str, Any]) -> None:
        self.index: int = index
        """The call's part index in its choice."""
        self.call: dict[str, Any] = call
        """The canonical tool-use part (as a dict) the arguments complete."""
        self.arguments: dict[str, Any] = {}

    def add(self, pieces: list[dict[str, Any]], position: int) -> None:
        """Add one chunk's pieces (errors name the chunk's ``position``)."""
        for number, piece in enumerate(pieces):
            steps = _steps(piece["jsonPath"])
            key = next((key for key in _VALUE_KEYS if key in piece), None)
            if steps is None or key is None:
                raise StreamError("unreadable partial argument", f"$.partialArgs[{number}]", position)
            value = None if key == "nullValue" else piece[key]
            if not _set(self.arguments, steps, value, joined=key == "stringValue"):
                raise StreamError(
                    "partial argument path conflicts with an earlier one", f"$.partialArgs[{number}]", position
                )

    def arguments_text(self) -> str:
        """The arguments gathered so far, as compact JSON."""
        return compact_json(self.arguments)


def _steps(json_path: str) -> list[str | int] | None:
    if not json_path.startswith("$"):
        return None
    rest = json_path[1:]
    steps: list[str | int] = []
    position = 0
    for match in _STEP.finditer(rest):
        if match.start() != position:
            return None
        steps.append(match.group(1) if match.group(1) is not None else int(match.group(2)))
        position = match.end()
    return steps if position == len(rest) and steps else None


def _set(target: dict[str, Any], steps: list[str | int], value: object, *, joined: bool) -> bool:
    """Put ``value`` at ``steps`` (a string piece is joined to the one before); False when
    the path runs through a value of another kind."""
    container: Any = target
    for step, following in itertools.pairwise(steps):
        empty: Any = [] if isinstance(following, int) else {}
        container = _child(container, step, empty)
    last = steps[-1]
    items = as_list(container)
    if items is not None and isinstance(last, int):
        while len(items) <= last:
            items.append(None)
        items[last] = _joined(items[last], value, joined)
        return True
    fields = as_dict(container)
    if fields is not None and isinstance(last, str):
        fields[last] = _joined(fields.get(last), value, joined)
        return True
    return False


def _joined(current: object, value: object, joined: bool) -> object:
    if joined and isinstance(current, str) and isinstance(value, str):
        return current + value
    return value


def _child(container: Any, step: str | int, empty: Any) -> Any:
    """The container at ``step`` (made ``empty`` when missing); a mismatched step gives a
    detached container, and :func:`_set` then reports the conflict."""
    items = as_list(container)
    if items is not None and isinstance(step, int):
        while len(items) <= step:
            items.append(None)
        if not isinstance(items[step], list | dict):
            items[step] = empty
        return items[step]
    fields = as_dict(container)
    if fields is not None and isinstance(step, str):
        if not isinstance(fields.get(step), list | dict):
            fields[step] = empty
        return fields[step]
    return None
