"""Qwen3-Coder, Qwen3.5/3.6 and Nemotron 3's XML calls (vLLM's ``qwen3_xml`` and ``qwen3_coder``):
``<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>``.

Source: vLLM's ``vllm/tool_parsers/qwen3xml_tool_parser.py`` and ``qwen3coder_tool_parser.py``,
and the ``qwen3_xml`` and ``qwen3_coder`` fixtures of
``tests/tool_parsers/test_format_conformance.py`` (the same wire format under two names):
``<tool_call>\\n<function=get_weather>\\n<parameter=city>\\nSF\\n</parameter>\\n</function>\\n</tool_call>``.
A value's first and last newline are the template's; values are typed by the tool's schema
(a parameter the schema does not type is a string, as vLLM reads it).
"""

from __future__ import annotations

import re

from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, typed_arguments

_FUNCTION = re.compile(r"<function=([^>\n]+)>(.*?)(?:</function>|\Z)", re.DOTALL)
_PARAMETER = re.compile(r"<parameter=([^>\n]+)>(.*?)(?:</parameter>|(?=<parameter=)|\Z)", re.DOTALL)


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_call, span in marked_blocks(text, "<tool_call>", "</tool_call>"):
        if not is_call:
            pieces.extend(text_pieces(span))
            continue
        functions = list(_FUNCTION.finditer(span))
        if not functions:
            pieces.append(Unparsed(f"<tool_call>{span}</tool_call>", "a <tool_call> block with no <function=...>"))
        for function in functions:
            name = function.group(1).strip()
            values = [(key.strip(), _unwrapped(value)) for key, value in _PARAMETER.findall(function.group(2))]
            pieces.append(Call(name, typed_arguments(tools, name, values)))
    return pieces


def _unwrapped(value: str) -> str:
    """A value without the one newline the template writes on each side."""
    return value.removeprefix("\n").removesuffix("\n")


_SOURCE = "vllm/tool_parsers/{}; tests/tool_parsers/test_format_conformance.py ({})"
QWEN3_XML = ToolCallParser("qwen3_xml", read, _SOURCE.format("qwen3xml_tool_parser.py", "qwen3_xml"), reasoning="qwen3")
QWEN3_CODER = ToolCallParser(
    "qwen3_coder", read, _SOURCE.format("qwen3coder_tool_parser.py", "qwen3_coder"), reasoning="qwen3"
)
