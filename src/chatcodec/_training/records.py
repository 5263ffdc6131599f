"""A gateway's recorded turns (``chatcodec serve --record PATH``) read back as episodes.

The gateway writes one JSON line per model turn, the moment the turn ends, with the session
its caller named, the ids the sampler was prompted with and sampled, their logprobs, and the
canonical messages and tools the turn saw (a line after the session's last complete one holds
only what is new since it, :mod:`.record_deltas`, and is read whole). Reading gives the same :class:`SampledTurn` a
rendering gives, grouped by session, so a recorded episode goes on to the trainer as a
rendered one does. The line's shape lives here, beside its reader, so the writer and the
reader share one list of fields.

A line is written whole by one ``write`` call on a file opened for appending, so a process
that dies mid-write leaves at most its last line unfinished (no newline): the reader reports
that line and reads the rest. Any other line that is not a record (a file edited by hand,
a disk that corrupted a block) is a loss naming its line, never skipped silently, and the
lines after it are read: one bad line does not cost a run's records. A session's end (its
reward, ``POST /v1/sessions/{id}/complete``) is a line of its own (``"kind": "end"``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import pydantic_core

from chatcodec._errors import PayloadError
from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._public_label import shown_as
from chatcodec._training.record_deltas import Rebuilder
from chatcodec._training.record_lines import RECORD_VERSION, record_lines
from chatcodec._training.tokens import ids_fault, is_logprob
from chatcodec._training.turns import SampledTurn

COMPLETE = "complete"
"""A turn whose answer came whole; the other statuses (``cancelled``, ``error``) say why not."""


def record_line(
    *,
    session: str,
    turn: int,
    request_id: str,
    model: str | None,
    upstream: str,
    status: str,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]],
    prompt_ids: Sequence[int] | None,
    completion_ids: Sequence[int] | None,
    logprobs: Sequence[float] | None,
    finish_reason: str | None,
    error: str | None = None,
    prompt_break: str | None = None,
    parent_turn: str | None = None,
    parent: str | None = None,
    delta: Mapping[str, Any] | None = None,
) -> bytes:
    """One turn as the JSON line the file holds (ending in a newline); with ``delta``
    (:func:`~chatcodec._training.record_deltas.delta_fields`), a line that extends an earlier
    one of its session holds those fields in place of ``messages``, ``prompt_ids`` and ``tools``."""
    line: dict[str, Any] = {
        "record": RECORD_VERSION,
        "session": session,
        "turn": turn,
        "request_id": request_id,
        "model": model,
        "upstream": upstream,
        "status": status,
        "finish_reason": finish_reason,
        "prompt_ids": None if prompt_ids is None else list(prompt_ids),
        "completion_ids": None if completion_ids is None else list(completion_ids),
        "logprobs": None if logprobs is None else list(logprobs),
        "messages": list(messages),
        "tools": list(tools),
    }
    if delta is not None:
        del line["prompt_ids"], line["messages"], line["tools"]
        line.update(delta)
    if error is not None:
        line["error"] = error
    if prompt_break is not None:
        line["prompt_break"] = prompt_break
    if parent_turn is not None:
        line["parent_turn"] = parent_turn
    if parent is not None:
        line["parent"] = parent
    return pydantic_core.to_json(line) + b"\n"  # pydantic-core writes a long id list cheaper than json.dumps


def ids_unreadable(prompt_ids: object, completion_ids: object, vocabulary: int | None = None) -> tuple[str, str] | None:
    """Why a complete turn's ids cannot stand in a record, as ``(field, rule)``
    (``completion_ids[3]``), or None: the rule :func:`read_records` reads a line with
    (:func:`~chatcodec._training.tokens.ids_fault`: integers from 0 to 2**63-1, below
    ``vocabulary`` where the writer knows the tokenizer), which the gateway checks before it
    writes a line ``complete``."""
    for key, ids in (("prompt_ids", prompt_ids), ("completion_ids", completion_ids)):
        fault = ids_fault(ids, vocabulary)
        if fault is not None:
            return key + fault[0], fault[1]
    return None


def logprobs_unreadable(logprobs: object, completion_ids: Sequence[object]) -> str | None:
    """Why ``logprobs`` cannot stand beside ``completion_ids`` in a record, or None: finite
    numbers (JSON holds no infinity: the writer would write ``null``), one per id. A writer
    records ``null`` logprobs in their place, a reader refuses the line."""
    if not isinstance(logprobs, list):
        return f"logprobs are a list of numbers, not {json.dumps(logprobs)[:40]}"
    items = cast("list[object]", logprobs)
    for position, item in enumerate(items):
        if not is_logprob(item):
            return f"logprobs[{position}] is {item!r}: a logprob is a finite number"
    if len(items) != len(completion_ids):
        return f"{len(items)} logprobs for {len(completion_ids)} completion ids (one each)"
    return None


END = "end"
"""The ``kind`` of the line that ends a session (its reward and metadata); a turn's line has no ``kind``."""


def end_line(*, session: str, parent: str | None, reward: float, metadata: Mapping[str, Any]) -> bytes:
    """The line recording a session's end: the reward its trainer gave and the metadata beside it."""
    line = {
        "record": RECORD_VERSION,
        "kind": END,
        "session": session,
        "parent": parent,
        "reward": reward,
        "metadata": dict(metadata),
    }
    return pydantic_core.to_json(line) + b"\n"


def _end(record: dict[str, Any], where: str) -> str:
    """The session an end line closes (a :class:`PayloadError` where the line is no end)."""
    session, reward, metadata = record.get("session"), record.get("reward"), record.get("metadata")
    if not isinstance(session, str):
        raise PayloadError("an end's 'session' is a string", f"{where}.session")
    if not isinstance(reward, int | float) or isinstance(reward, bool):
        raise PayloadError("an end's 'reward' is a number", f"{where}.reward")
    if not isinstance(metadata, dict):
        raise PayloadError("an end's 'metadata' is an object", f"{where}.metadata")
    return session


def read_records(
    path: str | os.PathLike[str], *, on_loss: OnLoss = "warn", losses: list[Loss] | None = None
) -> dict[str, list[SampledTurn]]:
    """The turns a gateway recorded in ``path`` (``chatcodec serve --record PATH``, a file or a
    directory of shards), by session, each session's in turn order.

    A turn's :attr:`~SampledTurn.message_index` is the number of messages it saw (the answer
    follows them). Turns that did not complete (a caller that went away, an upstream error),
    an unfinished last line (a writer that died mid-line) and any line that is no turn record
    are left out, each reported as a loss naming its line, and the other lines are read;
    ``on_loss`` and ``losses`` work as in :func:`~chatcodec.convert_request`. The lines are
    read one at a time: memory holds the turns, never the file.
    """
    recorder = LossRecorder()
    found = recorded_sessions(path, recorder)
    recorder.settle(on_loss, losses, stacklevel=3)
    return found.turns


@dataclass
class Recorded:
    """What a record store holds, by session: the complete turns in turn order, each
    session's parent, and the end its trainer recorded (``POST /v1/sessions/{id}/complete``)."""

    turns: dict[str, list[SampledTurn]] = field(default_factory=lambda: {})
    parents: dict[str, str] = field(default_factory=lambda: {})
    ends: dict[str, dict[str, Any]] = field(default_factory=lambda: {})
    seen: dict[str, None] = field(default_factory=lambda: {})
    """Every session a line names, in the order first named (one whose turns all failed too)."""


def recorded_sessions(path: str | os.PathLike[str], recorder: LossRecorder) -> Recorded:
    """The store at ``path`` read once (the one reading :func:`read_records` and
    :func:`~chatcodec.read_episodes` share); each line that is not read a loss on ``recorder``."""
    found = Recorded()
    ordered: dict[str, list[tuple[int, int, SampledTurn]]] = {}
    rebuilder = Rebuilder()
    for number, (where, read) in enumerate(record_lines(path, recorder)):
        try:
            record = read if read.get("kind") == END else rebuilder.rebuilt(read, where)
            if record.get("kind") == END:
                session, parent = _end(record, where), record.get("parent")
                if session in found.ends:
                    recorder.add(where, f"a second end of {session!r}", "the first end recorded is kept")
                    continue
                found.ends[session] = record
            else:
                _checked(record, where)
                session, parent = record["session"], record.get("parent")
                if record["status"] != COMPLETE:
                    why = str(record.get("error") or "the turn did not complete")
                    recorder.add(where, f"{record['status']} turn {record['turn']} of {session!r}", why)
                else:
                    ordered.setdefault(session, []).append((record["turn"], number, _turn(record, where)))
        except (PayloadError, ValueError, TypeError, KeyError, OverflowError, RecursionError) as error:
            place = error.path if isinstance(error, PayloadError) else where
            detail = str(error).removeprefix(f"at {place}: ") if isinstance(error, PayloadError) else repr(error)
            recorder.add(place, "a line that is no record", f"{detail}; the other lines are read")
            continue
        found.seen.setdefault(session)
        if isinstance(parent, str) and parent:
            found.parents.setdefault(session, parent)
    found.turns = {session: [turn for _, _, turn in sorted(turns, key=_order)] for session, turns in ordered.items()}
    return found


def _order(entry: tuple[int, int, SampledTurn]) -> tuple[int, int]:
    return entry[0], entry[1]


_REQUIRED: Mapping[str, type | tuple[type, ...]] = {
    "session": str,
    "turn": int,
    "status": str,
    "messages": list,
    "prompt_ids": (list, type(None)),
    "completion_ids": (list, type(None)),
    "logprobs": (list, type(None)),
}


def _checked(record: dict[str, Any], where: str) -> None:
    """A turn line's fields of the types the reader reads (a :class:`PayloadError` naming the first that is not)."""
    for key, kind in _REQUIRED.items():
        value = record.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            shown = json.dumps(value)[:40] if value is None or isinstance(value, str | int | float) else _kind_of(value)
            raise PayloadError(f"{key!r} must be {_kind_name(kind)}, not {shown}", f"{where}.{key}")


def _kind_of(value: object) -> str:
    return type(value).__name__


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", list: "a list", type(None): "null"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names[item] for item in kinds)


def _turn(record: dict[str, Any], where: str) -> SampledTurn:
    """A complete record's turn: its ids token ids, its logprobs finite numbers, one per completion id."""
    prompt, completion, logprobs = record["prompt_ids"], record["completion_ids"], record["logprobs"]
    fault = ids_unreadable(prompt, completion)
    if fault is not None:
        raise PayloadError(f"a complete turn's ids are token ids: {fault[1]}", f"{where}.{fault[0]}")
    if logprobs is not None:
        why = logprobs_unreadable(logprobs, completion)
        if why is not None:
            raise PayloadError(why, f"{where}.logprobs")
        logprobs = [float(item) for item in logprobs]
    return SampledTurn(
        message_index=len(record["messages"]),
        prompt_ids=prompt,
        completion_ids=completion,
        logprobs=logprobs,
        prompt_break=_text(record, "prompt_break", where),
        parent_turn=_text(record, "parent_turn", where),
    )


def _text(record: Mapping[str, Any], key: str, where: str) -> str | None:
    """An optional string field of a record (absent or null: None)."""
    value = record.get(key)
    if value is not None and not isinstance(value, str):
        raise PayloadError(f"{key!r} is a string where it is written, not {json.dumps(value)[:40]}", f"{where}.{key}")
    return value


shown_as("chatcodec", read_records)
