"""The upstream call: its URL, body and headers, from the upstream's edge.

URLs are built the way each official SDK builds them from its ``base_url``
(``Upstream.url`` in ``_providers/<name>/edge.py``): OpenAI's ``{base}/chat/completions``
(the base includes ``/v1``), Anthropic's ``{base}/v1/messages``, Gemini's
``{base}/v1beta/models/{model}:generateContent``, Bedrock's ``{base}/model/{modelId}/converse``.
An API that takes the model and the stream flag in the URL has them taken out of the
body (``Upstream.body``); an OpenAI Chat stream asks for ``stream_options.include_usage``,
so usage reaches every caller that wants it (the caller's own wish is applied on the way back).
A token count goes to the upstream's counting endpoint (``Upstream.count_tokens``) with
the request written for it, reduced to what that endpoint takes. A header value that cannot
go on HTTP (a caller's non-ASCII ``anthropic-beta``) is a 400 naming the header.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec._providers.contract.edge import Upstream
from chatcodec._registry import get_edge
from chatcodec.serve._json_body import json_body
from chatcodec.serve._refusal import RefusalError

_UNSENDABLE = re.compile("[^\t\x20-\x7e]")
"""A character an upstream header value cannot hold: httpx writes values as ASCII, and RFC 9110
section 5.5 allows no control character but a tab."""


@dataclass(frozen=True)
class UpstreamCall:
    """One request to send upstream."""

    url: str
    body: bytes
    headers: dict[str, str]


def upstream_side(api: str) -> Upstream:
    """The client side of ``api`` (refused when its edge has none)."""
    found = get_edge(api).upstream
    if found is None:
        raise ValueError(f"{api} cannot be called upstream: its edge has no upstream")
    return found


def api_version(upstream: str, caller_headers: Mapping[str, str], options: Mapping[str, object]) -> str | None:
    """The API version named for the upstream body (``Upstream.version_header``): the caller's
    own, else the operator's (``--option api_version=...``); None when neither names one (the
    writer then chooses, as the library's does: :func:`sent_version`) or the API has no version
    header."""
    side = upstream_side(upstream)
    if side.version_header is None:
        return None
    chosen = caller_headers.get(side.version_header) or options.get("api_version")
    return chosen if isinstance(chosen, str) and chosen else None


def sent_version(upstream: str, named: str | None, applied: str | None, options: Mapping[str, object]) -> str | None:
    """The API version a body is sent with: the one ``named`` for it, else the one its writer
    ``applied`` (a request's own marker, a server's required version, the rules' default: the
    version the library writes the same request for), else the API's default under ``options``
    (a writer that reports none); None for an API without a version header."""
    side = upstream_side(upstream)
    if side.version_header is None:
        return None
    if named or applied:
        return named or applied
    return None if side.default_version is None else side.default_version(options)


def upstream_call(
    upstream: str,
    base_url: str,
    body: dict[str, Any],
    *,
    model: str | None,
    stream: bool,
    key: str | None,
    caller_headers: Mapping[str, str],
    version: str | None = None,
) -> UpstreamCall:
    """The request for ``body`` (already in the upstream's format, for API ``version``)."""
    side = upstream_side(upstream)
    url = side.url(base_url.rstrip("/"), model or "", stream)
    return _signed(side, url, side.body(dict(body), stream), key, caller_headers, version=version)


def count_call(
    upstream: str,
    base_url: str,
    body: dict[str, Any],
    *,
    model: str,
    key: str | None,
    caller_headers: Mapping[str, str],
    version: str | None = None,
) -> UpstreamCall | None:
    """The token count request for ``body`` (in the upstream's format, for API ``version``), or
    None when the upstream has no counting endpoint."""
    side = upstream_side(upstream)
    if side.count_tokens is None:
        return None
    url = side.count_tokens.url(base_url.rstrip("/"), model)
    return _signed(side, url, side.count_tokens.body(dict(body), model), key, caller_headers, version=version)


def check_header_values(headers: Mapping[str, str]) -> None:
    """A 400 naming the first header whose value cannot be sent upstream (a caller's
    ``anthropic-beta`` or ``OpenAI-Organization`` holding a non-ASCII byte): httpx would raise
    while encoding it, a 500 the caller's SDK retries. The value is never quoted (a key's header
    is checked at admission, and a value may be one)."""
    for name, value in headers.items():
        if _UNSENDABLE.search(value):
            raise RefusalError(
                400, f"the {name} header holds a character an HTTP header sent upstream cannot carry (ASCII only)"
            )


def _signed(
    side: Upstream,
    url: str,
    body: dict[str, Any],
    key: str | None,
    caller_headers: Mapping[str, str],
    *,
    version: str | None = None,
) -> UpstreamCall:
    data = json_body(body)
    headers = {"content-type": "application/json", **side.headers(key, caller_headers)}
    check_header_values(headers)
    if side.version_header is not None and version is not None:
        headers[side.version_header] = version  # the version whose rules wrote the body
    if side.sign is not None and "authorization" not in headers:
        headers = side.sign(url, data, headers)
    return UpstreamCall(url, data, headers)
