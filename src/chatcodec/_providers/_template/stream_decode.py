"""Decoding a stream: wire events -> the shared :class:`~chatcodec.streams._builder.StreamBuilder`.

Optional: a folder without this module gives its ``ProviderCodec`` no ``stream_decoder``,
and every stream entry point then refuses with a
:class:`~chatcodec.CodecNotAvailableError` naming what the codec lacks.

A decoder validates each wire event and tells the builder what happened (``start``,
``open_text`` / ``append`` / ``close``, ``finish``, ``usage``); it never accumulates: the
builder emits canonical events (``decode_stream``) or builds the response directly
(``accumulate_stream``), so there is one accumulation path for every provider. The toy
wire streams JSON lines: ``{"delta": "..."}`` pieces of text, then a last line with the
``stop_reason`` and ``usage``; an ``{"error": ...}`` line is an error event. This module
is imported on the first stream only (``ProviderCodec.from_package``): it builds canonical
event models.

For speed a decoder may read the event nearly every stream is made of (a delta continuing
an open part) inline in :meth:`read`, each check one the wire validation makes of it,
anything else falling through to the general reading; one whose ``read`` batches events up
to the builder's next compaction gives ``feed`` its own one-event reading
(``_providers/kit/stream_reading.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chatcodec import StreamError, ValidationError
from chatcodec._providers._template.finish_reason import decode_finish_reason
from chatcodec._providers._template.markers import PROVIDER
from chatcodec._providers._template.usage import decode_usage
from chatcodec._providers._template.wire import ErrorBody, StreamLine, is_error_body
from chatcodec.codec_kit import FeedByReading, json_path, read_event, validate_shape
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, StreamBuilder

STREAM_END = "its line with stop_reason"
"""What ends this wire's stream (its documentation's words and link, as every provider's
``stream_decode.py`` gives them): without it the stream was cut between two lines."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each line as it arrives (``FeedByReading``), or
    :meth:`read` a whole stream, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder = builder if builder is not None else StreamBuilder(emit=True)
        self.context = context if context is not None else DecodeContext(PROVIDER)
        self.position = -1
        self.started = False
        self.text: PartBuilder | None = None

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read lines into the builder; an error names the line's position in the stream."""
        for event in events:
            self.position += 1
            read_event(self._read, event, self.position)

    def close(self) -> list[AnyStreamRecord]:
        """Close the text still open (a stream cut short) and give what is owed; a stream
        without its last line (the one with ``stop_reason``) was cut, which the builder keeps."""
        self._close_text()
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    def _read(self, event: dict[str, Any]) -> None:
        if is_error_body(event):
            error = self._validated(ErrorBody, event)["error"]
            self.builder.error(ErrorRecord(message=error["message"], error_type=error.get("type"), body=event))
            return
        line = self._validated(StreamLine, event)
        if not self.started:
            self.started = True
            self.builder.start()
        if line.get("delta"):
            if self.text is None:
                self.text = self.builder.open_text(0, 0)
            self.text.append(line["delta"])
        if "stop_reason" in line:
            self._close_text()
            reason = decode_finish_reason(line["stop_reason"], {})
            self.builder.finish(0, reason or {"unified": "other"})
            self.builder.end()
        if "usage" in line:
            self.builder.usage(decode_usage(line["usage"]))

    def _close_text(self) -> None:
        if self.text is not None:
            self.builder.close(self.text)
            self.text = None

    def _validated(self, shape: Any, event: object) -> dict[str, Any]:
        try:
            return validate_shape(shape, event, "Template stream line")
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path(first["loc"]), self.position) from None
