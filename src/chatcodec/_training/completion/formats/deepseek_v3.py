"""DeepSeek V3 and R1 (``deepseek_v3``) and V3.1 (``deepseek_v31``): calls between
``<|tool▁calls▁begin|>`` and ``<|tool▁calls▁end|>``, each
``<|tool▁call▁begin|>function<|tool▁sep|>NAME\\n```json\\n{...}\\n```<|tool▁call▁end|>`` (V3)
or ``<|tool▁call▁begin|>NAME<|tool▁sep|>{...}<|tool▁call▁end|>`` (V3.1).

Source: vLLM's ``vllm/tool_parsers/deepseekv3_tool_parser.py`` and ``deepseekv31_tool_parser.py``,
the ``deepseek_v3`` fixture of ``tests/tool_parsers/test_format_conformance.py`` and
``tests/tool_parsers/test_deepseekv31_tool_parser.py``. The markers use DeepSeek's fullwidth bar
(U+FF5C) and the lower one-eighth block (U+2581) for spaces, written
here as ``|`` and ``▁``.
"""

from __future__ import annotations

from collections.abc import Callable

from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, sectioned_calls
from chatcodec._training.completion.tool_schemas import ToolSchemas

CALLS = ("<\uff5ctool\u2581calls\u2581begin\uff5c>", "<\uff5ctool\u2581calls\u2581end\uff5c>")
CALL = ("<\uff5ctool\u2581call\u2581begin\uff5c>", "<\uff5ctool\u2581call\u2581end\uff5c>")
SEPARATOR = "<\uff5ctool\u2581sep\uff5c>"
FENCE, FENCE_END = "\n```json\n", "\n```"


def _read_calls(text: str, call: Callable[[str], Piece]) -> list[Piece]:
    return sectioned_calls(text, CALLS, CALL, call, "tool-calls section")


def _v3_call(text: str) -> Piece:
    """``TYPE<sep>NAME`` and the fenced JSON: cut at the first fence and the last, one pass.
    A type other than ``function`` is reported (vLLM ignores it)."""
    kind, marker, rest = text.partition(SEPARATOR)
    name, fence, fenced = rest.partition(FENCE)
    fenced = fenced.rstrip()
    if not marker or not fence or not fenced.endswith(FENCE_END.strip("\n")) or not name.strip():
        return Unparsed(CALL[0] + text + CALL[1], "a DeepSeek V3 call with no TYPE, separator, NAME and fenced JSON")
    arguments = fenced.removesuffix("```").removesuffix("\n")
    unread = "" if kind.strip() == "function" else f"the call type {kind.strip()!r}"
    return Call(name.strip(), arguments, unread=unread)


def _v31_call(text: str) -> Piece:
    name, marker, arguments = text.partition(SEPARATOR)
    if not marker or not name.strip():
        return Unparsed(CALL[0] + text + CALL[1], "a DeepSeek V3.1 call with no NAME and separator")
    return Call(name.strip(), arguments.strip())


def read_v3(text: str, tools: ToolSchemas) -> list[Piece]:
    return _read_calls(text, _v3_call)


def read_v31(text: str, tools: ToolSchemas) -> list[Piece]:
    return _read_calls(text, _v31_call)


DEEPSEEK_V3 = ToolCallParser(
    "deepseek_v3",
    read_v3,
    "vllm/tool_parsers/deepseekv3_tool_parser.py; tests/tool_parsers/test_format_conformance.py (deepseek_v3)",
    reasoning="deepseek_r1",
)
DEEPSEEK_V31 = ToolCallParser(
    "deepseek_v31",
    read_v31,
    "vllm/tool_parsers/deepseekv31_tool_parser.py; tests/tool_parsers/test_deepseekv31_tool_parser.py",
    reasoning="deepseek_v3",
)
