"""Hypothesis strategies for responses in Ollama's own shapes (the stream law's
``shaped_responses``): an answer laid out as the server lays one out (thinking, images,
text, calls), with the bags its decoder writes."""

from __future__ import annotations

import json

from hypothesis import strategies as st

import chatcodec
import chatcodec.testing as canonical

_words = st.text(min_size=1, max_size=12).filter(lambda text: text.strip() != "")
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
"""A 1x1 PNG: the decoder reads its media type from its bytes."""
_RAWS: dict[str, chatcodec.UnifiedFinishReason] = {"stop": "stop", "length": "length", "load": "other"}


@st.composite
def _calls(draw: st.DrawFn) -> chatcodec.ToolUsePart:
    arguments = draw(st.dictionaries(_words, st.one_of(st.integers(-5, 5), _words, st.booleans()), max_size=3))
    return chatcodec.ToolUsePart(
        id=draw(_words), name=draw(_words), arguments=json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    )


@st.composite
def ollama_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    parts: list[chatcodec.AssistantContentPart] = []
    if draw(st.booleans()):
        parts.append(chatcodec.ThinkingPart(text=draw(st.text(max_size=20)), provider="ollama"))
    if draw(st.booleans()):
        parts.append(chatcodec.ImagePart(source=chatcodec.Base64Source(media_type="image/png", data=_PNG)))
    text = draw(st.text(max_size=20))
    if text:
        parts.append(chatcodec.TextPart(text=text))
    parts.extend(draw(st.lists(_calls(), max_size=3)))
    raw = draw(st.sampled_from(list(_RAWS)))
    calls = any(isinstance(part, chatcodec.ToolUsePart) for part in parts)
    unified = "tool_calls" if raw == "stop" and calls else _RAWS[raw]
    finish = draw(st.one_of(st.none(), st.just(chatcodec.FinishReason(unified=unified, raw=raw))))
    usages = canonical.usages().map(
        lambda usage: usage.model_copy(
            update={
                "provider_metadata": None,
                "cache_read_tokens": None,
                "cache_write_tokens": None,
                "reasoning_tokens": None,
            }
        )
    )
    only_text = all(isinstance(part, chatcodec.TextPart) for part in parts)
    return chatcodec.ChatResponse(
        model=draw(st.one_of(st.none(), _words)),
        created=draw(st.one_of(st.none(), st.integers(0, 4_000_000_000))),
        message=chatcodec.AssistantMessage(content=text if only_text else parts),
        finish_reason=finish,
        usage=draw(st.one_of(st.none(), usages)),
    )
