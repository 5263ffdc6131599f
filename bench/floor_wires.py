"""Floors for Gemini and Bedrock Converse: hand-written plain-dict converters, both ways.

As in :mod:`bench.floor`: each does the job of the chatcodec call it is compared with on
the bench's well-formed sessions and nothing else (no validation, no loss reports, no
provider metadata, no id or name rewriting), and its output means what chatcodec's does
(:func:`gemini_view`, :func:`bedrock_view`, :func:`bench.equivalence.openai_view`).
Reasoning is dropped, as chatcodec drops it (neither takes OpenAI's unsigned reasoning).
"""

from __future__ import annotations

import json
import mimetypes
from typing import Any

_CHOICE_MODES = {"auto": "AUTO", "required": "ANY", "none": "NONE"}
_DATA_PREFIX = "data:"


def _split_leading_system(messages: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    leading = 0
    while leading < len(messages) and messages[leading]["role"] in ("system", "developer"):
        leading += 1
    return [message["content"] for message in messages[:leading]], messages[leading:]


def _arguments(text: str) -> Any:
    return json.loads(text) if text.strip() else {}


# --- OpenAI Chat -> Gemini --------------------------------------------------------------------


def _gemini_part(part: dict[str, Any]) -> dict[str, Any]:
    if part["type"] == "text":
        return {"text": part["text"]}
    url = part["image_url"]["url"]
    if url.startswith(_DATA_PREFIX):
        header, _, data = url.partition(",")
        return {"inlineData": {"mimeType": header[5:].partition(";")[0], "data": data}}
    # fileData needs a mimeType (a 400 without it): the URL's extension, else JPEG, as chatcodec guesses
    guessed, _ = _MIME_TYPES.guess_type(url.split("?", 1)[0], strict=False)
    mime_type = guessed if guessed is not None and guessed.startswith("image/") else "image/jpeg"
    return {"fileData": {"fileUri": url, "mimeType": mime_type}}


_MIME_TYPES = mimetypes.MimeTypes()


def _gemini_model_turn(message: dict[str, Any]) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"text": message["content"]}] if message.get("content") else []
    for call in message.get("tool_calls") or ():
        function = call["function"]
        parts.append(
            {"functionCall": {"name": function["name"], "args": _arguments(function["arguments"]), "id": call["id"]}}
        )
    return {"role": "model", "parts": parts}


def openai_to_gemini(request: dict[str, Any]) -> dict[str, Any]:  # noqa: PLR0915 (a floor is one loop, as a hand-written converter is)
    """An OpenAI Chat request body as a Gemini ``generateContent`` body."""
    system, messages = _split_leading_system(request["messages"])
    names: dict[str, str] = {}
    contents: list[dict[str, Any]] = []
    results: list[dict[str, Any]] | None = None
    for message in messages:
        role = message["role"]
        if role == "tool":
            call_id = message["tool_call_id"]
            response = {"name": names[call_id], "response": {"output": message["content"]}, "id": call_id}
            if results is None:
                results = []
                contents.append({"role": "user", "parts": results})
            results.append({"functionResponse": response})
            continue
        results = None
        if role == "assistant":
            for call in message.get("tool_calls") or ():
                names[call["id"]] = call["function"]["name"]
            contents.append(_gemini_model_turn(message))
        else:
            content = message["content"]
            parts = [{"text": content}] if isinstance(content, str) else [_gemini_part(part) for part in content]
            contents.append({"role": "user", "parts": parts})
    wire: dict[str, Any] = {}  # the model is named in the URL, not the body
    if system:
        wire["systemInstruction"] = {"parts": [{"text": text} for text in system]}
    wire["contents"] = contents
    functions = [tool["function"] for tool in request.get("tools") or ()]
    if functions:
        declarations = [
            {
                "name": function["name"],
                "description": function["description"],
                "parametersJsonSchema": function["parameters"],
            }
            for function in functions
        ]
        wire["tools"] = [{"functionDeclarations": declarations}]
    if "tool_choice" in request:
        wire["toolConfig"] = {"functionCallingConfig": {"mode": _CHOICE_MODES[request["tool_choice"]]}}
    config: dict[str, Any] = {}
    if "temperature" in request:
        config["temperature"] = request["temperature"]
    limit = request.get("max_completion_tokens") or request.get("max_tokens")
    if limit:
        config["maxOutputTokens"] = limit
    if config:
        wire["generationConfig"] = config
    return wire


# --- Gemini -> OpenAI Chat --------------------------------------------------------------------


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_CHOICES_FROM_MODE = {mode: choice for choice, mode in _CHOICE_MODES.items()}


def _openai_user_part(part: dict[str, Any]) -> dict[str, Any]:
    if "text" in part:
        return {"type": "text", "text": part["text"]}
    inline = part["inlineData"]
    return {"type": "image_url", "image_url": {"url": f"data:{inline['mimeType']};base64,{inline['data']}"}}


def _openai_from_model(parts: list[dict[str, Any]]) -> dict[str, Any]:
    texts = [part["text"] for part in parts if "text" in part and not part.get("thought")]
    calls = [
        {
            "id": part["functionCall"]["id"],
            "type": "function",
            "function": {
                "name": part["functionCall"]["name"],
                "arguments": _COMPACT.encode(part["functionCall"]["args"]),
            },
        }
        for part in parts
        if "functionCall" in part
    ]
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if calls:
        message["tool_calls"] = calls
    return message


def gemini_to_openai(request: dict[str, Any]) -> dict[str, Any]:
    """A Gemini ``generateContent`` body as an OpenAI Chat request body."""
    messages: list[dict[str, Any]] = []
    system = request.get("systemInstruction")
    if system is not None:
        messages.append(
            {"role": "system", "content": [{"type": "text", "text": part["text"]} for part in system["parts"]]}
        )
    for content in request["contents"]:
        parts = content["parts"]
        if content["role"] == "model":
            messages.append(_openai_from_model(parts))
            continue
        rest = []
        for part in parts:
            response = part.get("functionResponse")
            if response is None:
                rest.append(_openai_user_part(part))
            else:
                messages.append(
                    {"role": "tool", "tool_call_id": response["id"], "content": response["response"]["output"]}
                )
        if rest:
            messages.append({"role": "user", "content": rest})
    wire: dict[str, Any] = {"messages": messages}
    if "model" in request:
        wire["model"] = request["model"]
    declarations = [declaration for tool in request.get("tools") or () for declaration in tool["functionDeclarations"]]
    if declarations:
        wire["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": declaration["name"],
                    "description": declaration["description"],
                    "parameters": declaration["parametersJsonSchema"],
                },
            }
            for declaration in declarations
        ]
    config = request.get("toolConfig")
    if config is not None:
        wire["tool_choice"] = _CHOICES_FROM_MODE[config["functionCallingConfig"]["mode"]]
    generation = request.get("generationConfig") or {}
    if "temperature" in generation:
        wire["temperature"] = generation["temperature"]
    if "maxOutputTokens" in generation:
        wire["max_completion_tokens"] = generation["maxOutputTokens"]
    return wire


# --- OpenAI Chat -> Bedrock Converse ----------------------------------------------------------


def _bedrock_part(part: dict[str, Any]) -> dict[str, Any] | None:
    if part["type"] == "text":
        return {"text": part["text"]}
    url = part["image_url"]["url"]
    if not url.startswith(_DATA_PREFIX):
        return None  # Bedrock fetches no URL: chatcodec drops it (a loss)
    header, _, data = url.partition(",")
    media_type = header[5:].partition(";")[0]
    return {"image": {"format": media_type.partition("/")[2], "source": {"bytes": data}}}


def _bedrock_assistant(message: dict[str, Any]) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"text": message["content"]}] if message.get("content") else []
    for call in message.get("tool_calls") or ():
        function = call["function"]
        use = {"toolUseId": call["id"], "name": function["name"], "input": _arguments(function["arguments"])}
        content.append({"toolUse": use})
    return {"role": "assistant", "content": content}


def openai_to_bedrock(request: dict[str, Any]) -> dict[str, Any]:  # noqa: PLR0915 (a floor is one loop, as a hand-written converter is)
    """An OpenAI Chat request body as a Bedrock ``Converse`` body."""
    system, messages = _split_leading_system(request["messages"])
    turns: list[dict[str, Any]] = []
    results: list[dict[str, Any]] | None = None
    for message in messages:
        role = message["role"]
        if role == "tool":
            result = {"toolResult": {"toolUseId": message["tool_call_id"], "content": [{"text": message["content"]}]}}
            if results is None:
                results = []
                turns.append({"role": "user", "content": results})
            results.append(result)
        elif role == "assistant":
            results = None
            turns.append(_bedrock_assistant(message))
        else:
            content = message["content"]
            blocks = [{"text": content}] if isinstance(content, str) else [_bedrock_part(part) for part in content]
            kept = [block for block in blocks if block is not None]
            if results is not None:
                results.extend(kept)
                results = None
            else:
                turns.append({"role": "user", "content": kept})
    wire: dict[str, Any] = {"modelId": request["model"], "messages": turns}
    if system:
        wire["system"] = [{"text": text} for text in system]
    config: dict[str, Any] = {}
    limit = request.get("max_completion_tokens") or request.get("max_tokens")
    if limit:
        config["maxTokens"] = limit
    if "temperature" in request:
        config["temperature"] = request["temperature"]
    if config:
        wire["inferenceConfig"] = config
    tools = request.get("tools")
    if tools:
        specs = [
            {
                "toolSpec": {
                    "name": tool["function"]["name"],
                    "description": tool["function"]["description"],
                    "inputSchema": {"json": tool["function"]["parameters"]},
                }
            }
            for tool in tools
        ]
        wire["toolConfig"] = {"tools": specs, "toolChoice": {"auto": {}}}
    return wire


# --- Bedrock Converse -> OpenAI Chat ----------------------------------------------------------


def _openai_from_block(block: dict[str, Any]) -> dict[str, Any]:
    if "text" in block:
        return {"type": "text", "text": block["text"]}
    image = block["image"]
    return {
        "type": "image_url",
        "image_url": {"url": f"data:image/{image['format']};base64,{image['source']['bytes']}"},
    }


def _openai_from_assistant(content: list[dict[str, Any]]) -> dict[str, Any]:
    texts = [block["text"] for block in content if "text" in block]
    calls = [
        {
            "id": block["toolUse"]["toolUseId"],
            "type": "function",
            "function": {"name": block["toolUse"]["name"], "arguments": _COMPACT.encode(block["toolUse"]["input"])},
        }
        for block in content
        if "toolUse" in block
    ]
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if calls:
        message["tool_calls"] = calls
    return message


def bedrock_to_openai(request: dict[str, Any]) -> dict[str, Any]:
    """A Bedrock ``Converse`` body as an OpenAI Chat request body."""
    messages: list[dict[str, Any]] = []
    system = request.get("system")
    if system:
        messages.append({"role": "system", "content": [{"type": "text", "text": block["text"]} for block in system]})
    for turn in request["messages"]:
        if turn["role"] == "assistant":
            messages.append(_openai_from_assistant(turn["content"]))
            continue
        rest = []
        for block in turn["content"]:
            result = block.get("toolResult")
            if result is None:
                rest.append(_openai_from_block(block))
            else:
                content = [{"type": "text", "text": item["text"]} for item in result["content"]]
                messages.append({"role": "tool", "tool_call_id": result["toolUseId"], "content": content})
        if rest:
            messages.append({"role": "user", "content": rest})
    wire: dict[str, Any] = {"model": request["modelId"], "messages": messages}
    tool_config = request.get("toolConfig")
    if tool_config is not None:
        wire["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": spec["toolSpec"]["name"],
                    "description": spec["toolSpec"]["description"],
                    "parameters": spec["toolSpec"]["inputSchema"]["json"],
                },
            }
            for spec in tool_config["tools"]
        ]
        wire["tool_choice"] = "auto"
    config = request.get("inferenceConfig") or {}
    if "temperature" in config:
        wire["temperature"] = config["temperature"]
    if "maxTokens" in config:
        wire["max_completion_tokens"] = config["maxTokens"]
    return wire


# --- views ------------------------------------------------------------------------------------


def gemini_view(request: dict[str, Any]) -> object:
    """The request as it is, less thought parts (neither side sends OpenAI reasoning)."""
    contents = [
        (content["role"], [part for part in content["parts"] if not part.get("thought")])
        for content in request["contents"]
    ]
    rest = {key: value for key, value in request.items() if key != "contents"}
    return {"contents": contents, **rest}


def bedrock_view(request: dict[str, Any]) -> object:
    """The request as it is, less reasoning blocks."""
    turns = [
        (turn["role"], [block for block in turn["content"] if "reasoningContent" not in block])
        for turn in request["messages"]
    ]
    rest = {key: value for key, value in request.items() if key != "messages"}
    return {"messages": turns, **rest}
