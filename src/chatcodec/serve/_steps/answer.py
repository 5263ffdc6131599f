"""Step 7, plain: the upstream's answer converted for the caller (on a worker thread when
it is large), its missing id, model and creation time filled (:mod:`chatcodec.serve._identity`),
the request's credentials out of it (:mod:`chatcodec.serve._secrets`), the span given its
attributes, what is to be kept handed to :mod:`.keep`, and the caller's response with the
upstream's passed headers, the losses and any store error."""

from __future__ import annotations

from functools import partial
from typing import Any

from anyio import to_thread
from starlette.responses import Response

from chatcodec._api import decode_response
from chatcodec._errors import ChatcodecError, ProviderAPIError
from chatcodec.serve._fronts import answering
from chatcodec.serve._identity import convert_answer
from chatcodec.serve._json_body import json_body
from chatcodec.serve._limits import answer_object
from chatcodec.serve._own_reasoning import own_signature, signed_response
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import RequestRecord, losses_header, store_error_header
from chatcodec.serve._steps import keep
from chatcodec.serve._steps import record as turn_record
from chatcodec.serve._steps.fit import Fitted
from chatcodec.serve._steps.replay import replayed
from chatcodec.serve._steps.send import Sent
from chatcodec.serve._steps.shared import Server


async def answered(server: Server, fitted: Fitted, sent: Sent, record: RequestRecord) -> Response:
    """The caller's response to ``fitted``, from the upstream's plain answer ``sent``."""
    convert = partial(_converted, server, fitted, sent, record)
    large = len(sent.content) > server.config.offload_bytes
    rendered, kept, message, fields = await to_thread.run_sync(convert) if large else convert()
    await keep.kept(server, record, fitted.answer, kept, message)
    if fitted.recording is not None:
        await turn_record.recorded(server, fitted.recording, record)
    record.status = 200
    if fitted.replay:  # a streamed call answered plain upstream (the ids recorded): the answer as its stream
        answer = decode_response(fitted.route.upstream, fields).model_dump(mode="json", exclude_none=True)
        answer = signed_response(answer, _own_signature(server, fitted))
        return replayed(server, fitted, fitted.secrets.scrub_data(answer), sent.passed, record)
    headers = {**sent.passed, **losses_header(record.losses), **store_error_header(record.store_error)}
    return Response(rendered, 200, headers=headers, media_type="application/json")


def _converted(
    server: Server, fitted: Fitted, sent: Sent, record: RequestRecord
) -> tuple[bytes, answering.KeptAnswer | None, dict[str, Any] | None, dict[str, Any]]:
    """The answer as JSON bytes for the caller, what is kept of it, its canonical message
    (when anything is kept), and the upstream's fields read (the recorded ids taken out)."""
    upstream = fitted.route.upstream
    fields = answer_object(sent.content, upstream)
    if fitted.recording is not None:
        fitted.recording.take(fields)  # the ids out before the answer is read: the caller asked for none
    try:
        converted = convert_answer(
            fields,
            source=upstream,
            target=server.config.api,
            losses=record.losses,
            options=fitted.call.options,
            identity=sent.identity,
            own_signature=_own_signature(server, fitted),
        )
    except ProviderAPIError as error:  # an answer that failed as a whole (a Responses status "failed")
        status = error.status_code or 500
        raise RefusalError(status, error.message, error_type=error.error_type, headers=sent.passed) from None
    except ChatcodecError as error:
        raise RefusalError(502, f"the {upstream} upstream's answer cannot be read: {error}") from None
    rendered = json_body(converted)
    if fitted.secrets.found_in(rendered):  # one search of the body; the data scrubbed only where it holds one
        converted = fitted.secrets.scrub_data(converted)
        rendered = json_body(converted)
    kept = message = None
    if fitted.answer.kept or server.keeps_thinking:
        message = decode_response(upstream, fields).choices[0].message.model_dump(mode="json", exclude_none=True)
        kept = server.answerer.to_keep(fitted.answer, converted, fitted.canonical.read(), message)
    server.telemetry.answered(record, upstream, fields, sent.identity)
    return rendered, kept, message, fields


def _own_signature(server: Server, fitted: Fitted) -> str | None:
    """The signature the front gives reasoning when the answer is the gateway's own model's (a
    turn recorded from a server that samples here): :mod:`chatcodec.serve._own_reasoning`."""
    recording = fitted.recording
    return own_signature(server.config.api) if recording is not None and recording.own_model else None
