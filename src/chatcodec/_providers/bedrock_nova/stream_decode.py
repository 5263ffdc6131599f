"""Decoding InvokeModelWithResponseStream events for Nova: the one path, driving the
shared stream builder.

Each event-stream message is a ``chunk`` whose ``bytes`` are the base64 of one JSON event
(``{"chunk": {"bytes": "eyJtZXNzYWdlU3RhcnQiOi..."}}``, as boto3 yields it and the
framing reads it); the event inside is one object with one member, the block events of the
family's wire (``messageStart``, ``contentBlockStart`` / ``Delta`` / ``Stop``,
``messageStop``, ``metadata``;
https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-invoke-api.html). The decoder
takes a chunk or the event inside it alike. The last event may carry
``amazon-bedrock-invocationMetrics`` beside its member, kept with the finish.

A text or reasoning block starts with its first delta; a ``toolUse`` block with its
``contentBlockStart``, its input streamed as argument text. ``messageStop`` (the stop
reason) and ``metadata`` (usage, metrics) may come in either order: the finish is given
once both are in, or at the end. Exception events (``throttlingException`` ...) become
error events; an event type added later is read and ignored.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from typing import Any

import pydantic_core

from chatcodec._canonical_validation import validate_canonical
from chatcodec._errors import StreamError, as_chatcodec_error, json_path
from chatcodec._model.response import Usage
from chatcodec._model.stream_events import AnyStreamEvent, ErrorEvent
from chatcodec._narrow import as_dict
from chatcodec._providers.bedrock_nova.markers import PROVIDER
from chatcodec._providers.bedrock_nova.usage import decode_usage
from chatcodec._providers.bedrock_nova.wire import adapters
from chatcodec._providers.contract.context import DecodeContext
from chatcodec._providers.families.aws.finish_reason import decode_finish_reason
from chatcodec._providers.families.aws.tool_ids import restore_tool_use_id
from chatcodec._providers.kit import leftovers
from chatcodec._providers.kit.stream_reading import FeedByReading, read_event
from chatcodec.streams._builder import PartBuilder, StreamBuilder

INVOCATION_METRICS = "amazon-bedrock-invocationMetrics"
"""The member Bedrock adds to the last chunk of an InvokeModel stream."""
_ADAPTERS = adapters()


STREAM_END = "its messageStop event"
"""``messageStop`` carries the stop reason and ``metadata`` (usage) may follow it, as on
Converse's stream (the Nova user guide's streaming example): a stream without
``messageStop`` was cut."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each event as it arrives, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        self.blocks: dict[int, tuple[str, PartBuilder]] = {}
        self.position: int = -1
        self.started: bool = False
        self.stop: dict[str, Any] | None = None
        self.tail: dict[str, Any] | None = None
        self.finished: bool = False
        self.event_type: str = ""

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read events into the builder; an error names the event's position."""
        for event in events:
            self.position += 1
            read_event(self._read, event, self.position)

    def close(self) -> list[AnyStreamEvent]:
        """The finish when ``messageStop`` came without ``metadata`` (or the reverse); a
        stream without ``messageStop`` was cut, which the builder keeps."""
        if self.stop is not None and not self.finished:  # metadata alone gives no finish
            self._finish()
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    def _error(self, message: str, at: str = "$") -> StreamError:
        return StreamError(message, f"$.{self.event_type}{at[1:]}" if self.event_type else at, self.position)

    def _read(self, event: Any) -> None:
        fields = as_dict(event)
        if fields is not None and len(fields) == 1 and "chunk" in fields:
            fields = self._unwrapped(fields["chunk"])
        extra: dict[str, Any] = {}
        if fields is not None and INVOCATION_METRICS in fields and len(fields) == 2:
            fields = dict(fields)
            extra[INVOCATION_METRICS] = fields.pop(INVOCATION_METRICS)
        if fields is None or len(fields) != 1:
            raise StreamError("a Nova stream event is an object with one member, its event type", "$", self.position)
        ((kind, payload),) = fields.items()
        self.event_type = kind
        if kind.endswith("Exception"):
            checked = self._validated(kind, payload, _ADAPTERS.exception)
            message = checked.get("message")
            text = message if isinstance(message, str) else ""
            self.builder.error(ErrorEvent(message=text, error_type=kind, body=event))
            return
        adapter = _ADAPTERS.events.get(kind)
        if adapter is None:
            return  # an event type added after this was written carries nothing to map
        payload = self._validated(kind, payload, adapter)
        if kind != "messageStart" and not self.started:
            self._start(None)
        if kind == "messageStart":
            self._start(payload)
        elif kind == "contentBlockStart":
            self._block_start(payload)
        elif kind == "contentBlockDelta":
            self._block_delta(payload)
        elif kind == "contentBlockStop":
            self._block_stop(payload)
        elif kind == "messageStop":
            self._message_stop(payload, extra)
        else:
            self._metadata(payload, extra)

    def _unwrapped(self, chunk: object) -> dict[str, Any] | None:
        """The JSON event a ``chunk``'s base64 ``bytes`` hold."""
        data = (as_dict(chunk) or {}).get("bytes")
        if not isinstance(data, str):
            raise StreamError("a chunk holds its event as base64 bytes", "$.chunk.bytes", self.position)
        try:
            return as_dict(json.loads(base64.b64decode(data, validate=True)))
        except (binascii.Error, ValueError, RecursionError):
            raise StreamError(
                "a chunk's bytes are not the base64 of a JSON event", "$.chunk.bytes", self.position
            ) from None

    def _validated(self, kind: str, payload: Any, adapter: Any) -> dict[str, Any]:
        try:
            adapter.validator.validate_python(payload)
        except pydantic_core.ValidationError as error:
            detail = as_chatcodec_error(error, "Nova stream event", payload)
            first = detail.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path((kind, *first["loc"])), self.position) from None
        checked = as_dict(payload)
        assert checked is not None  # every payload shape is a TypedDict
        return checked

    def _start(self, payload: dict[str, Any] | None) -> None:
        if self.started:
            raise self._error("a second messageStart")
        self.started = True
        bag = leftovers(payload, ("role",)) if payload is not None else {}
        if payload is not None and payload["role"] != "assistant":
            raise self._error("an answer is the assistant's", "$.role")
        self.builder.start(metadata={PROVIDER: bag} if bag else None)

    def _block_start(self, payload: dict[str, Any]) -> None:
        index, start = payload["contentBlockIndex"], payload["start"]
        call = as_dict(start.get("toolUse"))
        if index in self.blocks or len(start) != 1 or call is None or set(call) != {"toolUseId", "name"}:
            raise self._error("a block start opens a new toolUse block (toolUseId, name)", "$.start")
        if not isinstance(call["toolUseId"], str) or not isinstance(call["name"], str):
            raise self._error("a toolUse start needs a toolUseId and a name", "$.start.toolUse")
        tool_id = restore_tool_use_id(call["toolUseId"])
        self.blocks[index] = ("toolUse", self.builder.open_tool_call(0, index, id=tool_id, name=call["name"]))

    def _block_delta(self, payload: dict[str, Any]) -> None:
        index, delta = payload["contentBlockIndex"], payload["delta"]
        if len(delta) != 1:
            raise self._error("a block delta has one member", "$.delta")
        ((member, value),) = delta.items()
        if index not in self.blocks:
            if member == "text":
                self.blocks[index] = ("text", self.builder.open_text(0, index))
            elif member == "reasoningContent":
                self.blocks[index] = ("reasoningContent", self.builder.open_thinking(0, index, provider=PROVIDER))
            else:
                raise self._error(f"a {member} delta for a block never started", "$.delta")
        kind, part = self.blocks[index]
        text = value if member == "text" else (as_dict(value) or {}).get("input" if member == "toolUse" else "text")
        inner = as_dict(value)
        if kind != member or not isinstance(text, str) or (inner is not None and len(inner) != 1):
            raise self._error(f"a {member} delta for content block {index}, a {kind} block", "$.delta")
        part.append(text)

    def _block_stop(self, payload: dict[str, Any]) -> None:
        block = self.blocks.pop(payload["contentBlockIndex"], None)
        if block is None:
            raise self._error("contentBlockStop for a block never started", "$.contentBlockIndex")
        self.builder.close(block[1])

    def _message_stop(self, payload: dict[str, Any], extra: dict[str, Any]) -> None:
        if self.stop is not None:
            raise self._error("a second messageStop")
        self.stop = payload
        self.builder.end()
        self.tail = {**(self.tail or {}), **extra} if self.tail is not None or extra else None
        if self.tail is not None and "_metadata" in self.tail:
            self._finish()

    def _metadata(self, payload: dict[str, Any], extra: dict[str, Any]) -> None:
        usage = as_dict(payload.get("usage"))
        if usage is not None:
            self.builder.usage(validate_canonical(Usage, decode_usage(usage)))
        self.tail = {**(self.tail or {}), **extra, "_metadata": leftovers(payload, ("usage",))}
        if self.stop is not None and not self.finished:
            self._finish()

    def _finish(self) -> None:
        for kind, part in self.blocks.values():
            del kind
            self.builder.close(part)
        self.blocks.clear()
        self.finished = True
        stop = self.stop or {}
        bag = {**leftovers(stop, ("stopReason",)), **(self.tail or {})}
        if "_metadata" in bag and not bag["_metadata"]:
            bag["_metadata"] = True  # a metadata event of usage alone
        reason = decode_finish_reason(stop.get("stopReason"), bag) or {"unified": "other"}
        self.builder.finish(0, reason, {PROVIDER: bag} if bag else None)
