"""Encoding a stream: canonical events -> wire events, pushed one at a time.

Optional, as ``stream_decode.py`` is. ``StreamEncoder(context)`` is built by
``ProviderCodec.stream_encoder(losses)`` for one stream; ``feed(event)`` gives the wire
events the canonical event completes (often none or one), ``close()`` the closing ones;
``streams/_convert.py`` (``StreamConverter``) and ``chatcodec serve`` drive it. How the wire
events become text (SSE, JSON lines) is the edge's ``framing``, written once in
``streams/_framing.py`` (``chatcodec.to_sse``), never here. The ``match`` over the canonical
events ends in ``assert_never``, so a new event kind fails type-checking here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, assert_never

from chatcodec import (
    AnyStreamEvent,
    ChoiceMetadataEvent,
    ErrorEvent,
    FinishEvent,
    PartEvent,
    RefusalDeltaEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)
from chatcodec._providers._template.finish_reason import encode_finish_reason
from chatcodec._providers._template.usage import encode_usage
from chatcodec.contract import EncodeContext, Steps


class StreamEncoder:
    """Feed canonical events with :meth:`feed`, then call :meth:`close` for the last line."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.end: dict[str, Any] = {}
        """The last line's fields: the finish word and the counts."""
        self.position = 0

    def feed(self, event: AnyStreamEvent) -> Iterator[dict[str, Any]]:
        """The lines ``event`` completes (possibly none yet)."""
        at: Steps = ("events", self.position)
        self.position += 1
        match event:
            case TextDeltaEvent():
                yield {"delta": event.delta}
            case ErrorEvent():
                yield {"error": {"message": event.message, **({"type": event.error_type} if event.error_type else {})}}
            case FinishEvent():
                reason = event.finish_reason.model_dump(exclude_none=True)
                self.end["stop_reason"] = encode_finish_reason(reason, {}, self.context, at)
            case UsageEvent():
                self.end["usage"] = encode_usage(
                    event.usage.model_dump(exclude_none=True), self.context, (*at, "usage")
                )
            case ResponseStartEvent() | TextStartEvent() | TextEndEvent() | ChoiceMetadataEvent():
                pass  # the wire has no line for them
            case (
                RefusalDeltaEvent()
                | ThinkingStartEvent()
                | ThinkingDeltaEvent()
                | ThinkingSignatureDeltaEvent()
                | ThinkingEndEvent()
                | ToolCallStartEvent()
                | ToolCallDeltaEvent()
                | ToolCallEndEvent()
                | PartEvent()
            ):
                self.context.losses.add(at, f"{event.type} event", "Template Chat streams carry text only")
            case _:
                assert_never(event)

    def close(self) -> Iterator[dict[str, Any]]:
        """The last line, with the finish word and the counts (none if neither came)."""
        if self.end:
            yield self.end
