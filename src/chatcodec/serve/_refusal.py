"""A request answered with an error, and that error in the caller's own API's shape.

Every error the server answers goes through here, the unhandled ones too (a 500 in the
front's shape, never Starlette's ``text/plain`` "Internal Server Error"): the caller's
SDK then raises its own typed error (``openai.RateLimitError``,
``anthropic.OverloadedError``) with the message and status; the server's own overload is the
front's overload status (Anthropic's 529). An upstream's error type
is kept when the front's API has the same type for the same status (Anthropic to
Anthropic keeps ``overloaded_error``), and goes in the body's ``code`` where the front's shape has an
empty one (OpenAI's), so a caller can still tell ``insufficient_quota`` from a rate limit.
When the front speaks the upstream's own API, the upstream's error body is passed as it
came (OpenAI's ``type``, ``code`` and ``param``, Anthropic's ``type``): nothing to translate,
so nothing is lost. What the request lost on its way upstream is in the
``chatcodec-losses`` header of an error answer as of a success: an upstream's 400 is
often the loss's consequence (Claude's thinking required where a seal was dropped).
The credentials the request sent upstream are scrubbed from the message, the error type, the
headers and the upstream's body (:mod:`.secrets`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from starlette.responses import JSONResponse, Response

from chatcodec._error_statuses import error_status
from chatcodec._narrow import as_dict
from chatcodec._registry import get_edge
from chatcodec.serve._bounded import bounded
from chatcodec.serve._request_log import losses_header
from chatcodec.serve._secrets import Secrets

if TYPE_CHECKING:
    from chatcodec.serve._request_log import RequestRecord


class RefusalError(Exception):
    """A request answered with an error in the caller's shape."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        error_type: str | None = None,
        headers: Mapping[str, str] | None = None,
        body: Mapping[str, Any] | None = None,
        overload: bool = False,
    ) -> None:
        message = bounded(message)  # it may quote the caller: a field name, a model (:mod:`.bounded`)
        super().__init__(message)
        self.status = status
        self.message = message
        self.error_type = error_type
        """The upstream's own error type (``rate_limit_exceeded``), when it named one."""
        self.headers: dict[str, str] = dict(headers or {})
        """Headers to answer with (the upstream's ``retry-after``, rate limits, request id)."""
        self.body: dict[str, Any] | None = None if body is None else dict(body)
        """The upstream's own error body, answered as it is (set only when the front speaks its API)."""
        self.overload = overload
        """The server's own overload: answered with the front's overload status
        (``ErrorShape.overloaded``: Anthropic's 529 ``overloaded_error``, 503 elsewhere)."""


def refusal_body(api: str, refusal: RefusalError) -> dict[str, Any]:
    """The error body of ``api`` for ``refusal``."""
    if refusal.body is not None:
        return refusal.body
    shape = get_edge(api).errors
    own_types = {*shape.types.values(), shape.server_error}
    kept = refusal.error_type in own_types and error_status(refusal.error_type) == refusal.status
    kind = refusal.error_type if kept and refusal.error_type is not None else shape.type_for(refusal.status)
    body = shape.write(refusal.message, refusal.status, kind)
    inner = as_dict(body.get("error"))
    if refusal.error_type is not None and inner is not None and "code" in inner and inner["code"] is None:
        inner["code"] = refusal.error_type
    return body


def refused(api: str, refusal: RefusalError, record: RequestRecord | None = None) -> Response:
    """``refusal`` as the ``api`` front's error body, status and headers (noted on ``record``,
    whose losses so far go in the ``chatcodec-losses`` header)."""
    if refusal.overload:
        refusal = _front_overload(api, refusal)
    if record is not None:
        refusal = scrubbed(refusal, record.secrets)
        record.status, record.error = refusal.status, refusal.message
    headers = refusal.headers if record is None else {**refusal.headers, **losses_header(record.losses)}
    return _ErrorResponse(refusal_body(api, refusal), refusal.status, headers=headers)


def _front_overload(api: str, refusal: RefusalError) -> RefusalError:
    """The server's overload said as the front's provider says its own (Anthropic's SDK
    expects 529 ``overloaded_error``, and raises its ``OverloadedError`` for it)."""
    status = get_edge(api).errors.overloaded
    if status == refusal.status:
        return refusal
    return RefusalError(status, refusal.message, headers=refusal.headers)


def scrubbed(refusal: RefusalError, secrets: Secrets) -> RefusalError:
    """``refusal`` with the request's credentials out of its message, its error type (the
    OpenAI Chat front's ``code``), its headers and its upstream body (:mod:`.secrets`: an
    upstream may echo the key it was sent)."""
    if not secrets:
        return refusal
    body = None if refusal.body is None else secrets.scrub_data(refusal.body)
    error_type = None if refusal.error_type is None else secrets.scrub(refusal.error_type)
    headers = secrets.scrub_headers(refusal.headers)
    message = secrets.scrub(refusal.message)
    return RefusalError(refusal.status, message, error_type=error_type, headers=headers, body=body)


class _ErrorResponse(JSONResponse):
    """An error body, written as Starlette writes JSON, except one whose text holds a lone
    surrogate (an upstream's error message cut inside an emoji, read by ``json.loads`` and
    passed on): UTF-8 cannot encode it, so that body is written with ASCII escapes, the
    ``"\\ud83d"`` the upstream sent, instead of failing as an internal error."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode()
