"""Qwen3-Coder, Qwen3.5/3.6 and Nemotron 3's XML calls (vLLM's ``qwen3_xml`` and ``qwen3_coder``):
``<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>``.

Source: vLLM's ``vllm/tool_parsers/qwen3xml_tool_parser.py`` and ``qwen3coder_tool_parser.py``,
and the ``qwen3_xml`` and ``qwen3_coder`` fixtures of
``tests/tool_parsers/test_format_conformance.py`` (the same wire format under two names):
``<tool_call>\\n<function=get_weather>\\n<parameter=city>\\nSF\\n</parameter>\\n</function>\\n</tool_call>``.
A value's first and last newline are the template's; values are typed by the tool's schema
(a parameter the schema does not type is a string, as vLLM reads it). A ``<function=...>``
block written without ``<tool_call>`` around it is a call too, as vLLM's Qwen3 parser engine
reads it (``vllm/frontend/processing/parser/qwen3.py``: ``FUNC_PREFIX`` in content).
"""

from __future__ import annotations

import re

from chatcodec._training.completion.markup import elements, strays
from chatcodec._training.completion.pieces import Call, Piece, Text, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, stray_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, repeated_values, typed_arguments

_FUNCTION = re.compile(r"<function=([^<>\n]+)>")
_PARAMETER = re.compile(r"<parameter=([^<>\n]+)>")


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_call, span in marked_blocks(text, "<tool_call>", "</tool_call>"):
        if is_call:
            found = _functions(span, tools)
            if not any(isinstance(piece, Call) for piece in found):
                found = [Unparsed(f"<tool_call>{span}</tool_call>", "a <tool_call> block with no <function=...>")]
            pieces.extend(found)
        elif _FUNCTION.search(span):  # a bare <function=...> block
            pieces.extend(_functions(span, tools))
        elif span:
            pieces.append(Text(span))
    return pieces


def _functions(span: str, tools: ToolSchemas) -> list[Piece]:
    """The calls in ``span`` in order, each followed by the text written after it or inside
    it outside its parameters."""
    before, functions = elements(span, _FUNCTION, "</function>")
    pieces = stray_pieces(before)
    for function in functions:
        name = function.head.group(1).strip()
        inside, parameters = elements(function.body, _PARAMETER, "</parameter>")
        values = [(parameter.head.group(1).strip(), _unwrapped(parameter.body)) for parameter in parameters]
        pieces.append(Call(name, typed_arguments(tools, name, values), repeated=repeated_values(values)))
        pieces.extend(stray_pieces(inside, *strays(parameters), function.after))
    return pieces


def _unwrapped(value: str) -> str:
    """A value without the one newline the template writes on each side."""
    return value.removeprefix("\n").removesuffix("\n")


_SOURCE = "vllm/tool_parsers/{}; tests/tool_parsers/test_format_conformance.py ({})"
QWEN3_XML = ToolCallParser("qwen3_xml", read, _SOURCE.format("qwen3xml_tool_parser.py", "qwen3_xml"), reasoning="qwen3")
QWEN3_CODER = ToolCallParser(
    "qwen3_coder", read, _SOURCE.format("qwen3coder_tool_parser.py", "qwen3_coder"), reasoning="qwen3"
)
