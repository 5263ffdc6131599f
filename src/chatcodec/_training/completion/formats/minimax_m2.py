"""MiniMax-M2: ``<minimax:tool_call><invoke name="NAME"><parameter name="KEY">VALUE</parameter></invoke>``
``</minimax:tool_call>``.

Source: vLLM's ``vllm/tool_parsers/minimax_m2_tool_parser.py`` and the ``minimax_m2`` fixture of
``tests/tool_parsers/test_format_conformance.py``. One block may hold several invokes (parallel
calls); values are typed by the tool's schema, a parameter it does not type is a string.
"""

from __future__ import annotations

import re

from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, typed_arguments

_INVOKE = re.compile(r"""<invoke\s+name=["']?([^"'>]+)["']?\s*>(.*?)(?:</invoke>|\Z)""", re.DOTALL)
_PARAMETER = re.compile(r"""<parameter\s+name=["']?([^"'>]+)["']?\s*>(.*?)(?:</parameter>|\Z)""", re.DOTALL)


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_call, span in marked_blocks(text, "<minimax:tool_call>", "</minimax:tool_call>"):
        if not is_call:
            pieces.extend(text_pieces(span))
            continue
        invokes = list(_INVOKE.finditer(span))
        if not invokes:
            pieces.append(Unparsed(f"<minimax:tool_call>{span}</minimax:tool_call>", "a block with no <invoke>"))
        for invoke in invokes:
            name = invoke.group(1).strip()
            pieces.append(Call(name, typed_arguments(tools, name, _PARAMETER.findall(invoke.group(2)))))
    return pieces


MINIMAX_M2 = ToolCallParser(
    "minimax_m2",
    read,
    "vllm/tool_parsers/minimax_m2_tool_parser.py; tests/tool_parsers/test_format_conformance.py (minimax_m2)",
    reasoning="minimax_m2",
)
