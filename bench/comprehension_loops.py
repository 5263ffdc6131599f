"""The comprehensions written as loops for CPython 3.11, as micro cases to count on any interpreter.

CPython 3.11 makes a list comprehension a function object and calls it each time; 3.12 inlines
it (PEP 709). Three loops in ``src/`` are there for 3.11 alone (``docs/performance.md``, "Levers
in the code", the interpreter-specific levers): each is copied here in both forms, the loop as
``src/`` has it and the comprehension it replaced, so a session with another interpreter counts
them without chatcodec or its dependencies installed (the script imports nothing but
``typing``)::

    count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
              grep -o "Collected : [0-9]*" | grep -o "[0-9]*$"; }
    for form in loop comprehension; do
      none=$(count python3.12 bench/comprehension_loops.py plain_calls $form 3 0)
      many=$(count python3.12 bench/comprehension_loops.py plain_calls $form 3 20000)
      echo "$form $(( (many - none) / 20000 ))"   # instructions per turn
    done

Arguments: the case (:data:`CASES`), ``loop`` or ``comprehension``, the calls in the turn, and
how many times to run it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

_PLAIN_KEYS = frozenset({"role", "content", "tool_calls", "reasoning_content"})


def plain_calls_loop(calls: list[Any]) -> list[dict[str, Any]]:
    """``openai_chat/plain_turn._plain_calls``, the closed front's calls, as ``src/`` has it."""
    parts: list[dict[str, Any]] = []
    for call in calls:
        function = call["function"]
        name, arguments = function["name"], function["arguments"]
        parts.append({"type": "tool_use", "id": call["id"], "name": name, "arguments": arguments})
    return parts


def plain_calls_comprehension(calls: list[Any]) -> list[dict[str, Any]]:
    """The same before 4c481d53."""
    return [
        {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}
        for call in calls
        for function in (call["function"],)
    ]


def nulls_loop(message: dict[str, Any]) -> list[str]:
    """``openai_chat/plain_turn._spelled_nulls``' nulls, as ``src/`` has it."""
    nulls: list[str] = []
    for key in message:
        if key not in _PLAIN_KEYS:
            nulls.append(key)
    return nulls


def nulls_comprehension(message: dict[str, Any]) -> list[str]:
    """The same before 30128810."""
    return [key for key in message if key not in _PLAIN_KEYS]


def _call_wire(part: dict[str, Any], name: str) -> dict[str, Any]:
    return {"id": part["id"], "type": "function", "function": {"name": name, "arguments": part["arguments"]}}


def write_calls_loop(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``openai_chat/assistant._write_plain_turn``'s calls, as ``src/`` has it."""
    written: list[dict[str, Any]] = []
    for part in calls:
        written.append(_call_wire(part, part["name"]))
    return written


def write_calls_comprehension(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same before 30128810."""
    return [_call_wire(part, part["name"]) for part in calls]


CASES: dict[str, tuple[Callable[[Any], list[Any]], Callable[[Any], list[Any]]]] = {
    "plain_calls": (plain_calls_loop, plain_calls_comprehension),
    "spelled_nulls": (nulls_loop, nulls_comprehension),
    "write_calls": (write_calls_loop, write_calls_comprehension),
}
"""Each case's loop and comprehension."""


def given(case: str, calls: int) -> Any:
    """What the case's function is given: a turn's ``calls`` calls (OpenAI Chat's wire, or
    canonical parts for the writer), or an SDK dump's turn with five nulls."""
    if case == "plain_calls":
        return [{"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": "{}"}} for i in range(calls)]
    if case == "spelled_nulls":
        nulls = dict.fromkeys(("tool_calls", "refusal", "annotations", "audio", "function_call", "name"))
        return {"role": "assistant", "content": "x", **nulls}
    return [{"type": "tool_use", "id": f"c{i}", "name": "f", "arguments": "{}"} for i in range(calls)]


def main(argv: list[str]) -> None:
    case, form, calls, times = argv[0], argv[1], int(argv[2]), int(argv[3])
    function = CASES[case][0 if form == "loop" else 1]
    data = given(case, calls)
    for _ in range(times):
        function(data)


if __name__ == "__main__":
    main(sys.argv[1:])
