"""GLM-4.5/4.6/4.7: ``<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>``.

Source: vLLM's ``vllm/tool_parsers/glm4_moe_tool_parser.py`` and ``glm47_moe_tool_parser.py``
(registered ``glm45`` and ``glm47``) and the ``glm4_moe`` fixture of
``tests/tool_parsers/test_format_conformance.py``:
``<tool_call>get_weather\\n<arg_key>city</arg_key>\\n<arg_value>SF</arg_value>\\n</tool_call>``
(GLM-4.7 leaves out the newline after the name). A value the tool's schema does not type as a
string is read as JSON where it is JSON (vLLM's rule for GLM), else kept as text. A call whose
name ends in an escaped newline (a backslash and ``n``, GLM-4.6's escaped spelling) is read
unescaped, as SGLang's ``glm4_moe_detector.py`` reads it, and reported.
"""

from __future__ import annotations

import json
import re

from chatcodec._training.completion.markup import elements
from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, marked_blocks, stray_pieces, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, repeated_values, typed_arguments

_KEY = re.compile(re.escape("<arg_key>"))
KEY_END, VALUE = "</arg_key>", "<arg_value>"
ESCAPED_NEWLINE = "\\n"
"""A backslash and ``n``: GLM-4.6 at times writes a whole call as a JSON string body, its
separators ``\\n`` and its values' quotes ``\\"`` (SGLang's ``glm4_moe_detector.py`` reads both
spellings)."""
ESCAPED = 'the call was written escaped (its newlines as \\n, its quotes as \\"), read unescaped'
"""What is reported for such a call: its text is not the text a render writes."""


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    pieces: list[Piece] = []
    for is_call, span in marked_blocks(text, "<tool_call>", "</tool_call>"):
        if not is_call:
            pieces.extend(text_pieces(span))
            continue
        name, pairs = elements(span, _KEY, "</arg_value>")
        escaped = name.endswith(ESCAPED_NEWLINE)
        name = name.removesuffix(ESCAPED_NEWLINE).strip() if escaped else name
        if not name or "<" in name or "\n" in name:
            pieces.append(Unparsed(f"<tool_call>{span}</tool_call>", "a <tool_call> block with no tool name"))
            continue
        values: list[tuple[str, str]] = []
        strays: list[str] = []
        for pair in pairs:
            key, marker, rest = pair.body.partition(KEY_END)
            rest = _separated(rest, escaped)
            if marker and rest.startswith(VALUE):
                value = rest[len(VALUE) :]
                values.append((key.strip(), _unescaped(value) if escaped else value))
            else:  # no <arg_value> after the key: the pair as written, kept as text
                strays.append(f"<arg_key>{pair.body}".strip())
            strays.append("" if escaped and pair.after == ESCAPED_NEWLINE else pair.after)
        arguments = typed_arguments(tools, name, values, untyped_as_json=True)
        respelled = ESCAPED if escaped else ""
        pieces.append(Call(name, arguments, respelled=respelled, repeated=repeated_values(values)))
        pieces.extend(stray_pieces(*strays))
    return pieces


def _separated(text: str, escaped: bool) -> str:
    """``text`` after the separator between two tags: whitespace, or in an escaped call an
    escaped newline."""
    text = text.lstrip()
    return text.removeprefix(ESCAPED_NEWLINE).lstrip() if escaped else text


def _unescaped(value: str) -> str:
    """A value of an escaped call read as the JSON string body it is (``[{\\"id\\": 1}]`` is
    ``[{"id": 1}]``); as written where it is none."""
    try:
        decoded = json.loads(f'"{value}"')
    except ValueError:
        return value
    return decoded if isinstance(decoded, str) else value


_SOURCE = "vllm/tool_parsers/{}; tests/tool_parsers/test_format_conformance.py (glm4_moe)"
GLM45 = ToolCallParser("glm45", read, _SOURCE.format("glm4_moe_tool_parser.py"), reasoning="glm45")
GLM47 = ToolCallParser("glm47", read, _SOURCE.format("glm47_moe_tool_parser.py"), reasoning="glm45")
