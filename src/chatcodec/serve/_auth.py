"""Who may call the server, and the key sent upstream for them.

Two kinds of key, never confused:

- a **client key** is the server's own (``--client-key``, ``--client-key-file``): when
  any is set, a caller must present one (where its SDK sends its key, the front's
  ``caller_key``), and the upstream gets the operator's key from the environment
  (``--api-key-env`` or a route's ``api_key_env``, by default the variable the upstream's
  SDK reads, ``Upstream.key_env``), never the client key;
- with no client keys, the caller's own key is the **upstream key**, passed through in
  the upstream's own header (its edge's ``Upstream.headers``).

A caller with no key is refused 401 unless the operator allowed anonymous callers
(``--allow-anonymous``): the environment's key is then spent for whoever reaches the
port. Refusing by default is what keeps ``--host 0.0.0.0`` (or a web page's request to
``127.0.0.1``) from making the operator's key an open relay. Keys are compared in
constant time (:func:`hmac.compare_digest`). An upstream that signs requests sent with
no key (Bedrock's SigV4) does so in its edge (``Upstream.sign``), with the same rule:
only for a client-key holder or an allowed anonymous caller.

A caller spending the operator's key does not choose which of the operator's accounts
pays: the OpenAI SDK's ``OpenAI-Organization`` and ``OpenAI-Project`` headers, which an
OpenAI upstream bills to (https://platform.openai.com/docs/api-reference/authentication),
are passed only with the caller's own key (:func:`forwarded_headers`).

A key that is going upstream in a header must be one a header can carry: visible ASCII
(RFC 9110 section 5.5 allows no CR, LF or NUL in a field value, and httpx encodes values
as ASCII). A caller's key with a CR/LF (a Gemini ``?key=`` percent-escapes anything) or a
non-ASCII character is refused 401, and an operator's key from the environment likewise
500, with a message naming where the key came from and never the key: the error an HTTP
client raises quotes the whole header value, and it would reach the answer, the log
line and the span.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from chatcodec._providers.contract.edge import Upstream
from chatcodec._providers.families.openai.edge import OPENAI_PASSED_THROUGH
from chatcodec.serve._refusal import RefusalError


@dataclass(frozen=True)
class Caller:
    """Who is calling, once let in."""

    own_key: str | None
    """The caller's key to pass upstream (None: the operator's key is used)."""
    client: bool
    """Whether the caller presented one of the server's client keys."""


def admit(presented: str | None, client_keys: frozenset[str], *, allow_anonymous: bool) -> Caller:
    """The caller presenting ``presented`` (its SDK's key), or a 401."""
    if presented and not sendable(presented):
        raise RefusalError(
            401, "the API key holds a character an HTTP header cannot carry (a key is visible ASCII only)"
        )
    if client_keys:
        if presented is not None and _known(presented, client_keys):
            return Caller(None, client=True)
        raise RefusalError(401, "this server needs one of its client keys (the API key your SDK sends)")
    if presented:
        return Caller(presented, client=False)
    if allow_anonymous:
        return Caller(None, client=False)
    raise RefusalError(401, "no API key: send your upstream key as your SDK does (this server lends none)")


def upstream_key(upstream: Upstream, caller: Caller, key_env: str | None) -> str | None:
    """The key to send upstream: the caller's own, else the operator's from the environment."""
    if caller.own_key is not None:
        return caller.own_key
    name = key_env or upstream.key_env
    key = os.environ.get(name) or None
    if key is not None and not sendable(key):
        raise RefusalError(
            500, f"the upstream key in ${name} holds a character an HTTP header cannot carry (fix the variable)"
        )
    return key


def forwarded_headers(caller: Caller, headers: Mapping[str, str]) -> dict[str, str]:
    """The caller's headers an upstream may read: without the account-choosing ones when
    the operator's key is spent (see the module docstring)."""
    if caller.own_key is not None:
        return dict(headers)
    return {name: value for name, value in headers.items() if name not in OPENAI_PASSED_THROUGH}


def sendable(key: str) -> bool:
    """Whether ``key`` is visible ASCII (``!`` to ``~``), the only characters sent as a key."""
    # ASCII's printable characters are 0x20 to 0x7E; one call each, not a loop over the key in Python
    return key.isascii() and key.isprintable() and " " not in key


def read_key_file(path: str | Path) -> frozenset[str]:
    """The client keys in ``path``, one a line (blank lines and ``#`` comments skipped)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    keys = frozenset(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))
    if not keys:
        raise ValueError(f"{path} holds no client key")
    return keys


def _known(presented: str, client_keys: frozenset[str]) -> bool:
    given = presented.encode()
    found = False
    for key in client_keys:  # every key compared, so the time does not say which matched
        found |= hmac.compare_digest(given, key.encode())
    return found
