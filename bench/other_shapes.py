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
from typing import Any

CHATTY = "short messages, small images"
CHATTY_NULLS = "short messages, small images, SDK-dump nulls"
COMPACT = "compact tool arguments"
SCREENSHOTS = "four 190 KB screenshots"
AGENTS_SDK = "short messages, small images, as the Agents SDK sends it"

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
