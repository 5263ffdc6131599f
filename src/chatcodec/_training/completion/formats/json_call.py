"""One call written as a JSON object ``{"name": ..., "arguments": {...}}``: what hermes,
Mistral's older format and Llama 3's JSON calls share."""

from __future__ import annotations

from chatcodec._training.completion.json_text import object_members, salvage_call, string_value
from chatcodec._training.completion.pieces import Call, Piece, Unparsed

ARGUMENT_KEYS = ("arguments", "parameters")
"""The keys a call object's arguments are written under (Llama 3 writes ``parameters``)."""


def read_call_object(text: str, what: str) -> Piece:
    """The call in ``text`` (one JSON object): its arguments the model's text. An object that
    is not valid JSON keeps its name and its arguments' text when they can be found; otherwise
    the text is kept unparsed."""
    read = object_members(text)
    if read is not None and not text[read[1] :].strip():
        members = read[0]
        name = string_value(members.get("name"))
        if name is not None:
            arguments = next((members[key] for key in ARGUMENT_KEYS if key in members), "")
            return Call(name, arguments)
    salvaged = salvage_call(text)
    if salvaged is not None:
        return Call(*salvaged)
    return Unparsed(text, f"{what} is not a JSON object with a name")
