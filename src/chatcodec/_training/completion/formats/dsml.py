"""DeepSeek V3.2 and V4's DSML calls: ``<|DSML|tool_calls><|DSML|invoke name="NAME">
<|DSML|parameter name="KEY" string="true">VALUE</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>``
(V3.2's outer tag is ``function_calls``; the bars are DeepSeek's fullwidth U+FF5C).

Source: vLLM's ``vllm/tool_parsers/deepseekv4_tool_parser.py`` and ``deepseekv32_tool_parser.py``,
the ``deepseek_v4`` fixture of ``tests/tool_parsers/test_format_conformance.py`` and
``tests/tool_parsers/test_deepseekv4_tool_parser.py``. Each parameter says its own type:
``string="true"`` is text as written, ``string="false"`` a JSON value (kept as text where it
is not JSON, or typed by the tool's schema).
"""

from __future__ import annotations

import re

from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import Read, ToolCallParser, marked_blocks, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, arguments_text, strict_json, typed_value

BAR = "\uff5c"  # DeepSeek's fullwidth vertical bar, in every DSML tag
_INVOKE = re.compile(rf"""<{BAR}DSML{BAR}invoke\s+name="([^"]+)"\s*>(.*?)(?:</{BAR}DSML{BAR}invoke>|\Z)""", re.DOTALL)
_PARAMETER = re.compile(
    rf"""<{BAR}DSML{BAR}parameter\s+name="([^"]+)"(?:\s+string="(true|false)")?\s*>(.*?)(?:</{BAR}DSML{BAR}parameter>|\Z)""",
    re.DOTALL,
)


def _reader(outer: str) -> Read:
    """The reader of the DSML block named ``outer``."""
    opener, closer = f"<{BAR}DSML{BAR}{outer}>", f"</{BAR}DSML{BAR}{outer}>"

    def read(text: str, tools: ToolSchemas) -> list[Piece]:
        pieces: list[Piece] = []
        for is_call, span in marked_blocks(text, opener, closer):
            if not is_call:
                pieces.extend(text_pieces(span))
                continue
            invokes = list(_INVOKE.finditer(span))
            if not invokes:
                pieces.append(Unparsed(f"{opener}{span}{closer}", "a DSML block with no invoke"))
            for invoke in invokes:
                name = invoke.group(1)
                properties = tools.get(name, {})
                values: dict[str, object] = {}
                for key, is_string, raw in _PARAMETER.findall(invoke.group(2)):
                    values[key] = raw if is_string == "true" else _value(raw, properties.get(key))
                pieces.append(Call(name, arguments_text(values)))
        return pieces

    return read


def _value(raw: str, schema: object) -> object:
    try:
        return strict_json(raw)
    except ValueError:
        return typed_value(raw, schema)


DEEPSEEK_V4 = ToolCallParser(
    "deepseek_v4",
    _reader("tool_calls"),
    "vllm/tool_parsers/deepseekv4_tool_parser.py; tests/tool_parsers/test_format_conformance.py (deepseek_v4)",
    reasoning="deepseek_v4",
)
DEEPSEEK_V32 = ToolCallParser(
    "deepseek_v32",
    _reader("function_calls"),
    "vllm/tool_parsers/deepseekv32_tool_parser.py; tests/tool_parsers/test_deepseekv32_tool_parser.py",
    reasoning="deepseek_v3",
)
