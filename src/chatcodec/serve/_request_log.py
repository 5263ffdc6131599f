"""One JSON line per request on the ``chatcodec.serve`` logger, and the losses header.

The line says what an operator asks first (the caller's own text in it cut to a bounded
length, :mod:`.bounded`): the request id (also sent back as
``x-request-id``: the upstream's when it gave one), the status, the two formats, the
models, whether it streamed, how long it took, and what the conversion could not carry
(``losses``: the count, and each loss as ``path: what``). A stream that ends in an error
after its 200 headers logs that error and its status as ``status`` (``"headers": 200``
says what the caller's headers said). The record also ends the request's span when
telemetry is on (:mod:`.telemetry`). The same losses, counted and
summarized, go back to the caller in the ``chatcodec-losses`` response header (request
losses, and for a plain response the response's; a stream's are known only at its end,
so they are in the log line). An answer delivered but not kept because the store
failed says so in ``store_error`` (the line, the span, and a plain answer's
``chatcodec-store-error`` header).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from chatcodec._losses import Loss
from chatcodec.serve._bounded import bounded
from chatcodec.serve._secrets import NO_SECRETS, Secrets

LOGGER = logging.getLogger("chatcodec.serve")
REQUEST_EVENT = "chatcodec.model.request"
"""The ``event`` of the request log line. Event names are part of the documented interface
(an alert keys on them: the gateway page lists them, ``tests/serve/test_log_events.py``
pins them) and name no module, so moving code renames none of them; this one was
``chatcodec.model.request`` before a module move made it ``chatcodec._model.request``,
and is that again."""
LOSS_EVENT = "chatcodec.serve.loss"
"""The span event of each loss (``--otel``: :mod:`.telemetry`)."""
STORE_ERROR_EVENT = "chatcodec.serve.store_error"
"""The span event of an answer the store failed to keep (``--otel``)."""
EVENT_NAMES = (REQUEST_EVENT, LOSS_EVENT, STORE_ERROR_EVENT)
"""Every event name the gateway writes."""
LOSSES_HEADER = "chatcodec-losses"
STORE_ERROR_HEADER = "chatcodec-store-error"
_HEADER_LIMIT = 512


class Span(Protocol):
    """What the record needs of a telemetry span (:class:`.telemetry.RequestSpan`)."""

    def end(self, record: RequestRecord) -> None: ...

    def recorded_turn(
        self, session: str, turn: int, parent: str | None, prompt_ids: int | None, completion_ids: int
    ) -> None: ...


@dataclass
class RequestRecord:
    """What is known of one request so far; :meth:`emit` writes it once, at the end."""

    api: str
    path: str
    upstream: str | None = None
    started: float = field(default_factory=time.perf_counter)
    status: int = 0
    model: str | None = None
    upstream_model: str | None = None
    stream: bool = False
    losses: list[Loss] = field(default_factory=lambda: [])
    error: str | None = None
    cancelled: bool = False
    events: int | None = None
    after_end: int = 0
    """Upstream stream events that came after the stream's own last event, dropped."""
    stream_error_status: int | None = None
    """The status of an error that ended a stream after its 200 headers."""
    request_id: str = field(default_factory=lambda: f"req_{os.urandom(16).hex()}")
    """128 random bits, as a UUID4's 122 (``uuid.uuid4().hex`` costs more:
    its ``UUID`` object's checks and integer formatting)."""
    span: Span | None = None
    """The request's span (telemetry on), ended once by :meth:`emit`."""
    store_error: str | None = None
    """Why the answer, delivered, was not kept (the store failed: :mod:`.response_store`)."""
    secrets: Secrets = NO_SECRETS
    """The credentials the request sent upstream, scrubbed from every text it relays or records
    (:mod:`.secrets`: an upstream may echo the key it was sent in its error)."""

    def late(self, reason: str) -> None:
        """A stream ended because its caller stopped reading (logged as 499, as a caller gone)."""
        self.error, self.stream_error_status = reason, 499

    def emit(self) -> None:
        """Log the line (at WARNING for a 5xx, INFO otherwise); the line is built only for a
        logger that writes it (an app embedded with its logging off pays nothing for it)."""
        status = self.stream_error_status or self.status
        level = logging.WARNING if status >= 500 else logging.INFO
        if LOGGER.isEnabledFor(level):
            self._log(level, status)
        if self.span is not None:
            span, self.span = self.span, None
            span.end(self)

    def _log(self, level: int, status: int) -> None:
        line: dict[str, Any] = {
            "event": REQUEST_EVENT,
            "request_id": self.secrets.scrub(self.request_id),
            "path": bounded(self.path),
            "status": status,
            "api": self.api,
            "upstream": self.upstream,
            "model": None if self.model is None else bounded(self.model),
            "upstream_model": None if self.upstream_model is None else bounded(self.upstream_model),
            "stream": self.stream,
            "latency_ms": round((time.perf_counter() - self.started) * 1000, 2),
            "losses": len(self.losses),
            "loss_summary": [bounded(f"{loss.path}: {loss.what}") for loss in self.losses],
        }
        if self.events is not None:
            line["events"] = self.events
        if self.after_end:
            line["after_end"] = self.after_end
        if self.error is not None:
            line["error"] = bounded(self.secrets.scrub(self.error))
        if self.stream_error_status is not None:
            line["headers"] = self.status
        if self.cancelled:
            line["cancelled"] = True
        if self.store_error is not None:
            line["store_error"] = self.secrets.scrub(self.store_error)
        LOGGER.log(level, json.dumps(line, ensure_ascii=False))


def log_to_stderr() -> None:
    """Send the request lines to standard error, one JSON line each, unless the
    application configured the ``chatcodec.serve`` logger itself (a handler of its own)."""
    if not LOGGER.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.setLevel(logging.INFO)


def store_error_header(error: str | None) -> dict[str, str]:
    """``chatcodec-store-error: ...``: the answer was delivered but the store failed to keep
    it (ASCII, cut at 512 characters), or no header."""
    return {} if error is None else {STORE_ERROR_HEADER: _header_text(error)}


def losses_header(losses: list[Loss]) -> dict[str, str]:
    """``chatcodec-losses: 2; $.messages[1].content[0]: thinking part from anthropic; ...``
    (ASCII, cut at 512 characters), or no header when nothing was lost."""
    if not losses:
        return {}
    parts = [str(len(losses))]
    for loss in losses:  # a loop, not a generator unpacked into the list: cheaper
        parts.append(f"{loss.path}: {loss.what}")
    return {LOSSES_HEADER: _header_text("; ".join(parts))}


def _header_text(text: str) -> str:
    """``text`` as a header value: ASCII (others backslash-escaped), no CR or LF, at most
    512 characters (the last three ``...`` when cut). Each step only where it changes something."""
    if not text.isascii():
        text = text.encode("ascii", "backslashreplace").decode("ascii")
    if "\r" in text or "\n" in text:
        text = text.replace("\r", " ").replace("\n", " ")
    return text if len(text) <= _HEADER_LIMIT else text[: _HEADER_LIMIT - 3] + "..."


def internal_error(path: str, error: BaseException) -> str:
    """The 500's message for an error no handler expected, logged with where it was raised:
    its type and the frames it passed, never its text or a value (an exception's text may
    quote the request or the answer: a ``UnicodeEncodeError`` holds the whole string)."""
    frames = traceback.extract_tb(error.__traceback__)
    where = [f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}" for frame in frames]
    LOGGER.error("unhandled %s on %s, raised through %s", type(error).__name__, path, " < ".join(reversed(where)))
    return f"internal error in chatcodec serve: {type(error).__name__}"
