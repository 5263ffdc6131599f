"""Writing canonical stream events as an A2A task's stream, in the order :mod:`.stream_decode`
reads them back.

The answer is written as the task lifecycle the spec streams (``specification.md`` 3.2.3, 11):
a ``Task`` first (its fields from the response's bag, its id the response's, else
:data:`~.markers.MADE_UP_TASK`'s; working), then each part of the answer as an artifact of its
own (``artifactId`` its bag's, else :func:`~.markers.made_up_artifact_id` of its place): a text
as ``TaskArtifactUpdateEvent`` chunks, each delta ``append``-ed to the one before and the last
marked ``lastChunk``, a file or a data part whole; then, at the finish, a
``TaskStatusUpdateEvent`` of the state the finish is (``stop`` ``TASK_STATE_COMPLETED``,
``pause`` ``INPUT_REQUIRED``, ``error`` ``FAILED``, ``refusal`` ``REJECTED``, ``other``
``CANCELED``; a state the raw word names, itself). A stream read from JSON-RPC (the ``rpc`` of the
response's bag) is written as JSON-RPC responses of the same id; an error event is a JSON-RPC
error there, a ``FAILED`` status whose message says it else. A stream with no finish gets no
last status (a cut stream stays cut).

What an A2A stream has no place for is reported where it stands, as the message writer reports
it: thinking, tool calls (A2A carries an agent's words and files, not its tool loop), a refusal
(written as text), a model, a creation time, token counts, a finish no task state says
(``length``: written completed), a message's or choice's bag.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, assert_never

from chatcodec._frameworks.a2a.markers import AGENT, DATA, DISPLAY, KIT, MADE_UP_TASK, made_up_artifact_id
from chatcodec._frameworks.a2a.parts import encode_part
from chatcodec._frameworks.a2a.stream_decode import ARTIFACT, FINISHES, HISTORY, RPC, SAID, TASK
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

_STATES = {
    "stop": "TASK_STATE_COMPLETED",
    "pause": "TASK_STATE_INPUT_REQUIRED",
    "error": "TASK_STATE_FAILED",
    "refusal": "TASK_STATE_REJECTED",
    "other": "TASK_STATE_CANCELED",
}
"""The task state each canonical finish is written as (a raw word that is a state of the same
finish is written itself: ``AUTH_REQUIRED``)."""
_NO_PLACE = f"an {DISPLAY} stream carries an agent's words and files, not its tool loop or reasoning"
_NO_FIELD = f"an {DISPLAY} task's stream has no field for it"
WORKING = "TASK_STATE_WORKING"


class StreamEncoder:
    """Feed canonical records with :meth:`feed`, then :meth:`close`."""

    stream_contract: ClassVar[int] = 2
    """It reads records, not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.losses = context.losses
        self.position = 0
        self.task: dict[str, Any] | None = None
        self.rpc: dict[str, Any] | None = None
        self.places = 0
        self.texts: dict[int, tuple[dict[str, Any], str | None, bool]] = {}
        """Open texts by canonical index: their artifact's fields, the delta held back (the last
        is the ``lastChunk``) and whether a chunk of them was written."""
        self.reported: set[str] = set()
        self.last: dict[str, Any] | None = None
        """The status update the finish is, written at :meth:`close` (the counts may follow it)."""
        self.ended = False

    # --- one record -------------------------------------------------------------------------------

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The stream events ``event`` completes."""
        at: Steps = ("events", self.position)
        self.position += 1
        if not self._refused(event, at):
            yield from self._event(event, at)

    def _refused(self, event: AnyStreamRecord, at: Steps) -> bool:
        """Whether ``event`` has no place in the stream at all: after its end, of another choice."""
        if self.ended or (self.last is not None and not isinstance(event, UsageRecord | ChoiceMetadataRecord)):
            self.losses.add(at, f"{event.type} event", f"an {DISPLAY} stream says nothing after its end", "content")
            return True
        if getattr(event, "choice", 0) != 0:
            self.losses.add(at, "another choice", f"an {DISPLAY} task answers once", "content")
            return True
        return False

    def _event(self, event: AnyStreamRecord, at: Steps) -> Iterator[dict[str, Any]]:
        match event:
            case ResponseStartRecord():
                yield from self._start(event, at)
            case TextStartRecord():
                yield from self._started()
                self._open(event.index, event.provider_metadata, at)
            case TextDeltaRecord():
                yield from self._delta(event.index, event.delta)
            case TextEndRecord():
                yield from self._close(event.index, event.provider_metadata, at)
            case RefusalDeltaRecord():
                yield from self._refusal(event, at)
            case PartRecord():
                yield from self._started()
                yield from self._whole(event, at)
            case (
                ThinkingStartRecord()
                | ThinkingDeltaRecord()
                | ThinkingSignatureDeltaRecord()
                | ThinkingEndRecord()
                | ToolCallStartRecord()
                | ToolCallDeltaRecord()
                | ToolCallEndRecord()
            ):
                self._once(at, event.type.split("_")[0] if "tool" not in event.type else "tool call")
            case UsageRecord() | ChoiceMetadataRecord():
                self._unplaced(event, at)
            case FinishRecord():
                yield from self._finish(event, at)
            case ErrorRecord():
                yield from self._error(event)
            case _:
                assert_never(event)

    def _unplaced(self, event: UsageRecord | ChoiceMetadataRecord, at: Steps) -> None:
        """Counts and bags, which a task's stream has no place for: reported."""
        if isinstance(event, UsageRecord):
            if any(isinstance(count, int) and count for count in event.usage.values()):
                self.losses.add((*at, "usage"), "token counts", f"an {DISPLAY} task counts no tokens", "metadata")
            return
        KIT.report_unplaced(self.losses, event.provider_metadata, (*at, "provider_metadata"), _NO_FIELD)
        KIT.report_unplaced(self.losses, event.choice_metadata, (*at, "choice_metadata"), _NO_FIELD)
        KIT.report_unplaced(self.losses, event.message_metadata, (*at, "message_metadata"), _NO_FIELD)

    def close(self) -> Iterator[dict[str, Any]]:
        """What is still open, written; no last status when no finish came (a cut stream)."""
        if self.ended:
            return
        for index in list(self.texts):
            yield from self._close(index, None, ("events", self.position))
        if self.last is not None:
            self.ended = True
            yield self.last

    # --- the task ---------------------------------------------------------------------------------

    def _start(self, event: ResponseStartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        if self.task is not None:
            self.losses.add(at, "a second response start", f"an {DISPLAY} stream has one task", "metadata")
            return
        for key in ("model", "created"):
            if getattr(event, key) is not None:
                self.losses.add((*at, key), key, _NO_FIELD, "metadata")
        bag = KIT.claim(self.losses, event.provider_metadata, (*at, "provider_metadata"))
        rpc = as_dict(bag.pop(RPC, None))
        self.rpc = dict(rpc) if rpc is not None else None
        task = {**MADE_UP_TASK, **(as_dict(bag.pop(TASK, None)) or {})}
        task["id"] = event.id if event.id is not None else MADE_UP_TASK["id"]
        history = as_list(bag.pop(HISTORY, None))
        if history:
            task["history"] = history
        KIT.report_unplaced(self.losses, {KIT.name: bag} if bag else None, (*at, "provider_metadata"), _NO_FIELD)
        self.task = task
        yield self._wire({"task": task})

    def _started(self) -> Iterator[dict[str, Any]]:
        if self.task is None:
            yield from self._start(ResponseStartRecord(), ("events", self.position))

    def _ids(self) -> dict[str, Any]:
        task = self.task or MADE_UP_TASK
        return {"taskId": task["id"], "contextId": task.get("contextId", MADE_UP_TASK["contextId"])}

    def _wire(self, payload: dict[str, Any]) -> dict[str, Any]:
        return payload if self.rpc is None else {**self.rpc, "result": payload}

    def _chunk(self, artifact: dict[str, Any], parts: list[dict[str, Any]], append: bool, last: bool) -> dict[str, Any]:
        update: dict[str, Any] = {**self._ids(), "artifact": {**artifact, "parts": parts}}
        if append:
            update["append"] = True
        if last:
            update["lastChunk"] = True
        return self._wire({"artifactUpdate": update})

    # --- parts ------------------------------------------------------------------------------------

    def _place(self) -> int:
        place = self.places
        self.places += 1
        return place

    def _open(self, index: int, metadata: dict[str, Any] | None = None, at: Steps = ()) -> None:
        bag = KIT.claim(self.losses, metadata, (*at, "provider_metadata"))
        artifact = {"artifactId": made_up_artifact_id(self._place()), **(as_dict(bag.pop(ARTIFACT, None)) or {})}
        if bag:
            KIT.report_unplaced(self.losses, {KIT.name: bag}, (*at, "provider_metadata"), _NO_FIELD)
        self.texts[index] = (artifact, None, False)

    def _delta(self, index: int, delta: str) -> Iterator[dict[str, Any]]:
        opened = self.texts.get(index)
        if opened is None:
            return
        artifact, held, written = opened
        if not delta:
            return  # a chunk of nothing: the text goes on in the next
        if held is not None:  # the one before is no longer the last chunk
            fields = {"artifactId": artifact["artifactId"]} if written else artifact
            yield self._chunk(fields, [{"text": held}], written, last=False)
            written = True
        self.texts[index] = (artifact, delta, written)

    def _close(self, index: int, metadata: dict[str, Any] | None, at: Steps) -> Iterator[dict[str, Any]]:
        opened = self.texts.pop(index, None)
        if opened is None:
            return
        artifact, held, written = opened
        bag = KIT.claim(self.losses, metadata, (*at, "provider_metadata"))
        artifact = {**artifact, **(as_dict(bag.pop(ARTIFACT, None)) or {})}
        if bag.pop(DATA, None):
            why = f"an {DISPLAY} data part streamed as its text (the text came before the mark)"
            self.losses.add((*at, "provider_metadata", KIT.name, DATA), "data part", why, "spelling")
        part = {"text": held or "", **{key: value for key, value in bag.items() if not key.startswith("_")}}
        yield self._chunk(artifact, [part], written, last=True)

    def _whole(self, event: PartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        part = dict(event.part)
        bags = dict(as_dict(part.get("provider_metadata")) or {})
        for name, bag in (event.provider_metadata or {}).items():  # the record's bag is the part's too
            bags[name] = {**(as_dict(bags.get(name)) or {}), **bag}
        own = dict(as_dict(bags.get(KIT.name)) or {})
        artifact = as_dict(own.pop(ARTIFACT, None)) or {}
        said = as_dict(own.pop(SAID, None))
        if own:
            bags[KIT.name] = own
        else:
            bags.pop(KIT.name, None)
        if bags:
            part["provider_metadata"] = bags
        else:
            part.pop("provider_metadata", None)
        if part.get("type") in ("thinking", "tool_use", "tool_result", "refusal"):
            kind = str(part["type"])
            self._once((*at, "part"), "tool call" if kind.startswith("tool") else kind)
            if kind != "refusal":
                return
            part = {"type": "text", "text": part.get("text", "")}
        written = encode_part(part, self.context, (*at, "part"))
        place = self._place()
        if written is None:
            return
        if said is not None:  # a status message's part: said in a status again
            message = {"role": AGENT, "parts": [written], **said}
            yield self._wire({"statusUpdate": {**self._ids(), "status": {"state": WORKING, "message": message}}})
            return
        fields = {"artifactId": made_up_artifact_id(place), **artifact}
        yield self._chunk(fields, [written], append=False, last=True)

    def _refusal(self, event: RefusalDeltaRecord, at: Steps) -> Iterator[dict[str, Any]]:
        yield from self._started()
        self._once(at, "refusal")
        if event.index not in self.texts:
            self._open(event.index)
        yield from self._delta(event.index, event.delta)

    def _once(self, at: Steps, kind: str) -> None:
        """A kind of part A2A has no place for, reported at its first event."""
        if kind in self.reported:
            return
        self.reported.add(kind)
        why = f"{_NO_PLACE}: written as text" if kind == "refusal" else _NO_PLACE
        self.losses.add(at, kind, why)

    # --- the end ----------------------------------------------------------------------------------

    def _finish(self, event: FinishRecord, at: Steps) -> Iterator[dict[str, Any]]:
        yield from self._started()
        for index in list(self.texts):
            yield from self._close(index, None, at)
        reason = event.finish_reason
        raw = reason.get("raw")
        unified = reason.get("unified")
        if isinstance(raw, str) and FINISHES.get(raw) == unified:
            state = raw
        else:
            state = _STATES.get(str(unified), "TASK_STATE_COMPLETED")
            if unified not in _STATES:
                why = f"no {DISPLAY} task state says it: written as {state}"
                self.losses.add((*at, "finish_reason"), "finish reason", why, "metadata")
        if event.logprobs:
            self.losses.add((*at, "logprobs"), "token log probabilities", f"{DISPLAY} has none", "metadata")
        KIT.report_unplaced(self.losses, event.choice_metadata, (*at, "choice_metadata"), _NO_FIELD)
        bag = KIT.claim(self.losses, event.provider_metadata, (*at, "provider_metadata"))
        status = {"state": state, **(as_dict(bag.pop("status", None)) or {})}
        self.last = self._wire({"statusUpdate": {**self._ids(), **bag, "status": status}})

    def _error(self, event: ErrorRecord) -> Iterator[dict[str, Any]]:
        self.ended = True
        if self.rpc is not None:
            body = as_dict(event.body)
            if body is not None and "error" in body and body.get("id") == self.rpc.get("id"):
                yield dict(body)  # a JSON-RPC error read back: as it came
                return
            code = event.error_type
            error: dict[str, Any] = {"code": int(code) if code and code.lstrip("-").isdigit() else -32603}
            error["message"] = event.message
            yield {**self.rpc, "error": error}
            return
        said = {"role": AGENT, "parts": [{"text": event.message}]}
        yield self._wire({"statusUpdate": {**self._ids(), "status": {"state": "TASK_STATE_FAILED", "message": said}}})
