"""The routes beside the proxied calls: ``GET /health``, the front's model list, and its
token counting endpoint.

- ``GET /health`` answers ``{"status": "ok"}`` with no key asked (for load balancers)
  when the store answers, else 503 naming it; ``GET /health/live`` answers whenever the
  process does (an orchestrator's liveness probe). Neither asks an upstream (:mod:`.health`).
- The model list (``GET /v1/models`` for both OpenAI APIs and Anthropic,
  ``/v1beta/models`` for Gemini, ``/api/tags`` for Ollama: the front edge's
  ``Front.models``) lists the names callers can use here: the ``--model-map`` names,
  then each route's ``models`` or its pattern when that is a plain name, then what a
  pattern route's upstream lists that the route serves (:mod:`.model_listing`), in the
  list shape the front's SDK reads.
- Token counting (Anthropic's ``/v1/messages/count_tokens``, Gemini's ``:countTokens``,
  the Responses ``/v1/responses/input_tokens``: ``Front.count_tokens``) converts the
  request as a call would be, and asks the routed upstream's own counting endpoint
  (``Upstream.count_tokens``); an upstream with none (OpenAI Chat, Ollama) is a 501 in
  the front's shape with ``x-should-retry: false`` (the SDKs would retry a 5xx twice, to the
  same answer): counting is the provider's tokenizer, which chatcodec does not guess.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chatcodec.serve._auth import upstream_key
from chatcodec.serve._fronts import front
from chatcodec.serve._health import HealthCheck
from chatcodec.serve._limits import check_model, json_object, json_or_text, passed_headers, read_body
from chatcodec.serve._model_listing import upstream_models
from chatcodec.serve._refusal import RefusalError, refused
from chatcodec.serve._request_log import RequestRecord
from chatcodec.serve._request_losses import LossRefusalError
from chatcodec.serve._secrets import sent_secrets
from chatcodec.serve._steps.authenticate import admitted
from chatcodec.serve._steps.fit import written
from chatcodec.serve._steps.route import route_for
from chatcodec.serve._steps.send import send, upstream_refusal
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._steps.validate import read_canonical
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS
from chatcodec.serve._upstream import api_version, count_call, upstream_side

NOT_RETRIED = {"x-should-retry": "false"}
"""What a 501 for a count no upstream can give carries: the OpenAI and Anthropic SDKs obey
``x-should-retry`` over their status rules, which retry every 5xx twice (``_should_retry`` in
openai-python and anthropic-sdk-python), and asking again would answer the same."""


def routes(server: Server) -> list[BaseRoute]:
    """The health, model list and token counting routes of the server's front (before
    the call routes: Gemini's ``{model}:countTokens`` is also a ``{target}``)."""

    checker = HealthCheck(server.answerer.store)

    async def health(request: Request) -> Response:
        verdict = await checker.verdict()
        return JSONResponse(verdict.body, verdict.status, headers={"cache-control": "no-store"})

    async def live(request: Request) -> Response:
        return JSONResponse({"status": "ok"}, headers={"cache-control": "no-store"})

    async def models(request: Request) -> Response:
        return await list_models(server, request)

    async def count(request: Request) -> Response:
        return await count_tokens(server, request)

    offered = front(server.config.api)
    found: list[BaseRoute] = [Route("/health", health, methods=["GET"]), Route("/health/live", live, methods=["GET"])]
    if offered.models is not None:
        found.extend(Route(path, models, methods=["GET"]) for path in offered.models.routes)
    if offered.count_tokens is not None:
        found.extend(Route(path, count, methods=["POST"]) for path in offered.count_tokens.routes)
    return found


async def list_models(server: Server, request: Request) -> Response:
    """The routed models in the front's list shape (a caller must be let in, as for a call)."""
    config = server.config
    listing = front(config.api).models
    assert listing is not None, "routed only for a front with a model list"
    try:
        caller = admitted(config, request).caller
    except RefusalError as refusal:
        return refused(config.api, refusal)
    await server.ready()
    asked = await upstream_models(config, server.client, caller, server.admission)
    return JSONResponse(listing.write(list(dict.fromkeys((*config.listed_models, *asked)))))


async def count_tokens(server: Server, request: Request) -> Response:
    """Count a request's input tokens upstream; the log line is written as for a call."""
    record = RequestRecord(server.config.api, request.url.path)
    try:
        response = await _counted(server, request, record)
    except RefusalError as refusal:
        response = refused(server.config.api, refusal, record)
    record.emit()
    return response


async def _counted(server: Server, request: Request, record: RequestRecord) -> Response:
    config = server.config
    counting = front(config.api).count_tokens
    assert counting is not None, "routed only for a front with token counting"
    await server.ready()
    let_in = admitted(config, request)
    fields = json_object(await read_body(request, config.max_body_bytes, config.body_timeout))
    payload = counting.request(fields, request.path_params.get("model"))
    named = payload.get("model")
    record.model = named if isinstance(named, str) else None
    model = config.model_map.get(record.model or "", record.model or "")
    check_model(model)
    route = route_for(config, model)
    record.upstream, record.upstream_model = route.upstream, model
    canonical = read_canonical(server, payload, route)
    if server.token_prompts is not None and route.upstream in TOKEN_UPSTREAMS:  # chatcodec renders: it counts
        record.status = 200
        return JSONResponse(counting.write(len(server.token_prompts.fresh_ids(canonical, record.losses))))
    try:
        named = api_version(route.upstream, let_in.headers, server.writer_options(route))
        body, record.losses, version = written(server, canonical, model, route, stream=False, version=named)
    except LossRefusalError as refusal:  # its losses in the answer's header, as a count sent would have them
        record.losses = refusal.losses
        raise
    side = upstream_side(route.upstream)
    key = upstream_key(side, let_in.caller, route.api_key_env)
    outgoing = count_call(
        route.upstream, route.url, body, model=model, key=key, caller_headers=let_in.headers, version=version
    )
    record.secrets = sent_secrets(outgoing.headers if outgoing else {}, (let_in.key,))
    if outgoing is None or side.count_tokens is None:
        raise RefusalError(501, f"the {route.upstream} upstream has no token counting endpoint", headers=NOT_RETRIED)
    answer = await send(server, outgoing, route.upstream, stream=False)
    passed = passed_headers(answer.headers, record.secrets)
    payload_back = json_or_text(answer.content)
    if answer.status_code >= 400:
        raise upstream_refusal(server, answer, payload_back, route.upstream, passed)
    tokens = side.count_tokens.read(payload_back)
    if tokens is None:
        raise RefusalError(502, f"the {route.upstream} upstream's token count holds no count")
    record.status = 200
    return JSONResponse(counting.write(tokens), headers=passed)
