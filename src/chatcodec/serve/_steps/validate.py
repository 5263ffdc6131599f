"""Step 4: the call read as canonical data by the front's reader: strictly under
``--validate``, against the routed upstream's turn order and the fields of the compatible
server it points at, which is why it follows the route. Sealed reasoning is checked first
(:mod:`chatcodec.serve._seals`): a seal this server did not write is refused or left out
with a loss, and one it has no key to check yet is a 503. A large body is read on a worker thread."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from anyio import to_thread

from chatcodec._conversion import read_request_data
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
    canonical: dict[str, Any]
    losses: list[Loss]
    """What the request lost before it was read (a seal this server did not write)."""
    sealed: bool
    """Whether it brought sealed reasoning this server wrote."""


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
    recorder = LossRecorder()
    canonical = read_canonical(server, payload, routed.route, recorder)
    return Validated(routed, canonical, [*losses, *recorder.losses], sealed)


def read_canonical(
    server: Server, payload: dict[str, Any], route: UpstreamRoute, recorder: LossRecorder | None = None
) -> dict[str, Any]:
    """The front's reader to canonical data (strict under ``--validate``, the upstream's
    turn order included); a client harness's roles the reader refuses are read as the
    conversion reads them (:mod:`chatcodec._harness_roles`), reported into ``recorder``."""
    config = server.config
    validate = config.validate
    target = route.upstream if validate and route.upstream not in TOKEN_UPSTREAMS else None
    reading = _reading_server(server, route) if validate else None

    def read(body: object) -> dict[str, Any]:
        return read_request_data(body, config.api, strict=validate, target=target, server=reading)

    try:
        return read_or_retry(payload, config.api, recorder or LossRecorder(), read)[0]
    except (ChatcodecError, ValueError) as error:
        raise RefusalError(400, f"invalid {config.api} request: {error}") from None


def _reading_server(server: Server, route: UpstreamRoute) -> str | None:
    """The compatible server whose fields ``--validate`` accepts: the route's, when the
    caller speaks the upstream's own format (``--upstream-url https://api.deepseek.com``
    with an OpenAI Chat front accepts DeepSeek's ``thinking``, not OpenRouter's fields)."""
    found = server.writer_options(route).get("server")
    return found if route.upstream == server.config.api and isinstance(found, str) else None
