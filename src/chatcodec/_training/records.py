"""A gateway's recorded turns (``chatcodec serve --record PATH``) read back as episodes.

The gateway writes one JSON line per model turn, the moment the turn ends, with the session
its caller named, the ids the sampler was prompted with and sampled, their logprobs, and the
canonical messages and tools the turn saw. Reading gives the same :class:`SampledTurn` a
rendering gives, grouped by session, so a recorded episode goes on to the trainer as a
rendered one does. The line's shape lives here, beside its reader, so the writer and the
reader share one list of fields.

A line is written whole by one ``write`` call on a file opened for appending, so a process
that dies mid-write leaves at most its last line unfinished (no newline): the reader reports
that line and reads the rest. Any other line that is not a record is an error naming its
line, never skipped: a file edited by hand or two writers interleaved is not silently
trusted.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pydantic_core

from chatcodec._errors import PayloadError
from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._public_label import shown_as
from chatcodec._training.tokens import ids_fault
from chatcodec._training.turns import SampledTurn

RECORD_VERSION = 1
"""The ``record`` field of every line: the shape's version, raised when a field changes meaning."""
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
) -> bytes:
    """One turn as the JSON line the file holds (ending in a newline)."""
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
    if error is not None:
        line["error"] = error
    if prompt_break is not None:
        line["prompt_break"] = prompt_break
    if parent_turn is not None:
        line["parent_turn"] = parent_turn
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
        if not isinstance(item, int | float) or isinstance(item, bool) or not math.isfinite(item):
            return f"logprobs[{position}] is {item!r}: a logprob is a finite number"
    if len(items) != len(completion_ids):
        return f"{len(items)} logprobs for {len(completion_ids)} completion ids (one each)"
    return None


def read_records(
    path: str | os.PathLike[str], *, on_loss: OnLoss = "warn", losses: list[Loss] | None = None
) -> dict[str, list[SampledTurn]]:
    """The turns a gateway recorded in ``path`` (``chatcodec serve --record PATH``), by session,
    each session's in turn order.

    A turn's :attr:`~SampledTurn.message_index` is the number of messages it saw (the answer
    follows them). Turns that did not complete (a caller that went away, an upstream error)
    and an unfinished last line (a writer that died mid-line) are left out, each reported as a
    loss naming its line; ``on_loss`` and ``losses`` work as in
    :func:`~chatcodec.convert_request`. A line that is no record is a
    :class:`~chatcodec.PayloadError` naming it.
    """
    recorder = LossRecorder()
    sessions: dict[str, list[tuple[int, int, SampledTurn]]] = {}
    with open(path, "rb") as file:  # read a line at a time: a long run's file need not fit in memory
        for number, raw in enumerate(file, start=1):
            if not raw.endswith(b"\n"):  # the last line, which a crash cut short
                if raw.strip():
                    recorder.add(
                        f"line {number}",
                        "an unfinished last line",
                        "its writer stopped before the line's end (a crash mid-write); the lines before it are whole",
                    )
                break
            if not raw.strip():
                continue
            record = _record(raw, number)
            if record["status"] != COMPLETE:
                why = str(record.get("error") or "the turn did not complete")
                what = f"{record['status']} turn {record['turn']} of {record['session']!r}"
                recorder.add(f"line {number}", what, why)
                continue
            sessions.setdefault(record["session"], []).append((record["turn"], number, _turn(record, number)))
    recorder.settle(on_loss, losses, stacklevel=3)
    return {session: [turn for _, _, turn in sorted(turns, key=_order)] for session, turns in sessions.items()}


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


def _record(raw: bytes, number: int) -> dict[str, Any]:
    where = f"line {number}"
    try:
        record = json.loads(raw)
    except ValueError as error:
        raise PayloadError(f"not JSON ({error}); only the last line may be unfinished", where) from None
    if not isinstance(record, dict):
        raise PayloadError(f"a record is a JSON object, not {type(record).__name__}", where)
    record = cast("dict[str, Any]", record)
    if record.get("record") != RECORD_VERSION:
        raise PayloadError(
            f"not a chatcodec turn record of version {RECORD_VERSION}: 'record' is {record.get('record')!r}", where
        )
    for key, kind in _REQUIRED.items():
        value = record.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise PayloadError(f"{key!r} must be {_kind_name(kind)}, not {json.dumps(value)[:40]}", f"{where}.{key}")
    return record


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", list: "a list", type(None): "null"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names[item] for item in kinds)


def _turn(record: dict[str, Any], number: int) -> SampledTurn:
    """A complete record's turn: its ids token ids, its logprobs finite numbers, one per completion id."""
    where = f"line {number}"
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
