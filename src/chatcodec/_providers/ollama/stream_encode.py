"""Canonical stream events -> Ollama stream lines (:class:`StreamEncoder`), so a proxy can
serve ``/api/chat`` from any upstream (the JSON lines are the edge's framing:
``chatcodec.to_sse``).

Every line is a partial ``api.ChatResponse`` with the response's ``model`` and
``created_at`` and ``done: false``: a text delta is ``message.content``, a thinking delta
``message.thinking`` (with ``content: ""``, as the server writes it), an image a line with
``message.images``. A tool call is sent whole when it ends, its argument text parsed into
the ``arguments`` object, as the server sends calls. The finish, the usage and the bags of
the choice and its message wait for the last line, ``done: true``, written by :meth:`close`
(a stream that never finished ends without one, as a cut connection does, its usage on a
line of its own). An error event is an ``{"error": "..."}`` line. Ollama has one answer:
events of another choice are reported and left out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from copy import deepcopy
from typing import Any, ClassVar, assert_never

from chatcodec._providers.ollama.markers import KIT
from chatcodec._providers.ollama.media import encode_image
from chatcodec._providers.ollama.parts import encode_call, encode_part
from chatcodec._providers.ollama.response import encode_end, encode_head
from chatcodec._providers.ollama.usage import encode_usage
from chatcodec.codec_kit import report_after_error, restore_fields
from chatcodec.contract import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    EncodeContext,
    ErrorRecord,
    FinishRecord,
    LossRecorder,
    PartLifecycleRecord,
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
        self.losses: LossRecorder = context.losses
        self.head: dict[str, Any] = {}
        self.calls: dict[int, dict[str, Any]] = {}
        """Tool calls being written, by part index: their start and argument pieces."""
        self.sent_calls: int = 0
        self.refusals: set[int] = set()
        self.silent_thoughts: set[int] = set()
        """Thinking parts started with no delta yet, by part index."""
        self.thought: int | None = None
        """The last thinking part that wrote text: another one's text joins it."""
        self.end: dict[str, Any] = {}
        """The last line's own fields: finish reason, usage, the choice's bag."""
        self.message: dict[str, Any] = {}
        """The last line's message fields (the message's bag)."""
        self.finished: bool = False
        self.started: bool = False
        self.said: bool = False  # a line was written
        self.position: int = 0
        self.failed: bool = False
        """An error was written: the stream ends there (:mod:`~chatcodec._providers.kit.stream_errors`)."""
        self.dropped: bool = False  # an event came after it, left out

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The lines ``event`` completes (possibly none yet)."""
        if self.failed:
            self.dropped = True
            return
        at: Steps = ("events", self.position)
        self.position += 1
        yield from self._feed(event, at)

    def close(self) -> Iterator[dict[str, Any]]:
        """The last line: ``done: true`` with the finish and usage (``done: false`` if never
        finished); a started answer that said nothing is still that one line (a stream of
        none is no answer, and is refused when read back); nothing after an error."""
        if self.failed:
            if self.dropped:
                report_after_error(self.losses, "Ollama")
            return
        if self.finished or self.end or self.message or (self.started and not self.said):
            message = {"role": "assistant", "content": "", **self.message}
            yield {**self.head, "message": message, "done": self.finished, **self.end}

    def _feed(self, event: AnyStreamRecord, at: Steps) -> Iterator[dict[str, Any]]:
        match event:
            case ResponseStartRecord():
                self._start(event, at)
            case UsageRecord():
                self.end.update(encode_usage(deepcopy(event.usage), self.context, (*at, "usage")))
            case ErrorRecord():
                self.failed = True
                yield {"error": event.message}
            case _ if event.choice != 0:
                self.losses.add(at, f"answer {event.choice}", "an Ollama stream holds one answer")
            case FinishRecord():
                self._finish(event, at)
            case ChoiceMetadataRecord():
                self._choice_data(event, at)
            case _:
                yield from self._part_event(event, at)

    def _start(self, event: ResponseStartRecord, at: Steps) -> None:
        self.started = True
        bag = KIT.claim(self.losses, event.provider_metadata, at)
        fields = {"model": event.model, "created": event.created, "id": event.id}
        self.head = encode_head({key: value for key, value in fields.items() if value is not None}, bag, self.context)

    def _part_event(self, event: PartLifecycleRecord, at: Steps) -> Iterator[dict[str, Any]]:
        match event:
            case TextDeltaRecord():
                line = self._line({"content": event.delta})
                if event.logprobs is not None:  # the text's own tokens, on its line as Ollama streams them
                    line["logprobs"] = deepcopy(event.logprobs)
                yield line
            case ToolCallStartRecord():
                self.calls[event.index] = {"id": event.id, "name": event.name, "metadata": event.provider_metadata}
                self.calls[event.index]["arguments"] = []
            case ToolCallDeltaRecord():
                if event.index in self.calls:
                    self.calls[event.index]["arguments"].append(event.delta)
            case ToolCallEndRecord():
                yield from self._call(event, at)
            case RefusalDeltaRecord():
                if event.index not in self.refusals:
                    self.refusals.add(event.index)
                    self.losses.add(at, "refusal", "Ollama has no refusal field; sent as text")
                yield self._line({"content": event.delta})
            case PartRecord():
                yield from self._whole(event, at)
            case ThinkingStartRecord() | ThinkingDeltaRecord() | ThinkingSignatureDeltaRecord() | ThinkingEndRecord():
                yield from self._thinking(event, at)
            case TextStartRecord() | TextEndRecord():
                KIT.report_unplaced(
                    self.losses, event.provider_metadata, at, "an Ollama stream line has no room for it"
                )
            case _:
                assert_never(event)

    def _thinking(
        self,
        event: ThinkingStartRecord | ThinkingDeltaRecord | ThinkingSignatureDeltaRecord | ThinkingEndRecord,
        at: Steps,
    ) -> Iterator[dict[str, Any]]:
        """A thinking part's lines, and what its start, signature and end say that Ollama
        cannot carry. A thought with no text is still one: a ``"thinking": ""`` line says so."""
        if isinstance(event, ThinkingDeltaRecord):
            self.silent_thoughts.discard(event.index)
            if event.delta and self.thought not in (None, event.index, -1):  # as the whole message's loss
                self.losses.add(at, "thinking parts", "an Ollama message has one thinking field; sent joined")
                self.thought = -1  # said once
            elif event.delta and self.thought is None:
                self.thought = event.index
            yield self._line({"content": "", "thinking": event.delta})
            return
        if isinstance(event, ThinkingStartRecord):
            self.silent_thoughts.add(event.index)
            part = {"type": "thinking", "text": "", "provider": event.provider, "model": event.model}
            encode_part({key: value for key, value in part.items() if value is not None}, self.context, at)
        elif isinstance(event, ThinkingSignatureDeltaRecord):
            self.losses.add(at, "thinking signature", "Ollama thinking carries no signature")
        elif event.encrypted is not None:
            self.losses.add((*at, "encrypted"), "encrypted reasoning", "Ollama thinking carries no encrypted payload")
        KIT.report_unplaced(self.losses, event.provider_metadata, at, "Ollama thinking has no room for it")
        if isinstance(event, ThinkingEndRecord) and event.index in self.silent_thoughts:
            self.silent_thoughts.discard(event.index)
            yield self._line({"content": "", "thinking": ""})

    def _line(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.said = True
        return {**self.head, "message": {"role": "assistant", **message}, "done": False}

    def _call(self, event: ToolCallEndRecord, at: Steps) -> Iterator[dict[str, Any]]:
        started = self.calls.pop(event.index, None)
        if started is None:
            return
        metadata: dict[str, Any] = {**(started["metadata"] or {}), **(event.provider_metadata or {})}
        part = {"type": "tool_use", "id": started["id"], "name": started["name"]}
        part["arguments"] = "".join(started["arguments"])
        if metadata:
            part["provider_metadata"] = metadata
        call = encode_call(part, self.sent_calls, self.context, at)
        self.sent_calls += 1
        yield self._line({"content": "", "tool_calls": [call]})

    def _whole(self, event: PartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        from chatcodec import PartEvent  # a whole part, written as its model dumps it (``None`` left out)

        part = PartEvent.model_validate({"index": event.index, "part": event.part}).part.model_dump(exclude_none=True)
        if event.provider_metadata is not None:
            part["provider_metadata"] = {**(part.get("provider_metadata") or {}), **event.provider_metadata}
        if part["type"] == "image":
            KIT.report_unplaced(self.losses, part.get("provider_metadata"), at, "an Ollama image has no room for it")
            data = encode_image(part, self.losses, at)
            if data is not None:
                yield self._line({"content": "", "images": [data]})
            return
        encoded = encode_part(part, self.context, at)
        if encoded is not None:
            yield self._line({"content": "", **encoded})

    def _finish(self, event: FinishRecord, at: Steps) -> None:
        self.finished = True
        choice: dict[str, Any] = {"finish_reason": dict(event.finish_reason)}
        if event.choice_metadata is not None:
            choice["provider_metadata"] = event.choice_metadata
        if event.logprobs is not None:
            choice["logprobs"] = deepcopy(event.logprobs)
        self.end.update(encode_end(choice, self.context, (*at, "choice_metadata")))
        bag = KIT.claim(self.losses, event.provider_metadata, (*at, "provider_metadata"))
        self.end.update(restore_fields(bag))

    def _choice_data(self, event: ChoiceMetadataRecord, at: Steps) -> None:
        bag = KIT.claim(self.losses, event.choice_metadata, (*at, "choice_metadata"))
        self.end.update(restore_fields(bag))
        message_bag = KIT.claim(self.losses, event.message_metadata, (*at, "message_metadata"))
        self.message.update(restore_fields(message_bag))
        response_bag = KIT.claim(self.losses, event.provider_metadata, (*at, "provider_metadata"))
        self.end.update(restore_fields(response_bag))
