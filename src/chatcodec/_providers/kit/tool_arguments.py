"""Tool arguments for the formats that take them as a JSON object (Anthropic
``tool_use.input``, Bedrock ``toolUse.input``), shared by both encoders.

Canonical arguments are text, as OpenAI sends them, and a model (or a caller) may write
text that is not a JSON object: a truncated stream, an array, a bare string, a number
past a double's range (``{"x": 1e400}`` parses to infinity, which no JSON encoder may
write: ``Infinity`` is not JSON and the API rejects the body). The rule:

* empty or whitespace-only text is a call without arguments: ``{}``, as it says;
* a JSON object is sent as that object;
* anything else is never sent as ``{}`` (the model would see a call with no arguments
  and the caller would never know): it is wrapped, verbatim, as
  ``{"INVALID_JSON": "<the argument text>"}`` and reported. The key is the one
  pydantic-ai uses for the same case (``ToolCallPart.args_as_dict``), so a tool, or a
  reader of the history, can tell it apart from real arguments.
"""

from __future__ import annotations

import math
from typing import Any

from chatcodec._losses import LossRecorder, Steps
from chatcodec._narrow import is_dict, is_list
from chatcodec._providers.kit.arguments import read_arguments

INVALID_JSON = "INVALID_JSON"
"""The key a non-object argument text is wrapped under."""


def input_object(arguments: str, losses: LossRecorder, at: Steps, target: str) -> dict[str, Any]:
    """The JSON object to send for ``arguments`` (see the module docstring); a parse
    that changes what the text said (repeated keys, numbers a double rounds) is reported."""
    if not arguments or arguments.isspace():  # ``not arguments.strip()``, without the copy
        return {}
    parsed, exact = read_arguments(arguments)
    if exact and parsed.__class__ is dict:  # the usual call (is_dict's test, inline)
        return parsed
    return _unusual(arguments, parsed, exact, losses, at, target=target)


def _unusual(
    arguments: str, parsed: Any, exact: bool, losses: LossRecorder, at: Steps, *, target: str
) -> dict[str, Any]:
    """:func:`input_object` of a text that is not exactly a JSON object (apart: CPython readies a
    function's code at a cost in proportion to its size, and the usual call needs none of this)."""
    if is_dict(parsed) and (exact or _finite(parsed)):
        if not exact:
            why = f"{target} takes them as an object: repeated keys or numbers a double cannot hold changed"
            losses.add((*at, "arguments"), "tool arguments", why)
        return parsed
    why = f"not a JSON object; {target} needs one, sent wrapped as {{{INVALID_JSON!r}: <the text>}}"
    losses.add((*at, "arguments"), "tool arguments", why)
    return {INVALID_JSON: arguments}


def _finite(value: object) -> bool:
    """Whether ``value`` holds no infinite or NaN number (JSON has none)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if is_dict(item):
            pending.extend(item.values())
        elif is_list(item):
            pending.extend(item)
    return True
