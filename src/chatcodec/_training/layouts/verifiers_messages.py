"""Canonical messages as verifiers types them (``verifiers/v1/types.py``, verifiers 0.4.0).

A system (or developer) message and a user message hold text, or text and ``image_url`` parts;
an assistant holds ``content``, ``reasoning_content`` and flat calls (``{id, type, name,
arguments}``); a tool message answers one call (``tool_call_id``). What a verifiers message has
no place for (an audio part, a document, a refusal) is a loss, and a canonical tool message
holding several results, whose tokens the rendering does not split, is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chatcodec import AnyMessage, ImagePart, TextPart, ThinkingPart, ToolMessage, ToolUsePart
from chatcodec._training.errors import TemplateError
from chatcodec.contract import LossRecorder

Refuse = Callable[..., TemplateError]


def verifiers_message(message: AnyMessage, index: int, recorder: LossRecorder, refuse: Refuse) -> dict[str, Any]:
    """``message`` (canonical message ``index``) as verifiers types it."""
    if message.role == "assistant":
        return _assistant(message, index, recorder)
    if isinstance(message, ToolMessage):
        return _tool_result(message, index, recorder, refuse)
    role = "system" if message.role in ("system", "developer") else message.role
    parts: list[dict[str, Any]] = []
    for number, part in enumerate(message.parts):
        url = _image_url(part) if isinstance(part, ImagePart) else None
        if isinstance(part, TextPart):
            parts.append({"type": "text", "text": part.text})
        elif url is not None:
            parts.append({"type": "image_url", "image_url": {"url": url}})
        else:
            _lost(recorder, index, number, part.type)
    plain = all(part["type"] == "text" for part in parts)
    return {"role": role, "content": "".join(part["text"] for part in parts) if plain else parts}


def _assistant(message: AnyMessage, index: int, recorder: LossRecorder) -> dict[str, Any]:
    written: dict[str, Any] = {"role": "assistant", "content": None}
    texts: list[str] = []
    reasoning: list[str] = []
    calls: list[dict[str, Any]] = []
    for number, part in enumerate(message.parts):
        if isinstance(part, TextPart):
            texts.append(part.text)
        elif isinstance(part, ThinkingPart) and part.text:
            reasoning.append(part.text)
        elif isinstance(part, ToolUsePart):
            kind = "custom" if part.kind == "custom" else "function"
            calls.append({"id": part.id, "type": kind, "name": part.name, "arguments": part.arguments})
        else:
            _lost(recorder, index, number, part.type)
    if texts:
        written["content"] = "".join(texts)
    if reasoning:
        written["reasoning_content"] = "\n".join(reasoning)
    if calls:
        written["tool_calls"] = calls
    return written


def _tool_result(message: ToolMessage, index: int, recorder: LossRecorder, refuse: Refuse) -> dict[str, Any]:
    if len(message.content) != 1:
        raise refuse(
            f"message {index} holds {len(message.content)} tool results, and a verifiers tool message holds one: "
            "which tokens are whose cannot be told from the rendering (give each result its own message)",
            f"$.messages[{index}]",
            rule="trainer_tool_results",
        )
    [result] = message.content
    if not isinstance(result.content, str):
        for number, part in enumerate(result.content):
            if not isinstance(part, TextPart):
                _lost(recorder, index, number, part.type)
    written: dict[str, Any] = {"role": "tool", "tool_call_id": result.tool_use_id, "content": result.text}
    if result.name:
        written["name"] = result.name
    return written


def _image_url(part: ImagePart) -> str | None:
    source = part.source
    url = getattr(source, "url", None)
    if isinstance(url, str):
        return url
    data, media = getattr(source, "data", None), getattr(source, "media_type", None)
    return f"data:{media};base64,{data}" if isinstance(data, str) and isinstance(media, str) else None


def _lost(recorder: LossRecorder, index: int, number: int, kind: str) -> None:
    recorder.add(
        ("messages", index, "content", number),
        f"{kind} part",
        f"a verifiers message holds text, images, reasoning and calls only: the {kind} part is not in the node",
        "content",
    )
