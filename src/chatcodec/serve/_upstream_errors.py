"""An upstream exchange that failed, said in words: which deadline ran out, or what broke.

httpx's timeouts carry no text (``str(httpx.ReadTimeout(""))`` is empty), so a stream
whose upstream went quiet past ``--timeout`` was reported as "the upstream stream broke
off: " and nothing more. A timeout is named as one, with the setting and its seconds,
and answered 504 (a gateway timeout); any other failure names its type (and its text,
when it has one) and is a 502.
"""

from __future__ import annotations

import httpx

__all__ = ["failure"]


def failure(error: httpx.HTTPError, *, timeout: float, connect_timeout: float) -> tuple[str, int]:
    """Why ``error`` ended the exchange, and the status that says so."""
    if isinstance(error, httpx.ConnectTimeout):
        return f"timed out: no connection within {connect_timeout:g} s (--connect-timeout)", 504
    if isinstance(error, httpx.TimeoutException):
        return f"timed out: nothing came for {timeout:g} s (--timeout)", 504
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__, 502
