"""Hermes (NousResearch Hermes 2/3, Qwen2.5, Qwen3): ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``.

Source: vLLM's ``vllm/tool_parsers/hermes_tool_parser.py`` and the ``hermes`` fixture of
``tests/tool_parsers/test_format_conformance.py``: ``<tool_call>\\n{"name": "get_weather",
"arguments": {"city": "SF"}}\\n</tool_call>``, text before the first call is the answer's text.
Several call objects in one block, separated by commas, are each a call (SGLang's
``base_format_detector.py`` reads them so).
"""

from __future__ import annotations

from chatcodec._training.completion.formats.json_call import read_call_objects
from chatcodec._training.completion.pieces import Piece
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas

OPENER = "<tool_call>"
CLOSER = "</tool_call>"


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_call, span in marked_blocks(text, OPENER, CLOSER):
        if is_call:
            pieces.extend(read_call_objects(span.strip(), "a <tool_call> block"))
        else:
            pieces.extend(text_pieces(span))
    return pieces


HERMES = ToolCallParser(
    "hermes",
    read,
    "vllm/tool_parsers/hermes_tool_parser.py; tests/tool_parsers/test_format_conformance.py (hermes)",
    reasoning="qwen3",
)
