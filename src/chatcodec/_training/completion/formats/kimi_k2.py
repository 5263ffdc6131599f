"""Kimi K2: calls in ``<|tool_calls_section_begin|>...<|tool_calls_section_end|>``, each
``<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{...}<|tool_call_end|>``.

Source: vLLM's ``vllm/tool_parsers/kimi_k2_tool_parser.py``, the ``kimi_k2`` fixture of
``tests/tool_parsers/test_format_conformance.py`` and ``tests/tool_parsers/test_kimi_k2_tool_parser.py``.
The model writes its own call id (``functions.get_weather:0``), kept as the call's id; the
name is the id's part between ``functions.`` and ``:``.
"""

from __future__ import annotations

from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas

SECTION = ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>")
CALL = ("<|tool_call_begin|>", "<|tool_call_end|>")
ARGUMENTS = "<|tool_call_argument_begin|>"


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_section, span in marked_blocks(text, *SECTION):
        if not is_section:
            pieces.extend(text_pieces(span))
            continue
        for is_call, call in marked_blocks(span, *CALL):
            if is_call:
                pieces.append(_call(call))
            elif call.strip():
                pieces.append(Unparsed(call, "text inside the tool-call section, outside any call"))
    return pieces


def _call(text: str) -> Piece:
    call_id, marker, arguments = text.partition(ARGUMENTS)
    call_id = call_id.strip()
    name = call_id.split(":", 1)[0].removeprefix("functions.")
    if not marker or not name:
        return Unparsed(CALL[0] + text + CALL[1], "a Kimi K2 call with no functions.NAME:INDEX id and arguments")
    return Call(name, arguments.strip(), call_id)


KIMI_K2 = ToolCallParser(
    "kimi_k2",
    read,
    "vllm/tool_parsers/kimi_k2_tool_parser.py; tests/tool_parsers/test_format_conformance.py (kimi_k2)",
    reasoning="kimi_k2",
)
