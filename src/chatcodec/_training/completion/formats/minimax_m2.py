"""MiniMax-M2: ``<minimax:tool_call><invoke name="NAME"><parameter name="KEY">VALUE</parameter></invoke>``
``</minimax:tool_call>``.

Source: vLLM's ``vllm/tool_parsers/minimax_m2_tool_parser.py`` and the ``minimax_m2`` fixture of
``tests/tool_parsers/test_format_conformance.py``. One block may hold several invokes (parallel
calls); values are typed by the tool's schema, a parameter it does not type is a string. A
value runs to the last ``</parameter>`` before the next parameter, so code holding the
closing tag keeps it (:mod:`..markup`).
"""

from __future__ import annotations

import re

from chatcodec._training.completion.markup import elements, strays
from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, stray_pieces, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, repeated_values, typed_arguments

_INVOKE = re.compile(r"""<invoke\s+name=["']?([^"'<>\n]+)["']?\s*>""")
_PARAMETER = re.compile(r"""<parameter\s+name=["']?([^"'<>\n]+)["']?\s*>""")


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_call, span in marked_blocks(text, "<minimax:tool_call>", "</minimax:tool_call>"):
        if not is_call:
            pieces.extend(text_pieces(span))
            continue
        before, invokes = elements(span, _INVOKE, "</invoke>")
        if not invokes:
            pieces.append(Unparsed(f"<minimax:tool_call>{span}</minimax:tool_call>", "a block with no <invoke>"))
            continue
        pieces.extend(stray_pieces(before))
        for invoke in invokes:
            name = invoke.head.group(1).strip()
            inside, parameters = elements(invoke.body, _PARAMETER, "</parameter>")
            values = [(parameter.head.group(1).strip(), parameter.body) for parameter in parameters]
            pieces.append(Call(name, typed_arguments(tools, name, values), repeated=repeated_values(values)))
            pieces.extend(stray_pieces(inside, *strays(parameters), invoke.after))
    return pieces


MINIMAX_M2 = ToolCallParser(
    "minimax_m2",
    read,
    "vllm/tool_parsers/minimax_m2_tool_parser.py; tests/tool_parsers/test_format_conformance.py (minimax_m2)",
    reasoning="minimax_m2",
)
