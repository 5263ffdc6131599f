"""Python call syntax (``pythonic``: Llama 3.2 and 4, ToolACE, Granite): ``[get_weather(city="SF"), f(x=1)]``,
in Llama 4 between ``<|python_start|>`` and ``<|python_end|>``.

Source: vLLM's ``vllm/tool_parsers/pythonic_tool_parser.py`` and ``llama4_pythonic_tool_parser.py``,
the ``pythonic`` fixture of ``tests/tool_parsers/test_format_conformance.py`` and
``tests/tool_parsers/test_pythonic_tool_parser.py``. Keyword values are Python literals,
written as JSON arguments. Prose before or after the list, or between two lists, is text of
the message (vLLM reads a completion that is not the list alone as text, calls and all;
SGLang's ``pythonic_detector.py`` reads each list and the Llama 4 wrapper after prose, as here).
A completion that starts as a call list but is no valid one is kept unparsed.
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
    wrapper = body.find(WRAPPER[0])
    if wrapper >= 0:
        inner, _, after = body[wrapper + len(WRAPPER[0]) :].partition(WRAPPER[1])
        calls = _read_calls(inner.strip())
        if isinstance(calls, str):
            return [*text_pieces(body[:wrapper].strip()), Unparsed(body[wrapper:] if wrapper else text, calls)]
        return [*text_pieces(body[:wrapper].strip()), *calls, *text_pieces(after.strip())]
    found = _CALLS_START.search(body)
    if found is None:
        return text_pieces(text)
    end = _list_end(body, found.start())
    if end is not None and _CALLS_START.search(body, end) is not None:
        several = _lists_in_prose(body, found.start())
        if several is not None:
            return several
    calls = _read_calls(body[found.start() :])
    before = body[: found.start()].strip()
    if before and (isinstance(calls, str) or not any(isinstance(piece, Call) for piece in calls)):
        return text_pieces(text)  # prose that mentions a call: no call in it
    if isinstance(calls, str):  # a list alone that is no valid one: kept
        return [Unparsed(text, calls)]
    return [*text_pieces(before), *calls]


def _lists_in_prose(body: str, start: int) -> list[Piece] | None:
    """Several call lists with prose between them (``[f(x=1)] and [g(y=2)]``, as SGLang's
    detector reads them one by one): each list read alone, the prose kept as text, a list that
    holds no call kept in the text too (prose that mentions a call); None when no list holds
    a call, for the reading of the whole."""
    pieces: list[Piece] = []
    prose = 0  # where the text not yet kept starts
    found: re.Match[str] | None = _CALLS_START.search(body, start)
    while found is not None:
        end = _list_end(body, found.start())
        if end is None:
            break
        calls = _read_calls(body[found.start() : end])
        if not isinstance(calls, str) and any(isinstance(piece, Call) for piece in calls):
            pieces.extend([*text_pieces(body[prose : found.start()].strip()), *calls])
            prose = end
        found = _CALLS_START.search(body, end)
    if not any(isinstance(piece, Call) for piece in pieces):
        return None
    return [*pieces, *text_pieces(body[prose:].strip())]


def _list_end(body: str, start: int) -> int | None:
    """The index after the ``]`` that closes the list opened at ``body[start]``, brackets inside
    Python strings skipped; None when the list is never closed. One pass; a triple-quoted string
    holding a lone quote may mislead it, and the list then fails to read and is kept as text."""
    depth = 0
    quote = ""
    index = start
    while index < len(body):
        char = body[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index + 1 if char == "]" else None
        index += 1
    return None


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
    """The list's calls in order; an item that is no call with literal keyword arguments (a
    ``bytes`` value, ``1e999``, a name) is kept unparsed in its place, its siblings read (as
    vLLM keeps a good call beside a bad one)."""
    tree = ast.parse(body, mode="eval").body
    if not isinstance(tree, ast.List):
        raise ValueError("the completion is no list")
    source = _Source(body)
    pieces: list[Piece] = []
    for node in tree.elts:
        try:
            pieces.append(_call(node))
        except (ValueError, TypeError) as error:  # TypeError: a literal JSON has no form for (a set, bytes)
            pieces.append(Unparsed(source.segment(node), f"not a Python call with literal keyword arguments ({error})"))
    return pieces


def _call(node: ast.expr) -> Call:
    if not isinstance(node, ast.Call) or node.args:
        raise ValueError("an item is no call with keyword arguments only")
    values: dict[str, object] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise ValueError("**kwargs in a call")
        values[keyword.arg] = ast.literal_eval(keyword.value)
    return Call(ast.unparse(node.func), arguments_text(values))


class _Source:
    """The text of a node, as written: ``ast`` gives lines and UTF-8 byte columns; the line
    starts are found once (``ast.get_source_segment`` splits the source again per node)."""

    def __init__(self, text: str) -> None:
        self.encoded = text.encode("utf-8", "surrogatepass")
        self.starts = [0]
        for index, byte in enumerate(self.encoded):
            if byte == 0x0A:
                self.starts.append(index + 1)

    def segment(self, node: ast.expr) -> str:
        end_line, end_column = node.end_lineno or node.lineno, node.end_col_offset or node.col_offset
        start = self.starts[node.lineno - 1] + node.col_offset
        return self.encoded[start : self.starts[end_line - 1] + end_column].decode("utf-8", "surrogatepass")


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
