"""Reading an A2A stream (``SendStreamingMessage``, ``SubscribeToTask``: SSE whose every ``data``
is a ``StreamResponse``, bare over HTTP+JSON or the ``result`` of a JSON-RPC response) as the
agent's answer it carries, through the shared builder.

The spec's order (``specification.md`` 3.2.3, 11): one agent ``Message`` and the stream closes,
or a ``Task`` first, then ``TaskStatusUpdateEvent``s and ``TaskArtifactUpdateEvent``s until the
task is in a terminal or interrupted state (a last ``Task`` snapshot may follow). Read as one
assistant answer, in the order the parts came:

- a message: its parts, whole (its ``messageId`` the response's id when it opens the stream);
- the first task: its fields but its conversation in the response's bag (``task``; its
  ``history``, the turns before this answer, under ``history``), then its status message's and
  its artifacts' parts;
- an artifact update: its text parts a streamed text part, a chunk with ``append`` continuing the
  artifact's open text, ``lastChunk`` closing it; its other parts whole; the artifact's fields
  but its parts (``artifactId``, ``name``...) in the bag of the parts it opened (``artifact``);
- a status update: its agent message's parts, whole; a terminal or interrupted state is the
  finish (``TASK_STATE_COMPLETED`` ``stop``, ``INPUT_REQUIRED`` / ``AUTH_REQUIRED`` ``pause``,
  ``FAILED`` ``error``, ``REJECTED`` ``refusal``, ``CANCELED`` ``other``; the state the raw word);
  an update that says nothing else (a working state, a timestamp) and a snapshot after the
  finish are kept whole, in order, in the message's bag (``events``);
- a JSON-RPC error: an error event.

A stream that ends before a message or such a state was cut (``partial=True`` reads what came).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chatcodec import StreamError
from chatcodec._frameworks.a2a.markers import AGENT, MADE_UP_TASK, PROVIDER, made_up_artifact_id
from chatcodec._frameworks.a2a.parts import decode_part
from chatcodec._frameworks.a2a.wire import TASK_STATES, check_message, check_parts
from chatcodec.codec_kit import FeedByReading, as_dict, as_list, leftovers, read_event
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, PartRecord, StreamBuilder

STREAM_END = "an agent Message or a task in a terminal or interrupted state"
"""What ends an A2A stream (one that sends neither was cut)."""

FINISHES = {
    "TASK_STATE_COMPLETED": "stop",
    "TASK_STATE_INPUT_REQUIRED": "pause",
    "TASK_STATE_AUTH_REQUIRED": "pause",
    "TASK_STATE_FAILED": "error",
    "TASK_STATE_REJECTED": "refusal",
    "TASK_STATE_CANCELED": "other",
}
"""The states a stream ends in (terminal, or interrupted: the agent waits for the client), each
with the canonical finish it is."""

KINDS = ("task", "message", "statusUpdate", "artifactUpdate")
"""``StreamResponse``'s payloads: one of them in each event."""

EVENTS, HISTORY, TASK, ARTIFACT, RPC, SAID = "events", "history", "task", "artifact", "rpc", "message"
"""Bag keys: kept events and the task's history, fields and JSON-RPC envelope (the response's);
an artifact's fields and a status message's (a part's)."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each event as it arrives, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        self.position = -1
        self.started = False
        self.finished = False
        self.failed = False
        self.next_index = 0
        self.task: dict[str, Any] | None = None
        self.texts: dict[str, tuple[PartBuilder, int, dict[str, Any]]] = {}
        """Each artifact's open text part, by its ``artifactId``."""
        self.kept: list[dict[str, Any]] = []

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read events into the builder (the whole stream, for ``accumulate_stream``)."""
        for event in events:
            self.position += 1
            read_event(self._read, event, self.position)

    def close(self) -> list[AnyStreamRecord]:
        """Close what is still open, give the kept events, and say whether the stream ended."""
        self._close_texts()
        self._give_kept()
        if self.finished:
            self.builder.end()
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    # --- one event -------------------------------------------------------------------------------

    def _read(self, payload: object) -> None:
        event = as_dict(payload)
        if event is None:
            raise StreamError("an A2A stream event is an object", "$", self.position)
        if self.failed:
            self.kept.append(dict(event))
            return
        rpc: dict[str, Any] = {}
        prefix = "$"
        if "jsonrpc" in event:
            if event.get("error") is not None:
                self._rpc_error(event)
                return
            rpc = {key: event[key] for key in ("jsonrpc", "id") if key in event}
            event = as_dict(event.get("result")) or {}
            prefix = "$.result"
        kinds = [kind for kind in KINDS if kind in event]
        if len(kinds) != 1 or len(event) != 1:
            why = "a StreamResponse holds exactly one of task, message, statusUpdate, artifactUpdate"
            raise StreamError(why, prefix, self.position)
        kind = kinds[0]
        body = as_dict(event[kind])
        if body is None:
            raise StreamError(f"{kind}: an object", f"{prefix}.{kind}", self.position)
        if self.finished:  # a last task snapshot, after the state that ended the stream
            self.kept.append(dict(event))
            return
        try:
            self._payload(kind, body, rpc)
        except ValueError as error:
            raise StreamError(str(error), f"{prefix}.{kind}", self.position) from None

    def _payload(self, kind: str, body: dict[str, Any], rpc: dict[str, Any]) -> None:
        if kind == "message":
            check_message(body, "the message")
            if body["role"] != AGENT:
                raise ValueError(f"the message: a stream's message is the agent's ({AGENT})")
            self._start(rpc, body.get("messageId") if not self.started else None)
            self._wholes(body["parts"], {})
            extra = leftovers(body, ("role", "parts", *(() if self.started and self.task else ("messageId",))))
            if extra:
                self.builder.choice_data(0, message_metadata={PROVIDER: extra})
            self._finish("TASK_STATE_COMPLETED", {"unified": "stop"})
        elif kind == "task":
            self._task(body, rpc)
        elif kind == "artifactUpdate":
            self._start(rpc)
            self._artifact(body)
        else:
            self._start(rpc)
            self._status(body)

    def _start(self, rpc: dict[str, Any], response_id: object = None, bag: dict[str, Any] | None = None) -> None:
        if self.started:
            return
        self.started = True
        metadata = {**({RPC: rpc} if rpc else {}), **(bag or {})}
        identified = response_id if isinstance(response_id, str) else None
        self.builder.start(id=identified, metadata={PROVIDER: metadata} if metadata else None)

    def _next(self) -> int:
        index = self.next_index
        self.next_index += 1
        return index

    # --- a task and its updates ------------------------------------------------------------------

    def _task(self, task: dict[str, Any], rpc: dict[str, Any]) -> None:
        status = as_dict(task.get("status")) or {}
        state = status.get("state")
        if not isinstance(state, str) or state not in TASK_STATES:
            raise ValueError("the task's status.state: a TaskState name (TASK_STATE_WORKING...)")
        if self.task is not None:  # a snapshot before the end: what it says came in its updates
            self.kept.append({"task": dict(task)})
            return
        own = {key: value for key, value in task.items() if key not in ("history", "artifacts", "status")}
        own["status"] = {key: value for key, value in status.items() if key != "message"}
        self.task = dict(own)
        task_id = own.pop("id", None)  # the answer's id, as a message's messageId is
        kept = {key: value for key, value in own.items() if MADE_UP_TASK.get(key) != value}
        bag: dict[str, Any] = {TASK: kept} if kept else {}
        history = as_list(task.get("history"))
        if history:
            bag[HISTORY] = history
        self._start(rpc, task_id if task_id != MADE_UP_TASK["id"] else None, bag)
        said = as_dict(status.get("message"))
        if said is not None:
            self._said(said, "the task's status.message")
        for index, artifact in enumerate(as_list(task.get("artifacts")) or []):
            self._artifact({"artifact": artifact, "lastChunk": True}, f"the task's artifacts[{index}]")
        if state in FINISHES:
            self._finish(state, {"unified": FINISHES[state]})

    def _status(self, update: dict[str, Any]) -> None:
        status = as_dict(update.get("status"))
        state = None if status is None else status.get("state")
        if status is None or not isinstance(state, str) or state not in TASK_STATES:
            raise ValueError("statusUpdate.status.state: a TaskState name (TASK_STATE_WORKING...)")
        said = as_dict(status.get("message"))
        if said is not None:
            self._said(said, "statusUpdate.status.message")
        if state in FINISHES:
            self._close_texts()
            self._finish(state, {"unified": FINISHES[state]}, self._update_bag(update, status))
        elif said is None:
            self.kept.append({"statusUpdate": dict(update)})  # a working state, a timestamp: said as it came
        elif self._update_bag(update, status):
            self.kept.append({"statusUpdate": {**update, "status": {**status, "message": None}}})

    def _update_bag(self, update: dict[str, Any], status: dict[str, Any]) -> dict[str, Any]:
        """What a status update holds beyond its task's ids, its state and its message."""
        bag = {key: value for key, value in update.items() if key != "status" and not self._own(key, value)}
        extra = {key: value for key, value in status.items() if key not in ("state", "message")}
        if extra:
            bag["status"] = extra
        return bag

    def _own(self, key: str, value: object) -> bool:
        """Whether ``key`` of an update is its task's own id (``taskId``, ``contextId``)."""
        task = self.task or {}
        return (key == "taskId" and value == task.get("id")) or (key == "contextId" and value == task.get("contextId"))

    def _said(self, message: dict[str, Any], where: str) -> None:
        """An agent's word in a status: its parts, whole; its own fields kept with the parts."""
        check_message(message, where)
        if message["role"] != AGENT:
            raise ValueError(f"{where}: a status message in a stream is the agent's ({AGENT})")
        fields = leftovers(message, ("role", "parts"))
        self._wholes(message["parts"], {SAID: fields} if fields else {})

    def _wholes(self, parts: list[Any], bag: dict[str, Any]) -> None:
        for part in parts:
            canonical = decode_part(part, agent=True)
            self._whole(canonical, bag)

    def _whole(self, canonical: dict[str, Any], bag: dict[str, Any]) -> None:
        metadata = {PROVIDER: bag} if bag else None
        self.builder.whole(PartRecord(index=self._next(), part=canonical, provider_metadata=metadata))

    # --- artifacts -------------------------------------------------------------------------------

    def _artifact(self, update: dict[str, Any], where: str = "artifactUpdate.artifact") -> None:
        artifact = as_dict(update.get("artifact"))
        if artifact is None:
            raise ValueError(f"{where}: an object")
        check_parts(artifact.get("parts"), where)
        artifact_id = artifact.get("artifactId", "")
        if not isinstance(artifact_id, str):
            raise ValueError(f"{where}.artifactId: a string")
        fields = leftovers(artifact, ("parts",))
        fields.update({key: value for key, value in update.items() if key not in ("artifact", "append", "lastChunk")})
        fields = {key: value for key, value in fields.items() if not self._own(key, value)}
        appending = update.get("append") is True
        if not appending:
            self._close_text(artifact_id)
        for part in artifact["parts"]:
            if isinstance(part.get("text"), str):
                self._text(artifact_id, part["text"], fields, leftovers(part, ("text",)))
            else:
                self._close_text(artifact_id)
                index = self._next()
                kept = _without_made_up_id(fields, index)
                canonical = decode_part(part, agent=True)
                self.builder.whole(PartRecord(index=index, part=canonical, provider_metadata=_artifact_bag(kept)))
        if update.get("lastChunk") is True:
            self._close_text(artifact_id)

    def _text(self, artifact_id: str, text: str, fields: dict[str, Any], extra: dict[str, Any]) -> None:
        """A text chunk: a new text part of the artifact, or the next piece of its open one; the
        artifact's fields and the part's own (``metadata``...) in the part's bag as they come."""
        opened = self.texts.get(artifact_id)
        if opened is None:
            index = self._next()
            metadata = _artifact_bag(_without_made_up_id(fields, index))
            opened = self.texts[artifact_id] = (self.builder.open_text(0, index, metadata), index, fields)
        elif not fields.items() <= opened[2].items():  # the artifact's name or description, sent later
            merged = {**opened[2], **fields}
            self.builder.delta(opened[0], "", _artifact_bag(_without_made_up_id(merged, opened[1])))
            self.texts[artifact_id] = (*opened[:2], merged)
        if text or extra:
            self.builder.delta(opened[0], text, {PROVIDER: extra} if extra else None)

    def _close_text(self, artifact_id: str) -> None:
        opened = self.texts.pop(artifact_id, None)
        if opened is not None:
            self.builder.close(opened[0])

    def _close_texts(self) -> None:
        for artifact_id in list(self.texts):
            self._close_text(artifact_id)

    # --- the end ---------------------------------------------------------------------------------

    def _finish(self, state: str, reason: dict[str, Any], bag: dict[str, Any] | None = None) -> None:
        self._close_texts()
        self._give_kept()
        self.builder.finish(0, {**reason, "raw": state}, {PROVIDER: bag} if bag else None)
        self.finished = True

    def _rpc_error(self, event: dict[str, Any]) -> None:
        error = as_dict(event["error"]) or {}
        message = error.get("message")
        if not isinstance(message, str):
            raise StreamError("a JSON-RPC error: a message (a string)", "$.error.message", self.position)
        self._start({key: event[key] for key in ("jsonrpc", "id") if key in event})
        self._close_texts()
        self._give_kept()
        code = error.get("code")
        self.builder.error(ErrorRecord(message=message, error_type=None if code is None else str(code), body=event))
        self.failed = True
        self.builder.end()

    def _give_kept(self) -> None:
        if self.kept and self.started:
            self.builder.choice_data(0, message_metadata={PROVIDER: {EVENTS: self.kept}})
            self.kept = []


def _without_made_up_id(fields: dict[str, Any], index: int) -> dict[str, Any]:
    """An artifact's fields, without the id a writer made up for the part at ``index``."""
    if fields.get("artifactId") == made_up_artifact_id(index):
        return {key: value for key, value in fields.items() if key != "artifactId"}
    return fields


def _artifact_bag(fields: dict[str, Any]) -> dict[str, Any] | None:
    return {PROVIDER: {ARTIFACT: fields}} if fields else None
