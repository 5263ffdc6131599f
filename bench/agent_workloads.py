"""Agent sessions as coding agents send them, with every input shape on and each one removable.

Two sessions of the same coding task, seeded, so a size always gives the same payload:

* :func:`claude_session`, an Anthropic Messages request as a Claude agent sends it after
  some turns of work (Claude Code's shape): a system prompt block with ``cache_control``,
  assistant turns opening with *signed* thinking, some text and one to three ``tool_use``
  blocks, user turns of ``tool_result`` blocks (strings, text-part lists, screenshots as
  image blocks inside the result, ``is_error`` results), a cache marker on the last user
  turn, strict tools, a thinking config and ``metadata.user_id``;
* :func:`openai_session`, an OpenAI Chat request as an agent on the OpenAI SDK sends it:
  ``reasoning_effort``, a ``response_format`` JSON schema, strict function tools, ``user``
  and ``metadata``, assistant turns appended as the SDK's ``model_dump()`` (``"refusal":
  null``, ``"audio": null``...), messages built with ``"name": null``, parallel tool calls,
  text-part tool results, screenshots as image parts of the user message that follows the
  screenshot tool's result (Chat's tool messages take text only), ``cache_control``
  markers in the gateway convention (litellm, OpenRouter).

Each *shape* (:data:`CLAUDE_SHAPES`, :data:`OPENAI_SHAPES`) can be left out: the session
without any is its *plainest twin*, and a session with one shape differs from that twin in
that shape only (the generator draws the same random numbers whatever is asked, and
removes what is not). Screenshots are replaced by a text of the same length in the twin,
so the two sessions have the same messages and the same size and only the image differs;
the other shapes add a few bytes (a thinking block, a setting) to a session of the same
messages. Screenshots are base64 data (no https images: an anchor that fetches URLs would
time the network).
"""

from __future__ import annotations

import base64
import copy
import json
import random
import string
from collections.abc import Callable, Collection, Iterator
from typing import Any

_VOCABULARY = (
    "the test build module import function class handler request response parser token cache "
    "config path error fails passes because we should check whether this explains next then "
    "fix refactor rename extract inline assert fixture mock timeout retry queue worker schema "
    "migration column index route template component render state props hook effect"
)
_WORDS = tuple(_VOCABULARY.split())

SYSTEM_PROMPT = (
    "You are Forge, a coding agent working in the user's repository. Read before you edit; run the "
    "tests after every change; prefer small, reviewable diffs. Use the tools to inspect files, run "
    "commands and look at the app in the browser; call independent tools in parallel. When you are "
    "done, answer with a short summary of what changed and how it was verified. "
) * 4
"""About 1.5 KB, a fraction of a real agent's prompt, which the cache marker covers."""


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema every strict mode takes: all properties required, no others allowed."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


_TOOL_SCHEMAS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("bash", "Run a shell command in the repository and return its output.", _object({
        "command": {"type": "string", "description": "The command line."},
        "timeout_seconds": {"type": "integer", "description": "Kill the command after this long."},
    })),
    ("read_file", "Read a file of the repository, optionally a range of lines.", _object({
        "path": {"type": "string"},
        "offset": {"type": "integer"},
        "limit": {"type": "integer"},
    })),
    ("edit_file", "Replace one exact occurrence of a string in a file.", _object({
        "path": {"type": "string"},
        "old_string": {"type": "string"},
        "new_string": {"type": "string"},
    })),
    ("grep", "Search the repository for a regular expression.", _object({
        "pattern": {"type": "string"},
        "glob": {"type": "string", "description": "Only files matching this glob."},
    })),
    ("screenshot", "Take a screenshot of the app at a URL in the headless browser.", _object({
        "url": {"type": "string"},
        "full_page": {"type": "boolean"},
    })),
    ("write_file", "Write a file, replacing it if it exists.", _object({
        "path": {"type": "string"},
        "content": {"type": "string"},
    })),
)  # fmt: skip
_TOOL_NAMES = tuple(name for name, _, _ in _TOOL_SCHEMAS)

_CALLS_PER_TURN = (1, 2, 1, 3, 2)
"""Tool calls per assistant turn, cycled: parallel calls in three turns of five."""

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

CLAUDE_SHAPES = (
    "thinking signatures",
    "strict tools",
    "thinking config (budget)",
    "adaptive thinking + effort",
    "cache markers",
    "screenshot tool results",
    "text-part tool results",
    "is_error results",
    "metadata.user_id",
)
"""What a Claude agent's request carries beyond the plainest session. The full session
carries all but ``adaptive thinking + effort`` (one thinking config at a time)."""

OPENAI_SHAPES = (
    "reasoning_effort",
    "response_format json_schema",
    "strict tools",
    "user + metadata",
    "SDK-dump nulls",
    "text-part tool results",
    "screenshot image parts",
    "cache markers",
)
"""What an OpenAI-SDK agent's request carries beyond the plainest session (all in the full one)."""

CLAUDE_FULL = frozenset(CLAUDE_SHAPES) - {"adaptive thinking + effort"}
"""The shapes of the full Claude session."""


# --- the random content ------------------------------------------------------------------------


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(_sentence(rng, rng.randint(6, 16)) for _ in range(sentences))


def _identifier(rng: random.Random, prefix: str) -> str:
    return prefix + "".join(rng.choices(string.ascii_letters + string.digits, k=24))


def _png_base64(rng: random.Random) -> str:
    return base64.b64encode(_PNG_SIGNATURE + rng.randbytes(rng.randint(6000, 9000))).decode("ascii")


def _arguments(rng: random.Random, name: str) -> dict[str, Any]:
    path = f"src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}_{rng.randint(1, 99)}.py"
    match name:
        case "bash":
            return {"command": f"pytest -q tests/test_{rng.choice(_WORDS)}.py -x", "timeout_seconds": 120}
        case "read_file":
            return {"path": path, "offset": rng.randint(1, 400), "limit": 200}
        case "edit_file":
            return {"path": path, "old_string": _sentence(rng, 8), "new_string": _sentence(rng, 9)}
        case "grep":
            return {"pattern": f"def {rng.choice(_WORDS)}_\\w+", "glob": "src/**/*.py"}
        case "screenshot":
            return {"url": f"http://localhost:3000/{rng.choice(_WORDS)}", "full_page": rng.random() < 0.5}
        case _:
            return {"path": path, "content": _paragraph(rng, 4)}


def _output(rng: random.Random, long: bool) -> str:
    """A tool's text output: a few lines, or a file excerpt of some KB."""
    lines = 60 if long else rng.randint(2, 8)
    return "\n".join(f"{rng.randint(1, 900):>4}  {_sentence(rng, rng.randint(4, 12))}" for _ in range(lines))


# --- one step of the agent, in neutral form ------------------------------------------------------


class _Call:
    """One tool call of a step and everything its result can be."""

    def __init__(self, rng: random.Random, step: int, index: int) -> None:
        self.name = "screenshot" if (step % 4 == 2 and index == 0) else rng.choice(_TOOL_NAMES[:4] + _TOOL_NAMES[5:])
        self.arguments = _arguments(rng, self.name)
        self.output = _output(rng, (step + index) % 4 == 0)
        self.image = _png_base64(rng) if self.name == "screenshot" else ""
        self.error = (step * 3 + index) % 7 == 2
        self.text_parts = (step + index) % 3 == 1
        self.claude_id = _identifier(rng, "toolu_01")
        self.openai_id = _identifier(rng, "call_")
        if self.error:
            self.output = "Error: exit status 1\n" + self.output


class _Step:
    """One assistant turn (thinking, text, tool calls) and the results that answer it."""

    def __init__(self, rng: random.Random, step: int) -> None:
        self.thinking = _paragraph(rng, rng.randint(2, 5)) if step % 5 != 4 else ""
        self.signature = base64.b64encode(rng.randbytes(300)).decode("ascii")
        self.text = _paragraph(rng, 2) if step % 3 != 0 else ""
        self.calls = [_Call(rng, step, index) for index in range(_CALLS_PER_TURN[step % len(_CALLS_PER_TURN)])]
        self.follow_up = _paragraph(rng, rng.randint(1, 2)) if step % 6 == 5 else ""
        _distinct(rng, self.calls)


def _distinct(rng: random.Random, calls: list[_Call]) -> None:
    """Parallel calls that differ: two identical ones (same tool, same arguments) are rare in
    practice, and litellm's Gemini converter keeps only one of them (it skips a part equal to
    one already in the turn), so the bench's check would refuse to time it."""
    seen: set[str] = set()
    for call in calls:
        while (key := call.name + json.dumps(call.arguments, sort_keys=True)) in seen:
            call.arguments = _arguments(rng, call.name)
        seen.add(key)


def _steps(turns: int, seed: int) -> Iterator[_Step]:
    rng = random.Random(seed)
    for step in range(turns):
        yield _Step(rng, step)


_TASK = (
    "The checkout page shows the wrong total when a coupon and a gift card are combined. Find the bug, "
    "fix it, add a regression test and check the page in the browser."
)


# --- the Claude agent's request -------------------------------------------------------------------


def _claude_result(call: _Call, shapes: frozenset[str]) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.claude_id}
    if call.image:
        caption = f"Screenshot of {call.arguments['url']}"
        if "screenshot tool results" in shapes:
            image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": call.image}}
            block["content"] = [{"type": "text", "text": caption}, image]
        else:
            block["content"] = f"{caption}\n{call.image}"
    elif call.text_parts and "text-part tool results" in shapes:
        block["content"] = [{"type": "text", "text": call.output}]
    else:
        block["content"] = call.output
    if call.error and "is_error results" in shapes:
        block["is_error"] = True
    return block


def _claude_assistant(step: _Step, shapes: frozenset[str]) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = []
    if step.thinking and "thinking signatures" in shapes:
        blocks.append({"type": "thinking", "thinking": step.thinking, "signature": step.signature})
    if step.text:
        blocks.append({"type": "text", "text": step.text})
    blocks.extend(
        {"type": "tool_use", "id": call.claude_id, "name": call.name, "input": call.arguments} for call in step.calls
    )
    return {"role": "assistant", "content": blocks}


def _claude_tools(shapes: frozenset[str]) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    for name, description, schema in _TOOL_SCHEMAS:
        tool: dict[str, Any] = {"name": name, "description": description, "input_schema": copy.deepcopy(schema)}
        if "strict tools" in shapes:
            tool["strict"] = True
        tools.append(tool)
    return tools


def claude_session(turns: int, shapes: Collection[str] = CLAUDE_FULL, seed: int = 29) -> dict[str, Any]:
    """An Anthropic Messages request of ``turns`` agent steps carrying ``shapes`` (default:
    every shape but adaptive thinking, which replaces the budget config when asked)."""
    wanted = frozenset(shapes)
    unknown = wanted - set(CLAUDE_SHAPES)
    if unknown:
        raise ValueError(f"unknown shapes {sorted(unknown)}")
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"type": "text", "text": _TASK}]}]
    for step in _steps(turns, seed):
        messages.append(_claude_assistant(step, wanted))
        results: list[dict[str, Any]] = [_claude_result(call, wanted) for call in step.calls]
        if step.follow_up:
            results.append({"type": "text", "text": step.follow_up})
        messages.append({"role": "user", "content": results})
    request: dict[str, Any] = {"model": "claude-opus-4-6", "max_tokens": 32000}
    if "cache markers" in wanted:
        request["system"] = [{"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}]
        messages[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    else:
        request["system"] = SYSTEM_PROMPT
    request["messages"] = messages
    request["tools"] = _claude_tools(wanted)
    request["tool_choice"] = {"type": "auto"}
    if "adaptive thinking + effort" in wanted:
        request["thinking"] = {"type": "adaptive"}
        request["output_config"] = {"effort": "high"}
    elif "thinking config (budget)" in wanted:
        request["thinking"] = {"type": "enabled", "budget_tokens": 16000}
    if "metadata.user_id" in wanted:
        request["metadata"] = {"user_id": "user_5f2c_account_8d41_session_0b7e9a2c-41d3-4f0a-9c55-6e2d1f8b3a70"}
    return request


# --- the OpenAI-SDK agent's request ----------------------------------------------------------------

_DUMP_NULLS = {"refusal": None, "annotations": None, "audio": None, "function_call": None}
"""What ``ChatCompletionMessage.model_dump()`` adds to an assistant message (openai 2.x)."""

_MARKER = {"type": "ephemeral"}

RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "name": "change_summary",
        "strict": True,
        "schema": _object({
            "summary": {"type": "string"},
            "files_changed": {"type": "array", "items": {"type": "string"}},
            "tests_passed": {"type": "boolean"},
        }),
    },
}  # fmt: skip


def _with_nulls(message: dict[str, Any], shapes: frozenset[str], keys: dict[str, Any]) -> dict[str, Any]:
    return {**message, **keys} if "SDK-dump nulls" in shapes else message


def _openai_assistant(step: _Step, shapes: frozenset[str]) -> dict[str, Any]:
    calls = [
        {
            "id": call.openai_id,
            "function": {"arguments": json.dumps(call.arguments), "name": call.name},
            "type": "function",
        }
        for call in step.calls
    ]
    message = {"content": step.text or None, "role": "assistant", "tool_calls": calls}
    return _with_nulls(message, shapes, _DUMP_NULLS)


def _openai_results(step: _Step, shapes: frozenset[str]) -> list[dict[str, Any]]:
    """The tool messages of a step, then the user message carrying its screenshots."""
    messages: list[dict[str, Any]] = []
    pictures: list[str] = []
    for call in step.calls:
        output = call.output
        if call.image:
            output = f"Screenshot of {call.arguments['url']} taken; it follows in the next message."
            pictures.append("data:image/png;base64," + call.image)
        parted = call.text_parts and "text-part tool results" in shapes
        content: Any = [{"type": "text", "text": output}] if parted else output
        result = {"role": "tool", "tool_call_id": call.openai_id, "content": content}
        messages.append(_with_nulls(result, shapes, {"name": None}))
    if pictures or step.follow_up:
        messages.append(_with_nulls(_openai_user(step.follow_up, pictures, shapes), shapes, {"name": None}))
    return messages


def _openai_user(text: str, pictures: list[str], shapes: frozenset[str]) -> dict[str, Any]:
    """The user's words and the step's screenshots: image parts, or (in the twin) one text
    of the same length."""
    text = text or "Here is the screenshot."
    if pictures and "screenshot image parts" in shapes:
        images = [{"type": "image_url", "image_url": {"url": url}} for url in pictures]
        return {"role": "user", "content": [{"type": "text", "text": text}, *images]}
    return {"role": "user", "content": "\n".join([text, *pictures])}


def _openai_tools(shapes: frozenset[str]) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    for name, description, schema in _TOOL_SCHEMAS:
        function: dict[str, Any] = {"name": name, "description": description, "parameters": copy.deepcopy(schema)}
        if "strict tools" in shapes:
            function["strict"] = True
        tools.append({"type": "function", "function": function})
    return tools


def _mark_openai(messages: list[dict[str, Any]]) -> None:
    """Cache markers where a gateway user puts them: the system prompt, the last message."""
    messages[0]["content"] = [{"type": "text", "text": SYSTEM_PROMPT, "cache_control": _MARKER}]
    messages[-1]["cache_control"] = _MARKER


def openai_session(
    turns: int, shapes: Collection[str] = OPENAI_SHAPES, seed: int = 29, model: str = "gpt-5.1"
) -> dict[str, Any]:
    """An OpenAI Chat request of ``turns`` agent steps carrying ``shapes`` (default: all)."""
    wanted = frozenset(shapes)
    unknown = wanted - set(OPENAI_SHAPES)
    if unknown:
        raise ValueError(f"unknown shapes {sorted(unknown)}")
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        _with_nulls({"role": "user", "content": _TASK}, wanted, {"name": None}),
    ]
    for step in _steps(turns, seed):
        messages.append(_openai_assistant(step, wanted))
        messages.extend(_openai_results(step, wanted))
    if "cache markers" in wanted:
        _mark_openai(messages)
    request: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "tools": _openai_tools(wanted),
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "max_completion_tokens": 32000,
    }
    if "reasoning_effort" in wanted:
        request["reasoning_effort"] = "medium"
    if "response_format json_schema" in wanted:
        request["response_format"] = copy.deepcopy(RESPONSE_FORMAT)
    if "user + metadata" in wanted:
        request["user"] = "user-5f2c8d41"
        request["metadata"] = {"agent": "forge", "session": "0b7e9a2c"}
    return request


Generator = Callable[..., dict[str, Any]]


def size_of(payload: object) -> int:
    """The payload's size as compact JSON, in bytes."""
    return len(json.dumps(payload, separators=(",", ":")).encode())
