"""Synthetic but realistic workloads: agent sessions and streams, the same on every run.

An agent session is what a coding or data agent sends after some turns of work: one
system prompt, user text with screenshots (base64 data URLs of some KB) and links to
images (https URLs), assistant turns carrying ``reasoning_content`` (as DeepSeek, z.ai
and Qwen servers send it), some text and *parallel* tool calls, and the tool results
(mostly short, every fourth one a few KB of rows). The issue behind this benchmark
measured a 50-turn session at 189 messages and 181 KiB; this generator gives 186
messages and about the same size, so the proportions match.

Streams use deltas of 4 to 20 characters, the size of a few tokens, as servers send them.
Everything is drawn from a seeded :class:`random.Random`, so a size always gives the
same payload.
"""

from __future__ import annotations

import base64
import json
import random
import string
from typing import Any

from bench.floor import openai_to_anthropic

_VOCABULARY = (
    "the revenue query region week table schema index join filter latency cache warehouse "
    "customer order refund invoice margin forecast anomaly drop spike trend chart series "
    "report rows column null value total average median growth decline shipment return "
    "we should check whether this explains compare previous result because therefore next"
)
_WORDS = tuple(_VOCABULARY.split())

_TOOL_NAMES = ("run_sql", "read_file", "search_docs", "plot_chart", "http_get", "write_file")

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "run_sql",
            "description": "Run one read-only SELECT against the analytics warehouse; rows come back as JSON.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "A single SELECT statement."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 10000},
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a text file from the project workspace.",
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "start_line": {"type": "integer"},
                    "end_line": {"type": "integer"},
                },
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_docs",
            "description": "Full-text search over the internal wiki; returns titles and snippets.",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string"}, "top_k": {"type": "integer", "default": 5}},
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "plot_chart",
            "description": "Render a chart of a named series and return a description of the image.",
            "parameters": {
                "type": "object",
                "properties": {
                    "series": {"type": "string"},
                    "kind": {"type": "string", "enum": ["line", "bar", "scatter"]},
                },
                "required": ["series", "kind"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "http_get",
            "description": "Fetch a URL from the allow-listed internal services.",
            "parameters": {
                "type": "object",
                "properties": {"url": {"type": "string", "format": "uri"}, "headers": {"type": "object"}},
                "required": ["url"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": "Write a text file in the workspace, replacing it if it exists.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                "required": ["path", "content"],
            },
        },
    },
]
"""The tool definitions every session request carries (OpenAI Chat shape)."""

SYSTEM_PROMPT = (
    "You are Ledger, a careful data-analysis agent for ACME Corp. Use the SQL, file and "
    "charting tools; never guess numbers. Call independent tools in parallel. When you "
    "answer, give two short paragraphs and cite the queries you ran."
)

_PARALLEL_CALLS = (2, 3, 1, 3, 2)
"""Tool calls per assistant turn, cycled: 2.2 on average."""

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(_sentence(rng, rng.randint(6, 16)) for _ in range(sentences))


def _call_id(rng: random.Random) -> str:
    return "call_" + "".join(rng.choices(string.ascii_letters + string.digits, k=24))


def _data_url(rng: random.Random, raw_bytes: int) -> str:
    payload = _PNG_SIGNATURE + rng.randbytes(raw_bytes)
    return "data:image/png;base64," + base64.b64encode(payload).decode("ascii")


def _arguments(rng: random.Random, name: str) -> str:
    match name:
        case "run_sql":
            value: dict[str, Any] = {
                "query": f"SELECT region, week, SUM(amount) FROM sales WHERE week >= '2026-W{rng.randint(10, 52)}' "
                f"AND region = '{rng.choice(['EMEA', 'APAC', 'AMER'])}' GROUP BY region, week ORDER BY week",
                "limit": rng.choice([50, 100, 500]),
            }
        case "read_file":
            value = {"path": f"reports/{rng.choice(_WORDS)}_{rng.randint(1, 99)}.md", "start_line": 1}
        case "search_docs":
            value = {"query": " ".join(rng.choice(_WORDS) for _ in range(5))}
        case "plot_chart":
            value = {"series": f"{rng.choice(_WORDS)}_weekly", "kind": rng.choice(["line", "bar"])}
        case "http_get":
            value = {"url": f"https://metrics.internal.example/api/v2/{rng.choice(_WORDS)}?window=7d"}
        case _:
            value = {"path": f"notes/{rng.choice(_WORDS)}.md", "content": _paragraph(rng, 3)}
    return json.dumps(value)


def _tool_result(rng: random.Random, long: bool) -> str:
    if not long:
        return json.dumps(
            [[f"2026-W{rng.randint(10, 52)}", rng.randint(1000, 999999)] for _ in range(rng.randint(3, 12))]
        )
    rows = [
        {"region": rng.choice(["EMEA", "APAC", "AMER"]), "week": f"2026-W{rng.randint(10, 52)}", "amount": rng.random()}
        for _ in range(30)
    ]
    return json.dumps(rows)


def _user_message(rng: random.Random, turn: int) -> dict[str, Any]:
    text = _paragraph(rng, rng.randint(1, 3))
    picture = (turn // 2) % 4
    if picture == 1:
        image = {"type": "image_url", "image_url": {"url": _data_url(rng, rng.randint(5000, 7000))}}
    elif picture == 3:
        image = {"type": "image_url", "image_url": {"url": f"https://dashboards.example.com/snap/{turn}.png"}}
    else:
        return {"role": "user", "content": text}
    return {"role": "user", "content": [{"type": "text", "text": text}, image]}


def _assistant_turn(rng: random.Random, turn: int) -> list[dict[str, Any]]:
    """One assistant message with parallel tool calls, then one tool message per call."""
    calls = []
    for _ in range(_PARALLEL_CALLS[turn % len(_PARALLEL_CALLS)]):
        name = rng.choice(_TOOL_NAMES)
        calls.append(
            {"id": _call_id(rng), "type": "function", "function": {"name": name, "arguments": _arguments(rng, name)}}
        )
    assistant: dict[str, Any] = {"role": "assistant", "content": None if turn % 3 == 0 else _paragraph(rng, 2)}
    if turn % 5 != 4:
        assistant["reasoning_content"] = _paragraph(rng, rng.randint(2, 5))
    assistant["tool_calls"] = calls
    results = [
        {"role": "tool", "tool_call_id": call["id"], "content": _tool_result(rng, (turn * 3 + index) % 4 == 0)}
        for index, call in enumerate(calls)
    ]
    return [assistant, *results]


def openai_session(turns: int, seed: int = 7) -> dict[str, Any]:
    """An OpenAI Chat Completions request for an agent session of ``turns`` assistant steps."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM_PROMPT}]
    for turn in range(turns):
        if turn % 2 == 0:
            messages.append(_user_message(rng, turn))
        messages.extend(_assistant_turn(rng, turn))
    return {
        "model": "claude-sonnet-4-5",
        "messages": messages,
        "tools": TOOLS,
        "tool_choice": "auto",
        "max_completion_tokens": 4096,
        "temperature": 0.2,
    }


def anthropic_session(turns: int, seed: int = 7) -> dict[str, Any]:
    """The same session as an Anthropic Messages request, as a native Claude agent sends it.

    Built from :func:`openai_session` through the floor converter, then each assistant
    turn that had reasoning gets back a *signed* thinking block first (an Anthropic
    session has signatures; an OpenAI one cannot).
    """
    source = openai_session(turns, seed)
    request = openai_to_anthropic(source)
    rng = random.Random(seed + 1)
    reasoning = [message.get("reasoning_content") for message in source["messages"] if message["role"] == "assistant"]
    assistants = [message for message in request["messages"] if message["role"] == "assistant"]
    for message, thought in zip(assistants, reasoning, strict=True):
        if thought:
            signature = base64.b64encode(rng.randbytes(240)).decode("ascii")
            message["content"].insert(0, {"type": "thinking", "thinking": thought, "signature": signature})
    return request


def _pieces(rng: random.Random, text: str) -> list[str]:
    """``text`` cut into deltas of 4 to 20 characters."""
    pieces: list[str] = []
    start = 0
    while start < len(text):
        size = rng.randint(4, 20)
        pieces.append(text[start : start + size])
        start += size
    return pieces


def _text_of(rng: random.Random, deltas: int) -> str:
    """About ``deltas`` deltas' worth of prose (12 characters per delta on average)."""
    words: list[str] = []
    length = 0
    while length < deltas * 12:
        word = rng.choice(_WORDS)
        words.append(word)
        length += len(word) + 1
    return " ".join(words)


def _arguments_of(rng: random.Random, deltas: int) -> str:
    """Tool-call arguments JSON that streams in about ``deltas`` deltas."""
    return json.dumps({"path": "notes/analysis.md", "content": _text_of(rng, deltas), "overwrite": True})


def openai_stream(deltas: int, seed: int = 11) -> list[dict[str, Any]]:
    """Parsed ``chat.completion.chunk`` dicts: half text deltas, half the arguments of two
    parallel tool calls, then the finish chunk and the usage chunk (``include_usage``)."""
    rng = random.Random(seed)
    base = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1760000000, "model": "gpt-4.1"}
    base["system_fingerprint"] = "fp_bench"

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        return {**base, "choices": [choice], "usage": None}

    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks.extend(chunk({"content": piece}) for piece in _pieces(rng, _text_of(rng, deltas // 2)))
    for index in range(2):
        call_id = _call_id(rng)
        head = {"index": index, "id": call_id, "type": "function", "function": {"name": "write_file", "arguments": ""}}
        chunks.append(chunk({"tool_calls": [head]}))
        for piece in _pieces(rng, _arguments_of(rng, deltas // 4)):
            chunks.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    chunks.append(chunk({}, "tool_calls"))
    usage = {"prompt_tokens": 5120, "completion_tokens": deltas + 3, "total_tokens": 5123 + deltas}
    chunks.append({**base, "choices": [], "usage": usage})
    return chunks


def anthropic_stream(deltas: int, seed: int = 13) -> list[dict[str, Any]]:
    """Parsed Anthropic stream events: a signed thinking block (30% of the deltas), a text
    block (30%) and two tool_use blocks streaming ``input_json_delta`` (20% each)."""
    rng = random.Random(seed)
    usage = {"input_tokens": 5120, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    message = {"id": "msg_bench", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5"}
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {**message, "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage},
        }
    ]

    def block(index: int, start: dict[str, Any], kind: str, key: str, pieces: list[str]) -> None:
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        events.extend(
            {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: piece}} for piece in pieces
        )

    block(
        0,
        {"type": "thinking", "thinking": "", "signature": ""},
        "thinking_delta",
        "thinking",
        _pieces(rng, _text_of(rng, deltas * 3 // 10)),
    )
    signature = base64.b64encode(rng.randbytes(240)).decode("ascii")
    events.append(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": signature}}
    )
    events.append({"type": "content_block_stop", "index": 0})
    block(1, {"type": "text", "text": ""}, "text_delta", "text", _pieces(rng, _text_of(rng, deltas * 3 // 10)))
    events.append({"type": "content_block_stop", "index": 1})
    for index in (2, 3):
        start = {"type": "tool_use", "id": f"toolu_bench{index}", "name": "write_file", "input": {}}
        block(index, start, "input_json_delta", "partial_json", _pieces(rng, _arguments_of(rng, deltas // 5)))
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": deltas + 4},
        }
    )
    events.append({"type": "message_stop"})
    return events


def size_of(payload: object) -> int:
    """The payload's size as compact JSON, in bytes."""
    return len(json.dumps(payload, separators=(",", ":")).encode())


ANTHROPIC_OPTIONS = {"api_version": "2023-06-01"}
"""chatcodec's encoder options for the Anthropic target in the bench: the anchors
(litellm, pydantic-ai, LangChain) send ``temperature`` as the ``2023-06-01`` API takes it,
so chatcodec is told that version and every contender does the same job (under its
default, ``2026-10-21``, chatcodec drops the sampling settings and reports it)."""
