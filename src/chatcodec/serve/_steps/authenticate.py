"""Step 1: the caller let in, before its body is read (:mod:`chatcodec.serve._auth` says who
may call and which key goes upstream), with its headers and the owner of the answers it
may continue."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from starlette.requests import Request

from chatcodec.serve._auth import Caller, admit, forwarded_headers
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._fronts import caller_key


@dataclass(frozen=True)
class Admitted:
    """A caller let in."""

    caller: Caller
    headers: dict[str, str]
    """Its headers an upstream may read, lower-cased (:func:`~chatcodec.serve._auth.forwarded_headers`)."""
    key: str | None
    """The key it presented (where its SDK sends it). Its digest
    (:func:`~chatcodec.serve._response_store.owner_of`) says whose kept answers and thinking
    it may continue; worked out where a store asks (a sha256 a request, which a
    server without a store never needs)."""


def admitted(config: ServeConfig, request: Request) -> Admitted:
    """Who is calling (or a 401), its headers, and the key that says what it owns in the store."""
    headers = {name.lower(): value for name, value in request.headers.items()}
    query: Mapping[str, str] = request.query_params if request.scope.get("query_string") else {}  # parsed if sent
    presented = caller_key(config.api, headers, query)
    caller = admit(presented, config.client_keys, allow_anonymous=config.allow_anonymous)
    return Admitted(caller, forwarded_headers(caller, headers), presented)
