"""Step 6: the upstream called, once admitted (:mod:`chatcodec.serve._admission`: a slot
among ``max_connections``, or a 503 with ``Retry-After``). A full pool (a client given to
``create_app`` with a smaller one) is a 503, a timeout a 504, no connection a 502; an
upstream's error answer is refused in the front's shape with its status, its error read in
the upstream's shape (:mod:`chatcodec._error_shapes`), and the retry, rate-limit and
request-id headers it passed (:func:`~chatcodec.serve._limits.passed_headers`, scrubbed of the
request's credentials). A plain
answer is read whole within ``max_answer_bytes``; a stream is handed on open, its first
bytes not yet read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import anyio
import httpx

from chatcodec._error_shapes import read_error
from chatcodec._narrow import as_dict
from chatcodec._registry import get_edge
from chatcodec.serve._admission import SlotStream
from chatcodec.serve._identity import Identity, answer_identity
from chatcodec.serve._limits import json_or_text, passed_headers, read_answer
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._steps.fit import Fitted
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._upstream import UpstreamCall
from chatcodec.serve._upstream_errors import failure


@dataclass(frozen=True)
class Sent:
    """The upstream's successful answer."""

    response: httpx.Response
    """The upstream response (a plain one read and closed; a stream's still open)."""
    content: bytes
    """A plain answer's body (empty for a stream)."""
    passed: dict[str, str]
    """The upstream headers the caller gets too."""
    identity: Identity
    """The id, model and creation time the answer's body may lack (:mod:`chatcodec.serve._identity`)."""


async def sent(server: Server, fitted: Fitted) -> Sent:
    """The upstream's answer to ``fitted`` (a refusal for its error answer)."""
    upstream = fitted.route.upstream
    response = await send(server, fitted.outgoing, upstream, stream=True)
    content = b""
    if not fitted.streams_upstream:
        try:
            content = await read_answer(
                response, server.config.max_answer_bytes, upstream, timeout=server.config.timeout
            )
        finally:
            if not response.is_closed:  # read whole, httpx closed it; a read cut short closes, shielded
                with anyio.CancelScope(shield=True):  # a scope only for a body not read whole
                    await response.aclose()
    passed = passed_headers(response.headers, fitted.secrets)
    if response.status_code >= 400:
        if fitted.streams_upstream:
            try:
                content = await response.aread()
            finally:
                with anyio.CancelScope(shield=True):
                    await response.aclose()
        raise upstream_refusal(server, response, json_or_text(content), upstream, passed)
    return Sent(response, content, passed, answer_identity(upstream, response.headers, fitted.model))


@lru_cache(maxsize=1024)
def parsed_url(url: str) -> httpx.URL:
    """``url`` parsed once: httpx parses a string URL twice per request (the client's merge and
    the request's own), much of a small request's cost, and a route's upstream URLs
    are few (one per model and stream flag); an ``httpx.URL`` is immutable, so one serves every
    request."""
    return httpx.URL(url)


async def send(server: Server, outgoing: UpstreamCall, upstream: str, *, stream: bool) -> httpx.Response:
    """Send ``outgoing`` once admitted (a slot of :mod:`chatcodec.serve._admission`, held until
    the response is closed, or a 503); a full pool is a 503, a timeout a 504, no connection a 502."""
    client, admission = server.client, server.admission
    built = client.build_request("POST", parsed_url(outgoing.url), content=outgoing.body, headers=outgoing.headers)
    if not admission.take():
        await admission.enter()  # in turn, or a 503
    try:
        response = await _sent_or_refused(server, built, upstream, stream=stream)
    except BaseException:
        admission.leave()
        raise
    body = response.stream
    if response.is_closed or not isinstance(body, httpx.AsyncByteStream):  # read whole (stream=False)
        admission.leave()
    else:
        response.stream = SlotStream(body, admission)
    return response


async def _sent_or_refused(server: Server, built: httpx.Request, upstream: str, *, stream: bool) -> httpx.Response:
    client, config = server.client, server.config
    try:
        return await client.send(built, stream=stream)
    except httpx.PoolTimeout:
        raise RefusalError(
            503,
            f"all {config.max_connections} upstream connections stayed busy for {config.pool_timeout} s; try again",
            headers={"retry-after": "1"},
            overload=True,
        ) from None
    except httpx.TimeoutException as error:
        reason, status = failure(error, timeout=config.timeout, connect_timeout=config.connect_timeout)
        raise RefusalError(status, f"the {upstream} upstream {reason}") from None
    except httpx.LocalProtocolError:  # its text quotes the header value it refused: a key
        raise RefusalError(502, f"the request to the {upstream} upstream cannot be written on HTTP") from None
    except httpx.HTTPError as error:
        raise RefusalError(502, f"the {upstream} upstream cannot be reached: {error!r}") from None


def upstream_refusal(
    server: Server, response: httpx.Response, payload: object, upstream: str, passed: Mapping[str, str]
) -> RefusalError:
    """The refusal for an upstream's error answer: its status, its error read in the
    upstream's shape, and the headers it passed on."""
    header = get_edge(upstream).errors.type_header
    error_type = None if header is None else response.headers.get(header)
    error = read_error(upstream, payload, response.status_code, error_type)
    own = as_dict(payload) if upstream == server.config.api else None  # passed as it came (.refusal)
    return RefusalError(response.status_code, error.message, error_type=error.error_type, headers=passed, body=own)
