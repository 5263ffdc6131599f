"""Nova's InvokeModel body (``messages-v1``): the shapes Nova has of its own, over the
family's blocks (:mod:`chatcodec._providers.families.aws.blocks`: content blocks, tool
configuration, the stream's block events), and their validators.

Nova's request is Converse's block wire with other top-level settings: ``schemaVersion``
(``"messages-v1"``, optional), ``inferenceConfig`` in two spellings (``maxTokens`` /
``max_new_tokens``, ``topP`` / ``top_p``, ``topK`` / ``top_k``), ``reasoningConfig`` at the
top level or inside ``inferenceConfig``, and no model (it is in the URL). The response is
``{output: {message}, stopReason, usage}``, its usage counting cache reads and writes as
``cacheReadInputTokenCount`` / ``cacheWriteInputTokenCount``. A stream is
InvokeModelWithResponseStream's ``chunk`` events, each the base64 of one JSON event
(``messageStart``, ``contentBlockStart`` / ``Delta`` / ``Stop``, ``messageStop``,
``metadata``): the events here are those JSON objects (``stream_decode.py`` unwraps a
``chunk``). Every object allows extra keys, kept in bags for the round trip. botocore has
no model of these bodies (InvokeModel's ``body`` is a blob), so the shapes name no SDK kind:
they follow the Nova user guide (``__init__.py``'s links).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, NotRequired

from typing_extensions import TypedDict

from chatcodec._providers.families.aws.blocks import (
    Adapters,
    ContentBlock,
    Count,
    ErrorBody,
    Message,
    ToolConfig,
    build_adapters,
)
from chatcodec.codec_kit import as_dict

if TYPE_CHECKING:
    from pydantic import TypeAdapter


class ReasoningConfig(TypedDict):
    """``reasoningConfig``: ``type`` ``enabled`` / ``disabled``, ``maxReasoningEffort``."""

    type: NotRequired[str]
    maxReasoningEffort: NotRequired[str]


class InferenceConfig(TypedDict):
    """``inferenceConfig``, in either spelling of its names."""

    maxTokens: NotRequired[Count]
    max_new_tokens: NotRequired[Count]
    temperature: NotRequired[int | float]  # int first: 2**53 + 1 stays exact
    topP: NotRequired[int | float]
    top_p: NotRequired[int | float]
    topK: NotRequired[int]  # the guide says 0 to 128; canonical takes any integer, kept as sent
    top_k: NotRequired[int]
    stopSequences: NotRequired[list[str]]
    reasoningConfig: NotRequired[ReasoningConfig]


class Request(TypedDict):
    """An InvokeModel body for a Nova model."""

    schemaVersion: NotRequired[str]
    system: NotRequired[list[ContentBlock]]
    messages: list[Message]
    inferenceConfig: NotRequired[InferenceConfig]
    toolConfig: NotRequired[ToolConfig]
    reasoningConfig: NotRequired[ReasoningConfig]


class Usage(TypedDict):
    """A response's token counts (``inputTokens`` excludes cache reads and writes)."""

    inputTokens: NotRequired[Count]
    outputTokens: NotRequired[Count]
    totalTokens: NotRequired[Count]
    cacheReadInputTokenCount: NotRequired[Count]
    cacheWriteInputTokenCount: NotRequired[Count]


class Output(TypedDict):
    message: Message


class Response(TypedDict):
    """An InvokeModel answer."""

    output: Output
    stopReason: NotRequired[str]
    usage: NotRequired[Usage]


class Metadata(TypedDict):
    """A stream's ``metadata`` event (``usage``, ``metrics``, ``trace``)."""

    usage: NotRequired[Usage]


OWN_SHAPES: tuple[type, ...] = (ReasoningConfig, InferenceConfig, Request, Usage, Output, Response, Metadata)
"""The shapes Nova has of its own, beside the family's
(:data:`~chatcodec._providers.families.aws.blocks.SHAPES`)."""


@cache
def adapters() -> Adapters:
    """The adapters, built once, on first use (they load pydantic)."""
    from pydantic import TypeAdapter

    return build_adapters(
        OWN_SHAPES,
        request=Request,
        response=Response,
        error=ErrorBody,
        metadata=Metadata,
        messages=TypeAdapter(list[Message]),
    )


def validated(adapter: TypeAdapter[Any], payload: object, title: str) -> Any:
    """``payload`` checked by ``adapter`` (errors carry wire paths and rules)."""
    from chatcodec.codec_kit import validate_with

    return validate_with(adapter, payload, title)


def is_error_body(payload: object) -> bool:
    """Whether ``payload`` is the Runtime's error body (``{"message"}`` alone) rather than an answer."""
    body = as_dict(payload)
    return body is not None and "output" not in body and isinstance(body.get("message"), str)
