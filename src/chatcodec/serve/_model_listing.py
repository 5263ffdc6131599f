"""The models a route reaches, asked of its upstream, for ``GET /v1/models``.

A route named by a pattern (``claude-*``, the default upstream's ``*``) lists no name of
its own, so a server run without ``--model-map`` answered an empty list, and a client that
picks its model from the list (Open WebUI, the Vercel AI SDK's model pickers, Claude
Code's ``/model``) had nothing to offer. Such a route asks its upstream's own list
(``Upstream.models``: OpenAI's and Anthropic's ``GET /v1/models``, Gemini's
``/v1beta/models``, Ollama's ``/api/tags``) with the key a call would send, and lists the
names that route really serves (the first route matching a name is the one a call takes).
An upstream that cannot be asked (Bedrock's list is on another host), or answers with an
error, adds nothing: the listing still answers, and the log says why. Each ask takes an
upstream call slot like any call (:mod:`.admission`), so a listing never takes a connection
an admitted call counts on; past the queue's bound its list is left out likewise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from chatcodec.serve._admission import Admission
from chatcodec.serve._auth import Caller, upstream_key
from chatcodec.serve._limits import json_or_text
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import LOGGER
from chatcodec.serve._secrets import sent_secrets
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS
from chatcodec.serve._upstream import upstream_side

if TYPE_CHECKING:
    from chatcodec.serve._config import Route, ServeConfig

LIST_TIMEOUT = 10.0
"""Seconds an upstream's list may take before it is left out."""


async def upstream_models(
    config: ServeConfig, client: httpx.AsyncClient, caller: Caller, admission: Admission
) -> list[str]:
    """The names the pattern routes of ``config`` reach, each asked of its upstream once,
    each asking a call of ``admission`` (:mod:`.admission`) as a request's call does."""
    found: list[str] = []
    asked: dict[tuple[str, str], list[str]] = {}
    for route in config.all_routes:
        if route.listed or not _listable(route):
            continue
        where = (route.upstream, route.url)
        if where not in asked:
            asked[where] = await _asked(route, client, caller, admission)
        found.extend(name for name in asked[where] if config.route_for(name) == route)
    return found


def _listable(route: Route) -> bool:
    """Whether ``route``'s upstream lists its models (a token endpoint lists none: name its models in ``models``)."""
    return route.upstream not in TOKEN_UPSTREAMS and upstream_side(route.upstream).models is not None


async def _asked(route: Route, client: httpx.AsyncClient, caller: Caller, admission: Admission) -> list[str]:
    side = upstream_side(route.upstream)
    assert side.models is not None, "asked only of an upstream with a list"
    url = side.models.url(route.url.rstrip("/"))
    headers = side.headers(upstream_key(side, caller, route.api_key_env), {})
    try:
        await admission.enter()
    except RefusalError as overloaded:
        LOGGER.warning("the %s upstream's model list is left out: %s", route.upstream, overloaded.message)
        return []
    try:
        answer = await client.get(url, headers=headers, timeout=LIST_TIMEOUT)
    except httpx.HTTPError as error:
        LOGGER.warning("the %s upstream's model list is left out: %s", route.upstream, type(error).__name__)
        return []
    finally:
        admission.leave()  # read whole: its connection is back in the pool
    if answer.status_code >= 400:
        LOGGER.warning("the %s upstream's model list is left out: HTTP %s", route.upstream, answer.status_code)
        return []
    secrets = sent_secrets(headers)  # an upstream may echo its key in a name (:mod:`.secrets`)
    return [secrets.scrub(name) for name in side.models.read(json_or_text(answer.content))]
