"""Sessions of other shapes than the acceptance sessions, generated (seeded, deterministic), so that
speed is not judged on the files it was tuned on alone (issue 81: a user's traffic is not one shape).

* :data:`CHATTY`: many short messages. An OpenAI Chat session of ``turns`` steps (50 steps: about 189
  messages) where the user writes a line or two each step, often with one small image (a 1-3 KB PNG
  as a data URL), the assistant answers briefly with one to three parallel calls of four small
  tools, and each result is a line; no reasoning text, no big result, no cache marker. Also with the
  OpenAI SDK's ``model_dump()`` nulls (:data:`CHATTY_NULLS`), as the acceptance sessions are.
* :data:`SCREENSHOTS`: a browser or computer-use agent's session: the :data:`CHATTY` session with
  four ~190 KB PNG screenshots (data URLs of random bytes after a PNG header, as incompressible
  as a real screenshot's base64) in its first user message, toward Anthropic, Responses and
  OpenAI Chat (issue 92: the cost that grew with the bytes of an image).
* :data:`AGENTS_SDK`: the :data:`CHATTY` session in Responses as the OpenAI Agents SDK sends it
  (:func:`as_agents_sdk_sends`, the shape ``tests/agents_sdk_responses_run.py`` records from the
  SDK itself): the system prompt as ``instructions``, each assistant text a typed ``message`` item
  of ``output_text`` with its ``id`` and ``status``, each call with its ``id`` and ``status``
  (issue 92: the Responses traffic real clients send).
* :data:`MARKED_AGENT`: a coding agent on the OpenAI SDK behind a gateway (issue 99's held-out
  shape, :func:`marked_agent_session`): reasoning on every assistant turn (``reasoning_content``,
  as litellm and vLLM return it), two to four parallel calls a step, long tool outputs (files and
  test logs, 2-14 KB each), a few screenshots (data URLs of 12-40 KB) in the user message after a
  screenshot tool's result, the SDK's ``model_dump()`` nulls, and a gateway's rolling cache
  marker on the last user message (on the message or on its last text part, drawn from the
  seed). Its own vocabulary, tools and sizes: none of it is the bench's agent session.
* :data:`COMPACT`: the bench's own OpenAI-SDK agent session (:mod:`bench.agent_workloads`, every
  shape on) with its tool-argument texts written compactly (``{"path":"a"}``, as OpenAI's models
  write them), for the pairs that read argument texts (from OpenAI Chat and Responses).

Each pair's source body is the OpenAI Chat session as it is, or written by chatcodec in the
source format (``on_loss="ignore"``), as :mod:`bench.agent_sources` makes its sessions. The
sessions a first sight converts first are the same shape from :data:`OTHER_SEEDS`.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

CHATTY = "short messages, small images"
CHATTY_NULLS = "short messages, small images, SDK-dump nulls"
COMPACT = "compact tool arguments"
SCREENSHOTS = "four 190 KB screenshots"
AGENTS_SDK = "short messages, small images, as the Agents SDK sends it"
MARKED_AGENT = "marked last user message, long results, parallel calls, reasoning, a few images"

SEED = 29
OTHER_SEEDS = (901, 902)

PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    CHATTY: (
        ("openai-chat", "anthropic"),
        ("anthropic", "openai-chat"),
        ("openai-chat", "openai-responses"),
        ("openai-responses", "openai-chat"),
        ("openai-chat", "bedrock-converse"),
        ("openai-chat", "gemini"),
    ),
    CHATTY_NULLS: (("openai-chat", "anthropic"),),
    SCREENSHOTS: (
        ("openai-chat", "anthropic"),
        ("openai-chat", "openai-responses"),
        ("anthropic", "openai-chat"),
        ("openai-responses", "openai-chat"),
    ),
    AGENTS_SDK: (("openai-responses", "openai-chat"),),
    MARKED_AGENT: (("openai-chat", "anthropic"), ("openai-chat", "openai-responses")),
    COMPACT: (
        ("openai-chat", "anthropic"),
        ("openai-chat", "openai-responses"),
        ("openai-responses", "openai-chat"),
        ("openai-chat", "bedrock-converse"),
        ("openai-chat", "gemini"),
    ),
}
"""The pairs of the acceptance sessions, per shape (a compact argument text is a text only where
the source writes arguments as text)."""

_VOCABULARY = (
    "the page list item price cart total shows wrong after click button save form field date user order "
    "filter sort name email empty loads slow fast again still now this that it looks fine broken"
)
_WORDS = tuple(_VOCABULARY.split())
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
_SYSTEM = "You are a helpful shopping-site support assistant. Use the tools to look things up; be brief."
_NULLS = {"refusal": None, "annotations": None, "audio": None, "function_call": None}


def _tool(name: str, description: str, **properties: str) -> dict[str, Any]:
    schema = {
        "type": "object",
        "properties": {key: {"type": kind} for key, kind in properties.items()},
        "required": list(properties),
    }
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


_TOOLS = [
    _tool("lookup_order", "Find an order by its number.", order_id="string"),
    _tool("search_products", "Search the catalogue.", query="string", limit="integer"),
    _tool("get_user", "Read a customer's account.", email="string"),
    _tool("open_page", "Open a page of the shop and describe it.", path="string"),
]


def _sentence(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high))).capitalize() + "."


def _call(rng: random.Random) -> tuple[str, dict[str, Any]]:
    name = rng.choice(("lookup_order", "search_products", "get_user", "open_page"))
    match name:
        case "lookup_order":
            return name, {"order_id": f"A{rng.randint(10000, 99999)}"}
        case "search_products":
            return name, {"query": f"{rng.choice(_WORDS)} {rng.choice(_WORDS)}", "limit": rng.choice((5, 10))}
        case "get_user":
            return name, {"email": f"{rng.choice(_WORDS)}{rng.randint(1, 999)}@example.com"}
        case _:
            return name, {"path": f"/{rng.choice(_WORDS)}/{rng.randint(1, 99)}"}


def _image(rng: random.Random) -> str:
    return _data_url(_PNG_SIGNATURE + rng.randbytes(rng.randint(800, 2300)))


_SCREENSHOT_BYTES = 142_000
"""A screenshot's PNG bytes: about 190 KB as a base64 data URL."""


def screenshots_session(turns: int, seed: int = SEED, *, model: str = "gpt-5.1") -> dict[str, Any]:
    """The :data:`SCREENSHOTS` OpenAI Chat request: :func:`chatty_session` with four screenshots
    after the words of its first user message."""
    rng = random.Random(seed * 7 + 1)
    body = chatty_session(turns, seed, model=model)
    first = next(message for message in body["messages"] if message["role"] == "user")
    words = first["content"] if isinstance(first["content"], list) else [{"type": "text", "text": first["content"]}]
    pictures = [
        {"type": "image_url", "image_url": {"url": _data_url(_PNG_SIGNATURE + rng.randbytes(_SCREENSHOT_BYTES))}}
        for _ in range(4)
    ]
    first["content"] = [*words, *pictures]
    return body


def _data_url(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def chatty_session(turns: int, seed: int = SEED, *, nulls: bool = False, model: str = "gpt-5.1") -> dict[str, Any]:
    """The :data:`CHATTY` OpenAI Chat request after ``turns`` steps (``nulls``: as the SDK dumps it)."""
    rng = random.Random(seed)
    named = {"name": None} if nulls else {}
    messages: list[dict[str, Any]] = [{"role": "system", "content": _SYSTEM}]
    for step in range(turns):
        if step == 0 or step % 4 != 3:
            text = _sentence(rng, 4, 14)
            if step % 3 != 2:
                image = {"type": "image_url", "image_url": {"url": _image(rng)}}
                messages.append({"role": "user", "content": [{"type": "text", "text": text}, image], **named})
            else:
                messages.append({"role": "user", "content": text, **named})
        calls: list[dict[str, Any]] = []
        for _ in range(1 + step % 3):
            name, arguments = _call(rng)
            identifier = "call_" + "".join(rng.choices(string.ascii_letters + string.digits, k=24))
            function = {"name": name, "arguments": json.dumps(arguments)}
            calls.append({"id": identifier, "type": "function", "function": function})
        content = _sentence(rng, 3, 9) if step % 2 else None
        messages.append({"role": "assistant", "content": content, "tool_calls": calls, **(_NULLS if nulls else {})})
        for call in calls:
            result = f"{call['function']['name']}: {_sentence(rng, 3, 10)}"
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result, **named})
    return {"model": model, "messages": messages, "tools": _TOOLS, "tool_choice": "auto", "max_completion_tokens": 1024}


_CODE_VOCABULARY = (
    "request handler token session cache expiry retry backoff queue worker payload schema column index "
    "migration fixture assert raises timeout lock thread pool config loader parser render template "
    "invoice ledger balance refund currency rounding decimal offset cursor page batch"
)
_CODE_WORDS = tuple(_CODE_VOCABULARY.split())
_AGENT_SYSTEM = (
    "You are Tern, an engineering agent with a terminal, an editor and a headless browser. Work in "
    "small verified steps: read the code before changing it, run the narrowest test that covers the "
    "change, and look at the page when the task is about the interface. Call independent tools in one "
    "turn. Report what you changed and the evidence that it works. "
) * 3
_AGENT_TOOLS = [
    _tool("open_file", "Read a file of the workspace, optionally from a line.", path="string", start="integer"),
    _tool("run", "Run a shell command in the workspace; its output, truncated to 16 KB.", cmd="string"),
    _tool("find", "Search the workspace for a pattern.", pattern="string", path="string"),
    _tool("patch", "Apply a unified diff to the workspace.", diff="string"),
    _tool("snapshot", "Screenshot the app at a path in the headless browser.", route="string"),
]


def _code_line(rng: random.Random) -> str:
    words = [rng.choice(_CODE_WORDS) for _ in range(rng.randint(2, 6))]
    return f"    {words[0]}_{words[-1]} = {'.'.join(words[1:]) or 'None'}({rng.randint(0, 999)})"


def _long_output(rng: random.Random, name: str) -> str:
    """A tool's output of 2-14 KB: a file's lines, a test log, or search hits."""
    target = rng.randint(2_000, 14_000)
    lines: list[str] = []
    size = 0
    while size < target:
        if name == "run":
            line = (
                f"tests/test_{rng.choice(_CODE_WORDS)}.py::test_{rng.choice(_CODE_WORDS)}_{len(lines)} "
                + rng.choice(("PASSED", "PASSED", "PASSED", "FAILED", "SKIPPED"))
            )
        elif name == "find":
            line = f"src/{rng.choice(_CODE_WORDS)}/{rng.choice(_CODE_WORDS)}.py:{rng.randint(1, 900)}:{_code_line(rng)}"
        else:
            line = f"{len(lines) + 1:5d}  {_code_line(rng)}"
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def _agent_call(rng: random.Random, name: str) -> dict[str, Any]:
    match name:
        case "open_file":
            return {"path": f"src/{rng.choice(_CODE_WORDS)}/{rng.choice(_CODE_WORDS)}.py", "start": rng.randint(1, 400)}
        case "run":
            return {"cmd": f"pytest -q tests/test_{rng.choice(_CODE_WORDS)}.py -k {rng.choice(_CODE_WORDS)}"}
        case "find":
            return {"pattern": f"def {rng.choice(_CODE_WORDS)}_", "path": "src"}
        case "patch":
            old, new = _code_line(rng), _code_line(rng)
            return {"diff": f"--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-{old}\n+{new}\n"}
        case _:
            return {"route": f"/{rng.choice(_CODE_WORDS)}/{rng.randint(1, 50)}"}


def marked_agent_session(turns: int, seed: int = SEED, *, model: str = "gpt-5.1") -> dict[str, Any]:
    """The :data:`MARKED_AGENT` OpenAI Chat request after ``turns`` steps: about every fourth step
    takes a screenshot (at most three in the session), whose image the next user message carries;
    the session ends with a user message holding the gateway's cache marker."""
    rng = random.Random(seed * 11 + 5)
    sentence = partial(_worded, rng, _CODE_WORDS)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": _AGENT_SYSTEM},
        {"role": "user", "content": "Task: " + " ".join(sentence(8, 20) for _ in range(3)), "name": None},
    ]
    pictures = 0
    for step in range(turns):
        names = [rng.choice(("open_file", "run", "find", "patch")) for _ in range(rng.randint(2, 4))]
        if step % 4 == 2 and pictures < 3:
            names[-1] = "snapshot"
        calls = [
            {
                "id": "call_" + "".join(rng.choices(string.ascii_letters + string.digits, k=24)),
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(_agent_call(rng, name))},
            }
            for name in names
        ]
        thought = " ".join(sentence(6, 18) for _ in range(rng.randint(1, 5)))
        assistant = {"role": "assistant", "content": sentence(4, 12) if rng.random() < 0.4 else None}
        messages.append({**assistant, "reasoning_content": thought, "tool_calls": calls, **_NULLS})
        images: list[dict[str, Any]] = []
        for call in calls:
            name = call["function"]["name"]
            if name == "snapshot":
                output = "Screenshot taken; it follows in the next message."
                picture = _PNG_SIGNATURE + rng.randbytes(rng.randint(9_000, 30_000))
                images.append({"type": "image_url", "image_url": {"url": _data_url(picture)}})
                pictures += 1
            else:
                output = _long_output(rng, name)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": output, "name": None})
        if images:
            words = {
                "type": "text",
                "text": "The screenshot of " + json.loads(calls[-1]["function"]["arguments"])["route"],
            }
            messages.append({"role": "user", "content": [words, *images], "name": None})
    _mark_last_user(messages, rng, sentence(5, 14))
    return {
        "model": model,
        "messages": messages,
        "tools": _AGENT_TOOLS,
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "max_completion_tokens": 16_000,
    }


def _mark_last_user(messages: list[dict[str, Any]], rng: random.Random, words: str) -> None:
    """The gateway's rolling marker on the last message, a user's (its words are added after the last
    step's results unless it already is one): on the message, or on its last text part."""
    if messages[-1]["role"] != "user":
        messages.append({"role": "user", "content": [{"type": "text", "text": words}], "name": None})
    last = messages[-1]
    if rng.random() < 0.5:
        last["cache_control"] = {"type": "ephemeral"}
    else:
        text = next(part for part in reversed(last["content"]) if part["type"] == "text")
        text["cache_control"] = {"type": "ephemeral"}


def _worded(rng: random.Random, words: tuple[str, ...], low: int, high: int) -> str:
    return " ".join(rng.choice(words) for _ in range(rng.randint(low, high))).capitalize() + "."


def compact_arguments(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with every tool-argument text (OpenAI Chat's ``function.arguments``, a Responses
    ``function_call``'s ``arguments``) written again without spaces."""

    def walk(value: Any) -> Any:
        if isinstance(value, list):
            return [walk(item) for item in value]
        if not isinstance(value, dict):
            return value
        copied = {key: walk(item) for key, item in value.items()}
        text = copied.get("arguments")
        if isinstance(text, str) and text.startswith("{"):
            copied["arguments"] = json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
        return copied

    walked: dict[str, Any] = walk(body)
    return walked


def as_agents_sdk_sends(body: dict[str, Any]) -> dict[str, Any]:
    """A Responses ``body`` as the OpenAI Agents SDK sends it: a leading system item as
    ``instructions``, each assistant text a typed ``message`` item as the SDK replays a model's
    output (an ``id``, ``status`` and ``output_text`` parts with their ``annotations``), each
    ``function_call`` with its ``id`` and ``status``."""
    items: list[dict[str, Any]] = list(body["input"])
    sent = {key: value for key, value in body.items() if key != "input"}
    if items and items[0].get("role") == "system" and isinstance(items[0]["content"], str):
        sent = {"instructions": items.pop(0)["content"], **sent}
    replayed: list[dict[str, Any]] = []
    for position, item in enumerate(items):
        if item.get("role") == "assistant" and isinstance(item["content"], str):
            part = {"annotations": [], "text": item["content"], "type": "output_text"}
            message = {"id": f"msg_{position}", "content": [part], "role": "assistant", "status": "completed"}
            replayed.append({**message, "type": "message"})
        elif item.get("type") == "function_call":
            replayed.append({**item, "id": f"fc_{position}", "status": "completed"})
        else:
            replayed.append(item)
    return {**sent, "input": replayed}


@dataclass(frozen=True)
class Shaped:
    """One generated session of another shape: its pair, shape, size, body and the same shape from
    other seeds (what its first sight converts first)."""

    source: str
    target: str
    shape: str
    steps: int
    body: dict[str, Any]
    others: tuple[dict[str, Any], ...]


def _openai_body(shape: str, turns: int, seed: int, target: str) -> dict[str, Any]:
    from bench import agent_sources, agent_workloads

    model = agent_sources.OPENAI_MODELS.get(target, "gpt-5.1")
    if shape == COMPACT:
        return compact_arguments(agent_workloads.openai_session(turns, seed=seed, model=model))
    if shape == SCREENSHOTS:
        return screenshots_session(turns, seed, model=model)
    if shape == MARKED_AGENT:
        return marked_agent_session(turns, seed, model=model)
    return chatty_session(turns, seed, nulls=shape == CHATTY_NULLS, model=model)


def _body(shape: str, turns: int, seed: int, source: str, target: str) -> dict[str, Any]:
    import chatcodec

    native = _openai_body(shape, turns, seed, target if source == "openai-chat" else "openai-responses")
    if source == "openai-chat":
        return native
    written = chatcodec.convert_request(native, source="openai-chat", target=source, on_loss="ignore")
    if shape == AGENTS_SDK:
        return as_agents_sdk_sends(written)
    return compact_arguments(written) if shape == COMPACT else written


def sessions(steps: list[int] | tuple[int, ...]) -> Iterator[Shaped]:
    """Every shape's session of every size and pair, in :data:`PAIRS` order."""
    for shape, pairs in PAIRS.items():
        for size in steps:
            for source, target in pairs:
                body = _body(shape, size, SEED, source, target)
                others = tuple(_body(shape, size, seed, source, target) for seed in OTHER_SEEDS)
                yield Shaped(source, target, shape, size, body, others)
