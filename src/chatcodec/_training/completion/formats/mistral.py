"""Mistral: ``[TOOL_CALLS]`` then a JSON array of calls (tokenizers before v11), or
``[TOOL_CALLS]name[ARGS]{...}`` per call (v11 and later; ``[ARGS]`` is a special token a decode
may leave out, and v13 writes ``[CALL_ID]id`` before it).

Source: vLLM's ``vllm/tool_parsers/mistral_tool_parser.py`` and the ``mistral`` and
``mistral_v11`` fixtures of ``tests/tool_parsers/test_format_conformance.py``
(``[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "SF"}}]`` and
``[TOOL_CALLS]get_weather{"city": "SF"}``). Mistral's API takes call ids of nine letters and
digits, so the ids made here are of that shape.
"""

from __future__ import annotations

import re

from chatcodec._training.completion.formats.json_call import read_call_object
from chatcodec._training.completion.json_text import object_members
from chatcodec._training.completion.pieces import Call, Piece, Text, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas

BOT = "[TOOL_CALLS]"
_ARRAY = re.compile(r"\[\s*\{")
_NAMED = re.compile(r"\s*([^\s\[{]+)\s*(?:\[CALL_ID\]\s*([A-Za-z0-9]+)\s*)?(?:\[ARGS\])?")


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    first, *calls = text.split(BOT)
    pieces: list[Piece] = list(text_pieces(first.rstrip() if calls else first))
    for segment in calls:
        if segment.lstrip().startswith("["):
            pieces.extend(_read_array(segment.strip()))
        else:
            pieces.extend(_read_named_or_array(segment))
    return pieces


def _read_named_or_array(segment: str) -> list[Piece]:
    """A v11 call, or an array written after other text (``[TOOL_CALLS] junk [{...}]``):
    vLLM's fallback finds the array there; the text before it is kept as text."""
    named = _read_named(segment)
    if not isinstance(named[0], Unparsed):
        return named
    array = _ARRAY.search(segment)
    if array is None:
        return named
    found = _read_array(segment[array.start() :].strip())
    if not any(isinstance(piece, Call) for piece in found):
        return named
    return [*text_pieces(segment[: array.start()].strip()), *found]


def _read_array(text: str) -> list[Piece]:
    """The pre-v11 array, each call's arguments cut from the text."""
    pieces: list[Piece] = []
    index = 1
    while True:
        while index < len(text) and text[index] in " \t\r\n,":
            index += 1
        if text.startswith("]", index):
            rest = text[index + 1 :].strip()
            return pieces + ([Text(rest)] if rest else [])
        read_object = object_members(text, index)
        if read_object is None:
            tail = text[index:].removesuffix("]").strip()
            return [*pieces, *read_call_object(tail, "a [TOOL_CALLS] array item")] if tail else pieces
        end = read_object[1]
        pieces.extend(read_call_object(text[index:end], "a [TOOL_CALLS] array item"))
        index = end


def _read_named(segment: str) -> list[Piece]:
    """One v11 call: its name, its id when written, its JSON arguments; text after them kept."""
    named = _NAMED.match(segment)
    if named is None or not segment[named.end() :].lstrip().startswith("{"):
        return [Unparsed(BOT + segment, "a [TOOL_CALLS] call with no name and JSON arguments")]
    start = len(segment) - len(segment[named.end() :].lstrip())
    read_object = object_members(segment, start)
    end = len(segment) if read_object is None else read_object[1]
    arguments = segment[start:end] if read_object is not None else segment[start:].rstrip()
    rest = segment[end:].strip()
    pieces: list[Piece] = [Call(named.group(1), arguments, named.group(2))]
    return [*pieces, Text(rest)] if rest else pieces


def nine_characters(index: int) -> str:
    """A made id of the shape Mistral's API takes: nine letters and digits (``call00000``)."""
    return f"call{index:05d}"


MISTRAL = ToolCallParser(
    "mistral",
    read,
    "vllm/tool_parsers/mistral_tool_parser.py; tests/tool_parsers/test_format_conformance.py (mistral, mistral_v11)",
    reasoning="mistral",
    made_id=nine_characters,
)
