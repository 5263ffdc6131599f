"""Encoding a stream: canonical events -> wire events, pushed one at a time.

Optional, as ``stream_decode.py`` is. ``StreamEncoder(context)`` is built by
``ProviderCodec.stream_encoder(losses)`` for one stream; ``feed(event)`` gives the wire
events the canonical event completes (often none or one), ``close()`` the closing ones;
``streams/_convert.py`` (``StreamConverter``) and ``chatcodec serve`` drive it. How the wire
events become text (SSE, JSON lines) is the edge's ``framing``, written once in
``streams/_framing.py`` (``chatcodec.to_sse``), never here. The ``match`` over the canonical
events ends in ``assert_never``, so a new event kind fails type-checking here.

The events are records (``chatcodec.contract``'s ``...Record`` classes: the public models'
fields, nested values as canonical data), which ``stream_contract = 2`` says; an encoder
without it is given the public models (contract version 1), converted for it, which costs
a model per event.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, assert_never

from chatcodec._providers._template.finish_reason import encode_finish_reason
from chatcodec._providers._template.usage import encode_usage
from chatcodec.contract import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    EncodeContext,
    ErrorRecord,
    FinishRecord,
    PartRecord,
    RefusalDeltaRecord,
    ResponseStartRecord,
    Steps,
    TextDeltaRecord,
    TextEndRecord,
    TextStartRecord,
    ThinkingDeltaRecord,
    ThinkingEndRecord,
    ThinkingSignatureDeltaRecord,
    ThinkingStartRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
    ToolCallStartRecord,
    UsageRecord,
)


class StreamEncoder:
    """Feed canonical events with :meth:`feed`, then call :meth:`close` for the last line."""

    stream_contract: ClassVar[int] = 2
    """It reads records (:mod:`chatcodec.contract`'s ``...Record`` classes), not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.end: dict[str, Any] = {}
        """The last line's fields: the finish word and the counts."""
        self.position = 0

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The lines ``event`` completes (possibly none yet)."""
        at: Steps = ("events", self.position)
        self.position += 1
        match event:
            case TextDeltaRecord():
                yield {"delta": event.delta}
            case ErrorRecord():
                yield {"error": {"message": event.message, **({"type": event.error_type} if event.error_type else {})}}
            case FinishRecord():
                reason = dict(event.finish_reason)  # canonical data, as the model dumps it
                self.end["stop_reason"] = encode_finish_reason(reason, {}, self.context, at)
            case UsageRecord():
                self.end["usage"] = encode_usage(dict(event.usage), self.context, (*at, "usage"))
            case ResponseStartRecord() | TextStartRecord() | TextEndRecord() | ChoiceMetadataRecord():
                pass  # the wire has no line for them
            case (
                RefusalDeltaRecord()
                | ThinkingStartRecord()
                | ThinkingDeltaRecord()
                | ThinkingSignatureDeltaRecord()
                | ThinkingEndRecord()
                | ToolCallStartRecord()
                | ToolCallDeltaRecord()
                | ToolCallEndRecord()
                | PartRecord()
            ):
                self.context.losses.add(at, f"{event.type} event", "Template Chat streams carry text only")
            case _:
                assert_never(event)

    def close(self) -> Iterator[dict[str, Any]]:
        """The last line, with the finish word and the counts (none if neither came)."""
        if self.end:
            yield self.end
