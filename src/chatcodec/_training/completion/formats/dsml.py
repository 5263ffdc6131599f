"""DeepSeek V3.2 and V4's DSML calls: ``<|DSML|tool_calls><|DSML|invoke name="NAME">
<|DSML|parameter name="KEY" string="true">VALUE</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>``
(V3.2's outer tag is ``function_calls``; the bars are DeepSeek's fullwidth U+FF5C).

Source: vLLM's ``vllm/tool_parsers/deepseekv4_tool_parser.py`` and ``deepseekv32_tool_parser.py``,
the ``deepseek_v4`` fixture of ``tests/tool_parsers/test_format_conformance.py`` and
``tests/tool_parsers/test_deepseekv4_tool_parser.py``. Each parameter says its own type:
``string="true"`` is text as written (typed by the tool's schema where the schema says the
parameter is no string), ``string="false"`` a JSON value (kept as text where it is not JSON,
or typed by the tool's schema). An invoke whose body is a JSON object (no parameter tags)
has that object as its arguments.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from chatcodec._training.completion.json_text import object_members
from chatcodec._training.completion.markup import elements, strays
from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import (
    Read,
    ToolCallParser,
    marked_blocks,
    stray_pieces,
    text_pieces,
)
from chatcodec._training.completion.tool_schemas import (
    ToolSchemas,
    arguments_text,
    repeated_values,
    strict_json,
    string_only,
    typed_value,
)

BAR = "\uff5c"  # DeepSeek's fullwidth vertical bar, in every DSML tag
_INVOKE = re.compile(rf"""<{BAR}DSML{BAR}invoke\s+name="([^"<>\n]+)"\s*>""")
_INVOKE_END = f"</{BAR}DSML{BAR}invoke>"
_PARAMETER = re.compile(rf"""<{BAR}DSML{BAR}parameter\s+name="([^"<>\n]+)"(?:\s+string="(true|false)")?\s*>""")
_PARAMETER_END = f"</{BAR}DSML{BAR}parameter>"


def _reader(outer: str) -> Read:
    """The reader of the DSML block named ``outer``."""
    opener, closer = f"<{BAR}DSML{BAR}{outer}>", f"</{BAR}DSML{BAR}{outer}>"

    def read(text: str, tools: ToolSchemas) -> list[Piece]:
        pieces: list[Piece] = []
        for is_call, span in marked_blocks(text, opener, closer):
            if not is_call:
                pieces.extend(text_pieces(span))
                continue
            before, invokes = elements(span, _INVOKE, _INVOKE_END)
            if not invokes:
                pieces.append(Unparsed(f"{opener}{span}{closer}", "a DSML block with no invoke"))
                continue
            pieces.extend(stray_pieces(before))
            for invoke in invokes:
                pieces.extend(_call(invoke.head.group(1), invoke.body, tools.get(invoke.head.group(1), {})))
                pieces.extend(stray_pieces(invoke.after))
        return pieces

    return read


def _call(name: str, body: str, properties: Mapping[str, object]) -> list[Piece]:
    """One invoke: its parameters, or a JSON object written as its whole body (its text kept)."""
    whole = object_members(body)
    if whole is not None and not body[whole[1] :].strip():
        return [Call(name, body.strip())]
    inside, parameters = elements(body, _PARAMETER, _PARAMETER_END)
    values: list[tuple[str, object]] = []
    for parameter in parameters:
        key, is_string = parameter.head.group(1), parameter.head.group(2)
        values.append((key, _value(parameter.body, properties.get(key), is_string == "true")))
    call = Call(name, arguments_text(dict(values)), repeated=repeated_values(values))
    return [call, *stray_pieces(inside, *strays(parameters))]


def _value(raw: str, schema: object, is_string: bool) -> object:
    """A parameter's value: ``string="true"`` is text unless the tool's schema types it
    otherwise (a model marking a number as a string); otherwise JSON, or the schema's type. A
    ``string="false"`` ``null`` for a parameter the schema types as a string alone is the text
    ``"null"``, as vLLM's schema fixer coerces it back (``test_null_coerced_back_to_string_by_schema``
    in ``tests/tool_parsers/test_deepseekv32_tool_parser.py``); a nullable string stays null."""
    if is_string:
        return typed_value(raw, schema)
    try:
        value = strict_json(raw)
    except (ValueError, RecursionError):
        return typed_value(raw, schema)
    return raw if value is None and string_only(schema) else value


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
