"""Python call syntax (``pythonic``: Llama 3.2 and 4, ToolACE, Granite): ``[get_weather(city="SF"), f(x=1)]``,
in Llama 4 between ``<|python_start|>`` and ``<|python_end|>``.

Source: vLLM's ``vllm/tool_parsers/pythonic_tool_parser.py`` and ``llama4_pythonic_tool_parser.py``,
the ``pythonic`` fixture of ``tests/tool_parsers/test_format_conformance.py`` and
``tests/tool_parsers/test_pythonic_tool_parser.py``. The whole completion is the list or it
is text, as vLLM reads it; keyword values are Python literals, written as JSON arguments. A
completion that starts as a call list but is no valid one is kept unparsed.
"""

from __future__ import annotations

import ast
import re

from chatcodec._training.completion.pieces import Call, Piece, Text, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser
from chatcodec._training.completion.tool_schemas import ToolSchemas, arguments_text

_LOOKS_LIKE_CALLS = re.compile(r"\A\s*\[\s*[A-Za-z_][\w.]*\s*\(")
WRAPPER = ("<|python_start|>", "<|python_end|>")


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    body = text.strip()
    if body.startswith(WRAPPER[0]):
        body = body[len(WRAPPER[0]) :].removesuffix(WRAPPER[1]).strip()
    if not _LOOKS_LIKE_CALLS.match(body):
        return [Text(text)] if text else []
    try:
        return _calls(body)
    except (SyntaxError, ValueError, TypeError) as error:  # TypeError: a literal JSON has no form for (a set, bytes)
        return [Unparsed(text, f"not a list of Python calls with literal keyword arguments ({error})")]
    except (RecursionError, MemoryError):  # nested past what Python's parser and encoder take
        return [Unparsed(text, "a list of Python calls nested deeper than Python reads")]


def _calls(body: str) -> list[Piece]:
    tree = ast.parse(body, mode="eval").body
    if not isinstance(tree, ast.List):
        raise ValueError("the completion is no list")
    pieces: list[Piece] = []
    for node in tree.elts:
        if not isinstance(node, ast.Call) or node.args:
            raise ValueError("an item is no call with keyword arguments only")
        name = ast.unparse(node.func)
        values: dict[str, object] = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                raise ValueError("**kwargs in a call")
            values[keyword.arg] = ast.literal_eval(keyword.value)
        pieces.append(Call(name, arguments_text(values)))
    return pieces


PYTHONIC = ToolCallParser(
    "pythonic",
    read,
    "vllm/tool_parsers/pythonic_tool_parser.py; tests/tool_parsers/test_format_conformance.py (pythonic)",
    reasoning=None,
)
LLAMA4_PYTHONIC = ToolCallParser(
    "llama4_pythonic",
    read,
    "vllm/tool_parsers/llama4_pythonic_tool_parser.py; tests/tool_parsers/test_llama4_pythonic_tool_parser.py",
    reasoning=None,
)
