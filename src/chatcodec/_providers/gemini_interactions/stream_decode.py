"""Decoding a stream: the SSE events of the steps schema -> the shared stream builder.

``interaction.created`` starts the answer; ``step.start`` opens a step (its index the
step's place in the Interaction's ``steps``); ``step.delta`` adds to it (``text``,
``thought_summary``, ``thought_signature``, ``arguments_delta``, a media item whole); ``step.stop``
closes it (a ``text_annotation_delta`` gives the open text's citations, kept in its bag
as the whole answer keeps a text's ``annotations``); ``interaction.status_update`` says where the interaction is;
``interaction.completed`` gives its last status (the finish reason) and usage and ends the
stream (a ``failed`` one listing ``errors``, with no error event before it, is an error event
too, its first entry's message, as a failed Interaction's body is read); ``error`` is an error
event (google-genai 3.6.1 ``InteractionSSEEvent``,
https://ai.google.dev/gemini-api/docs/interactions/streaming). A step of a built-in tool
is a whole opaque part, given at its ``step.stop`` with its deltas' fields. The decoder
validates each event and tells the builder what happened; it never accumulates.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chatcodec import StreamError, ValidationError
from chatcodec._providers.gemini_interactions.edge import read_error
from chatcodec._providers.gemini_interactions.finish_reason import decode_finish_reason
from chatcodec._providers.gemini_interactions.markers import DISPLAY, PROVIDER
from chatcodec._providers.gemini_interactions.parts import decode_content, opaque
from chatcodec._providers.gemini_interactions.usage import decode_usage
from chatcodec._providers.gemini_interactions.wire import EVENT_SHAPES, validated
from chatcodec.codec_kit import FeedByReading, as_dict, as_list, compact_json, json_path, leftovers, read_event
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, PartRecord, StreamBuilder

_LIFECYCLE = ("id", "model", "status", "usage")
"""The fields of a lifecycle event's ``interaction`` with a canonical home; the others
(``object``, ``created`` ...) are the response's bag, as a body's are."""

STREAM_END = "its interaction.completed event"
"""What ends this wire's stream (https://ai.google.dev/gemini-api/docs/interactions/streaming):
without it the stream was cut."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each event, or :meth:`read` a whole stream, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder = builder if builder is not None else StreamBuilder(emit=True)
        self.context = context if context is not None else DecodeContext(PROVIDER)
        self.position = -1
        self.started = False
        self.parts = 0
        """How many canonical parts were opened (the next one's index)."""
        self.open: dict[int, PartBuilder] = {}
        """The part each step index is writing to."""
        self.held: dict[int, dict[str, Any]] = {}
        """Steps kept whole (built-in tools'), by index, until their ``step.stop``."""
        self.annotations: dict[int, list[Any]] = {}
        """A text's citations (its ``annotations``), by step index, until the text closes."""
        self.signed: dict[int, str] = {}
        """A ``thought_signature`` delta's text on a step other than a thought, by step index, until
        the step closes (its part's bag keeps it: no documented step but a thought has one)."""
        self.arguments: dict[int, dict[str, Any]] = {}
        """A call's arguments given whole at its ``step.start``, until a delta or its stop."""
        self.status: str | None = None
        self.errored = False
        """Whether an ``error`` event came (a failed interaction's completion then adds none)."""
        self.last_step = ""
        """The kind of the step started last (a ``function_call`` last: a turn ending on calls)."""

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read events into the builder; an error names the event's position in the stream."""
        for event in events:
            self.position += 1
            read_event(self._read, event, self.position)

    def close(self) -> list[AnyStreamRecord]:
        """Close the parts still open (a stream cut short) and give what is owed."""
        for index in tuple(self.open):
            self._stop(index)
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    def _read(self, event: dict[str, Any]) -> None:
        kind = event.get("event_type")
        shape = EVENT_SHAPES.get(kind) if isinstance(kind, str) else None
        if shape is None:
            raise StreamError(f"{DISPLAY} has no event_type {kind!r}", "$.event_type", self.position)
        checked = self._validated(shape, event)
        if kind == "error":
            error = checked.get("error", {})
            code = error.get("code")
            record = ErrorRecord(
                message=error.get("message", ""), error_type=None if code is None else str(code), body=event
            )
            self.errored = True
            self.builder.error(record)
            return
        self._ensure_started(checked.get("interaction", {}))
        if kind == "step.start":
            self._start(checked["index"], checked["step"])
        elif kind == "step.delta":
            self._delta(checked["index"], checked["delta"])
        elif kind == "step.stop":
            self._stop(checked["index"])
        elif kind == "interaction.status_update":
            self.status = checked["status"]
            if "usage" in checked:
                self.builder.usage(decode_usage(checked["usage"]))
        elif kind == "interaction.completed":
            self._complete(checked["interaction"])

    def _ensure_started(self, interaction: dict[str, Any]) -> None:
        if not self.started:
            self.started = True
            # the SDK requires an id on the created event: an empty one stands for none
            bag = leftovers(interaction, _LIFECYCLE)
            metadata = {PROVIDER: bag} if bag else None
            self.builder.start(id=interaction.get("id") or None, model=interaction.get("model"), metadata=metadata)

    def _next(self) -> int:
        self.parts += 1
        return self.parts - 1

    def _start(self, index: int, step: dict[str, Any]) -> None:
        kind = self.last_step = step["type"]
        if kind == "model_output":
            for item in step.get("content", []):
                self._content(index, item)
        elif kind == "thought":
            part = self.open[index] = self.builder.open_thinking(0, self._next(), provider=PROVIDER)
            if step.get("signature"):
                self.builder.signature(part, step["signature"])
            for item in step.get("summary", []):
                if item.get("type") == "text" and item["text"]:
                    part.append(item["text"])
        elif kind == "function_call":
            self.open[index] = self.builder.open_tool_call(0, self._next(), id=step["id"], name=step["name"])
            self.arguments[index] = step["arguments"]
        else:
            self.held[index] = dict(step)

    def _content(self, index: int, item: dict[str, Any]) -> None:
        if item.get("type") == "text":
            part = self.open.get(index)
            if part is None:
                part = self.open[index] = self.builder.open_text(0, self._next())
            if item["text"]:
                part.append(item["text"])
            self._annotate(index, item.get("annotations"))
            return
        self._stop(index)  # a text before it is complete
        self.builder.whole(PartRecord(index=self._next(), choice=0, part=decode_content(item, answer=True)))

    def _annotate(self, index: int, annotations: object) -> None:
        """Citations for the text step ``index`` (its part's ``annotations`` when it closes)."""
        listed = as_list(annotations)
        if listed is not None and index in self.open and self.open[index].kind == "text":
            self.annotations.setdefault(index, []).extend(listed)

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        kind = delta.get("type")
        if index in self.held:
            self.held[index].update({key: value for key, value in delta.items() if key != "type"})
        elif kind == "thought_summary":
            content = as_dict(delta.get("content")) or {}
            if content.get("type") == "text" and content.get("text") and index in self.open:
                self.open[index].append(content["text"])
        elif kind == "thought_signature":
            part = self.open.get(index)
            if delta.get("signature") and part is not None:
                if part.kind == "thinking":
                    self.builder.signature(part, delta["signature"])
                else:  # on a call or a text (only a thought step has one): kept in its part's bag
                    self.signed[index] = self.signed.get(index, "") + delta["signature"]
        elif kind == "text_annotation_delta" and index in self.open and self.open[index].kind == "text":
            self._annotate(index, delta.get("annotations", []))
        elif kind == "arguments_delta":
            if index in self.open and delta.get("arguments"):
                self.arguments.pop(index, None)
                self.open[index].append(delta["arguments"])
        else:
            self._content(index, delta)

    def _stop(self, index: int) -> None:
        if index in self.held:
            self.builder.whole(PartRecord(index=self._next(), choice=0, part=opaque(self.held.pop(index))))
            return
        part = self.open.pop(index, None)
        if part is None:
            return
        arguments = self.arguments.pop(index, None)
        if arguments is not None:
            part.append(compact_json(arguments))
        bag: dict[str, Any] = {}
        annotations = self.annotations.pop(index, None)
        if annotations is not None:
            bag["annotations"] = annotations
        if index in self.signed:
            bag["signature"] = self.signed.pop(index)
        self.builder.close(part, metadata={PROVIDER: bag} if bag else None)

    def _complete(self, interaction: dict[str, Any]) -> None:
        for index in tuple(self.open):
            self._stop(index)
        status = interaction.get("status", self.status)
        if status == "failed" and interaction.get("errors") and not self.errored:  # the error is the completion's
            message, code = read_error({**interaction, "status": status})
            self.builder.error(ErrorRecord(message=message, error_type=code, body=interaction))
        bag = leftovers(interaction, _LIFECYCLE)
        reason = decode_finish_reason(status, bag, ends_on_call=self.last_step == "function_call")
        self.builder.finish(0, reason or {"unified": "other"}, {PROVIDER: bag} if bag else None)
        if "usage" in interaction:
            self.builder.usage(decode_usage(interaction["usage"]))
        self.builder.end()

    def _validated(self, shape: Any, event: object) -> dict[str, Any]:
        try:
            return validated(shape, event, f"{DISPLAY} stream event")
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path(first["loc"]), self.position) from None
