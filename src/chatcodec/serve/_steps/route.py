"""Step 3: the upstream for the call's model (after ``model_map``), the name checked before
it reaches a URL (:func:`~chatcodec.serve._limits.check_model`), what the route cannot take
refused before any conversion (a stream a codec cannot write, another provider's state),
and the upstream API version the body will be written for."""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec.serve._config import Route as UpstreamRoute
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._fronts import answering
from chatcodec.serve._limits import check_model, streams_between
from chatcodec.serve._provider_state import check_provider_state
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import RequestRecord
from chatcodec.serve._steps.authenticate import Admitted
from chatcodec.serve._steps.read import ReadCall
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS
from chatcodec.serve._upstream import api_version


@dataclass(frozen=True)
class Routed:
    """A call and the route that serves it."""

    answer: answering.Prepared
    route: UpstreamRoute
    model: str
    """The model name sent upstream (after ``model_map``)."""
    version: str | None
    """The upstream API version named for the body, by the caller or the operator; None: the
    writer chooses (:func:`~chatcodec.serve._upstream.api_version`)."""
    size: int


def routed(server: Server, read: ReadCall, admitted: Admitted, record: RequestRecord) -> Routed:
    """The route of ``read``'s call (a 404 when no upstream serves its model)."""
    config = server.config
    call = read.answer.call
    model = config.model_map.get(call.model or "", call.model or "")
    check_model(model)
    route = route_for(config, model)
    record.upstream, record.upstream_model = route.upstream, model
    if route.upstream in TOKEN_UPSTREAMS:  # chatcodec renders the prompt: no upstream wire to check
        return Routed(read.answer, route, model, None, read.size)
    if call.stream:
        streams_between(route.upstream, config.api)
    check_provider_state(config.api, call.payload, route.upstream)
    version = api_version(route.upstream, admitted.headers, server.writer_options(route))
    return Routed(read.answer, route, model, version, read.size)


def route_for(config: ServeConfig, model: str) -> UpstreamRoute:
    """The route for ``model`` (the name after ``model_map``), or a 404."""
    found = config.route_for(model)
    if found is None:
        raise RefusalError(404, f"no upstream serves the model {model!r} on this server")
    return found
