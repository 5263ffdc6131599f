"""Held-out agent sessions (issue 107's done-when): three sessions of the kinds real agents send,
each written from the client's own request shape, not from :mod:`bench.feature_shapes`' generator,
seeded and deterministic.

* ``claude code`` (Anthropic, read as Anthropic -> OpenAI Chat): a Claude Code request after
  ``steps`` steps: the system prompt as two text blocks, the first with a cache marker, its tools
  (JSON Schemas with ``$schema`` and ``additionalProperties``), a ``<system-reminder>`` text block
  before the task, signed ``thinking`` before the text and ``tool_use`` blocks of every assistant
  turn, ``tool_result`` blocks (text; a screenshot tool's ``image`` block inside its result; two
  failed results with ``is_error``), the cache marker on the last block of the last user turn,
  ``metadata.user_id``, ``thinking`` enabled with its budget, ``max_tokens`` and ``stream``.
* ``litellm client`` (OpenAI Chat, read to Anthropic and to Responses): an agent on litellm's
  SDK, as OpenHands sends it: system and user content as text parts, the system part and the
  last two user or tool messages' last part marked, each assistant turn litellm's own
  ``Message.model_dump()`` of a Claude answer (``function_call``, ``provider_specific_fields``
  ``null``; ``reasoning_content`` beside the signed ``thinking_blocks``), tool messages with
  the tool's ``name`` and text parts, a browser tool's screenshot as an ``image_url`` part.
* ``openrouter reasoning`` (OpenAI Chat, read to Anthropic and to Responses): a Claude model
  through OpenRouter, each assistant turn as OpenRouter answers it (``reasoning`` and
  ``reasoning_details`` of ``reasoning.text`` items with a signature and ``format``,
  ``refusal: null``), sent back whole with string tool results and ``reasoning: {"effort"}``.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Iterator, Sequence
from typing import Any

from bench.feature_shapes import Shaped  # one session record for every generated set

CLAUDE_CODE, LITELLM_CLIENT, OPENROUTER = "claude code", "litellm client", "openrouter reasoning"
PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    CLAUDE_CODE: (("anthropic", "openai-chat"),),
    LITELLM_CLIENT: (("openai-chat", "anthropic"), ("openai-chat", "openai-responses")),
    OPENROUTER: (("openai-chat", "anthropic"), ("openai-chat", "openai-responses")),
}
"""Each session and the pairs it is read in (issue 107's three)."""
STEPS = (10, 40)
SEED = 4107
OTHER_SEEDS = (4901, 4902)

_WORDS = (
    "the",
    "request",
    "handler",
    "retries",
    "when",
    "the",
    "upstream",
    "closes",
    "the",
    "stream",
    "so",
    "we",
    "keep",
    "a",
    "buffer",
    "of",
    "the",
    "last",
    "chunk",
    "and",
    "compare",
    "the",
    "index",
    "before",
    "writing",
    "the",
    "delta",
    "into",
    "the",
    "file",
    "under",
    "test",
    "which",
    "fails",
    "on",
    "windows",
    "because",
    "the",
    "path",
    "separator",
    "differs",
    "and",
    "the",
    "fixture",
    "loads",
    "the",
    "wrong",
    "config",
)
_PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
_MODEL = "claude-sonnet-4-5-20250929"


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high))).capitalize() + "."


def _paragraphs(rng: random.Random, count: int) -> str:
    return " ".join(_words(rng, 8, 24) for _ in range(count))


def _signature(rng: random.Random) -> str:
    return base64.b64encode(rng.randbytes(rng.randint(200, 600))).decode()


def _file(rng: random.Random, low: int, high: int) -> str:
    size = rng.randint(low, high)
    lines: list[str] = []
    while sum(map(len, lines)) < size:
        indent = "    " * rng.randint(0, 3)
        lines.append(f"{len(lines) + 1:>6}\u2192{indent}{_words(rng, 3, 10).lower()}")
    return "\n".join(lines)


def _screenshot(rng: random.Random) -> str:
    return base64.b64encode(_PNG + rng.randbytes(rng.randint(6_000, 20_000))).decode()


def _path(rng: random.Random) -> str:
    return f"/home/dev/project/src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}_{rng.randint(1, 99)}.py"


def _call_id(rng: random.Random, prefix: str) -> str:
    return prefix + "".join(rng.choices(string.ascii_letters + string.digits, k=24))


# --- Claude Code (Anthropic) ------------------------------------------------------------------

_SCHEMA = "http://json-schema.org/draft-07/schema#"


def _claude_code_tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "input_schema": {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
            "$schema": _SCHEMA,
        },
    }


_CLAUDE_CODE_TOOLS = [
    _claude_code_tool(
        "Bash",
        "Executes a given bash command in a persistent shell session with optional timeout. " * 4,
        {
            "command": {"type": "string", "description": "The command to execute"},
            "timeout": {"type": "number", "description": "Optional timeout in milliseconds (max 600000)"},
            "description": {"type": "string", "description": "Clear, concise description of what this command does"},
            "run_in_background": {
                "type": "boolean",
                "description": "Set to true to run this command in the background.",
            },
        },
        ["command"],
    ),
    _claude_code_tool(
        "Read",
        "Reads a file from the local filesystem. You can access any file directly by using this tool. " * 3,
        {
            "file_path": {"type": "string", "description": "The absolute path to the file to read"},
            "offset": {"type": "number", "description": "The line number to start reading from."},
            "limit": {"type": "number", "description": "The number of lines to read."},
        },
        ["file_path"],
    ),
    _claude_code_tool(
        "Edit",
        "Performs exact string replacements in files. " * 5,
        {
            "file_path": {"type": "string", "description": "The absolute path to the file to modify"},
            "old_string": {"type": "string", "description": "The text to replace"},
            "new_string": {"type": "string", "description": "The text to replace it with"},
            "replace_all": {"type": "boolean", "default": False, "description": "Replace all occurences"},
        },
        ["file_path", "old_string", "new_string"],
    ),
    _claude_code_tool(
        "TodoWrite",
        "Use this tool to create and manage a structured task list for your current coding session. " * 3,
        {
            "todos": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string", "minLength": 1},
                        "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
                        "activeForm": {"type": "string", "minLength": 1},
                    },
                    "required": ["content", "status", "activeForm"],
                    "additionalProperties": False,
                },
                "description": "The updated todo list",
            }
        },
        ["todos"],
    ),
    _claude_code_tool(
        "Screenshot",
        "Takes a screenshot of the browser page under test.",
        {"url": {"type": "string", "description": "The page to open"}},
        ["url"],
    ),
]
_CLAUDE_CODE_SYSTEM = (
    "You are Claude Code, Anthropic's official CLI for Claude. You are an interactive CLI tool that helps users "
    "with software engineering tasks. Use the instructions below and the tools available to you to assist the user. "
)


def _claude_code_input(rng: random.Random, name: str) -> dict[str, Any]:
    if name == "Bash":
        return {"command": f"pytest tests/test_{rng.choice(_WORDS)}.py -x -q", "description": _words(rng, 3, 6)}
    if name == "Read":
        return {"file_path": _path(rng)}
    if name == "Edit":
        return {"file_path": _path(rng), "old_string": _words(rng, 4, 12), "new_string": _words(rng, 4, 12)}
    if name == "TodoWrite":
        statuses = ("pending", "in_progress", "completed")
        return {
            "todos": [
                {"content": _words(rng, 3, 8), "status": rng.choice(statuses), "activeForm": _words(rng, 2, 5)}
                for _ in range(rng.randint(2, 5))
            ]
        }
    return {"url": f"http://localhost:3000/{rng.choice(_WORDS)}"}


def claude_code(steps: int, seed: int = SEED) -> dict[str, Any]:
    """Claude Code's ``/v1/messages`` request after ``steps`` steps (the module docstring)."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "<system-reminder>\n" + _paragraphs(rng, 6) + "\n</system-reminder>"},
                {"type": "text", "text": _paragraphs(rng, 2)},
            ],
        }
    ]
    image_step, error_steps = steps // 2, {steps // 3, (2 * steps) // 3 + 1}
    for step in range(steps):
        names = [rng.choice(("Bash", "Read", "Read", "Edit", "TodoWrite")) for _ in range(rng.choice((1, 1, 2, 3)))]
        if step == image_step:
            names[-1] = "Screenshot"
        blocks: list[dict[str, Any]] = [
            {"type": "thinking", "thinking": _paragraphs(rng, rng.randint(1, 4)), "signature": _signature(rng)}
        ]
        if rng.random() < 0.5:
            blocks.append({"type": "text", "text": _words(rng, 6, 20)})
        calls = [
            {"type": "tool_use", "id": _call_id(rng, "toolu_01"), "name": name, "input": _claude_code_input(rng, name)}
            for name in names
        ]
        messages.append({"role": "assistant", "content": blocks + calls})
        results: list[dict[str, Any]] = []
        for position, call in enumerate(calls):
            result: dict[str, Any] = {"type": "tool_result", "tool_use_id": call["id"]}
            if call["name"] == "Screenshot":
                source = {"type": "base64", "media_type": "image/png", "data": _screenshot(rng)}
                result["content"] = [{"type": "text", "text": "Screenshot taken."}, {"type": "image", "source": source}]
            elif step in error_steps and position == 0:
                result["content"] = "Error: Exit code 1\n" + _file(rng, 300, 1_500)
                result["is_error"] = True
            else:
                result["content"] = _file(rng, 400, 6_000)
            results.append(result)
        messages.append({"role": "user", "content": results})
    messages.append({"role": "user", "content": [{"type": "text", "text": _words(rng, 5, 14)}]})
    last = messages[-1]["content"][-1]
    last["cache_control"] = {"type": "ephemeral"}
    return {
        "model": _MODEL,
        "max_tokens": 32_000,
        "messages": messages,
        "system": [
            {
                "type": "text",
                "text": "You are Claude Code, Anthropic's official CLI for Claude.",
                "cache_control": {"type": "ephemeral"},
            },
            {"type": "text", "text": _CLAUDE_CODE_SYSTEM * 12},
        ],
        "tools": _CLAUDE_CODE_TOOLS,
        "metadata": {"user_id": "user_" + "".join(rng.choices("0123456789abcdef", k=64)) + "_account__session_x"},
        "thinking": {"type": "enabled", "budget_tokens": 31_999},
        "stream": True,
    }


# --- an agent on litellm's SDK (OpenAI Chat) ----------------------------------------------------


def _function(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


_OPENHANDS_TOOLS = [
    _function(
        "execute_bash",
        "Execute a bash command in the terminal within a persistent shell session. " * 6,
        {
            "command": {"type": "string", "description": "The bash command to execute."},
            "is_input": {"type": "string", "enum": ["true", "false"], "description": "If True, the command is input."},
            "timeout": {"type": "number", "description": "Optional. Sets a hard timeout in seconds."},
        },
        ["command"],
    ),
    _function(
        "str_replace_editor",
        "Custom editing tool for viewing, creating and editing files in plain-text format. " * 6,
        {
            "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "undo_edit"]},
            "path": {"type": "string", "description": "Absolute path to file or directory."},
            "old_str": {"type": "string"},
            "new_str": {"type": "string"},
            "view_range": {"type": "array", "items": {"type": "integer"}},
        },
        ["command", "path"],
    ),
    _function("think", "Use the tool to think about something.", {"thought": {"type": "string"}}, ["thought"]),
    _function(
        "browser",
        "Interact with the browser using Python code.",
        {"code": {"type": "string", "description": "The Python code that interacts with the browser."}},
        ["code"],
    ),
    _function("finish", "Signals the completion of the current task.", {"message": {"type": "string"}}, ["message"]),
]


def _openhands_arguments(rng: random.Random, name: str) -> dict[str, Any]:
    if name == "execute_bash":
        return {"command": f"cd /workspace && python -m pytest tests/test_{rng.choice(_WORDS)}.py -q"}
    if name == "str_replace_editor":
        if rng.random() < 0.5:
            return {"command": "view", "path": "/workspace" + _path(rng), "view_range": [1, rng.randint(40, 200)]}
        return {
            "command": "str_replace",
            "path": "/workspace" + _path(rng),
            "old_str": _words(rng, 3, 9),
            "new_str": _words(rng, 3, 9),
        }
    if name == "think":
        return {"thought": _paragraphs(rng, 2)}
    return {"code": f"goto('http://localhost:8000/{rng.choice(_WORDS)}')"}


def _litellm_message(
    content: str | None, calls: list[dict[str, Any]], thinking: list[str], rng: random.Random
) -> dict[str, Any]:
    """litellm's ``Message.model_dump()`` of a Claude answer (what ``litellm.completion`` returns)."""
    blocks = [{"type": "thinking", "thinking": text, "signature": _signature(rng)} for text in thinking]
    return {
        "content": content,
        "role": "assistant",
        "tool_calls": calls,
        "function_call": None,
        "reasoning_content": "".join(thinking),
        "thinking_blocks": blocks,
        "provider_specific_fields": None,
    }


def litellm_client(steps: int, seed: int = SEED) -> dict[str, Any]:
    """An agent on litellm's SDK (OpenHands' request shape) after ``steps`` steps (the module docstring)."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {
            "role": "system",
            "content": [{"type": "text", "text": _paragraphs(rng, 30), "cache_control": {"type": "ephemeral"}}],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "<uploaded_files>/workspace</uploaded_files>\n" + _paragraphs(rng, 4)}
            ],
        },
    ]
    image_step = steps // 2
    for step in range(steps):
        names = [
            rng.choice(("execute_bash", "str_replace_editor", "str_replace_editor", "think"))
            for _ in range(rng.choice((1, 1, 2)))
        ]
        if step == image_step:
            names[-1] = "browser"
        calls = [
            {
                "function": {"arguments": json.dumps(_openhands_arguments(rng, name)), "name": name},
                "id": _call_id(rng, "toolu_01"),
                "type": "function",
            }
            for name in names
        ]
        thinking = [_paragraphs(rng, rng.randint(1, 3)) for _ in range(rng.choice((1, 1, 1, 2)))]
        content = _words(rng, 5, 16) if rng.random() < 0.4 else None
        messages.append(_litellm_message(content, calls, thinking, rng))
        for call in calls:
            name = call["function"]["name"]
            parts: list[dict[str, Any]] = [{"type": "text", "text": _file(rng, 300, 5_000)}]
            if name == "browser":
                parts = [
                    {"type": "text", "text": "[Current URL: http://localhost:8000/]\n" + _paragraphs(rng, 2)},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64," + _screenshot(rng)}},
                ]
            messages.append({"role": "tool", "content": parts, "tool_call_id": call["id"], "name": name})
    messages.append({"role": "user", "content": [{"type": "text", "text": _words(rng, 5, 14)}]})
    marked = [message for message in messages if message["role"] in ("user", "tool")][-2:]
    for message in marked:
        message["content"][-1]["cache_control"] = {"type": "ephemeral"}
    return {
        "model": _MODEL,
        "messages": messages,
        "tools": _OPENHANDS_TOOLS,
        "temperature": 0.0,
        "max_completion_tokens": 64_000,
    }


# --- a Claude model through OpenRouter (OpenAI Chat) -------------------------------------------


def openrouter_reasoning(steps: int, seed: int = SEED) -> dict[str, Any]:
    """A Claude model through OpenRouter after ``steps`` steps, its answers sent back whole (the module docstring)."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": _paragraphs(rng, 20)},
        {"role": "user", "content": _paragraphs(rng, 3)},
    ]
    for _ in range(steps):
        names = [rng.choice(("execute_bash", "str_replace_editor", "think")) for _ in range(rng.choice((1, 1, 2, 3)))]
        calls = [
            {
                "id": _call_id(rng, "toolu_vrtx_01"),
                "type": "function",
                "index": index,
                "function": {"name": name, "arguments": json.dumps(_openhands_arguments(rng, name))},
            }
            for index, name in enumerate(names)
        ]
        text = _paragraphs(rng, rng.randint(1, 3))
        details = [
            {
                "type": "reasoning.text",
                "text": text,
                "signature": _signature(rng),
                "format": "anthropic-claude-v1",
                "index": 0,
            }
        ]
        messages.append(
            {
                "role": "assistant",
                "content": _words(rng, 4, 14) if rng.random() < 0.5 else "",
                "refusal": None,
                "reasoning": text,
                "reasoning_details": details,
                "tool_calls": calls,
            }
        )
        for call in calls:
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": _file(rng, 200, 4_000)})
    messages.append({"role": "user", "content": _words(rng, 5, 14)})
    return {
        "model": "anthropic/claude-sonnet-4.5",
        "messages": messages,
        "tools": _OPENHANDS_TOOLS,
        "reasoning": {"effort": "high"},
        "max_tokens": 32_000,
        "usage": {"include": True},
    }


BUILDERS = {CLAUDE_CODE: claude_code, LITELLM_CLIENT: litellm_client, OPENROUTER: openrouter_reasoning}


def sessions(steps: Sequence[int], kinds: Sequence[str] = ()) -> Iterator[Shaped]:
    """Every held-out session of every size and pair (``kinds``: only those named)."""
    for kind, build in BUILDERS.items():
        if kinds and kind not in kinds:
            continue
        for size in steps:
            for source, target in PAIRS[kind]:
                others = tuple(build(size, seed) for seed in OTHER_SEEDS)
                yield Shaped(source, target, f"held out: {kind}", size, build(size), others)
