"""Writing canonical stream events as an AG-UI run's events, in the order :mod:`.stream_decode`
reads them back.

A run opens with ``RUN_STARTED`` (its ``threadId`` and ``runId`` from the response's bag, else
the ones :data:`~.markers.MADE_UP_RUN` names, read back as no data), then each part as AG-UI
streams it: a text as ``TEXT_MESSAGE_START`` / ``CONTENT`` / ``END`` of the answer's assistant
message, a thinking part as a reasoning message (``REASONING_START``, ``REASONING_MESSAGE_*``,
its opaque payload a ``REASONING_ENCRYPTED_VALUE``, ``REASONING_END``), a call as
``TOOL_CALL_START`` / ``ARGS`` / ``END`` under that message; the run ends with ``RUN_FINISHED``
(the counts as its one ``TokenUsage``) at the finish, ``RUN_ERROR`` at an error, or not at all
when neither came (a cut stream stays cut). The answer's message id is its bag's (the stream
decoder gives it before the first part), else the response's id, else
:data:`~.markers.MADE_UP_ANSWER`; a reasoning message's is its thinking part's, else
:func:`~.markers.made_up_reasoning_id` of the part's place.

What a run's events have no place for is reported where it stands: a model and a creation time,
a thinking part's signature, a refusal (written as text), a finish AG-UI does not derive (its
run ends; the finish is ``tool_calls`` when the answer made calls, ``stop`` else), counts with no
``TokenUsage`` field, a whole part other than text, thinking or a call (a provider-executed
result is written as ``TOOL_CALL_RESULT``, which a reader keeps as an event, not a part), a
message's or choice's bag beyond the events a run kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, assert_never

from chatcodec._frameworks.ag_ui.markers import (
    DISPLAY,
    EVENTS,
    KIT,
    MADE_UP_ANSWER,
    MADE_UP_RUN,
    PARENT,
    USAGE_FIELDS,
    made_up_reasoning_id,
)
from chatcodec.codec_kit import as_dict, as_list
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

_NO_FIELD = f"an {DISPLAY} run's events have no field for it"
_AT_THE_END = frozenset({"end", "encrypted", "reasoningEnd", "encryptedValue"})
"""A part's bag keys written with its last events (its end's fields, its encrypted value)."""
_NOT_AT_THE_START = frozenset({"start", "end", "encrypted", "reasoningStart", "reasoningEnd"})
"""A part's bag keys its start event is not written with as they stand (``start``'s fields are
written in it; ``reasoningStart``'s in the ``REASONING_START`` before it)."""
_PartEvent = (
    TextStartRecord
    | TextDeltaRecord
    | TextEndRecord
    | ThinkingStartRecord
    | ThinkingDeltaRecord
    | ThinkingSignatureDeltaRecord
    | ThinkingEndRecord
    | ToolCallStartRecord
    | ToolCallDeltaRecord
    | ToolCallEndRecord
    | RefusalDeltaRecord
    | PartRecord
)
_PART_EVENTS = (
    TextStartRecord,
    TextDeltaRecord,
    TextEndRecord,
    ThinkingStartRecord,
    ThinkingDeltaRecord,
    ThinkingSignatureDeltaRecord,
    ThinkingEndRecord,
    ToolCallStartRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
    RefusalDeltaRecord,
    PartRecord,
)
"""The records of a part: written as the part's AG-UI events, the run started first."""
_RUN_KEYS = ("threadId", "runId")


class StreamEncoder:
    """Feed canonical records with :meth:`feed`, then :meth:`close`."""

    stream_contract: ClassVar[int] = 2
    """It reads records, not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.losses = context.losses
        self.position = 0
        self.run: dict[str, Any] | None = None
        """``RUN_STARTED``'s fields once written (the ids ``RUN_FINISHED`` repeats)."""
        self.response_id: str | None = None
        self.answer_id: str | None = None
        """The assistant message's id, once known from its bag."""
        self.parts = 0
        """Parts opened so far: a reasoning message's made-up id is its place among them."""
        self.open: dict[int, tuple[str, str, dict[str, Any]]] = {}
        """Open parts by canonical index: their kind, their AG-UI id and their bag."""
        self.refusal: str | None = None
        """The text message a refusal is written as, while it streams."""
        self.calls = False
        self.named = False
        """Whether a text or call of the answer's message was written (its id with it)."""
        self.usage: dict[str, Any] = {}
        self.usage_at: Steps = ()
        self.finished: dict[str, Any] | None = None
        """``RUN_FINISHED`` once the finish came, written at :meth:`close` (the counts may follow it)."""
        self.ended = False

    # --- one record ------------------------------------------------------------------------------

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The AG-UI events ``event`` completes."""
        at: Steps = ("events", self.position)
        self.position += 1
        if getattr(event, "choice", 0) != 0:
            self.losses.add(at, "another choice", f"an {DISPLAY} run carries one answer", "content")
            return
        if self.ended or (self.finished is not None and not isinstance(event, UsageRecord | ChoiceMetadataRecord)):
            self.losses.add(at, f"{event.type} event", f"an {DISPLAY} run says nothing after its end", "content")
            return
        if self.refusal is not None and not isinstance(event, RefusalDeltaRecord):
            yield self._end_refusal()
        if isinstance(event, _PART_EVENTS):
            yield from self._part_event(event, at)
        else:
            yield from self._run_event(event, at)

    def _run_event(
        self, event: ResponseStartRecord | UsageRecord | ChoiceMetadataRecord | FinishRecord | ErrorRecord, at: Steps
    ) -> Iterator[dict[str, Any]]:
        match event:
            case ResponseStartRecord():
                yield from self._start(event, at)
            case UsageRecord():
                KIT.claim(self.losses, event.provider_metadata, (*at, "provider_metadata"))
                counts = dict(event.usage)
                KIT.claim(self.losses, counts.pop("provider_metadata", None), (*at, "usage", "provider_metadata"))
                self.usage.update(counts)
                self.usage_at = at
            case ChoiceMetadataRecord():
                yield from self._choice_data(event, at)
            case FinishRecord():
                yield from self._finish(event, at)
            case ErrorRecord():
                yield from self._error(event)
            case _:
                assert_never(event)

    def _part_event(self, event: _PartEvent, at: Steps) -> Iterator[dict[str, Any]]:
        if not isinstance(event, ThinkingSignatureDeltaRecord):
            yield from self._started()
        match event:
            case TextStartRecord():
                yield self._open(event.index, "text", self._bag(event.provider_metadata, at))
            case TextDeltaRecord() | ThinkingDeltaRecord() | ToolCallDeltaRecord():
                yield from self._delta(event.index, event.delta, at)
            case TextEndRecord() | ToolCallEndRecord():
                yield from self._close(event.index, event.provider_metadata, at)
            case ThinkingStartRecord():
                yield from self._thinking_start(event, at)
            case ThinkingSignatureDeltaRecord():
                why = f"an {DISPLAY} reasoning message has no signature (only encryptedValue)"
                self.losses.add(at, "thinking signature", why, "metadata")
            case ThinkingEndRecord():
                yield from self._close(event.index, event.provider_metadata, at, event.encrypted)
            case ToolCallStartRecord():
                self.calls = True
                bag = self._bag(event.provider_metadata, at)
                yield self._open(event.index, "call", bag, event.id, event.name)
            case RefusalDeltaRecord():
                yield from self._refusal(event.delta, at)
            case PartRecord():
                yield from self._whole(event, at)
            case _:
                assert_never(event)

    def _thinking_start(self, event: ThinkingStartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        if event.provider not in (None, KIT.name) or event.model is not None:
            why = f"an {DISPLAY} reasoning message does not say which model thought it"
            self.losses.add(at, "thinking provider", why, "metadata")
        bag = self._bag(event.provider_metadata, at)
        start = self._open(event.index, "thinking", bag)
        yield {"type": "REASONING_START", "messageId": start["messageId"], **_fields(bag, "reasoningStart")}
        yield start

    def close(self) -> Iterator[dict[str, Any]]:
        """What is still open, closed, then ``RUN_FINISHED`` with the counts; none when no
        finish came (a cut run stays cut)."""
        if self.refusal is not None:
            yield self._end_refusal()
        if self.ended:
            return
        yield from self._close_all()
        yield from self._name_the_answer()
        if self.finished is not None:
            finished = self.finished
            if "usage" not in finished and self.usage:
                finished["usage"] = [self._token_usage(self.usage_at)]
            elif self.usage:
                self._token_usage(self.usage_at)  # the run's own entries stand for them; what they lack is reported
            self.ended = True
            yield finished

    # --- the run ---------------------------------------------------------------------------------

    def _start(self, event: ResponseStartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        if self.run is not None:
            self.losses.add(at, "a second response start", f"an {DISPLAY} run starts once", "metadata")
            return
        for key in ("model", "created"):
            if getattr(event, key) is not None:
                self.losses.add((*at, key), key, _NO_FIELD, "metadata")
        self.response_id = event.id
        bag = KIT.claim(self.losses, event.provider_metadata, (*at, "provider_metadata"))
        self.run = {"type": "RUN_STARTED", **MADE_UP_RUN, **bag}
        yield self.run

    def _started(self) -> Iterator[dict[str, Any]]:
        if self.run is None:
            self.run = {"type": "RUN_STARTED", **MADE_UP_RUN}
            yield self.run

    def _ids(self) -> dict[str, Any]:
        run = self.run or MADE_UP_RUN
        return {key: run[key] for key in _RUN_KEYS if key in run}

    def _answer(self) -> str:
        """The assistant message's id: its bag's, else the response's, else the made-up one."""
        self.named = True
        if self.answer_id is None:
            self.answer_id = self.response_id if self.response_id is not None else MADE_UP_ANSWER
        return self.answer_id

    def _name_the_answer(self) -> Iterator[dict[str, Any]]:
        """An answer of no text and no call (reasoning alone, nothing) named all the same: an
        empty text message of its id, which the reader reads as the id and no part."""
        if self.named or self.run is None:
            return
        answer = self._answer()
        if answer != MADE_UP_ANSWER:
            yield {"type": "TEXT_MESSAGE_START", "messageId": answer, "role": "assistant"}
            yield {"type": "TEXT_MESSAGE_END", "messageId": answer}

    def _choice_data(self, event: ChoiceMetadataRecord, at: Steps) -> Iterator[dict[str, Any]]:
        KIT.report_unplaced(self.losses, event.provider_metadata, (*at, "provider_metadata"), _NO_FIELD)
        KIT.report_unplaced(self.losses, event.choice_metadata, (*at, "choice_metadata"), _NO_FIELD)
        bag = KIT.claim(self.losses, event.message_metadata, (*at, "message_metadata"))
        message_id = bag.pop("id", None)
        if isinstance(message_id, str):
            if self.answer_id not in (None, message_id):
                why = f"the {DISPLAY} events before it named the message {self.answer_id!r}"
                self.losses.add((*at, "message_metadata", KIT.name, "id"), "message id", why, "metadata")
            else:
                self.answer_id = message_id
        kept = as_list(bag.pop(EVENTS, None)) or []
        KIT.report_unplaced(self.losses, {KIT.name: bag} if bag else None, (*at, "message_metadata"), _NO_FIELD)
        yield from self._started()
        yield from (dict(kept_event) for kept_event in kept if as_dict(kept_event) is not None)

    def _finish(self, event: FinishRecord, at: Steps) -> Iterator[dict[str, Any]]:
        yield from self._started()
        yield from self._close_all()
        reason = event.finish_reason
        bag = KIT.claim(self.losses, event.provider_metadata, (*at, "provider_metadata"))
        derived = "tool_calls" if self.calls else "stop"
        if reason.get("unified") != derived:
            why = f"an {DISPLAY} run ends, it says no why (read back: {derived}, by its calls)"
            self.losses.add((*at, "finish_reason"), "finish reason", why, "metadata")
        if event.logprobs:
            self.losses.add((*at, "logprobs"), "logprobs", _NO_FIELD, "content")
        KIT.report_unplaced(self.losses, event.choice_metadata, (*at, "choice_metadata"), _NO_FIELD)
        self.finished = {"type": "RUN_FINISHED", **self._ids(), **bag}

    def _token_usage(self, at: Steps) -> dict[str, Any]:
        entry: dict[str, Any] = {}
        for name, count in self.usage.items():
            wire = USAGE_FIELDS.get(name)
            if wire is None:
                if count is not None:
                    self.losses.add((*at, "usage", name), f"usage {name}", f"an {DISPLAY} TokenUsage has no such count")
            elif count is not None:
                entry[wire] = count
        return entry

    def _error(self, event: ErrorRecord) -> Iterator[dict[str, Any]]:
        yield from self._started()
        yield from self._close_all()
        body = as_dict(event.body)
        if body is not None and body.get("type") == "RUN_ERROR" and body.get("message") == event.message:
            wire = dict(body)  # an AG-UI error read back: its own fields
        else:
            wire = {"type": "RUN_ERROR", "message": event.message}
            if event.error_type is not None:
                wire["code"] = event.error_type
        self.ended = True
        yield wire

    # --- parts -----------------------------------------------------------------------------------

    def _bag(self, metadata: dict[str, Any] | None, at: Steps) -> dict[str, Any]:
        return KIT.claim(self.losses, metadata, (*at, "provider_metadata"))

    def _open(self, index: int, kind: str, bag: dict[str, Any], call_id: str = "", name: str = "") -> dict[str, Any]:
        place = self.parts
        self.parts += 1
        fields = {key: value for key, value in bag.items() if key not in _NOT_AT_THE_START}
        fields.update(_fields(bag, "start"))
        if kind == "call":
            part_id = call_id
            fields.pop("encryptedValue", None)
            start = {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name}
            start["parentMessageId"] = fields.pop(PARENT, None) or self._answer()
        elif kind == "thinking":
            part_id = fields.pop("id", None) or made_up_reasoning_id(place)
            start = {"type": "REASONING_MESSAGE_START", "messageId": part_id, "role": "reasoning"}
        else:
            part_id = fields.pop("messageId", None) or self._answer()
            start = {"type": "TEXT_MESSAGE_START", "messageId": part_id, "role": "assistant"}
        self.open[index] = (kind, part_id, bag)
        return {**start, **fields}

    def _delta(self, index: int, delta: str, at: Steps) -> Iterator[dict[str, Any]]:
        opened = self.open.get(index)
        if opened is None:
            self.losses.add(at, "a delta of no open part", f"an {DISPLAY} event names the part it continues")
            return
        kind, part_id, _ = opened
        if not delta:
            return  # AG-UI's content events hold a delta that is not empty
        if kind == "call":
            yield {"type": "TOOL_CALL_ARGS", "toolCallId": part_id, "delta": delta}
        elif kind == "thinking":
            yield {"type": "REASONING_MESSAGE_CONTENT", "messageId": part_id, "delta": delta}
        else:
            yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": part_id, "delta": delta}

    def _close(
        self, index: int, metadata: dict[str, Any] | None, at: Steps, encrypted: str | None = None
    ) -> Iterator[dict[str, Any]]:
        opened = self.open.pop(index, None)
        if opened is None:
            return
        kind, part_id, bag = opened
        ending = self._bag(metadata, at)
        late = sorted(key for key in ending if key not in bag and key not in _AT_THE_END and not key.startswith("_"))
        if late:  # a replayed answer's part brings its bag with its end: its start is written
            why = f"it came with the part's end, after the {DISPLAY} event that holds it was written"
            self.losses.add((*at, "provider_metadata"), f"{KIT.name} data {late}", why, "metadata")
        bag = {**bag, **ending}
        end = _fields(bag, "end")
        if kind == "call":
            yield {"type": "TOOL_CALL_END", "toolCallId": part_id, **end}
            value = bag.get("encryptedValue")
            if isinstance(value, str):
                yield _encrypted("tool-call", part_id, value, bag)
        elif kind == "thinking":
            yield {"type": "REASONING_MESSAGE_END", "messageId": part_id, **end}
            if encrypted is not None:
                yield _encrypted("message", part_id, encrypted, bag)
            yield {"type": "REASONING_END", "messageId": part_id, **_fields(bag, "reasoningEnd")}
        else:
            yield {"type": "TEXT_MESSAGE_END", "messageId": part_id, **end}

    def _close_all(self) -> Iterator[dict[str, Any]]:
        for index in list(self.open):
            yield from self._close(index, None, ("events", self.position))

    def _refusal(self, delta: str, at: Steps) -> Iterator[dict[str, Any]]:
        yield from self._started()
        self.losses.add(at, "refusal", f"an {DISPLAY} message has no refusal: written as its text")
        if self.refusal is None:
            self.refusal = self._answer()
            self.parts += 1
            yield {"type": "TEXT_MESSAGE_START", "messageId": self.refusal, "role": "assistant"}
        if delta:
            yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": self.refusal, "delta": delta}

    def _end_refusal(self) -> dict[str, Any]:
        message_id, self.refusal = self.refusal, None
        return {"type": "TEXT_MESSAGE_END", "messageId": message_id}

    def _whole(self, event: PartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        """A part given whole: its start, its one delta and its end."""
        part = event.part
        kind = part.get("type")
        bag = self._bag(part.get("provider_metadata"), (*at, "part"))
        index = event.index
        if kind == "text":
            yield self._open(index, "text", bag)
            yield from self._delta(index, part.get("text") or "", at)
            yield from self._close(index, event.provider_metadata, at)
        elif kind == "thinking":
            for key in ("signature", "provider", "model", "redacted"):
                if part.get(key) not in (None, False, KIT.name):
                    why = f"an {DISPLAY} reasoning message has no field for it"
                    self.losses.add((*at, "part", key), f"thinking {key}", why, "metadata")
            start = self._open(index, "thinking", bag)
            yield {"type": "REASONING_START", "messageId": start["messageId"], **_fields(bag, "reasoningStart")}
            yield start
            yield from self._delta(index, part.get("text") or "", at)
            yield from self._close(index, event.provider_metadata, at, part.get("encrypted"))
        elif kind == "tool_use":
            self.calls = True
            yield self._open(index, "call", bag, part["id"], part["name"])
            yield from self._delta(index, part.get("arguments") or "", at)
            yield from self._close(index, event.provider_metadata, at)
        elif kind == "tool_result" and isinstance(part.get("tool_use_id"), str):
            why = f"an {DISPLAY} run's result is an event of its own: read back kept, not as a part"
            self.losses.add((*at, "part"), "tool result", why)
            content = part.get("content")
            text = content if isinstance(content, str) else _text_of(content)
            self.parts += 1
            result_id = f"{part['tool_use_id']}-result"
            yield {
                "type": "TOOL_CALL_RESULT",
                "messageId": result_id,
                "toolCallId": part["tool_use_id"],
                "content": text,
            }
        else:
            self.losses.add((*at, "part"), f"{kind} part", f"an {DISPLAY} answer streams text, reasoning and calls")


def _fields(bag: dict[str, Any], key: str) -> dict[str, Any]:
    """The fields an event of the part kept under ``key`` of its bag (its end's timestamp...)."""
    return dict(as_dict(bag.get(key)) or {})


def _encrypted(subtype: str, entity: str, value: str, bag: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "REASONING_ENCRYPTED_VALUE",
        "subtype": subtype,
        "entityId": entity,
        "encryptedValue": value,
        **_fields(bag, "encrypted"),
    }


def _text_of(content: object) -> str:
    listed = as_list(content) or []
    return "".join(str(part.get("text", "")) for part in map(as_dict, listed) if part is not None)
