"""The upstream client keeps no cookie: a gateway serves many callers on one client, and
httpx's client keeps every ``Set-Cookie`` an answer brings and sends it on every later
request to that host, so a session cookie the upstream set for one caller would go upstream
on another caller's request (and a load balancer's affinity cookie pin every caller to one
backend).

httpx has no switch for it; the way its maintainers give
(https://github.com/encode/httpx/discussions/2271, https://github.com/encode/httpx/issues/2992)
is a ``http.cookiejar.CookieJar`` whose ``extract_cookies`` keeps nothing, as the client's
jar. Cookies the operator set on a client it gave (``create_app(client=...)``) are its own,
sent for every caller like its default headers: they stay."""

from __future__ import annotations

from http.client import HTTPResponse
from http.cookiejar import CookieJar
from urllib.request import Request

import httpx


class NeverStored(CookieJar):
    """A cookie jar that keeps no cookie an answer sets (those put in it are sent)."""

    def extract_cookies(self, response: HTTPResponse, request: Request) -> None:
        """Keep nothing: the next request may be another caller's."""


def keeping_no_cookies(client: httpx.AsyncClient) -> httpx.AsyncClient:
    """``client``, its cookie jar one that keeps nothing an answer sets (cookies it was
    given stay)."""
    if not isinstance(client.cookies.jar, NeverStored):
        jar = NeverStored()
        for cookie in client.cookies.jar:
            jar.set_cookie(cookie)
        client.cookies = jar
    return client
