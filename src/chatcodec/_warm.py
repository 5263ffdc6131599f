"""Paying chatcodec's one-time costs at start-up rather than on the first request.

The first conversion in a process imports the codecs it uses and builds their pydantic
validators and serializers (wire adapters, canonical models, the stream builder), and a
pair's direct path (:mod:`chatcodec._direct`): tens to hundreds of milliseconds on a loaded
machine, where later conversions take well under a millisecond to a few. A server answering
its first request that slowly may time it out, so :func:`warm_up` runs that work once,
before the first request: a small request, response and stream through every codec named,
each way, and a request through each direct path between two of them.
"""

from __future__ import annotations

from collections.abc import Iterable

from chatcodec._api import (
    convert_request,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
    encode_stream,
)
from chatcodec._direct.table import DIRECT_PATHS
from chatcodec._errors import CodecNotAvailableError
from chatcodec._model.content import TextPart, ThinkingPart, ToolResultPart, ToolUsePart
from chatcodec._model.messages import AssistantMessage, ToolMessage, UserMessage
from chatcodec._model.request import ChatRequest
from chatcodec._model.response import ChatResponse
from chatcodec._model.response_fields import FinishReason, Usage
from chatcodec._model.tools import ToolDefinition
from chatcodec._public_label import shown_as
from chatcodec._registry import providers_in_use
from chatcodec.streams._replay import events_from_response

__all__ = ["warm_up"]


def warm_up(providers: Iterable[str] | None = None) -> None:
    """Import and exercise the codecs of ``providers`` (every registered one by default),
    so the first real conversion runs at its steady speed. Safe to call more than once;
    it records no loss and emits no warning."""
    request = ChatRequest(
        model="warm-up",
        max_tokens=8,
        messages=[
            UserMessage(content="hi"),
            AssistantMessage(content=[ToolUsePart(id="call_1", name="tool", arguments="{}")]),
            ToolMessage(content=[ToolResultPart(tool_use_id="call_1", content="done")]),
        ],
        tools=[ToolDefinition(name="tool", parameters={"type": "object", "properties": {}})],
    )
    response = ChatResponse(
        id="warm-up",
        model="warm-up",
        message=AssistantMessage(content=[ThinkingPart(text="hm"), TextPart(text="hi")]),
        finish_reason=FinishReason(unified="stop"),
        usage=Usage(input_tokens=1, output_tokens=1),
    )
    events = list(events_from_response(response))
    named = list(providers if providers is not None else providers_in_use())
    for provider in named:
        decode_request(provider, encode_request(provider, request, on_loss="ignore"))
        decode_response(provider, encode_response(provider, response, on_loss="ignore"))
        try:
            list(decode_stream(provider, list(encode_stream(provider, events, on_loss="ignore"))))
        except CodecNotAvailableError:  # a codec without stream modules: nothing to warm
            continue
    for source, target in DIRECT_PATHS:  # a pair's direct path, imported and run once (dict in, dict out)
        if source in named and target in named:
            body = encode_request(source, request, on_loss="ignore")
            convert_request(body, source=source, target=target, on_loss="ignore")


shown_as("chatcodec", warm_up)
