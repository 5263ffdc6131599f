"""Decoding a Bedrock block stream: the one path, driving the shared stream builder, for
both bodies' streams. ConverseStream's events and the JSON events inside Nova's
InvokeModelWithResponseStream chunks are the same shapes (``messageStart``,
``contentBlockStart`` / ``Delta`` / ``Stop``, ``messageStop``, ``metadata``;
https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-invoke-api.html): what a body
does otherwise is its :class:`StreamFacts` (its body, names, adapters, usage reader) and,
for Nova's chunk framing, its folder's subclass.

An event is one object with one member, ``{"<eventType>": {...payload}}``: the shape
boto3 yields from ``converse_stream()["stream"]`` and the fixtures hold (the wire itself is
binary ``application/vnd.amazon.eventstream``, whose ``:event-type`` header is the key).
Payloads may carry ``"p"``, AWS's random-length padding against side channels: it is
read and dropped, a documented non-loss (it carries no data, and ``encode_stream`` writes
none).

Live streams send ``contentBlockStart`` only for ``toolUse`` (and server ``toolResult`` /
``image``) blocks: a text or reasoning block starts with its first
``contentBlockDelta``, so the delta opens the part. Client ``toolUse`` input streams as
argument text; a server tool's ``toolUse`` or ``toolResult``, an ``image``, and
``redactedContent`` are gathered until ``contentBlockStop`` and given whole, as the same
part the non-streamed response has. ``citation`` deltas are gathered and given with the
text part's end. ``messageStop`` (the stop reason) and ``metadata`` (usage, metrics,
trace) arrive in either order: the finish is given once both are in, or at the end.
A ``contentBlockStart`` with an empty ``start`` (``{}``, which servers built on the
Converse shapes send before a text block, as Anthropic's ``content_block_start`` does)
opens a text block. A gathered block never closed by ``contentBlockStop`` (a redacted
reasoning block of a stream cut short before the stop) is given whole at the finish or
at the end, not dropped.
Exception events (``throttlingException``, ``modelStreamErrorException`` ...) become
error events; event types added later are read and ignored.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pydantic_core

from chatcodec._errors import StreamError, as_chatcodec_error, json_path
from chatcodec._model.stream_records import ErrorRecord
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import read_json_text
from chatcodec._providers.contract.context import DecodeContext, EncodeContext
from chatcodec._providers.families.aws.blocks import Adapters
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.finish_reason import decode_finish_reason
from chatcodec._providers.families.aws.parts import ASSISTANT_KINDS, decode_block
from chatcodec._providers.families.aws.tool_ids import EMPTY_ID, made_up_id, restore_tool_use_id
from chatcodec._providers.kit.stream_reading import FeedByReading, read_event
from chatcodec.codec_kit import leftovers
from chatcodec.contract import AnyStreamRecord, Steps
from chatcodec.streams._builder import PartBuilder, StreamBuilder

PADDING = "p"
"""AWS's padding member, dropped on reading."""

NO_METRICS = "_no_metrics"
"""Marker: the ``metadata`` event had no ``metrics`` (SDK-level recordings leave it out)."""


_DELTA_KEYS = frozenset({"contentBlockIndex", "delta", PADDING})


def _streamed_text(kind: str, delta: Any) -> str | None:
    """The text a one-member delta adds to a block of ``kind``, or None for anything else."""
    value: Any = None
    if kind == "text":
        value = delta.get("text")
    elif kind == "tool":
        call: Any = delta.get("toolUse")
        value = call.get("input") if call.__class__ is dict and len(call) == 1 else None
    elif kind == "thinking":
        reasoning: Any = delta.get("reasoningContent")
        value = reasoning.get("text") if reasoning.__class__ is dict and len(reasoning) == 1 else None
    return value if value.__class__ is str else None


class _Block:
    """A content block between its first event and its stop."""

    __slots__ = ("citations", "fragments", "kind", "part", "start")

    def __init__(self, kind: str, part: PartBuilder | None = None, start: dict[str, Any] | None = None) -> None:
        self.kind = kind  # text, thinking, tool, or the member of a block given whole
        self.part = part
        self.start = start or {}
        self.fragments: list[Any] = []
        self.citations: list[Any] | None = None


STREAM_END = "its messageStop event"
"""``messageStop`` carries the stop reason, ``metadata`` (usage) may follow it
(docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html):
a stream without ``messageStop`` was cut."""


@dataclass(frozen=True, slots=True)
class StreamFacts:
    """What one body's stream tells the shared decoder."""

    body: Body
    """The body (its kit names the bags; the blocks it lacks are kept whole)."""
    title: str
    """The stream named in errors (``"ConverseStream"``, ``"Nova stream"``)."""
    adapters: Adapters
    """The body's wire adapters (its ``events`` and ``exception``)."""
    decode_usage: Callable[[Mapping[str, Any]], dict[str, Any]]
    """The body's usage reader."""
    encode_usage: Callable[[Mapping[str, Any], EncodeContext, Steps], dict[str, Any]]
    """The body's usage writer."""
    metadata_marker: str | None = None
    """Where the ``metadata`` event's members besides ``usage`` are kept: None, in the
    finish's bag itself (Converse's response has ``metrics`` and ``trace`` at its top), or
    under this marker (Nova's answer has neither: ``{"_metadata": {...}}``, ``True`` when
    the event held usage alone)."""
    last_member: str | None = None
    """A member the body's framing adds beside the last event's (Nova's
    ``amazon-bedrock-invocationMetrics``): read into the finish's bag, written on the last event."""


class BlockStreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each wire event as it arrives, then :meth:`close`
    (each body's folder names its :class:`StreamFacts` in a subclass)."""

    facts: ClassVar[StreamFacts]

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.provider = self.facts.body.kit.name
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(self.provider)
        """The decode's shared state (:class:`~chatcodec._providers.contract.context.DecodeContext`)."""
        self.blocks: dict[int, _Block] = {}
        self.position: int = -1
        self.stop: dict[str, Any] | None = None
        self.tail: dict[str, Any] | None = None  # the metadata event's other members
        self.finished: bool = False
        self.started: bool = False
        self.event_type: str | None = None  # the member of the event being read
        self.extra: dict[str, Any] = {}  # members an event had beside its type (a body's framing)

    def close(self) -> list[AnyStreamRecord]:
        """The finish, when ``messageStop`` came without ``metadata``; gathered blocks never
        stopped are given whole."""
        if self.stop is not None and not self.finished:
            self._finish()
        self._flush_gathered()
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    def _flush_gathered(self) -> None:
        """Give every gathered block still open (no ``contentBlockStop`` came) as its part."""
        for index in [index for index, block in self.blocks.items() if block.part is None]:
            self._block_stop(index)

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read wire events into the builder (the whole stream, for ``accumulate_stream``).

        Nearly every event is a ``contentBlockDelta`` adding text to a block that is
        streaming it: :meth:`_appended` checks that shape by hand, each value of exactly
        the type the wire adapter requires, and appends the text, which is all the
        general reading would do with it; any other event is read by :meth:`_read`.
        """
        for event in events:
            self.position += 1
            if self._appended(event):
                continue
            read_event(self._read, event, self.position)

    def _appended(self, event: Any) -> bool:
        """Whether ``event`` was a plain text delta for an open block, now appended
        (``x.__class__ is dict`` is ``type(x) is dict``, leaving ``x`` Any for the checkers)."""
        if event.__class__ is not dict or len(event) != 1:
            return False
        payload: Any = event.get("contentBlockDelta")
        if payload.__class__ is not dict or not payload.keys() <= _DELTA_KEYS:
            return False
        index: Any = payload.get("contentBlockIndex")
        delta: Any = payload.get("delta")
        block = self.blocks.get(index) if index.__class__ is int else None
        if block is None or block.part is None or delta.__class__ is not dict or len(delta) != 1:
            return False
        if payload.get("p", "").__class__ is not str:
            return False
        text = _streamed_text(block.kind, delta)
        if text is None:
            return False
        block.part.append(text)
        return True

    def _error(self, message: str, at: str = "$") -> StreamError:
        """A StreamError at ``at``, a path inside the event's payload, given as a path in
        the event itself (``$.start`` of a ``contentBlockStart`` is
        ``$.contentBlockStart.start``), so it names a place the input has."""
        if self.event_type is not None and at.startswith("$."):
            at = f"$.{self.event_type}{at[1:]}"
        return StreamError(message, at, self.position)

    def _fragments_error(self, message: str, at: str) -> StreamError:
        """A StreamError about a block's joined fragments, judged at its end (or at the
        stream's): ``at`` is in the ``contentBlockDelta`` events that carried them."""
        return StreamError(message, f"$.contentBlockDelta{at[1:]}", self.position)

    def _fields(self, event: Any) -> dict[str, Any] | None:
        """The event object (a body whose framing wraps its events unwraps it here, keeping
        what the frame adds in :attr:`extra`)."""
        return as_dict(event)

    def _read(self, event: Any) -> None:
        fields = self._fields(event)
        if fields is None or len(fields) != 1:
            raise self._error(f"a {self.facts.title} event is an object with one member, its event type")
        ((kind, payload),) = fields.items()
        self.event_type = kind
        adapters = self.facts.adapters
        if kind.endswith("Exception"):
            self._exception(kind, self._validated(kind, payload, adapters.exception.validator), event)
            return
        adapter = adapters.events.get(kind)
        if adapter is None:
            return  # an event type added after this was written carries nothing to map
        payload = self._validated(kind, payload, adapter.validator)
        if kind != "messageStart" and not self.started:
            self._message_start(None)  # a stream without messageStart (SDK-level recordings) starts here
        if kind == "messageStart":
            self._message_start(payload)
        elif kind == "contentBlockStart":
            self._block_start(payload["contentBlockIndex"], payload["start"])
        elif kind == "contentBlockDelta":
            self._block_delta(payload["contentBlockIndex"], payload["delta"])
        elif kind == "contentBlockStop":
            self._block_stop(payload["contentBlockIndex"])
        elif kind == "messageStop":
            self._message_stop(payload)
        else:
            self._metadata(payload)

    def _message_start(self, payload: dict[str, Any] | None) -> None:
        if self.started:
            raise self._error("a second messageStart")
        self.started = True
        if payload is None:
            self.builder.start()
            return
        bag = leftovers(payload, ("role", PADDING))
        if payload["role"] != "assistant":
            bag["role"] = payload["role"]
        self.builder.start(metadata={self.provider: bag} if bag else None)

    def _validated(self, kind: str, payload: Any, validator: Any) -> dict[str, Any]:
        try:
            validator.validate_python(payload)
        except pydantic_core.ValidationError as error:
            detail = as_chatcodec_error(error, f"{self.facts.title} event", payload)
            first = detail.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path((kind, *first["loc"])), self.position) from None
        checked = as_dict(payload)
        assert checked is not None  # every payload shape is a TypedDict
        return checked

    def _exception(self, kind: str, payload: dict[str, Any], event: Any) -> None:
        message = payload.get("message")
        self.builder.error(
            ErrorRecord(message=message if isinstance(message, str) else "", error_type=kind, body=event)
        )

    # --- blocks --------------------------------------------------------------------------

    def _block_start(self, index: int, start: dict[str, Any]) -> None:
        if index in self.blocks:
            raise self._error(f"content block {index} started again before it stopped", "$.contentBlockIndex")
        if not start:  # "start": {} opens a text block (compatible servers send it; see the docstring)
            self.blocks[index] = _Block("text", self.builder.open_text(0, index))
            return
        if len(start) != 1:
            raise self._error("a block start has one member", "$.start")
        ((member, value),) = start.items()
        call = as_dict(value)
        if member == "toolUse" and call is not None and call.get("type", "tool_use") == "tool_use":
            tool_id, name = call.get("toolUseId"), call.get("name")
            if not isinstance(tool_id, str) or not isinstance(name, str):
                raise self._error("a toolUse start needs a toolUseId and a name", "$.start.toolUse")
            rest = leftovers(call, ("toolUseId", "name"))
            if not tool_id:  # "": a made-up id, as in a response (tool_ids.py)
                tool_id, rest[EMPTY_ID] = made_up_id(index), True
            metadata = {self.provider: rest} if rest else None
            part = self.builder.open_tool_call(0, index, id=restore_tool_use_id(tool_id), name=name, metadata=metadata)
            self.blocks[index] = _Block("tool", part)
        elif call is None:
            raise self._error(f"a {member} start is an object", json_path(("start", member)))
        else:
            self.blocks[index] = _Block(member, start=call)

    def _block_delta(self, index: int, delta: dict[str, Any]) -> None:
        if len(delta) != 1:
            raise self._error("a block delta has one member", "$.delta")
        ((member, value),) = delta.items()
        block = self.blocks.get(index)
        if block is None:
            block = self.blocks[index] = self._implicit(index, member, value)
        if block.part is None:
            block.fragments.append(value)
        elif member == "text" and block.kind == "text":
            block.part.append(value)
        elif member == "citation" and block.kind == "text":
            if block.citations is None:
                block.citations = []
            block.citations.append(value)
        elif member == "toolUse" and block.kind == "tool":
            block.part.append(value["input"])
        elif member == "reasoningContent" and block.kind == "thinking":
            self._reasoning(block.part, value)
        else:
            raise self._error(f"a {member} delta for content block {index}, a {block.kind} block", "$.delta")

    def _implicit(self, index: int, member: str, value: Any) -> _Block:
        """A block whose first event is a delta (text and reasoning blocks have no start)."""
        if member in ("text", "citation"):
            return _Block("text", self.builder.open_text(0, index))
        reasoning = as_dict(value) or {}
        if member == "reasoningContent" and "redactedContent" not in reasoning:
            return _Block("thinking", self.builder.open_thinking(0, index, provider=self.provider))
        if member == "reasoningContent":
            return _Block("redacted")
        if member == "toolUse":
            raise self._error(f"a toolUse delta for content block {index}, which was never started", "$.delta")
        return _Block(member)

    def _reasoning(self, part: PartBuilder, reasoning: dict[str, Any]) -> None:
        if len(reasoning) != 1:
            raise self._error("a reasoningContent delta has one member", "$.delta.reasoningContent")
        ((member, value),) = reasoning.items()
        if member == "text":
            part.append(value)
        elif member == "signature":
            self.builder.signature(part, value)
        else:
            raise self._error(f"a {member} delta in a reasoning text block", "$.delta.reasoningContent")

    def _block_stop(self, index: int) -> None:
        block = self.blocks.pop(index, None)
        if block is None:
            raise self._error(f"contentBlockStop for content block {index}, which was never started")
        if block.part is None:
            part = decode_block(self.facts.body, self._whole(block), ASSISTANT_KINDS)
            from chatcodec._model.stream_events import PartEvent  # a whole part, checked by its model here

            self.builder.whole(PartEvent.model_validate({"index": index, "part": part}))
        elif block.citations is not None:
            self.builder.close(block.part, metadata={self.provider: {"citations": block.citations}})
        else:
            self.builder.close(block.part)

    def _whole(self, block: _Block) -> dict[str, Any]:
        """The block a gathered one stands for, as the non-streamed response spells it."""
        if block.kind == "redacted":
            pieces = [as_dict(fragment) or {} for fragment in block.fragments]
            return {"reasoningContent": {"redactedContent": self._joined_payload(pieces)}}
        if block.kind == "toolUse":
            text = "".join(str((as_dict(fragment) or {}).get("input", "")) for fragment in block.fragments)
            return {"toolUse": {**block.start, "input": self._input(text)}}
        if block.kind == "toolResult":
            content = [item for fragment in block.fragments for item in as_list(fragment) or [fragment]]
            return {"toolResult": {**block.start, "content": content}}
        if block.kind == "image" and block.fragments:
            return {"image": {**block.start, **(as_dict(block.fragments[-1]) or {})}}
        # a block kind added after this was written: its start and deltas, kept
        return {block.kind: {**block.start, "deltas": block.fragments} if block.fragments else block.start}

    def _joined_payload(self, pieces: list[dict[str, Any]]) -> str:
        """One base64 payload for the ``redactedContent`` deltas (usually one)."""
        values = [piece.get("redactedContent") for piece in pieces]
        if not all(isinstance(value, str) for value in values):
            raise self._fragments_error(
                "a redacted block holds only redactedContent deltas", "$.delta.reasoningContent"
            )
        texts: list[str] = [value for value in values if isinstance(value, str)]
        if len(texts) == 1:
            return texts[0]
        try:
            return base64.b64encode(b"".join(base64.b64decode(text, validate=True) for text in texts)).decode()
        except (binascii.Error, ValueError):
            raise self._fragments_error("redactedContent is not base64", "$.delta.reasoningContent") from None

    def _input(self, text: str) -> Any:
        if not text:
            return {}
        try:
            return read_json_text(text)
        except json.JSONDecodeError as error:
            raise self._fragments_error(
                f"toolUse input fragments are not JSON: {error}", "$.delta.toolUse.input"
            ) from None

    # --- the end -------------------------------------------------------------------------

    def _message_stop(self, payload: dict[str, Any]) -> None:
        if self.stop is not None:
            raise self._error("a second messageStop")
        self.stop = payload
        self.builder.end()
        if self.tail is not None:
            self._finish()

    def _metadata(self, payload: dict[str, Any]) -> None:
        usage = as_dict(payload.get("usage"))
        if usage is not None:
            self.builder.usage(self.facts.decode_usage(usage))  # validated there as Usage unless plain counts
        rest = leftovers(payload, ("usage", PADDING))
        marker = self.facts.metadata_marker
        if marker is not None:
            self.tail = {**(self.tail or {}), marker: rest or True}
        else:
            self.tail = {**(self.tail or {}), **rest}
            if "metrics" not in payload:
                self.tail[NO_METRICS] = True
        if self.stop is not None and not self.finished:
            self._finish()

    def _finish(self) -> None:
        self._flush_gathered()
        stop = self.stop or {}
        self.finished = True
        bag = {**leftovers(stop, ("stopReason", PADDING)), **self.extra, **(self.tail or {})}
        reason = decode_finish_reason(stop["stopReason"], bag)
        assert reason is not None
        self.builder.finish(0, reason, {self.provider: bag} if bag else None)
