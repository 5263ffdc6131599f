"""Kimi K2: calls in ``<|tool_calls_section_begin|>...<|tool_calls_section_end|>``, each
``<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{...}<|tool_call_end|>``.

Source: vLLM's ``vllm/tool_parsers/kimi_k2_tool_parser.py``, the ``kimi_k2`` fixture of
``tests/tool_parsers/test_format_conformance.py`` and ``tests/tool_parsers/test_kimi_k2_tool_parser.py``.
The model writes its own call id (``functions.get_weather:0``), kept as the call's id; the
name is the id's part between ``functions.`` and ``:``. An id that is a bare counter (``0``)
names no tool: the tool is the only one offered, or the only one whose parameters hold every
argument (vLLM's inference); otherwise, and for an id of no such shape, the call is kept unparsed.
"""

from __future__ import annotations

import re

from chatcodec._training.completion.json_text import object_members
from chatcodec._training.completion.pieces import Call, Piece, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, sectioned_calls
from chatcodec._training.completion.tool_schemas import ToolSchemas

SECTION = ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>")
CALL = ("<|tool_call_begin|>", "<|tool_call_end|>")
ARGUMENTS = "<|tool_call_argument_begin|>"
_ID = re.compile(r"\s*(?:functions\.)?([^\s:]+):(\d+)\s*\Z")
_COUNTER = re.compile(r"\s*\d+\s*\Z")


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    return sectioned_calls(text, SECTION, CALL, lambda call: _call(call, tools), "tool-call section")


def _call(text: str, tools: ToolSchemas) -> Piece:
    call_id, marker, arguments = text.partition(ARGUMENTS)
    named = _ID.match(call_id)
    if marker and named is not None:
        return Call(named.group(1), arguments.strip(), call_id.strip())
    if marker and _COUNTER.match(call_id):
        name = _tool_of(arguments, tools)
        if name is not None:
            return Call(name, arguments.strip(), call_id.strip())
        return Unparsed(CALL[0] + text + CALL[1], "a Kimi K2 call with a bare counter id whose tool cannot be told")
    return Unparsed(CALL[0] + text + CALL[1], "a Kimi K2 call with no functions.NAME:INDEX id and arguments")


def _tool_of(arguments: str, tools: ToolSchemas) -> str | None:
    """The tool a call with a bare counter id (``0``) called, as vLLM tells it: the only tool
    offered, or the only one whose parameters hold every argument; None when no one tool fits."""
    if len(tools) == 1:
        return next(iter(tools))
    members = object_members(arguments)
    if members is None:
        return None
    fitting = [name for name, properties in tools.items() if set(members[0]) <= set(properties)]
    return fitting[0] if len(fitting) == 1 else None


KIMI_K2 = ToolCallParser(
    "kimi_k2",
    read,
    "vllm/tool_parsers/kimi_k2_tool_parser.py; tests/tool_parsers/test_format_conformance.py (kimi_k2)",
    reasoning="kimi_k2",
)
