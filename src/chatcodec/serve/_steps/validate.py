"""Step 4: the call read as canonical data by the front's reader: strictly under
``--validate``, against the routed upstream's turn order and the fields of the compatible
server it points at, which is why it follows the route. Sealed reasoning is checked first
(:mod:`chatcodec.serve._seals`): a seal this server did not write is refused or left out
with a loss, and one it has no key to check yet is a 503. A large body is read on a worker thread.

Where nothing on the request's way needs its canonical data (:func:`direct_route`: no store,
no ``--record``, no ``--validate``, a wire upstream), it is not read here: step 5 converts the
body as the library's conversion does, by the pair's direct path where the direct table holds
the pair for the route's writer options (:func:`~chatcodec._conversion.direct_conversion`),
and the canonical data is read only if the canonical path or a later step asks (:func:`read_later`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from anyio import to_thread

from chatcodec._conversion import read_request_data, trace_source
from chatcodec._errors import ChatcodecError
from chatcodec._harness_roles import read_or_retry
from chatcodec._losses import Loss, LossRecorder
from chatcodec.serve._config import Route as UpstreamRoute
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._seals import checked_seals, unchecked_seals_refused
from chatcodec.serve._steps.route import Routed
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS


@dataclass(frozen=True)
class Validated:
    """A routed call read as canonical data."""

    routed: Routed
    canonical: dict[str, Any] | None
    """The request as canonical data; None where step 5 converts it by the direct path
    (:func:`direct_route`), which reads it only if it must (:func:`read_later`)."""
    losses: list[Loss]
    """What the request lost before it was read (a seal this server did not write, a
    harness's role read as the nearest canonical one)."""
    sealed: bool
    """Whether it brought sealed reasoning this server wrote."""
    payload: Mapping[str, Any]
    """The call's body as read (its seals checked)."""
    read: object = None
    """The body ``canonical`` was read from (a harness's roles read as canonical ones), where
    step 5 names the losses it writes, as the library's conversion names them (:func:`traced`);
    None where step 4 left the request unread."""


async def validated(server: Server, routed: Routed) -> Validated:
    """``routed``'s call as canonical data (a 400 naming what is invalid)."""
    validate = partial(_validated, server, routed)
    return await to_thread.run_sync(validate) if routed.size > server.config.offload_bytes else validate()


def _validated(server: Server, routed: Routed) -> Validated:
    config = server.config
    payload, sealed = routed.answer.call.payload, False
    losses: list[Loss] = []
    if server.seal_key is not None:
        payload, losses, sealed = checked_seals(config.api, payload, server.seal_key, validate=config.validate)
    elif server.seals_unchecked:
        unchecked_seals_refused(config.api, payload)
    if direct_route(server, routed):  # read only if a later step asks (:func:`read_later`)
        return Validated(routed, None, losses, sealed, payload)
    recorder = LossRecorder()
    canonical, read = _read_canonical(server, payload, routed.route, recorder)
    return Validated(routed, canonical, [*losses, *recorder.losses], sealed, payload, read)


def direct_route(server: Server, routed: Routed) -> bool:
    """Whether no step needs ``routed``'s request as canonical data, so step 5 may convert it
    as the library's :func:`~chatcodec.convert_request` does: by the pair's direct path where
    the direct table holds the pair for the route's writer options and API version
    (:func:`~chatcodec._conversion.direct_conversion`), which never reads it as canonical
    data, else by the canonical path, its losses named at their place in the caller's body
    as the library names them. The store (an answer continued, thinking put back, an answer
    kept), ``--record`` (the turn's canonical request), ``--validate`` (a strict reading) and a
    token upstream (chatcodec renders the canonical request) need the data."""
    config = server.config
    if config.validate or server.turns is not None or server.answerer.store is not None:
        return False
    return routed.route.upstream not in TOKEN_UPSTREAMS


def read_later(server: Server, validated: Validated, payload: object) -> tuple[dict[str, Any], object, list[Loss]]:
    """``payload`` (step 4's, with what step 5 set on it) read as canonical data where step 4
    left it unread (:func:`direct_route`): the data, the body read (a harness's roles read as
    canonical ones, :mod:`chatcodec._harness_roles`) and every loss before writing (the seals'
    and the reading's), as step 4 would have given them."""
    recorder = LossRecorder()
    canonical, read = _read_canonical(server, payload, validated.routed.route, recorder)
    return canonical, read, [*validated.losses, *recorder.losses]


def traced(recorder: LossRecorder, server: Server, read: object, canonical: dict[str, Any]) -> None:
    """Have ``recorder`` name the losses written from now on at their place in ``read``, the
    body read into ``canonical``, as the library's conversion names them
    (:func:`~chatcodec._conversion.trace_source`): what the direct path reports too."""
    trace_source(recorder, read, server.config.api, canonical)


def read_canonical(
    server: Server, payload: dict[str, Any], route: UpstreamRoute, recorder: LossRecorder | None = None
) -> dict[str, Any]:
    """The front's reader to canonical data (strict under ``--validate``, the upstream's
    turn order included); a client harness's roles the reader refuses are read as the
    conversion reads them (:mod:`chatcodec._harness_roles`), reported into ``recorder``."""
    return _read_canonical(server, payload, route, recorder)[0]


def _read_canonical(
    server: Server, payload: object, route: UpstreamRoute, recorder: LossRecorder | None = None
) -> tuple[dict[str, Any], object]:
    """:func:`read_canonical`'s data, and the body it read."""
    config = server.config
    validate = config.validate
    target = route.upstream if validate and route.upstream not in TOKEN_UPSTREAMS else None
    reading = _reading_server(server, route) if validate else None

    def read(body: object) -> dict[str, Any]:
        return read_request_data(body, config.api, strict=validate, target=target, server=reading)

    try:
        return read_or_retry(payload, config.api, recorder or LossRecorder(), read)
    except (ChatcodecError, ValueError) as error:
        raise RefusalError(400, f"invalid {config.api} request: {error}") from None


def _reading_server(server: Server, route: UpstreamRoute) -> str | None:
    """The compatible server whose fields ``--validate`` accepts: the route's, when the
    caller speaks the upstream's own format (``--upstream-url https://api.deepseek.com``
    with an OpenAI Chat front accepts DeepSeek's ``thinking``, not OpenRouter's fields)."""
    found = server.writer_options(route).get("server")
    return found if route.upstream == server.config.api and isinstance(found, str) else None
