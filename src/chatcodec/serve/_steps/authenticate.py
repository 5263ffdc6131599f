"""Step 1: the caller let in, before its body is read (:mod:`chatcodec.serve._auth` says who
may call and which key goes upstream), with its headers and the owner of the answers it
may continue."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from starlette.requests import Request

from chatcodec.serve._auth import Caller, admit, forwarded_headers
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._fronts import caller_key
from chatcodec.serve._response_store import owner_of


@dataclass(frozen=True)
class Admitted:
    """A caller let in."""

    caller: Caller
    headers: dict[str, str]
    """Its headers an upstream may read, lower-cased (:func:`~chatcodec.serve._auth.forwarded_headers`)."""
    api: str
    query: Mapping[str, str]
    """Its query parameters (empty when it sent none)."""

    @cached_property
    def owner(self) -> str:
        """The digest of its key: whose kept answers and thinking it may continue. Worked
        out when a store asks (the key found again and hashed: 12 k instructions a request
        a server without a store never needs)."""
        return owner_of(caller_key(self.api, self.headers, self.query))


def admitted(config: ServeConfig, request: Request) -> Admitted:
    """Who is calling (or a 401), its headers, and what it owns in the store."""
    headers = {name.lower(): value for name, value in request.headers.items()}
    query: Mapping[str, str] = request.query_params if request.scope.get("query_string") else {}  # parsed if sent
    caller = admit(caller_key(config.api, headers, query), config.client_keys, allow_anonymous=config.allow_anonymous)
    return Admitted(caller, forwarded_headers(caller, headers), config.api, query)
