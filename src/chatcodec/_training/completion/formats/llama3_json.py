"""Llama 3.1-3.3 JSON calls: ``{"name": ..., "parameters": {...}}``, optionally after ``<|python_tag|>``,
several separated by ``;`` (or each after its own ``<|python_tag|>``).

Source: vLLM's ``vllm/tool_parsers/llama_tool_parser.py`` (registered ``llama3_json``) and
``tests/tool_parsers/test_llama3_json_tool_parser.py``; Meta's Llama 3.1 prompt format (JSON
function calling: ``{"name": function name, "parameters": dictionary of argument name and its
value}``). Calls may follow prose (vLLM finds them anywhere); the prose before them and the
text after the last one are the message's text, where vLLM drops them.
"""

from __future__ import annotations

import re

from chatcodec._training.completion.formats.json_call import read_call_object
from chatcodec._training.completion.json_text import object_members
from chatcodec._training.completion.pieces import Piece
from chatcodec._training.completion.tool_call_parser import ToolCallParser, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas

PYTHON_TAG = "<|python_tag|>"
_CALL_START = re.compile(r'\{\s*"name"\s*:')
_TAGGED_CALL = re.compile(r'<\|python_tag\|>\s*(?=\{\s*"name"\s*:)')
_NEXT_CALL = re.compile(r'(?:;|<\|python_tag\|>)\s*(?=\{\s*"name"\s*:)')


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    tag = text.find(PYTHON_TAG)
    if tag >= 0:
        return [*text_pieces(text[:tag].strip()), *_calls(text[tag + len(PYTHON_TAG) :].strip(), 0)]
    found = _CALL_START.search(text)
    if found is None:
        return text_pieces(text)
    return [*text_pieces(text[: found.start()].strip()), *_calls(text, found.start())]


def _calls(body: str, index: int) -> list[Piece]:
    """The calls from ``body[index:]`` on, separated by ``;``, whitespace or the tag; the text after the
    last call kept as text. Each span is read once."""
    pieces: list[Piece] = []
    while index < len(body):
        if not _CALL_START.match(body, index):
            return [*pieces, *text_pieces(body[index:].strip())]
        read_object = object_members(body, index)
        if read_object is not None:
            end = read_object[1]
        else:  # unreadable: it runs to the next '; {"name":' or the end
            separator = _NEXT_CALL.search(body, index)
            end = len(body) if separator is None else separator.start()
        pieces.extend(read_call_object(body[index:end].strip(), "a Llama 3 call"))
        index = _after_separators(body, end)
    return pieces


def _after_separators(body: str, end: int) -> int:
    """The index after the separators between two calls: ``;``, whitespace, and a
    ``<|python_tag|>`` written again before each call (SGLang's ``llama32_detector.py``).
    Separators with no call after them (a ``;`` after the last call) are not separators:
    ``end`` is returned, so they stay in the text after the calls."""
    index = end
    while True:
        while index < len(body) and body[index] in " \t\r\n;":
            index += 1
        tagged = _TAGGED_CALL.match(body, index)
        if tagged is None:  # a tag with no call after it stays in the text
            return index if _CALL_START.match(body, index) or ";" not in body[end:index] else end
        index = tagged.end()


LLAMA3_JSON = ToolCallParser(
    "llama3_json",
    read,
    "vllm/tool_parsers/llama_tool_parser.py; tests/tool_parsers/test_llama3_json_tool_parser.py",
    reasoning=None,
)
