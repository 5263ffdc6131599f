"""Step 7, a whole answer replayed as the front's stream: for a streamed call whose upstream
was asked for a plain answer, because its server reports the token ids to record only on a
plain answer (SGLang refuses ``return_token_ids`` on a stream: :func:`.record.replays`).

Why replay rather than record the turn as an ``error``: Claude Code and Codex always stream,
so through SGLang no turn of theirs would be recorded. The cost to the caller is its time to
the first token: the stream begins once the whole answer has come (the answer's own time),
then comes at once. The answer's events are the canonical ones a stream of the same answer
would carry (:func:`chatcodec.streams._replay.events_from_response`), written in the call's
own framing, with the request's credentials out of them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from starlette.responses import Response

from chatcodec._losses import LossRecorder
from chatcodec._model.response import ChatResponse
from chatcodec._providers.contract.framing import Framing
from chatcodec._registry import get_codec
from chatcodec.serve._deadlines import write_deadline_stream
from chatcodec.serve._request_log import RequestRecord
from chatcodec.serve._steps.fit import Fitted
from chatcodec.serve._steps.shared import Server
from chatcodec.streams._framing import WireEventWriter
from chatcodec.streams._replay import events_from_response


def replayed(
    server: Server, fitted: Fitted, answer: dict[str, Any], passed: dict[str, str], record: RequestRecord
) -> Response:
    """The canonical ``answer`` (a response's data, scrubbed) as the front's stream; the log
    line is written when the stream is."""
    front = server.config.api
    recorder = LossRecorder()
    events = events_from_response(ChatResponse.model_validate(answer))
    wire = get_codec(front).encode_stream(events, recorder, options=fitted.call.options)
    return written_stream(server, fitted.call.framing, wire, recorder, passed=passed, record=record)


def written_stream(
    server: Server,
    framing: Framing | None,
    wire: Iterator[dict[str, Any]],
    recorder: LossRecorder,
    *,
    passed: dict[str, str],
    record: RequestRecord,
) -> Response:
    """The front's ``wire`` events written in the call's own ``framing`` (Gemini's alt=sse)
    under the write deadline; its losses and the log line once it is written. Where chatcodec
    renders (:mod:`.sample`), every streamed answer is such a replay too."""
    writer = WireEventWriter(server.config.api, framing)
    body = _written(writer, wire, recorder, record)
    headers = {**passed, "cache-control": "no-cache"}
    limit = server.config.write_timeout
    return write_deadline_stream(body, writer.media_type, headers, write_timeout=limit, on_late=record.late)


async def _written(
    writer: WireEventWriter, wire: Iterator[dict[str, Any]], recorder: LossRecorder, record: RequestRecord
) -> AsyncIterator[bytes]:
    try:
        for event in wire:
            yield writer.write(event)
        yield writer.close()
    finally:
        recorder.settle("ignore", record.losses)
        record.emit()
