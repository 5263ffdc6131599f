"""A readable one-line-per-message view of a conversation, for logs and debugging."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from chatcodec._model.content import (
    AnyPart,
    AudioPart,
    DocumentPart,
    ImagePart,
    OpaquePart,
    RefusalPart,
    TextPart,
    ThinkingPart,
    ToolResultPart,
    ToolUsePart,
    VideoPart,
)
from chatcodec._model.messages import AnyMessage
from chatcodec._public_label import shown_as


def render_part(part: AnyPart, width: int = 80) -> str:
    """One part as a short phrase: text as-is (shortened), others as ``<kind ...>``."""
    match part:
        case TextPart():
            return _shorten(part.text, width)
        case ThinkingPart():
            shown = "redacted" if part.redacted else _shorten(part.text, width)
            return f"<thinking: {shown}>"
        case ToolUsePart():
            return f"{part.name}({_shorten(part.arguments, width)}) #{part.id}"
        case ToolResultPart():
            error = " ERROR" if part.is_error else ""
            body = (
                part.content if isinstance(part.content, str) else " ".join(render_part(p, width) for p in part.content)
            )
            return f"#{part.tool_use_id}{error} -> {_shorten(body, width)}"
        case RefusalPart():
            return f"<refusal: {_shorten(part.text, width)}>"
        case ImagePart() | AudioPart() | VideoPart() | DocumentPart():
            return f"<{part.type} {part.source.type}>"
        case OpaquePart():
            return f"<{part.provider} {part.data.get('type', 'block')}>"
        case _:
            assert_never(part)


def render_message(message: AnyMessage, width: int = 80) -> str:
    """One message on one line: ``role: part | part``."""
    pieces = [render_part(part, width) for part in message.parts]
    return f"{message.role}: " + " | ".join(piece.replace("\n", "\\n") for piece in pieces)


def render_conversation(messages: Sequence[AnyMessage], width: int = 80) -> str:
    """The conversation, one line per message, numbered."""
    digits = len(str(max(len(messages) - 1, 0)))
    return "\n".join(f"[{index:>{digits}}] {render_message(message, width)}" for index, message in enumerate(messages))


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


shown_as("chatcodec", render_conversation, render_message)
