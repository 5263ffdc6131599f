"""What an agent request says, in any of the five formats, for comparing converters of agent sessions.

:mod:`bench.equivalence` compares one job against a floor that does exactly that job. On
the agent sessions there is no floor for most pairs, and the converters compared differ in
*drop policies* and *spellings* that do not change what the model reads; this view keeps
what every converter carries and names what it leaves out:

* a request is its system text, its turns and its tool names; consecutive turns of one
  role are one turn (every API joins them), ``tool`` messages and tool results belong to
  the user's side;
* a tool result is its call id and its text (text parts joined, a string as it is, a
  Gemini ``response`` object of one field as that field); a user turn lists its results
  first, then its text and images in order, so an image inside a tool result compares
  equal to the same image in the next user message (where a converter to OpenAI Chat,
  whose tool messages take text only, puts it);
* images and documents are their base64 data (data URLs, Anthropic and Bedrock sources, Gemini
  ``inlineData`` all give the same string), or their URL or file id;
* tool-call arguments compare parsed; Gemini call ids are left out (Gemini pairs calls and
  results by name and order, and litellm writes none);
* left out everywhere: reasoning and thinking blocks with their signatures (each format
  keeps or drops them its own way), cache markers, ``is_error`` / ``status`` (OpenAI Chat
  and Gemini have no place for it), and the settings (thinking config, effort,
  ``response_format``, ``metadata``, ``user``, ``strict``, sampling), which each library
  maps its own way (litellm writes a thinking *budget* for ``reasoning_effort`` where
  chatcodec writes ``output_config.effort``);
* litellm's placeholder text for an assistant's ``content: ""`` beside calls
  (:data:`_LITELLM_EMPTY`, which it writes where the client sent no text) is left out: a text
  the client never sent, which chatcodec does not write, but the conversion is otherwise the
  same work, so the ``client dialects`` shape keeps litellm's count beside chatcodec's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

Item = tuple[Any, ...]
Turn = tuple[str, list[Item]]

_DATA_URL = "data:"


def _image_data(url: str) -> str:
    """The base64 payload of a data URL; any other URL as it is."""
    return url.partition(",")[2] if url.startswith(_DATA_URL) else url


def _arguments(arguments: object) -> object:
    if isinstance(arguments, str):
        return json.loads(arguments) if arguments.strip() else {}
    return arguments


def _joined(turns: Iterator[Turn]) -> list[Turn]:
    joined: list[Turn] = []
    for role, items in turns:
        if not items:
            continue  # an empty turn says nothing, and must not keep its neighbours apart
        if joined and joined[-1][0] == role:
            joined[-1][1].extend(items)
        else:
            joined.append((role, list(items)))
    return [(role, _results_first(items) if role == "user" else items) for role, items in joined]


def _results_first(items: list[Item]) -> list[Item]:
    """A user turn's tool results, then the rest in order: where a converter puts an image
    of a result (after it, after all results, in the next user message) says nothing."""
    return [item for item in items if item[0] == "result"] + [item for item in items if item[0] != "result"]


def _result(call_id: str, texts: list[str], media: list[Item]) -> list[Item]:
    return [("result", call_id, "\n".join(texts)), *media]


def _anthropic_media(block: dict[str, Any]) -> Item | None:
    """An image or document block's item (its data, URL or file id); None for another block."""
    if block["type"] not in ("image", "document"):
        return None
    source = block["source"]
    return (block["type"], source.get("data") or source.get("url") or source.get("file_id"))


def view(request: dict[str, Any], provider: str) -> dict[str, Any]:
    """The request's system text, turns and tool names, whatever its format."""
    reader = _READERS[provider]
    system, turns, tools = reader(request)
    return {"system": system, "turns": _joined(turns), "tools": tools}


# --- Anthropic Messages ---------------------------------------------------------------------

_LITELLM_EMPTY = "[System: Empty message content sanitised to satisfy protocol]"
"""litellm's text for an empty ``content`` (its ``anthropic_messages_pt``), left out of a view."""


def _anthropic_items(content: str | list[dict[str, Any]]) -> Iterator[Item]:
    if isinstance(content, str):
        yield ("text", content)
        return
    for block in content:
        kind = block["type"]
        media = _anthropic_media(block)
        if media is not None:
            yield media
        elif kind == "text":
            if block["text"] != _LITELLM_EMPTY:
                yield ("text", block["text"])
        elif kind == "tool_use":
            yield ("call", block["id"], block["name"], block["input"])
        elif kind == "tool_result":
            inner: str | list[dict[str, Any]] = block.get("content", "")
            parts: list[dict[str, Any]] = [{"type": "text", "text": inner}] if isinstance(inner, str) else inner
            texts: list[str] = [part["text"] for part in parts if part["type"] == "text"]
            media = [item for item in map(_anthropic_media, parts) if item is not None]
            yield from _result(block["tool_use_id"], texts, media)
        elif kind not in ("thinking", "redacted_thinking"):
            yield (kind, json.dumps(block, sort_keys=True))


def _anthropic(request: dict[str, Any]) -> tuple[str, Iterator[Turn], list[str]]:
    system = request.get("system") or ""
    text = system if isinstance(system, str) else "\n".join(block["text"] for block in system)
    turns = ((message["role"], list(_anthropic_items(message["content"]))) for message in request["messages"])
    return text, turns, [tool["name"] for tool in request.get("tools") or ()]


# --- OpenAI Chat ----------------------------------------------------------------------------


def _openai_parts(content: str | list[dict[str, Any]] | None) -> tuple[list[str], list[Item]]:
    if not content:
        return [], []
    if isinstance(content, str):
        return [content], []
    texts = [part["text"] for part in content if part["type"] == "text"]
    media: list[Item] = []
    for part in content:
        if part["type"] == "image_url":
            media.append(("image", _image_data(part["image_url"]["url"])))
        elif part["type"] == "file":
            file = part["file"]
            media.append(("document", _image_data(file["file_data"]) if "file_data" in file else file["file_id"]))
    return texts, media


def _openai_turn(message: dict[str, Any]) -> Turn:
    role = message["role"]
    texts, media = _openai_parts(message.get("content"))
    if role == "tool":
        return "user", _result(message["tool_call_id"], texts, media)
    items: list[Item] = [("text", text) for text in texts if text]
    items.extend(media)
    for call in message.get("tool_calls") or ():
        function = call["function"]
        items.append(("call", call["id"], function["name"], _arguments(function["arguments"])))
    return role, items


def _openai(request: dict[str, Any]) -> tuple[str, Iterator[Turn], list[str]]:
    messages = request["messages"]
    leading = 0
    while leading < len(messages) and messages[leading]["role"] in ("system", "developer"):
        leading += 1
    system = "\n".join("\n".join(_openai_parts(message["content"])[0]) for message in messages[:leading])
    turns = (_openai_turn(message) for message in messages[leading:])
    return system, turns, [tool["function"]["name"] for tool in request.get("tools") or ()]


# --- OpenAI Responses -----------------------------------------------------------------------


def _responses_parts(content: str | list[dict[str, Any]]) -> tuple[list[str], list[Item]]:
    if isinstance(content, str):
        return [content], []
    texts = [part["text"] for part in content if part["type"] in ("input_text", "output_text")]
    media: list[Item] = []
    for part in content:
        if part["type"] == "input_image":
            media.append(("image", _image_data(part["image_url"])))
        elif part["type"] == "input_file":
            media.append(("document", _image_data(part["file_data"]) if "file_data" in part else part["file_id"]))
    return texts, media


def _responses_turn(item: dict[str, Any]) -> Turn | None:
    kind = item.get("type", "message")
    if kind == "message":
        texts, media = _responses_parts(item["content"])
        role = "system" if item["role"] == "developer" else item["role"]
        return role, [*(("text", text) for text in texts if text), *media]
    if kind == "function_call":
        return "assistant", [("call", item["call_id"], item["name"], _arguments(item["arguments"]))]
    if kind == "function_call_output":
        texts, media = _responses_parts(item["output"])
        return "user", _result(item["call_id"], texts, media)
    return None  # reasoning items: left out, as thinking is


def _responses(request: dict[str, Any]) -> tuple[str, Iterator[Turn], list[str]]:
    turns = [turn for turn in map(_responses_turn, request["input"]) if turn is not None]
    system_texts = [request["instructions"]] if request.get("instructions") else []
    while turns and turns[0][0] == "system":
        system_texts.extend(item[1] for item in turns.pop(0)[1])
    tools = [tool["name"] for tool in request.get("tools") or () if tool.get("type") == "function"]
    return "\n".join(system_texts), iter(turns), tools


# --- Gemini ---------------------------------------------------------------------------------


def _gemini_response(response: dict[str, Any]) -> str:
    """litellm writes ``{"content": ...}``, chatcodec ``{"output": ...}``: one field is its value."""
    values = list(response.values())
    if len(values) == 1 and isinstance(values[0], str):
        return values[0]
    return json.dumps(response, sort_keys=True)


def _gemini_items(parts: list[dict[str, Any]]) -> Iterator[Item]:
    for part in parts:
        if part.get("thought"):
            continue
        if "text" in part:
            yield ("text", part["text"])
            continue
        inline = part.get("inlineData") or part.get("inline_data")
        call = part.get("functionCall") or part.get("function_call")
        response = part.get("functionResponse") or part.get("function_response")
        if inline is not None:
            yield (_gemini_kind(inline), inline["data"])
        elif call is not None:
            yield ("call", "", call["name"], call.get("args") or {})
        elif response is not None:
            inlines = [inner.get("inlineData") or inner.get("inline_data") for inner in response.get("parts") or ()]
            media = [(_gemini_kind(inline), inline["data"]) for inline in inlines]
            yield from _result("", [_gemini_response(response["response"])], media)
        else:
            yield ("part", json.dumps(part, sort_keys=True))


def _gemini_kind(inline: dict[str, Any]) -> str:
    """An inline part's item kind by its media type: an image, else a document."""
    media_type: str = inline.get("mimeType") or inline.get("mime_type") or "image/"
    return "image" if media_type.startswith("image/") else "document"


def _gemini(request: dict[str, Any]) -> tuple[str, Iterator[Turn], list[str]]:
    system: dict[str, Any] = request.get("systemInstruction") or request.get("system_instruction") or {}
    text = "\n".join(part["text"] for part in system.get("parts") or ())
    turns = (
        ("assistant" if content["role"] == "model" else "user", list(_gemini_items(content["parts"])))
        for content in request["contents"]
    )
    tools = [
        declaration["name"]
        for tool in request.get("tools") or ()
        for declaration in tool.get("functionDeclarations") or tool.get("function_declarations") or ()
    ]
    return text, turns, tools


# --- Bedrock Converse -----------------------------------------------------------------------


def _bedrock_items(content: list[dict[str, Any]]) -> Iterator[Item]:
    for block in content:
        if "text" in block:
            yield ("text", block["text"])
        elif "image" in block or "document" in block:
            kind = "image" if "image" in block else "document"
            yield (kind, block[kind]["source"]["bytes"])
        elif "toolUse" in block:
            use = block["toolUse"]
            yield ("call", use["toolUseId"], use["name"], use["input"])
        elif "toolResult" in block:
            result = block["toolResult"]
            texts = [inner["text"] for inner in result["content"] if "text" in inner]
            texts += [json.dumps(inner["json"], sort_keys=True) for inner in result["content"] if "json" in inner]
            media: list[Item] = [
                (kind, inner[kind]["source"]["bytes"])
                for inner in result["content"]
                for kind in ("image", "document")
                if kind in inner
            ]
            yield from _result(result["toolUseId"], texts, media)
        elif "reasoningContent" not in block and "cachePoint" not in block:
            yield ("block", json.dumps(block, sort_keys=True))


def _bedrock(request: dict[str, Any]) -> tuple[str, Iterator[Turn], list[str]]:
    text = "\n".join(block["text"] for block in request.get("system") or () if "text" in block)
    turns = ((message["role"], list(_bedrock_items(message["content"]))) for message in request["messages"])
    config: dict[str, Any] = request.get("toolConfig") or {}
    tools = [tool["toolSpec"]["name"] for tool in config.get("tools") or () if "toolSpec" in tool]
    return text, turns, tools


_READERS = {
    "anthropic": _anthropic,
    "openai-chat": _openai,
    "openai-responses": _responses,
    "gemini": _gemini,
    "bedrock-converse": _bedrock,
}


def messages_view(request: dict[str, Any], provider: str) -> dict[str, Any]:
    """:func:`view` without the tool names, for converters that write system and messages only."""
    whole = view(request, provider)
    del whole["tools"]
    return whole


def image_count(seen: dict[str, Any]) -> int:
    """How many images a view holds (screenshots reached the output, or were dropped)."""
    return sum(1 for _, items in seen["turns"] for item in items if item[0] == "image")
