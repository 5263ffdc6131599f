"""An A2A ``Task`` <-> the conversation it holds.

A task is read as its ``history`` (the messages exchanged, in order), then its status's
``message`` (the agent's latest word, not yet in the history: marked ``_status``), then each
of its ``artifacts`` (the agent's outputs) as an agent's message of the artifact's parts, the
artifact's other fields in its bag (``artifact``). The task's own fields (``id``,
``contextId``, ``status`` without its message, ``metadata``) ride in the request's bag, marked
``_task``, so a task read and written again is the same task; another format reports them.
Source: ``message Task``, ``TaskStatus`` and ``Artifact`` in ``specification/a2a.proto``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chatcodec._frameworks.a2a.markers import ARTIFACT, DISPLAY, EMPTY, KIT, STATUS, TASK
from chatcodec._frameworks.a2a.messages import TAG, decode_message, default_id, with_id
from chatcodec._frameworks.a2a.wire import TASK_STATES, check_artifact, check_message
from chatcodec.codec_kit import as_dict, as_list, leftovers, validate_with
from chatcodec.contract import EncodeContext

if TYPE_CHECKING:
    from pydantic import TypeAdapter

TITLE = f"{DISPLAY} task"
TASK_KEYS = ("history", "artifacts", "status")
"""A task's fields that hold its conversation (a payload without ``messages`` holding one is a task)."""
_ORDER = ("id", "contextId", "status", "artifacts", "history", "metadata")
"""A task's fields in ``a2a.proto``'s order."""

_adapters: list[TypeAdapter[Any]] = []


def _checked_status(status: dict[str, Any]) -> dict[str, Any]:
    if status.get("state") not in TASK_STATES:
        raise ValueError("a task's status.state: a TaskState name (TASK_STATE_COMPLETED...)")
    if status.get("message") is not None:
        said = as_dict(status["message"])
        if said is None:
            raise ValueError("a task's status.message: an object")
        check_message(said, "a task's status.message")
    if status.get("timestamp") is not None and not isinstance(status["timestamp"], str):
        raise ValueError("a task's status.timestamp: an ISO 8601 text")
    return status


def _checked_artifact(artifact: dict[str, Any]) -> dict[str, Any]:
    check_artifact(artifact, "an artifact")
    return artifact


def validated_task(payload: object) -> dict[str, Any]:
    """``payload`` checked as a ``Task`` A2A takes, a refusal named at its path (``$.history[2]``).
    Built on first use, so importing the codec loads no pydantic."""
    if not _adapters:
        from typing import Annotated, NotRequired

        from pydantic import AfterValidator, TypeAdapter
        from typing_extensions import TypedDict

        class Task(TypedDict):
            id: str
            contextId: NotRequired[str]
            status: Annotated[dict[str, Any], AfterValidator(_checked_status)]
            artifacts: NotRequired[list[Annotated[dict[str, Any], AfterValidator(_checked_artifact)]]]
            history: NotRequired[list[Annotated[dict[str, Any], AfterValidator(check_message)]]]
            metadata: NotRequired[dict[str, Any]]

        _adapters.append(TypeAdapter(Task))
    checked = as_dict(validate_with(_adapters[0], payload, TITLE))
    assert checked is not None
    return checked


def decode_task(payload: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A checked task's conversation, and the request's bag (the task's own fields)."""
    task = validated_task(payload)
    history: list[Any] = task.get("history") or []
    messages = [decode_message(message, default_id(index)) for index, message in enumerate(history)]
    status = dict(task["status"])
    said = as_dict(status.pop("message", None))
    if said is not None:
        message = decode_message(said, default_id(len(history)))
        message["provider_metadata"] = {KIT.name: {**KIT.own(message.get("provider_metadata")), STATUS: True}}
        messages.append(message)
    for each in as_list(task.get("artifacts")) or []:
        artifact = as_dict(each) or {}
        from_artifact = decode_message({"role": "ROLE_AGENT", "parts": artifact["parts"]}, "")
        from_artifact["provider_metadata"] = {KIT.name: {ARTIFACT: leftovers(artifact, ("parts",))}}
        messages.append(from_artifact)
    bag = {TASK: True, **leftovers(task, ("history", "artifacts")), "status": status}
    empty = [key for key in ("history", "artifacts") if key in task and not task[key]]
    if empty:
        bag[EMPTY] = empty
    return messages, {key: bag[key] for key in (TASK, *_ORDER, *bag) if key in bag}


def encode_task(
    written: Sequence[dict[str, Any]], fields: Mapping[str, Any], empty: object, context: EncodeContext
) -> dict[str, Any]:
    """A task of the ``written`` messages (each tagged, :data:`~.messages.TAG`) and the task's
    ``fields`` (the request's bag's, ``empty`` its lists given empty); a model, which a task
    does not name, is a loss."""
    task: dict[str, Any] = {key: value for key, value in fields.items() if key != "model"}
    if fields.get("model") is not None:
        context.losses.add(("model",), "model", f"an {DISPLAY} task names no model", "metadata")
    task.setdefault("id", "task-1")
    status: dict[str, Any] = dict(as_dict(task.get("status")) or {"state": "TASK_STATE_COMPLETED"})
    history: list[dict[str, Any]] = []
    artifacts: list[dict[str, Any]] = []
    said: list[dict[str, Any]] = []
    for each in written:
        wire = dict(each)
        place, index, kept = wire.pop(TAG)
        if place == ARTIFACT:
            artifacts.append(_artifact(wire, as_dict(kept) or {}, index, context))
        elif place == STATUS and not said:
            said.append(wire)
        else:
            history.append(wire)
    history = [with_id(message, index) for index, message in enumerate(history)]
    if said:
        status["message"] = with_id(said[0], len(history))
    task["status"] = status
    given = as_list(empty) or []
    if artifacts or "artifacts" in given:
        task["artifacts"] = artifacts
    if history or "history" in given:
        task["history"] = history
    return {key: task[key] for key in (*_ORDER, *task) if key in task}


def _artifact(wire: dict[str, Any], kept: Mapping[str, Any], index: int, context: EncodeContext) -> dict[str, Any]:
    """An artifact of a message's parts and its ``kept`` fields; the message's own fields are lost."""
    for key, value in wire.items():
        if key not in ("role", "parts") and value is not None:
            why = f"an {DISPLAY} artifact has no {key}"
            context.losses.add(("messages", index, "provider_metadata", KIT.name, key), key, why, "metadata")
    artifact: dict[str, Any] = {"artifactId": f"artifact-{index + 1}", **kept, "parts": wire["parts"]}
    order = ("artifactId", "name", "description", "parts", "metadata", "extensions")
    return {key: artifact[key] for key in (*order, *artifact) if key in artifact}


def unplaced(written: Sequence[dict[str, Any]], context: EncodeContext) -> list[dict[str, Any]]:
    """``written`` as a message list (no task): each tag taken off, and an artifact's fields,
    which a message has no place for, reported."""
    listed: list[dict[str, Any]] = []
    for position, each in enumerate(written):
        wire = dict(each)
        place, index, _ = wire.pop(TAG)
        if place == ARTIFACT:
            why = f"an {DISPLAY} message list holds no artifacts (a task does)"
            context.losses.add(
                ("messages", index, "provider_metadata", KIT.name, ARTIFACT), "artifact", why, "metadata"
            )
        listed.append(with_id(wire, position))
    return listed
