"""What both OpenAI APIs (Chat Completions and Responses) say on HTTP alike: the error
body and types, the model list, the headers an upstream reads. Each folder's ``edge.py``
fills its :class:`~chatcodec._providers.contract.edge.Edge` with these; the record itself
names no vendor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from chatcodec import ProviderAPIError
from chatcodec._providers.contract.edge import bearer_headers
from chatcodec.codec_kit import as_dict

__all__ = [
    "OPENAI_ERROR_READS",
    "OPENAI_ERROR_TYPES",
    "OPENAI_PASSED_THROUGH",
    "openai_headers",
    "raise_openai_error",
    "write_openai_error",
    "write_openai_models",
]


OPENAI_ERROR_TYPES: Mapping[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    409: "conflict_error",
    422: "unprocessable_entity_error",
    429: "rate_limit_error",
}
"""The error types of both OpenAI APIs (Chat Completions and Responses) by status, as the
OpenAI SDK names its status errors (https://platform.openai.com/docs/guides/error-codes);
a 5xx is ``server_error``."""

OPENAI_ERROR_READS: Mapping[str, int] = {
    "server_error": 500,
    "insufficient_quota": 429,
    "rate_limit_exceeded": 429,
    "invalid_api_key": 401,
    "context_length_exceeded": 400,
}
"""The types and ``code`` values both OpenAI APIs send beside those
(https://platform.openai.com/docs/guides/error-codes)."""


def write_openai_error(message: str, status: int, kind: str) -> dict[str, Any]:
    """``{"error": {"message", "type", "param", "code"}}``, the body the OpenAI SDK reads."""
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def raise_openai_error(payload: dict[str, Any], provider: str) -> NoReturn:
    """An error body (``{"error": {...}}``, what a 4xx/5xx carries) as the
    :class:`~chatcodec.ProviderAPIError` with the provider's message and type (or code)."""
    error = as_dict(payload["error"]) or {"message": str(payload["error"])}
    kind = error.get("type") or error.get("code")
    message = str(error.get("message", error))
    raise ProviderAPIError(message, None if kind is None else str(kind), payload["error"], provider=provider)


def write_openai_models(names: Sequence[str]) -> dict[str, Any]:
    """``{"object": "list", "data": [{"id", "object": "model", "created", "owned_by"}]}``, the
    body of both OpenAI APIs' ``GET /v1/models``
    (https://platform.openai.com/docs/api-reference/models/list)."""
    models = [{"id": name, "object": "model", "created": 0, "owned_by": "chatcodec"} for name in names]
    return {"object": "list", "data": models}


OPENAI_PASSED_THROUGH = ("openai-organization", "openai-project")
"""Caller headers an OpenAI upstream reads too (the OpenAI SDK's ``organization`` and ``project``)."""


def openai_headers(key: str | None, caller_headers: Mapping[str, str]) -> dict[str, str]:
    """Both OpenAI APIs' headers: the bearer key, and the caller's organization and project."""
    passed = {name: caller_headers[name] for name in OPENAI_PASSED_THROUGH if name in caller_headers}
    return {**bearer_headers(key, caller_headers), **passed}
