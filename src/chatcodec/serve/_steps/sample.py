"""Steps 5 to 7 where chatcodec renders the prompt (a token upstream: ``vllm-generate``,
``sglang-generate``, :mod:`chatcodec.serve._token_upstreams`): the request, read as
canonical data, rendered to the prompt's ids (:mod:`chatcodec.serve._token_prompts`: the
session's previous prompt and completion extended where what the harness sent back is what
was sampled and the template allows), sent as ids,
the sampled ids parsed with the template's parser into the assistant message, and that
message answered in the front's wire; a streamed call gets the answer replayed as the
front's stream (the whole completion is parsed before a word of it is answered).

:func:`sampled` renders and writes the call (:func:`prepared`), then sends it and answers
(:func:`answered`) inside the caller watch (:mod:`.caller_watch`), so a caller that goes away
cancels the upstream call; the turn is recorded (``--record``, :mod:`.record`) once its
answer is read, before it is written to the caller, or as cancelled.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio
from anyio import to_thread
from starlette.requests import Request
from starlette.responses import Response

from chatcodec._errors import ChatcodecError
from chatcodec._losses import LossRecorder
from chatcodec._model.response import ChatResponse
from chatcodec._registry import get_codec
from chatcodec._training.gateway import ids_fault, source_place, vocabulary_size
from chatcodec.serve import _returned_ids as returned_ids
from chatcodec.serve._bounded import bounded
from chatcodec.serve._identity import Identity
from chatcodec.serve._json_body import json_body
from chatcodec.serve._limits import answer_object, json_or_text, passed_headers, read_answer
from chatcodec.serve._own_reasoning import own_signature, signed_message
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import RequestRecord, losses_header, store_error_header
from chatcodec.serve._secrets import sent_secrets
from chatcodec.serve._steps import record as turn_record
from chatcodec.serve._steps import replay
from chatcodec.serve._steps.authenticate import Admitted
from chatcodec.serve._steps.caller_watch import unless_caller_leaves
from chatcodec.serve._steps.send import send
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._steps.validate import Validated
from chatcodec.serve._token_prompts import Prompt, TokenPrompts
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS, TokenUpstream, image_place
from chatcodec.serve._turn_records import session_of
from chatcodec.serve._upstream import UpstreamCall
from chatcodec.streams._replay import events_from_response

_FINISHES = {"stop": "stop", "length": "length", "abort": "error"}
"""A token server's finish reason (vLLM's, SGLang's ``type``) as the canonical one."""


@dataclass(frozen=True)
class RenderedCall:
    """A call rendered to ids and written for its token upstream."""

    validated: Validated
    session: str
    prompt: Prompt
    outgoing: UpstreamCall
    recording: turn_record.TurnRecording | None


async def sampled(
    server: Server, validated: Validated, admitted: Admitted, request: Request, record: RequestRecord
) -> Response:
    """The caller's response to ``validated``: rendered and written, then sent and answered
    unless the caller goes first (its turn then recorded as cancelled)."""
    call = await prepared(server, validated, admitted, record)
    with unless_caller_leaves(request, record) as watched:
        watched.response = await answered(server, call, record)
    response = watched.answer()
    if record.cancelled and call.recording is not None:
        await turn_record.recorded(server, call.recording, record, status=turn_record.CANCELLED, error=record.error)
    return response


async def prepared(server: Server, validated: Validated, admitted: Admitted, record: RequestRecord) -> RenderedCall:
    """``validated`` rendered to its prompt's ids and written for its token upstream."""
    render = partial(_prepared, server, validated, admitted, record)
    return await to_thread.run_sync(render) if validated.routed.size > server.config.offload_bytes else render()


def _prepared(server: Server, validated: Validated, admitted: Admitted, record: RequestRecord) -> RenderedCall:
    routed, canonical = validated.routed, _read(validated)
    prompts = _prompts(server)
    session = session_of(admitted.headers, record.request_id)
    record.losses = list(validated.losses)
    upstream = TOKEN_UPSTREAMS[routed.route.upstream]
    image = image_place(canonical.get("messages"))
    if image is not None:
        raise RefusalError(400, f"the {upstream.name} upstream is sent no image ({image}): {upstream.images}")
    try:
        messages = list(canonical.get("messages") or [])
        place = source_place(routed.answer.call.payload, server.config.api, lambda: messages)
        prompt = prompts.prompt(session, canonical, record.losses, place)
    except (ChatcodecError, ValueError) as error:
        raise RefusalError(400, f"the request cannot be rendered with the template: {error}") from None
    body = upstream.body(prompt.ids, canonical, routed.model)
    headers = {"content-type": "application/json"}
    key = os.environ.get(routed.route.api_key_env) if routed.route.api_key_env else None
    if key:
        headers["authorization"] = f"Bearer {key}"
    outgoing = UpstreamCall(routed.route.url.rstrip("/") + upstream.path, json_body(body), headers)
    record.secrets = sent_secrets(headers, (admitted.key,))
    recording = None
    if server.turns is not None:  # the ids are chatcodec's own: the prompt known now, the completion once read
        recording = turn_record.begun(
            server, canonical, routed.route, routed.model, admitted.headers, record=record, stream=False
        )
        recording.prompt_ids, recording.prompt_break = prompt.ids, prompt.prompt_break
        recording.parent_turn = prompt.parent_turn
        recording.vocabulary = vocabulary_size(prompts.tokenizer)
    return RenderedCall(validated, session, prompt, outgoing, recording)


def _prompts(server: Server) -> TokenPrompts:
    prompts = server.token_prompts
    assert prompts is not None, "a token upstream's config has a template, and the server a tokenizer"
    return prompts


async def answered(server: Server, call: RenderedCall, record: RequestRecord) -> Response:
    """The caller's response to ``call``: sent, its completion parsed and answered."""
    routed = call.validated.routed
    name = routed.route.upstream
    upstream = TOKEN_UPSTREAMS[name]
    response = await send(server, call.outgoing, name, stream=True)
    try:
        content = await read_answer(response, server.config.max_answer_bytes, name, timeout=server.config.timeout)
    finally:
        if not response.is_closed:
            with anyio.CancelScope(shield=True):
                await response.aclose()
    passed = passed_headers(response.headers, record.secrets)
    if response.status_code >= 400:
        detail = record.secrets.scrub(bounded(str(json_or_text(content))))
        raise RefusalError(response.status_code, f"the {name} upstream refused the call: {detail}")
    answer, sampled_ids = await _recorded_answer(server, call, upstream, answer_object(content, name), record)
    record.status = 200
    front = server.config.api
    options = routed.answer.call.options
    codec, recorder = get_codec(front), LossRecorder()
    ids_asked = returned_ids.asked(_read(call.validated), front)  # the harness's own return_token_ids
    if routed.answer.call.stream:
        wire = codec.encode_stream(events_from_response(answer), recorder, options=options)
        wire = returned_ids.on_stream(wire, front, call.prompt.ids, sampled_ids) if ids_asked else wire
        return replay.written_stream(server, routed.answer.call.framing, wire, recorder, passed=passed, record=record)
    written = codec.write_response(answer.model_dump(mode="json", exclude_none=True), recorder, options=options)
    if ids_asked:
        returned_ids.on_answer(written, front, call.prompt.ids, sampled_ids)
    recorder.settle("ignore", record.losses)
    headers = {**passed, **losses_header(record.losses), **store_error_header(record.store_error)}
    return Response(json_body(written), 200, headers=headers, media_type="application/json")


async def _recorded_answer(
    server: Server, call: RenderedCall, upstream: TokenUpstream, fields: dict[str, Any], record: RequestRecord
) -> tuple[ChatResponse, list[int]]:
    """:func:`_answer`, the turn recorded: complete, or the error an unreadable answer is."""
    try:
        answer_and_ids = _answer(server, call, upstream, fields, record)
    except RefusalError as refusal:
        if call.recording is not None:
            await turn_record.recorded(server, call.recording, record, status=turn_record.FAILED, error=refusal.message)
        raise
    if call.recording is not None:
        await turn_record.recorded(server, call.recording, record)
    return answer_and_ids


def _answer(
    server: Server, call: RenderedCall, upstream: TokenUpstream, fields: dict[str, Any], record: RequestRecord
) -> tuple[ChatResponse, list[int]]:
    """The canonical answer in the token server's ``fields`` (its ids parsed with the
    template's parser), and the sampled ids."""
    routed, canonical = call.validated.routed, _read(call.validated)
    try:
        taken = upstream.read(fields)
    except ValueError as error:
        raise RefusalError(502, f"the {upstream.name} upstream's answer cannot be read: {error}") from None
    prompts = _prompts(server)
    if call.recording is not None:
        recording = call.recording
        recording.completion_ids, recording.finish_reason = taken.completion_ids, taken.finish_reason
        recording.logprobs = taken.logprobs
    fault = ids_fault(taken.completion_ids, vocabulary_size(prompts.tokenizer))
    if fault is not None:  # an id the tokenizer cannot decode: the upstream's fault, said before the parser meets it
        where = upstream.ids_field + fault[0]
        raise RefusalError(502, f"the {upstream.name} upstream's answer cannot be read: {where}: {fault[1]}")
    try:
        message = prompts.parsed(taken.completion_ids, canonical, record.losses, call.prompt.text)
    except (ChatcodecError, ValueError) as error:
        raise RefusalError(502, f"the {upstream.name} upstream's completion cannot be parsed: {error}") from None
    sampled = (taken.completion_ids, taken.finish_reason, message)
    prompts.answered(call.session, canonical, call.prompt, sampled, record.request_id)
    parts = message.content if isinstance(message.content, list) else []
    unified = "tool_calls" if any(part.type == "tool_use" for part in parts) else None
    raw = taken.finish_reason
    finish = {"unified": unified or _FINISHES.get(raw or "stop", "other"), "raw": raw}
    usage = {"input_tokens": len(call.prompt.ids), "output_tokens": len(taken.completion_ids)}
    written = signed_message(message.model_dump(mode="json", exclude_none=True), own_signature(server.config.api))
    choice = {"index": 0, "message": written, "finish_reason": finish}
    made: dict[str, Any] = {"choices": [choice], "usage": usage}
    # the gateway made this answer: its id, model and creation time are the gateway's to give, as
    # for an upstream body without them (nothing for a writer to invent and report)
    answer = ChatResponse.model_validate(Identity(f"chatcodec-{record.request_id}", routed.model).fill(made))
    return answer, taken.completion_ids


def _read(validated: Validated) -> dict[str, Any]:
    """Step 4's canonical data: a token upstream's request is always read there
    (:func:`~.validate.direct_route`)."""
    if validated.canonical is None:
        raise RuntimeError("a token upstream's request was left unread for the direct path")
    return validated.canonical
