"""The credentials a request sent upstream, kept out of every text the gateway relays or records.

Some servers repeat the key they were sent in their error text (``Incorrect API key provided:
sk-...``; OpenAI-compatible servers and proxies echo it whole). Relayed as it came, with client
keys in front of an operator key, any caller would read the operator's key in its 401, and the
request log and the span would keep it. So each request's record holds the values it sent as
credentials (:func:`sent_secrets`: the key, every value of a header named in
:data:`SECRET_HEADERS`, and the token after an ``Authorization`` scheme), and every text that
leaves for the caller (an error body, a stream's error event), the log line or the span is
scrubbed on its way: each such value replaced by :data:`REDACTED`.

A value shorter than :data:`SHORTEST_SECRET` is not scrubbed: no provider issues a key that
short, and replacing a short value would garble ordinary words of every message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec._narrow import is_dict, is_list

__all__ = ["NO_SECRETS", "REDACTED", "SECRET_HEADERS", "SHORTEST_SECRET", "Secrets", "sent_secrets"]

SECRET_HEADERS = frozenset(
    ("authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "x-amz-security-token")
)
"""The headers whose values are credentials (a bearer token, Anthropic's, Azure's and Google's
key headers, an AWS session token)."""
REDACTED = "[redacted]"
"""What a secret is replaced with."""
SHORTEST_SECRET = 8
"""The length below which a value is not scrubbed (see the module docstring)."""


@dataclass(frozen=True)
class Secrets:
    """The secret values of one request, longest first (so a key inside a header value that
    holds it is replaced with the whole value)."""

    values: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.values)

    def scrub(self, text: str) -> str:
        """``text`` with every secret replaced by :data:`REDACTED`."""
        for value in self.values:
            if value in text:
                text = text.replace(value, REDACTED)
        return text

    def scrub_data(self, data: Any) -> Any:
        """A JSON value (an upstream's error body) with every string in it scrubbed, keys too."""
        if not self.values:
            return data
        if isinstance(data, str):
            return self.scrub(data)
        if is_dict(data):
            return {self.scrub(name): self.scrub_data(value) for name, value in data.items()}
        if is_list(data):
            return [self.scrub_data(item) for item in data]
        return data


NO_SECRETS = Secrets()
"""A request that sent none (yet)."""


def sent_secrets(headers: Mapping[str, str], also: Iterable[str | None] = ()) -> Secrets:
    """The secrets of a request sent with ``headers`` (lower-cased names), and ``also`` (the key
    its caller presented, which the upstream may have been sent under another header)."""
    found: set[str] = set()
    for name, value in headers.items():
        if name in SECRET_HEADERS:
            found.add(value)
            _, _, token = value.partition(" ")  # "Bearer sk-...": the token alone may be echoed
            found.add(token.strip())
    found.update(value for value in also if value)
    kept = sorted((value for value in found if len(value) >= SHORTEST_SECRET), key=len, reverse=True)
    return Secrets(tuple(kept))
