"""Llama 3.1-3.3 JSON calls: ``{"name": ..., "parameters": {...}}``, optionally after ``<|python_tag|>``,
several separated by ``;``.

Source: vLLM's ``vllm/tool_parsers/llama_tool_parser.py`` (registered ``llama3_json``) and
``tests/tool_parsers/test_llama3_json_tool_parser.py``; Meta's Llama 3.1 prompt format (JSON
function calling: ``{"name": function name, "parameters": dictionary of argument name and its
value}``). A completion that does not start with a call object is text, as vLLM reads it.
"""

from __future__ import annotations

from chatcodec._training.completion.formats.json_call import read_call_object
from chatcodec._training.completion.json_text import object_members
from chatcodec._training.completion.pieces import Piece, Text
from chatcodec._training.completion.tool_call_parser import ToolCallParser
from chatcodec._training.completion.tool_schemas import ToolSchemas

PYTHON_TAG = "<|python_tag|>"


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    body = text.strip()
    tagged = body.startswith(PYTHON_TAG)
    if tagged:
        body = body[len(PYTHON_TAG) :].lstrip()
    if not body.startswith("{"):
        return [Text(text)] if text else []
    pieces: list[Piece] = []
    index = 0
    while index < len(body):
        read_object = object_members(body, index)
        end = read_object[1] if read_object is not None else _next_separator(body, index)
        pieces.extend(read_call_object(body[index:end].strip(), "a Llama 3 call"))
        index = end
        while index < len(body) and body[index] in " \t\r\n;":
            index += 1
    return pieces


def _next_separator(text: str, start: int) -> int:
    """Where an unreadable call ends: at the next ``; {`` or the end."""
    found = text.find(";", start)
    while found >= 0 and not text[found + 1 :].lstrip().startswith("{"):
        found = text.find(";", found + 1)
    return len(text) if found < 0 else found


LLAMA3_JSON = ToolCallParser(
    "llama3_json",
    read,
    "vllm/tool_parsers/llama_tool_parser.py; tests/tool_parsers/test_llama3_json_tool_parser.py",
    reasoning=None,
)
