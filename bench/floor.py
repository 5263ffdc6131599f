"""The floor: hand-written plain-dict converters, as tight as CPython allows.

Each does the same job as the chatcodec call it is compared with, on well-formed input,
and nothing else: no validation, no loss reports, no provider metadata, no id rewriting.
Their output equals chatcodec's on the bench workloads exactly (the smoke test pins
that), so the ratio to the floor is the price of everything chatcodec does on top.
"""

from __future__ import annotations

import json
from typing import Any

_DATA_PREFIX = "data:"
_CHOICES_TO_ANTHROPIC = {"auto": "auto", "required": "any", "none": "none"}
_CHOICES_TO_OPENAI = {"auto": "auto", "any": "required", "none": "none"}


# --- OpenAI Chat -> Anthropic Messages ------------------------------------------------------


def _image_block(url: str) -> dict[str, Any]:
    if url.startswith(_DATA_PREFIX):
        header, _, data = url.partition(",")
        media_type = header[5:].partition(";")[0]
        return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}
    return {"type": "image", "source": {"type": "url", "url": url}}


def _user_blocks(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    blocks = []
    for part in content:
        if part["type"] == "text":
            blocks.append({"type": "text", "text": part["text"]})
        else:
            blocks.append(_image_block(part["image_url"]["url"]))
    return blocks


def _assistant_turn(message: dict[str, Any]) -> dict[str, Any]:
    """Reasoning is dropped, as chatcodec drops it: Anthropic rejects thinking it did not sign."""
    content = message.get("content")
    calls = message.get("tool_calls")
    if not calls:
        return {"role": "assistant", "content": content}
    blocks: list[dict[str, Any]] = [{"type": "text", "text": content}] if content else []
    for call in calls:
        function = call["function"]
        arguments = function["arguments"]
        blocks.append(
            {
                "type": "tool_use",
                "id": call["id"],
                "name": function["name"],
                "input": json.loads(arguments) if arguments.strip() else {},
            }
        )
    return {"role": "assistant", "content": blocks}


def _anthropic_turns(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tool results grouped into one user turn, a following user message joining it."""
    turns: list[dict[str, Any]] = []
    open_results: list[dict[str, Any]] | None = None
    for message in messages:
        role = message["role"]
        if role == "tool":
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": message["content"]}
            if open_results is None:
                open_results = [result]
                turns.append({"role": "user", "content": open_results})
            else:
                open_results.append(result)
        elif role == "user":
            content = message["content"]
            if open_results is not None:
                if isinstance(content, str):
                    open_results.append({"type": "text", "text": content})
                else:
                    open_results.extend(_user_blocks(content))
                open_results = None
            else:
                turns.append(
                    {"role": "user", "content": content if isinstance(content, str) else _user_blocks(content)}
                )
        else:
            open_results = None
            turns.append(_assistant_turn(message))
    return turns


def _anthropic_choice(choice: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(choice, str):
        return {"type": _CHOICES_TO_ANTHROPIC[choice]}
    return {"type": "tool", "name": choice["function"]["name"]}


def openai_to_anthropic(request: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI Chat Completions request body as an Anthropic Messages request body."""
    messages = request["messages"]
    leading = 0
    while leading < len(messages) and messages[leading]["role"] in ("system", "developer"):
        leading += 1
    wire: dict[str, Any] = {"model": request["model"]}
    wire["max_tokens"] = request.get("max_completion_tokens") or request.get("max_tokens") or 4096
    tools = request.get("tools")
    if tools:
        wire["tools"] = [
            {
                "name": tool["function"]["name"],
                "description": tool["function"]["description"],
                "input_schema": tool["function"]["parameters"],
            }
            for tool in tools
        ]
    if "tool_choice" in request:
        wire["tool_choice"] = _anthropic_choice(request["tool_choice"])
    if leading:
        wire["system"] = "\n".join(message["content"] for message in messages[:leading])
    wire["messages"] = _anthropic_turns(messages[leading:])
    for key in ("temperature", "top_p"):
        if key in request:
            wire[key] = request[key]
    stop = request.get("stop")
    if stop:
        wire["stop_sequences"] = [stop] if isinstance(stop, str) else stop
    return wire


# --- Anthropic Messages -> OpenAI Chat ------------------------------------------------------


def _openai_part(block: dict[str, Any]) -> dict[str, Any]:
    if block["type"] == "text":
        return {"type": "text", "text": block["text"]}
    source = block["source"]
    url = f"data:{source['media_type']};base64,{source['data']}" if source["type"] == "base64" else source["url"]
    return {"type": "image_url", "image_url": {"url": url}}


def _openai_user(content: str | list[dict[str, Any]], into: list[dict[str, Any]]) -> None:
    if isinstance(content, str):
        into.append({"role": "user", "content": content})
        return
    rest = []
    for block in content:
        if block["type"] == "tool_result":
            result = block.get("content", "")
            if not isinstance(result, str):
                result = [{"type": "text", "text": part["text"]} for part in result]
            into.append({"role": "tool", "tool_call_id": block["tool_use_id"], "content": result})
        else:
            rest.append(_openai_part(block))
    if rest:
        into.append({"role": "user", "content": rest})


def _openai_assistant(content: str | list[dict[str, Any]]) -> dict[str, Any]:
    """Thinking is dropped, as chatcodec drops it: OpenAI Chat takes no reasoning input."""
    if isinstance(content, str):
        return {"role": "assistant", "content": content}
    texts = []
    calls = []
    for block in content:
        kind = block["type"]
        if kind == "text":
            texts.append(block["text"])
        elif kind == "tool_use":
            arguments = json.dumps(block["input"], ensure_ascii=False, separators=(",", ":"))
            calls.append(
                {"id": block["id"], "type": "function", "function": {"name": block["name"], "arguments": arguments}}
            )
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if calls:
        message["tool_calls"] = calls
    return message


def anthropic_to_openai(request: dict[str, Any]) -> dict[str, Any]:
    """An Anthropic Messages request body as an OpenAI Chat Completions request body."""
    messages: list[dict[str, Any]] = []
    system = request.get("system")
    if system is not None:
        messages.append({"role": "system", "content": system})
    for turn in request["messages"]:
        if turn["role"] == "user":
            _openai_user(turn["content"], messages)
        else:
            messages.append(_openai_assistant(turn["content"]))
    wire: dict[str, Any] = {"model": request["model"], "messages": messages}
    tools = request.get("tools")
    if tools:
        wire["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool["name"],
                    "description": tool["description"],
                    "parameters": tool["input_schema"],
                },
            }
            for tool in tools
        ]
    choice = request.get("tool_choice")
    if choice is not None:
        kind = choice["type"]
        wire["tool_choice"] = (
            {"type": "function", "function": {"name": choice["name"]}} if kind == "tool" else _CHOICES_TO_OPENAI[kind]
        )
    wire["max_completion_tokens"] = request["max_tokens"]
    for key in ("temperature", "top_p"):
        if key in request:
            wire[key] = request[key]
    if "stop_sequences" in request:
        wire["stop"] = request["stop_sequences"]
    return wire


# --- stream accumulation --------------------------------------------------------------------


def accumulate_openai_chunks(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """Parsed ``chat.completion.chunk`` dicts -> the final ``chat.completion`` dict (one choice)."""
    text: list[str] = []
    calls: dict[int, tuple[dict[str, Any], list[str]]] = {}
    finish_reason = None
    usage = None
    for chunk in chunks:
        if chunk.get("usage"):
            usage = chunk["usage"]
        for choice in chunk["choices"]:
            delta = choice["delta"]
            content = delta.get("content")
            if content:
                text.append(content)
            for call in delta.get("tool_calls") or ():
                entry = calls.get(call["index"])
                if entry is None:
                    head = {"id": call["id"], "type": "function", "function": {"name": call["function"]["name"]}}
                    entry = calls[call["index"]] = (head, [])
                fragment = call["function"].get("arguments")
                if fragment:
                    entry[1].append(fragment)
            if choice["finish_reason"] is not None:
                finish_reason = choice["finish_reason"]
    message: dict[str, Any] = {"role": "assistant", "content": "".join(text) if text else None}
    if calls:
        for head, fragments in calls.values():
            head["function"]["arguments"] = "".join(fragments)
        message["tool_calls"] = [calls[index][0] for index in sorted(calls)]
    first = chunks[0]
    return {
        "id": first["id"],
        "object": "chat.completion",
        "created": first["created"],
        "model": first["model"],
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": usage,
    }


_DELTA_TEXT_KEYS = {"text_delta": "text", "input_json_delta": "partial_json", "thinking_delta": "thinking"}
"""Where each text-carrying delta keeps its fragment."""


def _finish_block(block: dict[str, Any], joined: str) -> None:
    kind = block["type"]
    if kind == "text":
        block["text"] = joined
    elif kind == "thinking":
        block["thinking"] = joined
    elif kind == "tool_use":
        block["input"] = json.loads(joined) if joined else {}


def accumulate_anthropic_events(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Parsed Anthropic stream events -> the final ``message`` dict (tool input parsed once)."""
    message: dict[str, Any] = {}
    blocks: list[dict[str, Any]] = []
    fragments: list[list[str]] = []
    for event in events:
        kind = event["type"]
        if kind == "content_block_delta":
            delta = event["delta"]
            key = _DELTA_TEXT_KEYS.get(delta["type"])
            if key is not None:
                fragments[event["index"]].append(delta[key])
            elif delta["type"] == "signature_delta":
                blocks[event["index"]]["signature"] = delta["signature"]
        elif kind == "content_block_start":
            blocks.append(dict(event["content_block"]))
            fragments.append([])
        elif kind == "message_start":
            message = dict(event["message"])
            message["usage"] = dict(message["usage"])
        elif kind == "message_delta":
            message.update(event["delta"])
            message["usage"].update(event["usage"])
    for block, pieces in zip(blocks, fragments, strict=True):
        _finish_block(block, "".join(pieces))
    message["content"] = blocks
    return message


# --- OpenAI Chat -> OpenAI Responses ------------------------------------------------------------


def _responses_user(content: str | list[dict[str, Any]]) -> str | list[dict[str, Any]]:
    if isinstance(content, str):
        return content
    parts: list[dict[str, Any]] = []
    for part in content:
        if part["type"] == "text":
            parts.append({"type": "input_text", "text": part["text"]})
        else:
            image_url = part["image_url"]
            detail = image_url.get("detail", "auto")
            parts.append({"type": "input_image", "image_url": image_url["url"], "detail": detail})
    return parts


def _responses_items(message: dict[str, Any]) -> list[dict[str, Any]]:
    role = message["role"]
    if role == "tool":
        return [{"type": "function_call_output", "call_id": message["tool_call_id"], "output": message["content"]}]
    if role != "assistant":
        return [{"role": role, "content": _responses_user(message["content"])}]
    items: list[dict[str, Any]] = []
    if message.get("content"):
        items.append({"role": "assistant", "content": message["content"]})
    for call in message.get("tool_calls") or ():
        function = call["function"]
        items.append(
            {
                "type": "function_call",
                "call_id": call["id"],
                "name": function["name"],
                "arguments": function["arguments"],
            }
        )
    return items  # reasoning_content: Responses takes no unsigned reasoning, so it goes


def openai_to_responses(request: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI Chat request as an OpenAI Responses request, in plain dicts."""
    items = [item for message in request["messages"] for item in _responses_items(message)]
    wire: dict[str, Any] = {"model": request["model"], "input": items}
    tools = request.get("tools")
    if tools:
        wire["tools"] = [
            {
                "type": "function",
                "name": tool["function"]["name"],
                "description": tool["function"].get("description"),
                "parameters": tool["function"].get("parameters"),
                "strict": tool["function"].get("strict"),
            }
            for tool in tools
        ]
    if "tool_choice" in request:
        wire["tool_choice"] = request["tool_choice"]
    if "max_tokens" in request or "max_completion_tokens" in request:
        wire["max_output_tokens"] = request.get("max_completion_tokens") or request["max_tokens"]
    if "temperature" in request:
        wire["temperature"] = request["temperature"]
    return wire


# --- stream conversion (a proxy's job) ----------------------------------------------------------

_STOP_TO_OPENAI = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop"}
_STOP_TO_ANTHROPIC = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}


def _openai_delta(event: dict[str, Any], tools: dict[int, int]) -> dict[str, Any] | None:
    delta = event["delta"]
    kind = delta["type"]
    if kind == "text_delta":
        return {"content": delta["text"]}
    if kind == "thinking_delta":
        return {"reasoning_content": delta["thinking"]}
    if kind == "input_json_delta":
        return {"tool_calls": [{"index": tools[event["index"]], "function": {"arguments": delta["partial_json"]}}]}
    return None  # signature_delta: OpenAI Chat has no place for it


def anthropic_events_to_openai_chunks(events: list[dict[str, Any]], created: int) -> list[dict[str, Any]]:
    """Parsed Anthropic stream events -> ``chat.completion.chunk`` dicts (with the usage chunk)."""
    chunks: list[dict[str, Any]] = []
    head: dict[str, Any] = {}
    tools: dict[int, int] = {}  # block index -> tool-call index
    prompt = 0
    for event in events:
        kind = event["type"]
        if kind == "content_block_delta":
            delta = _openai_delta(event, tools)
            if delta is not None:
                chunks.append({**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
        elif kind == "content_block_start":
            block = event["content_block"]
            if block["type"] == "tool_use":
                call_index = tools[event["index"]] = len(tools)
                function = {"name": block["name"], "arguments": ""}
                call = {"index": call_index, "id": block["id"], "type": "function", "function": function}
                chunks.append(
                    {**head, "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]}
                )
        elif kind == "message_start":
            message = event["message"]
            head = {
                "object": "chat.completion.chunk",
                "id": message["id"],
                "created": created,
                "model": message["model"],
            }
            usage = message["usage"]
            prompt = usage["input_tokens"] + usage["cache_read_input_tokens"] + usage["cache_creation_input_tokens"]
        elif kind == "message_delta":
            finish = _STOP_TO_OPENAI[event["delta"]["stop_reason"]]
            chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
            completion = event["usage"]["output_tokens"]
            usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
            chunks.append({**head, "choices": [], "usage": usage})
    chunks[0]["choices"][0]["delta"]["role"] = "assistant"
    return chunks


def _anthropic_block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _anthropic_delta(index: int, kind: str, key: str, text: str) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: text}}


def openai_chunks_to_anthropic_events(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Parsed ``chat.completion.chunk`` dicts (one choice) -> Anthropic stream events."""
    first = chunks[0]
    message = {"id": first["id"], "type": "message", "role": "assistant", "model": first["model"], "content": []}
    start = {**message, "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 0, "output_tokens": 0}}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    text_index: int | None = None
    blocks: dict[int, int] = {}  # tool-call index -> block index
    opened = 0
    stop = usage = None
    for chunk in chunks:
        if chunk.get("usage"):
            usage = chunk["usage"]
        for choice in chunk["choices"]:
            delta = choice["delta"]
            content = delta.get("content")
            if content:
                if text_index is None:
                    text_index, opened = opened, opened + 1
                    events.append(_anthropic_block_start(text_index, {"type": "text", "text": ""}))
                events.append(_anthropic_delta(text_index, "text_delta", "text", content))
            for call in delta.get("tool_calls") or ():
                index = blocks.get(call["index"])
                if index is None:
                    index = blocks[call["index"]] = opened
                    opened += 1
                    block = {"type": "tool_use", "id": call["id"], "name": call["function"]["name"], "input": {}}
                    events.append(_anthropic_block_start(index, block))
                arguments = call["function"].get("arguments")
                if arguments:
                    events.append(_anthropic_delta(index, "input_json_delta", "partial_json", arguments))
            if choice["finish_reason"] is not None:
                stop = _STOP_TO_ANTHROPIC[choice["finish_reason"]]
    events.extend({"type": "content_block_stop", "index": index} for index in range(opened))
    counts = {"input_tokens": usage["prompt_tokens"], "output_tokens": usage["completion_tokens"]} if usage else {}
    events.append({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": counts})
    events.append({"type": "message_stop"})
    return events


def sse_events(body: bytes) -> list[dict[str, Any]]:
    """The JSON ``data:`` of each SSE frame (``[DONE]`` skipped)."""
    events: list[dict[str, Any]] = []
    for frame in body.split(b"\n\n"):
        start = frame.find(b"data: ")
        if start >= 0 and frame[start + 6 :] != b"[DONE]":
            events.append(json.loads(frame[start + 6 :]))
    return events


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""One encoder made once: ``json.dumps`` with any option builds a new one per call."""


def _compact(event: dict[str, Any]) -> bytes:
    return _COMPACT(event).encode()


def anthropic_sse_to_openai_sse(body: bytes, created: int) -> bytes:
    """An Anthropic SSE body -> an OpenAI Chat SSE body (``data: [DONE]`` last)."""
    chunks = anthropic_events_to_openai_chunks(sse_events(body), created)
    return b"".join([*(b"data: " + _compact(chunk) + b"\n\n" for chunk in chunks), b"data: [DONE]\n\n"])


def openai_sse_to_anthropic_sse(body: bytes) -> bytes:
    """An OpenAI Chat SSE body -> an Anthropic SSE body (``event:`` lines named by type)."""
    events = openai_chunks_to_anthropic_events(sse_events(body))
    return b"".join(b"event: " + event["type"].encode() + b"\ndata: " + _compact(event) + b"\n\n" for event in events)
