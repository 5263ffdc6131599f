"""Beside step 8: the turn recorded (``--record PATH``): the ids the model was prompted with
and sampled, their logprobs, and what the turn saw, one line of the turn file
(:mod:`chatcodec.serve._turn_records`) written when the turn ends, however it ends.

A turn is begun at :mod:`.fit` (:func:`begun`), where the upstream body is written: an
upstream server that renders the template itself is asked for the ids there (its edge's
:class:`~chatcodec.contract.SampledIds`: vLLM's ``return_token_ids`` and
``logprobs``), and :mod:`.answer` or :mod:`.stream` hand the answer's fields (or each stream
chunk) to :meth:`TurnRecording.take`, which takes the ids out before the answer is
converted: the caller gets the answer it asked for, and no loss is reported for fields it
never asked for. Where chatcodec renders the template (:mod:`chatcodec.serve._token_upstream`)
the ids are its own. The line is written by :func:`recorded`: the turn complete, its caller
gone (``cancelled``) or its upstream failed mid-answer (``error``). A line is one
:func:`~chatcodec.read_records` reads: ids that are not the sampler's (missing, unreadable,
out of range) make the turn an ``error`` saying so, by the reader's own rule, and logprobs
that cannot stand beside them are ``null``. A caller that asked for the ids itself
(``return_token_ids``) gets them back where its server writes them. A file that cannot take
the line is reported as the store's failures are (:mod:`.keep`), never in the answer's place.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread

from chatcodec._registry import get_edge
from chatcodec._training.gateway import (
    COMPLETE,
    LineBase,
    delta_fields,
    ids_unreadable,
    logprobs_unreadable,
    record_line,
)
from chatcodec.contract import SampledIds
from chatcodec.serve._config import Route as UpstreamRoute
from chatcodec.serve._fronts import front
from chatcodec.serve._request_log import LOGGER, RequestRecord
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS
from chatcodec.serve._turn_records import RecordError, parent_of, session_of

CANCELLED = "cancelled"
"""The status of a turn whose caller went away before its answer was complete."""
FAILED = "error"
"""The status of a turn whose upstream failed before its answer was complete."""


@dataclass
class TurnRecording:
    """One turn on its way to the turn file: what it saw, and the ids gathered so far."""

    session: str
    turn: int
    """The number of assistant messages the turn saw: its place in a linear episode."""
    request_id: str
    model: str
    upstream: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    reports: SampledIds | None
    """How the upstream server reports the ids (None: chatcodec rendered them)."""
    caller_logprobs: bool = False
    """Whether the caller asked for logprobs itself (then its answer keeps them)."""
    caller_ids: bool = False
    """Whether the caller asked for the ids itself (``return_token_ids``: then its answer keeps them)."""
    prompt_ids: list[int] | None = None
    completion_ids: list[int] = field(default_factory=lambda: [])
    logprobs: list[float] | None = None
    finish_reason: str | None = None
    prompt_break: str | None = None
    """Why the prompt is a fresh rendering rather than the previous turn's extended (chatcodec renders)."""
    parent_turn: str | None = None
    """The request id of the earlier turn a retry or a branch reuses or extends (chatcodec renders)."""
    unreported: str | None = None
    """Why the upstream was not asked for the ids (its server reports none on a stream)."""
    vocabulary: int | None = None
    """The tokenizer's vocabulary size, where the server holds one (chatcodec renders): an id
    past it is no id the model has."""
    unreadable: str | None = None
    """What the answer held in an id field that is no list of ids (its field named)."""
    parent: str | None = None
    """The session this one is a subagent of, as its caller named it (the line's ``parent``)."""
    own_model: bool = False
    """Whether the upstream is an inference server whose sampled ids the gateway records (the
    gateway's own model, which signs no reasoning: :mod:`chatcodec.serve._own_reasoning`)."""
    _logprobs_missing: bool = False

    def asking(self, body: dict[str, Any]) -> dict[str, Any]:
        """The upstream ``body`` asking for the ids (the caller's own logprobs noted first)."""
        if self.reports is None:
            return body
        self.caller_logprobs = body.get("logprobs") is True
        self.caller_ids = any(body.get(name) is True for name in self.reports.asks if name != "logprobs")
        return {**body, **dict.fromkeys(self.reports.asks, True)}

    def take(self, fields: Mapping[str, Any]) -> None:
        """The ids of an answer's ``fields`` (or of one stream chunk), taken out of them."""
        if self.reports is None or not isinstance(fields, dict):
            return
        taken = self.reports.take(fields, self.caller_logprobs)
        self.unreadable = self.unreadable or taken.unreadable
        if self.caller_ids and self.reports.give_back is not None and taken.unreadable is None:
            self.reports.give_back(fields, taken)
        if taken.prompt_ids is not None and self.prompt_ids is None:
            self.prompt_ids = taken.prompt_ids
        if taken.completion_ids:
            self.completion_ids.extend(taken.completion_ids)
            if taken.logprobs is None or len(taken.logprobs) != len(taken.completion_ids):
                self._logprobs_missing = True
            else:
                self.logprobs = [*(self.logprobs or []), *taken.logprobs]
        if taken.finish_reason is not None:
            self.finish_reason = taken.finish_reason

    def settled(self, status: str, error: str | None) -> tuple[str, str | None]:
        """The turn's status and error as its line says them: a turn whose ids are not the
        sampler's (missing, unreadable, out of range) is an ``error`` saying what was wrong,
        never ``complete``."""
        if status == COMPLETE:
            why = self._unrecordable()
            if why is not None:
                return FAILED, why
        return status, error

    def line(self, status: str, error: str | None, base: LineBase | None = None) -> bytes:
        """The turn as its line of the turn file, its ``status`` and ``error`` :meth:`settled`:
        a line :func:`~chatcodec.read_records` reads. A complete turn after ``base`` (its
        session's last complete line this gateway wrote) holds only what is new since it
        (:func:`~chatcodec._training.record_deltas.delta_fields`); logprobs that cannot stand
        beside the ids are ``null``."""
        delta = None
        if status == COMPLETE and base is not None and self.prompt_ids is not None:
            delta = delta_fields(base, self.messages, self.prompt_ids, self.tools)
        logprobs = self.logprobs
        if self._logprobs_missing or (logprobs is not None and logprobs_unreadable(logprobs, self.completion_ids)):
            logprobs = None
        return record_line(
            session=self.session,
            turn=self.turn,
            request_id=self.request_id,
            model=self.model,
            upstream=self.upstream,
            status=status,
            messages=self.messages,
            tools=self.tools,
            prompt_ids=self.prompt_ids,
            completion_ids=self.completion_ids,
            logprobs=logprobs,
            finish_reason=self.finish_reason,
            error=error,
            prompt_break=self.prompt_break,
            parent_turn=self.parent_turn,
            parent=self.parent,
            delta=delta,
        )

    def base(self) -> LineBase:
        """What the session's next line may extend, once this complete turn's line is written."""
        ids = array("q", self.prompt_ids or [])  # eight bytes an id: a gateway keeps one for each of many sessions
        ids.extend(self.completion_ids)
        return LineBase(self.request_id, self.messages, ids, self.tools)

    def _unrecordable(self) -> str | None:
        """Why the turn's ids cannot be recorded as a complete turn's, or None."""
        answer = f"the {self.upstream} upstream's answer"
        if self.unreadable is not None:
            return f"{answer} held no token ids where they belong: {self.unreadable}"
        if self.prompt_ids is None:
            return self.unreported or f"{answer} carried no prompt ids"
        if not self.completion_ids:
            return f"{answer} carried no completion ids"
        fault = ids_unreadable(self.prompt_ids, self.completion_ids, self.vocabulary)
        return None if fault is None else f"{answer}'s {fault[0]}: {fault[1]}"


def reports(server: Server, route: UpstreamRoute, *, stream: bool) -> SampledIds | None:
    """How ``route``'s upstream server reports the ids, for a call streamed or not (None: not
    on such a call, or chatcodec renders: the config refused a route that never does)."""
    if route.upstream in TOKEN_UPSTREAMS:
        return None
    side = get_edge(route.upstream).upstream
    named = server.writer_options(route).get("server")
    found = None if side is None or not isinstance(named, str) else side.sampled_ids.get(named)
    return None if found is None or (stream and not found.streams) else found


def own_model(server: Server, route: UpstreamRoute) -> bool:
    """Whether ``route``'s upstream is an inference server whose sampled ids the gateway records:
    the gateway's own model, which signs no reasoning (:mod:`chatcodec.serve._own_reasoning`)."""
    return reports(server, route, stream=False) is not None


def replays(server: Server, route: UpstreamRoute, api: str) -> bool:
    """Whether a streamed call to ``route`` asks for a plain answer, replayed as the ``api``
    front's stream (:mod:`.replay`): its server reports the ids only on a plain answer
    (SGLang), and the front keeps no answer of its own (a Responses front's kept answer is
    written from the stream it relayed; there the turn stays unrecorded, said so)."""
    return front(api).answering is None and _unreported(server, route, stream=True) is not None


def _unreported(server: Server, route: UpstreamRoute, *, stream: bool) -> str | None:
    """Why a streamed call to ``route`` is not asked for the ids, where its server reports them
    only on a plain answer (SGLang)."""
    named = server.writer_options(route).get("server")
    if not stream or route.upstream in TOKEN_UPSTREAMS or reports(server, route, stream=True) is not None:
        return None
    if reports(server, route, stream=False) is not None:
        return f"the {named} server reports token ids only on a plain answer, not on a stream"
    return None


def begun(
    server: Server,
    canonical: Mapping[str, Any],
    route: UpstreamRoute,
    model: str,
    headers: Mapping[str, str],
    *,
    record: RequestRecord,
    stream: bool,
) -> TurnRecording:
    """The recording of the turn ``canonical`` asks for (a server that records turns)."""
    messages: list[dict[str, Any]] = list(canonical.get("messages") or [])
    return TurnRecording(
        session=session_of(headers, record.request_id),
        turn=sum(1 for message in messages if message.get("role") == "assistant"),
        request_id=record.request_id,
        model=model,
        upstream=route.upstream,
        messages=messages,
        tools=list(canonical.get("tools") or []),
        reports=reports(server, route, stream=stream),
        unreported=_unreported(server, route, stream=stream),
        parent=parent_of(headers),
        own_model=own_model(server, route),
    )


async def recorded(
    server: Server, recording: TurnRecording, record: RequestRecord, *, status: str = COMPLETE, error: str | None = None
) -> None:
    """The turn's line written (a large one on a worker thread); a file that fails is
    reported on ``record`` (``store_error``), as the store's failures are."""
    turns = server.turns
    if turns is None:
        return
    status, error = recording.settled(status, error)
    complete = status == COMPLETE
    opened = turns.opened
    base = server.turn_chains.base(recording.session, opened) if complete else None
    line = recording.line(status, error, base)
    whole = None if base is None else lambda: recording.line(status, error)
    if record.span is not None:
        prompt = None if recording.prompt_ids is None else len(recording.prompt_ids)
        record.span.recorded_turn(
            recording.session, recording.turn, recording.parent, prompt, len(recording.completion_ids)
        )
    try:
        if turns.offloaded or len(line) > server.config.offload_bytes:
            written = await to_thread.run_sync(turns.append, line, whole, opened)
        else:
            written = turns.append(line, whole, opened)
    except RecordError as failure:
        record.store_error = str(failure)
        LOGGER.warning("a turn was answered but not recorded: %s", failure)
        return
    if complete:
        server.turn_chains.wrote(recording.session, recording.base(), written)


class StreamedTurn:
    """A streamed turn's end, recorded once: complete (``error`` None), failed, or its
    caller gone (``cancelled``)."""

    def __init__(self, server: Server, recording: TurnRecording, record: RequestRecord) -> None:
        self._server, self._recording, self._record = server, recording, record
        self._done = False

    async def ended(self, error: str | None, *, cancelled: bool = False) -> None:
        """Record the turn, unless it was recorded already."""
        if self._done:
            return
        self._done = True
        status = CANCELLED if cancelled else COMPLETE if error is None else FAILED
        await recorded(self._server, self._recording, self._record, status=status, error=error)
