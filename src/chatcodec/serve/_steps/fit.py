"""Step 5: the request fitted to its upstream. What the store keeps for it is put back
first: the conversation of the answer a Responses request continues
(``previous_response_id``, :mod:`chatcodec.serve._fronts.answering`) and the signed
thinking its client dropped (:mod:`chatcodec.serve._kept_thinking`). A store that fails
here is a 503 for a continued answer (nothing was sent upstream: the caller may try
again) and nothing for thinking (the request goes on as the client sent it; the upstream
says whether it needed it). Then the body is written by the upstream's writer under the
rules of the API version sent (a request step 4 left unread, by the pair's direct path as
the library's conversion writes it, :func:`directly_written`), its losses settled by ``--on-loss``
(:mod:`chatcodec.serve._request_losses`), a body shaped by a seal checked under
``--validate``, the token ids asked for where the turn is recorded (:mod:`.record`), and
the call signed; a large one on a worker thread (writing 7.6 MB takes
75 ms)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from anyio import to_thread

from chatcodec._conversion import direct_conversion, with_updates, write_request_data
from chatcodec._errors import ChatcodecError
from chatcodec._losses import Loss, LossRecorder
from chatcodec._providers.contract.rules_applied import RulesApplied
from chatcodec._registry import get_codec
from chatcodec.serve import _kept_thinking as kept_thinking
from chatcodec.serve._auth import upstream_key
from chatcodec.serve._config import Route as UpstreamRoute
from chatcodec.serve._fronts import Call, answering
from chatcodec.serve._own_reasoning import own_signature, unsigned_request
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import LOGGER, RequestRecord
from chatcodec.serve._request_losses import LossRefusalError, refuse_unless_allowed, settled
from chatcodec.serve._response_store import StoreError, owner_of
from chatcodec.serve._seals import check_unsealed
from chatcodec.serve._secrets import Secrets, sent_secrets
from chatcodec.serve._steps.authenticate import Admitted
from chatcodec.serve._steps.record import TurnRecording, begun, own_model, replays
from chatcodec.serve._steps.shared import CanonicalData, Server
from chatcodec.serve._steps.validate import Validated, read_later, traced
from chatcodec.serve._upstream import UpstreamCall, sent_version, upstream_call, upstream_side


@dataclass(frozen=True)
class Fitted:
    """A request read, routed and written, ready to send."""

    call: Call
    """The front's call, continued where it names an earlier answer (``answer.call``)."""
    answer: answering.Prepared
    """What the front owes this answer (its own id, the request echoed, kept for later)."""
    route: UpstreamRoute
    model: str
    """The model name sent upstream (after ``model_map``)."""
    canonical: CanonicalData
    """The request as canonical data, continued (what an answer kept is added to); read when
    first asked where the direct path converted it."""
    outgoing: UpstreamCall
    """The upstream request: its URL, serialized body and signed headers."""
    secrets: Secrets
    """The credentials it sends (and the caller's key), kept out of what is relayed or recorded."""
    recording: TurnRecording | None = None
    """The turn being recorded (``--record``: :mod:`.record`), or None."""
    replay: bool = False
    """Whether a streamed call asks its upstream for a plain answer, replayed as its stream
    (its server reports the ids to record only on a plain answer: :mod:`.replay`)."""
    streams_upstream: bool = False
    """Whether the upstream is asked for a stream (the call's own wish, but for a replay)."""


async def fitted(server: Server, validated: Validated, admitted: Admitted, record: RequestRecord) -> Fitted:
    """``validated`` continued from the store, written for its upstream and signed."""
    routed = validated.routed
    if validated.canonical is not None:
        answer = await _recalled(server, routed.answer, validated.canonical, routed.route.upstream, admitted)
    else:  # (no store: nothing to recall, :func:`~.validate.direct_route`)
        answer = routed.answer
    write = partial(_written, server, validated, answer, admitted, record)
    fit = await to_thread.run_sync(write) if routed.size > server.config.offload_bytes else write()
    server.telemetry.requested(
        record,
        fit.canonical.read,
        fit.route.url,
        server=server.writer_options(fit.route).get("server"),
        conversation=fit.call.conversation or answer.parent,  # or the answer it continues
        choices=fit.call.choices,
    )
    return fit


async def _recalled(
    server: Server, answer: answering.Prepared, canonical: dict[str, Any], upstream: str, admitted: Admitted
) -> answering.Prepared:
    """``answer`` with the conversation it continues, and its owner; ``canonical`` with the
    thinking its current turn came without. Without a store there is nothing to recall (a
    continued answer was refused when it was read), and no owner to know."""
    answerer, store = server.answerer, server.answerer.store
    if store is None:
        return answer
    owner = owner_of(admitted.key)
    try:
        answer = await answerer.recalled(replace(answer, owner=owner))
    except answering.AnswerRefusedError as refusal:
        raise RefusalError(400, str(refusal)) from None
    except StoreError as error:
        LOGGER.warning("the store could not be read: %s", error)
        raise RefusalError(503, f"the store of kept answers cannot be read: {error}; try again") from None
    if server.keeps_thinking:
        try:
            await kept_thinking.restore(store, owner, canonical, upstream)
        except StoreError as error:
            LOGGER.warning("kept thinking could not be read: %s", error)
    return answer


def _written(
    server: Server, validated: Validated, answer: answering.Prepared, admitted: Admitted, record: RequestRecord
) -> Fitted:
    route, call = validated.routed.route, answer.call
    record.losses = list(validated.losses)  # in an error answer's header too, from here on
    replay = server.turns is not None and call.stream and replays(server, route, server.config.api)
    stream = call.stream and not replay
    body, version, canonical = _converted(server, validated, answer, record, stream)
    if validated.sealed and server.config.validate:
        check_unsealed(route.upstream, body)
    return _sent(
        server,
        validated,
        answer,
        admitted,
        record,
        body=body,
        version=version,
        stream=stream,
        replay=replay,
        read=canonical,
    )


def _converted(
    server: Server, validated: Validated, answer: answering.Prepared, record: RequestRecord, stream: bool
) -> tuple[dict[str, Any], str | None, dict[str, Any] | None]:
    """The upstream body, the API version it is sent with and the canonical data it was written
    from (None: the direct path converted it), its losses in ``record`` (all of them, for
    ``--on-loss error``'s refusal too). A request step 4 left unread (:func:`~.validate.direct_route`)
    goes the pair's direct path where it admits it, else the canonical path as the library's
    conversion goes it (its losses named in the caller's body)."""
    routed = validated.routed
    route, before, policy = routed.route, validated.losses, server.config.loss_policy
    canonical = validated.canonical
    try:
        refuse_unless_allowed(before, policy, route.upstream)
        read = None
        if canonical is None:
            direct = directly_written(server, _given(validated.payload, routed.model, stream), route, routed.version)
            if direct is not None:
                body, losses, version = direct
                record.losses = [*before, *losses]
                return body, version, None
            canonical, read, before = read_later(server, validated, validated.payload)
            record.losses = list(before)
            refuse_unless_allowed(before, policy, route.upstream)
            sent = canonical
        else:
            server.answerer.continued(answer, canonical)  # the kept conversation of the answer it continues
            sent = canonical
            if not answer.history and not server.keeps_thinking:  # its messages the caller's, as sent
                read = validated.read
            if server.turns is not None and own_model(server, route):  # the front's mark on its own model's reasoning
                sent = unsigned_request(canonical, own_signature(server.config.api))
        body, losses, version = written(
            server, sent, routed.model, route, stream=stream, version=routed.version, read=read
        )
    except LossRefusalError as refusal:
        record.losses = [*before, *(loss for loss in refusal.losses if loss not in before)]
        raise
    record.losses = [*before, *losses]
    return body, version, canonical


def _sent(
    server: Server,
    validated: Validated,
    answer: answering.Prepared,
    admitted: Admitted,
    record: RequestRecord,
    *,
    body: dict[str, Any],
    version: str | None,
    stream: bool,
    replay: bool,
    read: dict[str, Any] | None = None,
) -> Fitted:
    """The written ``body`` asking for the token ids of a recorded turn, and signed; ``read``:
    the canonical data it was written from (None: the direct path's, read if a step asks)."""
    routed = validated.routed
    route = routed.route
    recording = None
    if server.turns is not None and read is not None:  # the turn recorded (--record): its token ids asked for
        recording = begun(server, read, route, routed.model, admitted.headers, record=record, stream=stream)
        body = recording.asking(body)
    outgoing = upstream_call(
        route.upstream,
        route.url,
        body,
        model=routed.model,
        stream=stream,
        key=upstream_key(upstream_side(route.upstream), admitted.caller, route.api_key_env),
        caller_headers=admitted.headers,
        version=version,
    )
    record.secrets = secrets = sent_secrets(outgoing.headers, (admitted.key,))
    reading = CanonicalData(read, None if read is not None else partial(_read_when_asked, server, validated, stream))
    return Fitted(answer.call, answer, route, routed.model, reading, outgoing, secrets, recording, replay, stream)


def _given(payload: Mapping[str, Any], model: str, stream: bool) -> dict[str, Any]:
    """The front's body with the model sent upstream and the stream flag, as :func:`written`
    sets them on canonical data, for the direct path to convert."""
    given = {**payload, "model": model}
    if stream:
        given["stream"] = True
    else:
        given.pop("stream", None)
    return given


def _read_when_asked(server: Server, validated: Validated, stream: bool) -> dict[str, Any]:
    """The canonical data of a request the direct path converted, for a step that asks (a
    telemetry span): read as step 4 reads it, with what :func:`written` sets on it."""
    canonical = read_later(server, validated, validated.payload)[0]
    return with_updates(canonical, {"model": validated.routed.model, "stream": True if stream else None})


def directly_written(
    server: Server, given: dict[str, Any], route: UpstreamRoute, version: str | None
) -> tuple[dict[str, Any], list[Loss], str | None] | None:
    """The upstream body of ``given`` (:func:`_given`) by the library's direct path for the
    pair, its losses settled by ``--on-loss`` and the API version to send it with (the
    writer's default, as it writes with no option: :func:`~chatcodec.serve._upstream.sent_version`);
    None when the pair has no direct path for the route's writer options and API ``version``
    named, or it does not admit the body's shape, or refuses it (the canonical path then
    converts it, or refuses it in its own words)."""
    options = server.writer_options(route)
    if version is not None:  # (the direct paths write under the writer's default version)
        options = {**options, "api_version": version}
    convert = direct_conversion(server.config.api, route.upstream, options)
    if convert is None:
        return None
    recorder = LossRecorder()
    try:
        body = convert(given, recorder, get_codec(route.upstream))
    except (ChatcodecError, ValueError):
        return None
    if body is None:
        return None
    losses = settled(recorder, server.config.loss_policy, route.upstream)
    return body, losses, sent_version(route.upstream, None, None, options)


def written(
    server: Server,
    canonical: dict[str, Any],
    model: str,
    route: UpstreamRoute,
    *,
    stream: bool,
    version: str | None,
    read: object = None,
) -> tuple[dict[str, Any], list[Loss], str | None]:
    """The upstream body, its losses and the API version to send it with: the model and stream
    flag set on ``canonical``, the upstream's writer under the rules of the API ``version`` named
    (none named: the version the writer chose, as the library's writer chooses for the same
    request, :func:`~chatcodec.serve._upstream.sent_version`), its losses settled by ``--on-loss``.
    ``read``: the body ``canonical`` was read from, where the losses are named at their place in
    it, as the library's conversion and the direct path name them (:func:`~.validate.traced`)."""
    with_updates(canonical, {"model": model, "stream": True if stream else None})
    recorder = LossRecorder()
    if read is not None:
        traced(recorder, server, read, canonical)
    applied = RulesApplied()
    options = server.writer_options(route)
    try:
        if version is not None:
            options = {**options, "api_version": version}
        body = write_request_data(canonical, route.upstream, recorder, options, applied=applied)
    except ChatcodecError as error:
        raise RefusalError(400, f"the request cannot be sent to {route.upstream}: {error}") from None
    sent = sent_version(route.upstream, version, applied.version, options)
    return body, settled(recorder, server.config.loss_policy, route.upstream), sent
