"""Decoding an Ollama stream: JSON lines, each a partial chat response, driving the shared builder.

Every line is an ``api.ChatResponse`` (``docs/api.md``, "Chat request (Streaming)"): its
``message.thinking`` and ``message.content`` are the next pieces of the answer's thinking
and text, its ``message.tool_calls`` whole calls (the server parses a call before sending
it; each call's ``function.index`` counts the calls of the answer), and the last line has
``done: true``, the ``done_reason`` and the counts and timings. A piece continues the part
still open when it is of the same kind (thinking or text), and opens a new one otherwise,
in the layout of a message (thinking, images, text, calls within a line). Empty
``content`` (every line of thinking or calls carries ``""``) opens nothing.

The first line gives the response's model, ``created`` and bag (:mod:`.response`); a field
that first appears on a later line joins the bag with the finish. The message's own
fields (a ``null`` the server wrote) and the choice's ``logprobs`` are given with the finish,
or at the end for an answer that never finished. A line's ``logprobs`` are its text delta's
tokens when it has text (``message.content``) and they are spelled as Ollama spells them;
the other lines' lists are joined, as the server joins them for a body, into the finish
event's tokens (and once one went there, the later ones follow, so the order holds). An
``{"error": "..."}`` line is an error event.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chatcodec import StreamError, ValidationError
from chatcodec._providers.ollama.call_ids import response_call_id
from chatcodec._providers.ollama.finish_reason import decode_finish_reason
from chatcodec._providers.ollama.markers import PROVIDER
from chatcodec._providers.ollama.media import decode_image
from chatcodec._providers.ollama.parts import decode_call
from chatcodec._providers.ollama.response import RESPONSE_MAPPED, response_head, stamp_of
from chatcodec._providers.ollama.usage import decode_usage, has_usage
from chatcodec._providers.ollama.wire import ErrorBody, Response, is_error_body, validated
from chatcodec.codec_kit import NULLS_MARKER, FeedByReading, json_path, read_event, read_token_logprobs, split_fields
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, StreamBuilder

_MESSAGE_MAPPED = ("role", "content", "thinking", "images", "tool_calls")
"""Message fields each line's pieces are read from (the rest is the message's bag)."""


STREAM_END = 'its last line, with "done": true'
"""Every line of an ``/api/chat`` stream has ``"done": false`` but the last
(docs.ollama.com/api/streaming): without that one the stream was cut."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each line as it arrives, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        """The decode's shared state (:class:`~chatcodec._providers.contract.context.DecodeContext`)."""
        self.position: int = -1
        self.started: bool = False
        self.stamp: str | None = None
        self.seen: set[str] = set()
        """Top-level fields the response's bag has so far."""
        self.open: tuple[str, PartBuilder] | None = None
        self.next_index: int = 0
        self.calls: int = 0
        self.message_bag: dict[str, Any] = {}
        self.choice_bag: dict[str, Any] = {}
        self.finished: bool = False

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read lines into the builder (the whole stream, for ``accumulate_stream``)."""
        for event in events:
            self.position += 1
            read_event(self._read, event, self.position)

    def close(self) -> list[AnyStreamRecord]:
        """Close the part still open, and give the bags of an answer that never finished."""
        self._close_open()
        self.builder.stream_closed(STREAM_END)
        if not self.finished and (self.message_bag or self.choice_bag):
            self.builder.choice_data(
                0,
                choice_metadata={PROVIDER: self.choice_bag} if self.choice_bag else None,
                message_metadata={PROVIDER: self.message_bag} if self.message_bag else None,
            )
            self.message_bag, self.choice_bag = {}, {}
        return self.builder.take_events()

    # --- one line ----------------------------------------------------------------------------

    def _read(self, event: object) -> None:
        if is_error_body(event):
            body = self._validated(ErrorBody, event)
            self.builder.error(ErrorRecord(message=body["error"], body=body))
            return
        line = self._validated(Response, event)
        if not self.started:
            self._start(line)
        message: dict[str, Any] = line.get("message") or {}
        tokens = self._line_tokens(line, message)
        self._message(message, tokens)
        if "logprobs" in line and tokens is None:
            self._logprobs(line["logprobs"])
        if line.get("done") is True:
            self._finish(line)
        elif has_usage(line):
            self.builder.usage(decode_usage(line))

    def _validated(self, adapter: Any, event: object) -> dict[str, Any]:
        try:
            return validated(adapter, event, "Ollama stream line")
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path(first["loc"]), self.position) from None

    def _start(self, line: dict[str, Any]) -> None:
        self.started = True
        self.stamp = stamp_of(line)
        canonical, bag = response_head(line)
        bag.pop("done", None)
        self.seen = set(bag)
        self.builder.start(
            model=canonical.get("model"), created=canonical.get("created"), metadata={PROVIDER: bag} if bag else None
        )

    def _line_tokens(self, line: dict[str, Any], message: dict[str, Any]) -> list[dict[str, Any]] | None:
        """A line's tokens for its text delta (see the module docstring), or None."""
        content = message.get("content")
        if not content or not isinstance(content, str) or "logprobs" not in line or self.choice_bag.get("logprobs"):
            return None
        return read_token_logprobs(line["logprobs"], every_key=False)

    def _message(self, message: dict[str, Any], tokens: list[dict[str, Any]] | None = None) -> None:
        """The pieces of one line's message, in the layout of a message (``tokens``: its text's)."""
        if message.get("thinking") is not None:
            self._text("thinking", message["thinking"])
        for image in message.get("images") or ():
            from chatcodec import PartEvent  # a whole part, checked by its model where it arrives

            self._close_open()
            event = PartEvent.model_validate({"index": self._next(), "part": decode_image(image)})
            self.builder.whole(event)
        if message.get("content"):
            self._text("text", message["content"], tokens)
        for call in message.get("tool_calls") or ():
            self._call(call)
        rest = split_fields(message, tuple(key for key in _MESSAGE_MAPPED if message.get(key) is not None))
        if rest:
            _merge_bag(self.message_bag, rest)

    def _text(self, kind: str, piece: str, tokens: list[dict[str, Any]] | None = None) -> None:
        if self.open is not None and self.open[0] == kind:
            part = self.open[1]
        else:
            self._close_open()
            if kind == "thinking":
                part = self.builder.open_thinking(0, self._next(), provider=PROVIDER)
            else:
                part = self.builder.open_text(0, self._next())
            self.open = (kind, part)
        if tokens is None:
            part.append(piece)
        else:
            self.builder.delta(part, piece, None, logprobs=tokens)

    def _call(self, call: dict[str, Any]) -> None:
        self._close_open()
        decoded = decode_call(call, self.calls, response_call_id(self.stamp, self.calls))
        self.calls += 1
        part = self.builder.open_tool_call(
            0, self._next(), id=decoded["id"], name=decoded["name"], metadata=decoded.get("provider_metadata")
        )
        part.append(decoded["arguments"])
        self.builder.close(part)

    def _close_open(self) -> None:
        if self.open is not None:
            self.builder.close(self.open[1])
            self.open = None

    def _next(self) -> int:
        index = self.next_index
        self.next_index += 1
        return index

    def _logprobs(self, logprobs: object) -> None:
        kept = self.choice_bag.get("logprobs")
        if isinstance(kept, list) and isinstance(logprobs, list):
            self.choice_bag["logprobs"] = [*kept, *logprobs]
        else:
            self.choice_bag["logprobs"] = logprobs

    def _finish(self, line: dict[str, Any]) -> None:
        """The last line: the finish (with the choice's and the message's bags), then usage."""
        self._close_open()
        self.finished = True
        self.builder.end()
        later = {
            key: value
            for key, value in line.items()
            if key not in RESPONSE_MAPPED and key not in self.seen and key != "done"
        }
        bag = dict(self.choice_bag)
        tokens = read_token_logprobs(bag.get("logprobs"), every_key=False)  # the lines' lists, joined
        if tokens is not None:
            del bag["logprobs"]
        if line.get("done_reason", 0) is None:
            bag["done_reason"] = None
        reason = decode_finish_reason(line.get("done_reason"), bag, has_tool_calls=self.calls > 0, done=True)
        assert reason is not None
        if self.message_bag:
            self.builder.choice_data(0, message_metadata={PROVIDER: self.message_bag})
        late, choice_metadata = {PROVIDER: later} if later else None, {PROVIDER: bag} if bag else None
        self.builder.finish(0, reason, late, choice_metadata=choice_metadata, logprobs=tokens)
        self.message_bag, self.choice_bag = {}, {}
        if has_usage(line):
            self.builder.usage(decode_usage(line))


def _merge_bag(bag: dict[str, Any], rest: dict[str, Any]) -> None:
    """A line's message fields into the message's bag (``null`` markers joined)."""
    nulls = sorted({*(bag.get(NULLS_MARKER) or ()), *(rest.pop(NULLS_MARKER, None) or ())})
    bag.update(rest)
    if nulls:
        bag[NULLS_MARKER] = nulls
