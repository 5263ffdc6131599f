"""Comparable views of each contender's output, so every contender is checked before it is timed.

Two outputs are *equivalent* when they mean the same request (or the same streamed
response) to the provider. A view keeps what the provider reads and leaves out what is
only spelling:

* a string ``content`` and a list holding one text block are the same;
* consecutive turns of the same role are one turn (the API joins them itself);
* key order, ``cache_control`` markers and other extras a library adds are ignored;
* tool arguments compare as parsed JSON, not as text (spacing differs by library);
* reasoning is not compared: no contender can send OpenAI ``reasoning_content`` to
  Anthropic (it has no signature), and each drops it its own way (the bench prints the
  footnotes).

A view's ``scope`` is ``"messages"`` (system prompt and turns: what a message converter
makes) or ``"request"`` (also model, ``max_tokens``, tools, ``tool_choice`` and sampling:
what a request transform makes).
"""

from __future__ import annotations

import json
from typing import Any, Literal

Scope = Literal["messages", "request"]

_IGNORED_BLOCKS = frozenset({"thinking", "redacted_thinking"})


# --- Anthropic requests ---------------------------------------------------------------------


def _anthropic_source(source: dict[str, Any]) -> tuple[str, ...]:
    if source["type"] == "base64":
        return ("base64", source["media_type"], source["data"])
    return (source["type"], source.get("url", ""))


def _anthropic_block(block: dict[str, Any]) -> tuple[Any, ...]:
    kind = block["type"]
    match kind:
        case "text":
            return ("text", block["text"])
        case "image" | "document":
            return (kind, _anthropic_source(block["source"]))
        case "tool_use":
            return ("tool_use", block["id"], block["name"], block["input"])
        case "tool_result":
            content = block.get("content", "")
            return ("tool_result", block["tool_use_id"], _anthropic_content(content), bool(block.get("is_error")))
        case _:
            return (kind, json.dumps(block, sort_keys=True))


def _anthropic_content(content: str | list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    if isinstance(content, str):
        return [("text", content)] if content else []
    return [_anthropic_block(block) for block in content if block["type"] not in _IGNORED_BLOCKS]


def _joined_turns(turns: list[tuple[str, list[Any]]]) -> list[tuple[str, list[Any]]]:
    joined: list[tuple[str, list[Any]]] = []
    for role, blocks in turns:
        if joined and joined[-1][0] == role:
            joined[-1][1].extend(blocks)
        else:
            joined.append((role, list(blocks)))
    return joined


def _system_text(system: str | list[dict[str, Any]] | None) -> str:
    if system is None or isinstance(system, str):
        return system or ""
    return "\n".join(block["text"] for block in system)


def anthropic_view(request: dict[str, Any], scope: Scope = "request") -> dict[str, Any]:
    """What an Anthropic Messages request means, for comparison."""
    turns = [(message["role"], _anthropic_content(message["content"])) for message in request["messages"]]
    view: dict[str, Any] = {"system": _system_text(request.get("system")), "turns": _joined_turns(turns)}
    if scope == "request":
        view["model"] = request.get("model")
        view["max_tokens"] = request.get("max_tokens")
        view["temperature"] = request.get("temperature")
        view["tool_choice"] = (request.get("tool_choice") or {}).get("type")
        view["tools"] = [
            (tool["name"], tool.get("description"), tool["input_schema"]) for tool in request.get("tools") or ()
        ]
    return view


# --- OpenAI Chat requests -------------------------------------------------------------------


def _openai_content(content: str | list[dict[str, Any]] | None) -> list[tuple[Any, ...]]:
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [("text", content)]
    parts: list[tuple[Any, ...]] = []
    for part in content:
        if part["type"] == "text":
            parts.append(("text", part["text"]))
        elif part["type"] == "image_url":
            image_url = part["image_url"]
            parts.append(("image_url", image_url if isinstance(image_url, str) else image_url["url"]))
        else:
            parts.append((part["type"], json.dumps(part, sort_keys=True)))
    return parts


def _openai_message(message: dict[str, Any]) -> tuple[Any, ...]:
    role = message["role"]
    if role == "tool":
        return ("tool", message["tool_call_id"], _openai_content(message["content"]))
    if role == "assistant":
        calls = [
            (call["id"], call["function"]["name"], json.loads(call["function"]["arguments"] or "{}"))
            for call in message.get("tool_calls") or ()
        ]
        return ("assistant", _openai_content(message.get("content")), calls)
    return (role, _openai_content(message["content"]))


def openai_view(request: dict[str, Any], scope: Scope = "request") -> dict[str, Any]:
    """What an OpenAI Chat Completions request means, for comparison."""
    view: dict[str, Any] = {"messages": [_openai_message(message) for message in request["messages"]]}
    if scope == "request":
        view["model"] = request.get("model")
        view["max_tokens"] = request.get("max_completion_tokens") or request.get("max_tokens")
        view["temperature"] = request.get("temperature")
        view["tool_choice"] = request.get("tool_choice")
        view["tools"] = [
            (tool["function"]["name"], tool["function"].get("description"), tool["function"].get("parameters"))
            for tool in request.get("tools") or ()
        ]
    return view


# --- streamed responses ---------------------------------------------------------------------


def stream_view(
    *,
    text: str,
    tool_calls: list[tuple[str, str, Any]],
    finish: str | None,
    usage: tuple[int | None, int | None],
    thinking: str = "",
    signature: str | None = None,
) -> dict[str, Any]:
    """What a streamed response says: text, thinking, calls (arguments parsed), finish, usage."""
    calls = [
        (call_id, name, json.loads(arguments) if isinstance(arguments, str) else arguments)
        for call_id, name, arguments in tool_calls
    ]
    return {
        "text": text,
        "thinking": thinking,
        "signature": signature,
        "tool_calls": calls,
        "finish": finish,
        "usage": usage,
    }


def openai_completion_view(completion: dict[str, Any]) -> dict[str, Any]:
    """The view of a ``chat.completion`` dict (the floor's output, or an SDK's ``model_dump()``)."""
    choice = completion["choices"][0]
    message = choice["message"]
    usage = completion.get("usage") or {}
    return stream_view(
        text=message.get("content") or "",
        tool_calls=[
            (call["id"], call["function"]["name"], call["function"]["arguments"])
            for call in message.get("tool_calls") or ()
        ],
        finish=choice.get("finish_reason"),
        usage=(usage.get("prompt_tokens"), usage.get("completion_tokens")),
    )


def anthropic_message_view(message: dict[str, Any]) -> dict[str, Any]:
    """The view of an Anthropic ``message`` dict (the floor's output, or the SDK's ``model_dump()``)."""
    blocks = message["content"]
    thinking = [block for block in blocks if block["type"] == "thinking"]
    usage = message.get("usage") or {}
    return stream_view(
        text="".join(block["text"] for block in blocks if block["type"] == "text"),
        thinking="".join(block["thinking"] for block in thinking),
        signature=thinking[-1]["signature"] if thinking else None,
        tool_calls=[(block["id"], block["name"], block["input"]) for block in blocks if block["type"] == "tool_use"],
        finish=message.get("stop_reason"),
        usage=(usage.get("input_tokens"), usage.get("output_tokens")),
    )


# --- reporting a difference -----------------------------------------------------------------


def first_difference(expected: object, actual: object, at: str = "$") -> str | None:
    """Where two views first differ, in a line a person can act on (``None`` when equal)."""
    if expected == actual:
        return None
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [key for key in actual if key not in expected]:
            found = first_difference(expected.get(key), actual.get(key), f"{at}.{key}")
            if found:
                return found
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        for index, (left, right) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(left, right, f"{at}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{at}: {len(expected)} items expected, {len(actual)} found"
    return f"{at}: expected {_short(expected)}, found {_short(actual)}"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


# --- OpenAI Responses requests ---------------------------------------------------------------


def _responses_content(content: str | list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    if isinstance(content, str):
        return [("text", content)] if content else []
    parts: list[tuple[Any, ...]] = []
    for part in content:
        if part["type"] in ("input_text", "output_text"):
            parts.append(("text", part["text"]))
        elif part["type"] == "input_image":
            parts.append(("image", part.get("image_url") or part.get("file_id")))
        else:
            parts.append((part["type"], json.dumps(part, sort_keys=True)))
    return parts


def _responses_item(item: dict[str, Any]) -> tuple[Any, ...]:
    kind = item.get("type", "message")
    if kind == "message":
        role = "system" if item["role"] == "developer" else item["role"]
        return (role, _responses_content(item["content"]))
    if kind == "function_call":
        return ("call", item["call_id"], item["name"], json.loads(item["arguments"] or "{}"))
    if kind == "function_call_output":
        output = item["output"]
        return ("result", item["call_id"], _responses_content(output))
    return (kind, json.dumps(item, sort_keys=True))


def responses_view(request: dict[str, Any]) -> dict[str, Any]:
    """What an OpenAI Responses request means, for comparison: ``instructions`` are a
    leading system message, an empty assistant text item says nothing."""
    items = [_responses_item(item) for item in request["input"]]
    if request.get("instructions"):
        items.insert(0, ("system", [("text", request["instructions"])]))
    return {
        "model": request.get("model"),
        "items": [item for item in items if item != ("assistant", [])],
        "max_output_tokens": request.get("max_output_tokens"),
        "temperature": request.get("temperature"),
        "tool_choice": request.get("tool_choice"),
        "tools": [
            (tool["name"], tool.get("description"), tool.get("parameters")) for tool in request.get("tools") or ()
        ],
    }
