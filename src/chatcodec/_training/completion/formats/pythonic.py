"""Python call syntax (``pythonic``: Llama 3.2 and 4, ToolACE, Granite): ``[get_weather(city="SF"), f(x=1)]``,
in Llama 4 between ``<|python_start|>`` and ``<|python_end|>``.

Source: vLLM's ``vllm/tool_parsers/pythonic_tool_parser.py`` and ``llama4_pythonic_tool_parser.py``,
the ``pythonic`` fixture of ``tests/tool_parsers/test_format_conformance.py`` and
``tests/tool_parsers/test_pythonic_tool_parser.py``. Keyword values are Python literals,
written as JSON arguments. Prose before or after the list is text of the message (vLLM reads
a completion that is not the list alone as text, calls and all). A completion that starts as
a call list but is no valid one is kept unparsed.
"""

from __future__ import annotations

import ast
import re

from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas, arguments_text

_CALLS_START = re.compile(r"\[\s*[A-Za-z_][\w.]*\s*\(")
WRAPPER = ("<|python_start|>", "<|python_end|>")


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    body = text.strip()
    if body.startswith(WRAPPER[0]):
        inner, _, after = body[len(WRAPPER[0]) :].partition(WRAPPER[1])
        calls = _read_calls(inner.strip())
        if isinstance(calls, str):
            return [Unparsed(text, calls)]
        return [*calls, *text_pieces(after.strip())]
    found = _CALLS_START.search(body)
    if found is None:
        return text_pieces(text)
    calls = _read_calls(body[found.start() :])
    before = body[: found.start()].strip()
    if isinstance(calls, str):  # no valid list: prose that mentions a call is text, a list alone is kept
        return text_pieces(text) if before else [Unparsed(text, calls)]
    return [*text_pieces(before), *calls]


def _read_calls(body: str) -> list[Piece] | str:
    """The call list at the start of ``body``: the whole of it, or up to its last ``]`` with the
    text after it kept as text; why not, where it is no valid list."""
    attempts = [(body, "")]
    last = body.rfind("]")
    if 0 <= last < len(body.rstrip()) - 1:
        attempts.append((body[: last + 1], body[last + 1 :].strip()))
    why = ""
    for calls, after in attempts:
        try:
            return [*_calls(calls), *text_pieces(after)]
        except (SyntaxError, ValueError, TypeError) as error:  # TypeError: a literal JSON has no form for (a set)
            why = f"not a list of Python calls with literal keyword arguments ({error})"
        except (RecursionError, MemoryError):  # nested past what Python's parser and encoder take
            why = "a list of Python calls nested deeper than Python reads"
    return why


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
