"""A coding agent's session with each feature of its wire turned on and off independently (issue 107:
no shape on a slow path), seeded and deterministic.

The session is an OpenAI Chat request after ``steps`` steps of a coding agent: a system prompt, a
task, then per step an assistant turn with its calls and one tool message per call. With every
feature off each turn has one call, a short result, no reasoning and no marker: the plainest agent.
Each feature of :data:`FEATURES` adds one thing real agent traffic carries:

* ``signed thinking``: litellm's ``thinking_blocks`` (Claude's signed thinking, what litellm returns
  and its clients send back: one block a turn, two on about a fifth of them) on every assistant
  turn, beside the ``reasoning_content`` litellm also writes (their text joined);
* ``system marker``: the system prompt as text parts, a cache marker (``{"type": "ephemeral"}``) on
  the first, as gateways document it (with an even seed: the prompt a string, the marker on the
  message);
* ``tool image``: one screenshot (a data URL of 6-20 KB) inside a tool message, beside its text;
* ``parallel calls``: one to three calls a turn;
* ``long results``: tool results of 1-8 KB (files, test logs);
* ``errors``: two tool results that report a failure (Anthropic's ``is_error`` in that format);
* ``SDK nulls``: the OpenAI SDK's ``model_dump()`` nulls on assistant turns;
* ``documents``: a PDF (OpenAI's ``file`` part, a data URL of 2-8 KB and a file name) attached to the
  task, and one a tool reads back (in its result, beside its text);
* ``client settings``: what a streaming client sends beside the usual fields (``stream`` with
  ``stream_options`` asking for the usage, a ``temperature`` of ``1`` as JavaScript writes 1.0, a
  ``user`` and a ``seed``, both of the session: another seed's session is another end user's);
* ``client dialects``: what clients spell their own way (issue 107): the participant's ``name`` on the
  task (AutoGen's, the OpenAI SDK's; the session's own), an assistant's text as text parts (the SDK's
  ``ChatCompletionAssistantMessageParam`` allows them), ``content: ""`` beside calls (clients that
  always send a string; with an even seed, the turns of calls alone leave it ``null`` as before), and a
  final answer with ``"tool_calls": []`` (clients that always send the list) before the last message.

:data:`AGENT` (the issue's 40-step shape) is ``signed thinking``, ``system marker``, ``tool image``,
``parallel calls``, ``long results`` and ``errors`` together. A pair's source body is the OpenAI Chat
session, or that session written by chatcodec in the source format (Anthropic: signed thinking
blocks, the image inside a ``tool_result``, the errors' ``is_error``).
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

SIGNED, SYSTEM_MARKER, TOOL_IMAGE = "signed thinking", "system marker", "tool image"
PARALLEL, LONG, ERRORS, NULLS = "parallel calls", "long results", "errors", "SDK nulls"
DOCUMENTS, SETTINGS, DIALECTS = "documents", "client settings", "client dialects"
FEATURES = (SIGNED, SYSTEM_MARKER, TOOL_IMAGE, PARALLEL, LONG, ERRORS, NULLS, DOCUMENTS, SETTINGS, DIALECTS)
AGENT = (SIGNED, SYSTEM_MARKER, TOOL_IMAGE, PARALLEL, LONG, ERRORS)
"""The issue's coding-agent session: every feature but the SDK's nulls."""

PAIRS = (("openai-chat", "anthropic"), ("openai-chat", "openai-responses"), ("anthropic", "openai-chat"))
STEPS = (3, 10, 40)
SEED = 107
OTHER_SEEDS = (901, 902)

_WORDS = tuple(
    [
        "the",
        "module",
        "test",
        "fails",
        "because",
        "parser",
        "returns",
        "None",
        "when",
        "config",
        "is",
        "missing",
        "so",
        "we",
        "patch",
        "loader",
        "check",
        "imports",
        "run",
        "suite",
        "again",
        "fixture",
        "path",
        "value",
        "error",
        "branch",
        "cache",
        "index",
        "retry",
        "handler",
    ]
)
_SYSTEM = (
    "You are a coding agent working in a Python repository. Read files before editing them, run the tests "
    "after each change, and explain what you changed. " * 6
).strip()
_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {key: {"type": "string"} for key in keys},
                "required": list(keys),
            },
        },
    }
    for name, description, keys in (
        ("read_file", "Read a file of the repository.", ("path",)),
        ("run", "Run a shell command in the repository.", ("command",)),
        ("edit", "Replace a text in a file.", ("path", "old", "new")),
        ("screenshot", "Take a screenshot of the app under test.", ("url",)),
    )
]
_NULLS = {"refusal": None, "annotations": None, "audio": None, "function_call": None}
_PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def _client_settings(seed: int) -> dict[str, Any]:
    """A streaming JavaScript client's settings: its usage asked, a temperature of 1.0 written as
    ``1``, and its end user's id and a seed, which differ from session to session (each seed's
    session is another user's: a first sight must not find them read before)."""
    return {
        "stream": True,
        "stream_options": {"include_usage": True},
        "temperature": 1,
        "user": f"agent-{seed}",
        "seed": seed,
    }


def _result(rng: random.Random, name: str, on: frozenset[str], *, error: bool) -> Any:
    """A tool message's content: a screenshot tool's image beside its text, a failure, or an output."""
    if name == "screenshot":
        picture = _PNG + rng.randbytes(rng.randint(4_500, 15_000))
        url = "data:image/png;base64," + base64.b64encode(picture).decode()
        return [{"type": "text", "text": "Screenshot of the page:"}, {"type": "image_url", "image_url": {"url": url}}]
    if ERRORS in on and error:
        return f"Error: command failed with exit code 1\n{_output(rng, LONG in on)}"
    return _output(rng, LONG in on)


def _pdf(rng: random.Random, name: str) -> dict[str, Any]:
    """A document part as OpenAI documents it: a PDF's data URL and its file name."""
    data = b"%PDF-1.4\n" + rng.randbytes(rng.randint(2_000, 8_000))
    return {
        "type": "file",
        "file": {"file_data": "data:application/pdf;base64," + base64.b64encode(data).decode(), "filename": name},
    }


def _sentence(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high))).capitalize() + "."


def _identifier(rng: random.Random, prefix: str, size: int) -> str:
    return prefix + "".join(rng.choices(string.ascii_letters + string.digits, k=size))


def _arguments(rng: random.Random, name: str) -> dict[str, str]:
    path = f"src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py"
    if name == "read_file":
        return {"path": path}
    if name == "run":
        return {"command": f"pytest tests/test_{rng.choice(_WORDS)}.py -q"}
    if name == "edit":
        return {"path": path, "old": _sentence(rng, 3, 8), "new": _sentence(rng, 3, 8)}
    return {"url": f"http://localhost:8000/{rng.choice(_WORDS)}"}


def _output(rng: random.Random, long: bool) -> str:
    if not long:
        return _sentence(rng, 8, 30)
    size = rng.randint(1_000, 8_000)
    lines: list[str] = []
    while sum(map(len, lines)) < size:
        lines.append(f"{len(lines) + 1:4d}    {_sentence(rng, 4, 12)}")
    return "\n".join(lines)


def _signed(rng: random.Random, text: str) -> dict[str, Any]:
    signature = base64.b64encode(rng.randbytes(rng.randint(180, 400))).decode()
    return {"type": "thinking", "thinking": text, "signature": signature}


def openai_session(
    steps: int, features: Sequence[str] = AGENT, seed: int = SEED, model: str = "gpt-5.1"
) -> dict[str, Any]:
    """The OpenAI Chat request after ``steps`` steps with ``features`` on (:data:`FEATURES`)."""
    on = frozenset(features)
    rng = random.Random(seed * 13 + 7)
    if SYSTEM_MARKER in on:
        system: Any = [
            {"type": "text", "text": _SYSTEM, "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "Today's task is in the next message."},
        ]
    else:
        system = _SYSTEM
    marked_message = SYSTEM_MARKER in on and seed % 2 == 0  # the marker on the message: the prompt a string
    task: Any = "Task: " + " ".join(_sentence(rng, 8, 20) for _ in range(3))
    if DOCUMENTS in on:
        task = [{"type": "text", "text": task}, _pdf(rng, "spec.pdf")]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": _SYSTEM, "cache_control": {"type": "ephemeral"}}
        if marked_message
        else {"role": "system", "content": system},
        {"role": "user", "content": task, "name": f"dev-{seed}"}
        if DIALECTS in on
        else {"role": "user", "content": task},
    ]
    image_step, document_step = steps // 2, steps - 1
    error_steps = {steps // 3, (2 * steps) // 3 + 1} if steps > 2 else {0}
    for step in range(steps):
        count = rng.randint(1, 3) if PARALLEL in on else 1
        names = [rng.choice(("read_file", "run", "edit")) for _ in range(count)]
        if TOOL_IMAGE in on and step == image_step:
            names[-1] = "screenshot"
        calls: list[dict[str, Any]] = [
            {
                "id": _identifier(rng, "call_", 24),
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(_arguments(rng, name))},
            }
            for name in names
        ]
        assistant: dict[str, Any] = {
            "role": "assistant",
            "content": _sentence(rng, 4, 12) if rng.random() < 0.4 else None,
        }
        if SIGNED in on:
            count = 2 if rng.random() < 0.2 else 1  # interleaved thinking: sometimes two blocks a turn
            blocks = [
                _signed(rng, " ".join(_sentence(rng, 6, 18) for _ in range(rng.randint(1, 4)))) for _ in range(count)
            ]
            assistant["reasoning_content"] = "".join(block["thinking"] for block in blocks)
            assistant["thinking_blocks"] = blocks
        assistant["tool_calls"] = calls
        if NULLS in on:
            assistant.update(_NULLS)
        messages.append(assistant)
        for position, call in enumerate(calls):
            if DOCUMENTS in on and step == document_step and position == len(calls) - 1:
                content: Any = [{"type": "text", "text": "Contents of report.pdf:"}, _pdf(rng, "report.pdf")]
            else:
                content = _result(rng, call["function"]["name"], on, error=step in error_steps and position == 0)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
    messages.append({"role": "user", "content": _sentence(rng, 5, 14)})
    if DIALECTS in on:
        _spoken(messages, seed)
    return {
        "model": model,
        "messages": messages,
        "tools": _TOOLS,
        "tool_choice": "auto",
        "max_completion_tokens": 16_000,
        **(_client_settings(seed) if SETTINGS in on else {}),
    }


def _spoken(messages: list[dict[str, Any]], seed: int) -> None:
    """``messages`` as a client of its own dialect sends them (``client dialects``): the task with the
    participant's ``name``, each assistant text as text parts, ``content: ""`` beside calls alone (an
    even seed: left null), and the agent's answer with ``"tool_calls": []`` before the last message."""
    messages[1]["name"] = f"dev-{seed}"
    for message in messages:
        if message["role"] != "assistant":
            continue
        said = message["content"]
        if said is not None:
            message["content"] = [{"type": "text", "text": said}]
        elif seed % 2:
            message["content"] = ""
    rng = random.Random(seed * 17 + 3)
    messages.insert(len(messages) - 1, {"role": "assistant", "content": _sentence(rng, 4, 12), "tool_calls": []})


def _errors_marked(body: dict[str, Any]) -> dict[str, Any]:
    """An Anthropic ``body`` whose results reporting a failure carry ``is_error``, as Claude agents send them."""
    for message in body["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else ():
            if block.get("type") == "tool_result" and str(block.get("content", "")).startswith("Error:"):
                block["is_error"] = True
    return body


def body(source: str, target: str, steps: int, features: Sequence[str], seed: int = SEED) -> dict[str, Any]:
    """The pair's source body: the OpenAI Chat session, or that session written in ``source``'s format."""
    import chatcodec
    from bench import agent_sources

    model = agent_sources.OPENAI_MODELS.get(target if source == "openai-chat" else source, "gpt-5.1")
    native = openai_session(steps, features, seed, model)
    if source == "openai-chat":
        return native
    written = chatcodec.convert_request(native, source="openai-chat", target=source, on_loss="ignore")
    return _errors_marked(written) if source == "anthropic" else written


def combinations() -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every shape's name and features: none, each alone, the issue's agent, and all of them."""
    yield "none", ()
    for feature in FEATURES:
        yield feature, (feature,)
    yield "agent", AGENT
    yield "all", FEATURES


@dataclass(frozen=True)
class Shaped:
    """One generated session: its pair, shape, size, body and the same shape from other seeds."""

    source: str
    target: str
    shape: str
    steps: int
    body: dict[str, Any]
    others: tuple[dict[str, Any], ...]


def sessions(steps: Sequence[int], shapes: Sequence[str] = ()) -> Iterator[Shaped]:
    """Every combination's session (``shapes``: only those named) of every size and pair."""
    for name, features in combinations():
        if shapes and name not in shapes:
            continue
        for size in steps:
            for source, target in PAIRS:
                made = body(source, target, size, features)
                others = tuple(body(source, target, size, features, seed) for seed in OTHER_SEEDS)
                yield Shaped(source, target, f"features: {name}", size, made, others)
