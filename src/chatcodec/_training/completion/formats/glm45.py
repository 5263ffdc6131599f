"""GLM-4.5/4.6/4.7: ``<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>``.

Source: vLLM's ``vllm/tool_parsers/glm4_moe_tool_parser.py`` and ``glm47_moe_tool_parser.py``
(registered ``glm45`` and ``glm47``) and the ``glm4_moe`` fixture of
``tests/tool_parsers/test_format_conformance.py``:
``<tool_call>get_weather\\n<arg_key>city</arg_key>\\n<arg_value>SF</arg_value>\\n</tool_call>``
(GLM-4.7 leaves out the newline after the name). A value the tool's schema does not type as a
string is read as JSON where it is JSON (vLLM's rule for GLM), else kept as text.
"""

from __future__ import annotations

import re

from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, typed_arguments

_PAIR = re.compile(r"<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)(?:</arg_value>|\Z)", re.DOTALL)


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_call, span in marked_blocks(text, "<tool_call>", "</tool_call>"):
        if not is_call:
            pieces.extend(text_pieces(span))
            continue
        name = span.split("<arg_key>", 1)[0].strip()
        if not name or "<" in name or "\n" in name:
            pieces.append(Unparsed(f"<tool_call>{span}</tool_call>", "a <tool_call> block with no tool name"))
            continue
        values = [(key.strip(), value) for key, value in _PAIR.findall(span)]
        pieces.append(Call(name, typed_arguments(tools, name, values, untyped_as_json=True)))
    return pieces


_SOURCE = "vllm/tool_parsers/{}; tests/tool_parsers/test_format_conformance.py (glm4_moe)"
GLM45 = ToolCallParser("glm45", read, _SOURCE.format("glm4_moe_tool_parser.py"), reasoning="glm45")
GLM47 = ToolCallParser("glm47", read, _SOURCE.format("glm47_moe_tool_parser.py"), reasoning="glm45")
