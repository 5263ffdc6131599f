"""One call written as a JSON object ``{"name": ..., "arguments": {...}}``: what hermes,
Mistral's older format and Llama 3's JSON calls share.

Text the model wrote beside the object (before it, after it, in the same block) is text of
the message, in order; a member beside the name and the arguments is reported by its text.
"""

from __future__ import annotations

import re

from chatcodec._training.completion.json_text import object_in_string, object_members, salvage_call, string_value
from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import stray_pieces

ARGUMENT_KEYS = ("arguments", "parameters")
"""The keys a call object's arguments are written under (Llama 3 writes ``parameters``)."""
NO_ARGUMENTS = "{}"
"""The arguments of a call object written with a name alone (``{"name": "x"}``): none, as
SGLang's JSON detectors read it (an empty object)."""
_SEPARATOR = re.compile(r"\s*[,;]\s*")
"""What stands between two call objects written in one block."""
STRING_ARGUMENTS = "the arguments were written as a JSON string holding an object, read as that object"
"""What is reported for a call whose arguments the model wrote as a string of JSON (Granite 4's
hermes calls): vLLM's hermes parser reads the object, not a string, and so does chatcodec."""


def read_call_object(text: str, what: str) -> list[Piece]:
    """The call in ``text`` (one JSON object, maybe with text around it): its arguments the
    model's text. An object that is not valid JSON keeps its name and its arguments' text
    when they can be found; otherwise the text is kept unparsed."""
    return _read(text, what, several=False)


def read_call_objects(text: str, what: str) -> list[Piece]:
    """The calls in ``text``: one call object, or several written in one block separated by
    commas or semicolons (``{...}, {...}``, as SGLang's JSON detectors read a block), each read
    as :func:`read_call_object` reads one."""
    return _read(text, what, several=True)


def _read(text: str, what: str, *, several: bool) -> list[Piece]:
    start = text.find("{")
    if start < 0:
        return [Unparsed(text, f"{what} is not a JSON object with a name")]
    first = _call_at(text, start)
    if first is not None:
        call, end = first
        pieces: list[Piece] = [*stray_pieces(text[:start].strip()), call]
        while several and end < len(text) and (separator := _SEPARATOR.match(text, end)) is not None:
            following = _call_at(text, separator.end())
            if following is None:
                break
            call, end = following
            pieces.append(call)
        return [*pieces, *stray_pieces(text[end:].strip())]
    before = text[:start].strip()
    salvaged = salvage_call(text[start:])
    if salvaged is not None:
        name, arguments, unread = salvaged
        return [*stray_pieces(before), Call(name, arguments, unread=unread)]
    return [Unparsed(text, f"{what} is not a JSON object with a name")]


def _call_at(text: str, start: int) -> tuple[Call, int] | None:
    """The call object at ``text[start:]`` and the index after it; None when no valid JSON
    object with a string ``name`` starts there."""
    read = object_members(text, start)
    if read is None:
        return None
    members, end = read
    name = string_value(members.get("name"))
    if name is None:
        return None
    key = next((key for key in ARGUMENT_KEYS if key in members), None)
    rest = {member: raw for member, raw in members.items() if member not in ("name", key)}
    unread = ", ".join(f"{member!r}: {raw}" for member, raw in rest.items())
    arguments = NO_ARGUMENTS if key is None else members[key]
    unwrapped = object_in_string(arguments)
    if unwrapped is not None:
        return Call(name, unwrapped, unread=unread, respelled=STRING_ARGUMENTS), end
    return Call(name, arguments, unread=unread), end
