"""Hypothesis strategies for responses in Gemini's own shapes (the stream law's
``shaped_responses``): every part the codec reads from a candidate, with the bags its
decoder writes (signatures on any part, made-up call ids)."""

from __future__ import annotations

import base64
import json

from hypothesis import strategies as st

import chatcodec
import chatcodec.testing as canonical

_words = st.text(min_size=1, max_size=12).filter(lambda text: text.strip() != "")
_signatures = st.one_of(st.none(), st.binary(min_size=1, max_size=12).map(lambda raw: base64.b64encode(raw).decode()))
"""Signatures as Gemini sends them: base64 (the SDK's types refuse anything else)."""
_RAWS = ["STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "MALFORMED_FUNCTION_CALL", "OTHER"]


def _bag(signature: str | None) -> dict[str, dict[str, object]] | None:
    return None if signature is None else {"gemini": {"thoughtSignature": signature}}


@st.composite
def _texts(draw: st.DrawFn) -> chatcodec.TextPart:
    return chatcodec.TextPart(text=draw(st.text(max_size=20)), provider_metadata=_bag(draw(_signatures)))


@st.composite
def _thoughts(draw: st.DrawFn) -> chatcodec.ThinkingPart:
    return chatcodec.ThinkingPart(text=draw(st.text(max_size=20)), signature=draw(_signatures), provider="gemini")


@st.composite
def _calls(draw: st.DrawFn) -> chatcodec.ToolUsePart:
    arguments = draw(st.dictionaries(_words, st.one_of(st.integers(-5, 5), _words, st.booleans()), max_size=3))
    return chatcodec.ToolUsePart(
        id=draw(_words),
        name=draw(_words),
        arguments=json.dumps(arguments, ensure_ascii=False, separators=(",", ":")),
        provider_metadata=_bag(draw(_signatures)),
    )


_code = st.builds(
    chatcodec.OpaquePart,
    provider=st.just("gemini"),
    data=st.builds(lambda code: {"executableCode": {"language": "PYTHON", "code": code}}, _words),
)


@st.composite
def gemini_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    parts = draw(st.lists(st.one_of(_texts(), _thoughts(), _calls(), _code), max_size=4))
    raw = draw(st.sampled_from(_RAWS))
    unified: chatcodec.UnifiedFinishReason = {
        "STOP": "tool_calls" if any(isinstance(part, chatcodec.ToolUsePart) for part in parts) else "stop",
        "MAX_TOKENS": "length",
        "SAFETY": "content_filter",
        "RECITATION": "content_filter",
        "MALFORMED_FUNCTION_CALL": "error",
        "OTHER": "other",
    }[raw]
    finish = draw(st.one_of(st.none(), st.just(chatcodec.FinishReason(unified=unified, raw=raw))))
    usages = canonical.usages().map(lambda usage: usage.model_copy(update={"provider_metadata": None}))
    return chatcodec.ChatResponse(
        id=draw(st.one_of(st.none(), _words)),
        model=draw(st.one_of(st.none(), _words)),
        message=chatcodec.AssistantMessage(content=parts),
        finish_reason=finish,
        usage=draw(st.one_of(st.none(), usages)),
    )
