"""The HTTP status each error type stands for, in every provider's vocabulary, in a module
that imports nothing, so the error classes (:mod:`chatcodec.errors`) and the error shapes
(:mod:`chatcodec.error_shapes`) both read it without an import circle.

Which type a provider *writes* for a status is its own fact, in its edge
(``Edge.errors.types``, ``providers/<name>/edge.py``); this table *reads* a type from any
of them, so an Anthropic ``overloaded_error`` read by an OpenAI-compatible decoder is
still a 529. Every type an edge writes must be here with the same status (a law in
``tests/conformance/test_edges.py``). Sources: the providers' documented error lists,
https://platform.openai.com/docs/guides/error-codes,
https://docs.anthropic.com/en/api/errors,
https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes,
https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors.
"""

from __future__ import annotations

DOCUMENTED_STATUSES: dict[str, int] = {
    # the OpenAI SDK's status errors
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "conflict_error": 409,
    "unprocessable_entity_error": 422,
    "rate_limit_error": 429,
    # Anthropic's error types beyond those
    "billing_error": 402,
    "request_too_large": 413,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
    # Google's canonical status codes
    "INVALID_ARGUMENT": 400,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "ABORTED": 409,
    "RESOURCE_EXHAUSTED": 429,
    "CANCELLED": 499,
    "INTERNAL": 500,
    "UNIMPLEMENTED": 501,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
    # AWS Bedrock Runtime's exceptions
    "ValidationException": 400,
    "AccessDeniedException": 403,
    "ResourceNotFoundException": 404,
    "ModelTimeoutException": 408,
    "ModelErrorException": 424,
    "ThrottlingException": 429,
    "InternalServerException": 500,
    "ServiceUnavailableException": 503,
}
"""Error type -> HTTP status, for the types the providers document by status; a type is
also found with its first letter upper-cased (a Bedrock stream's ``throttlingException``)."""

EXTRA_STATUSES: dict[str, int] = {
    "server_error": 500,
    "insufficient_quota": 429,
    "rate_limit_exceeded": 429,
    "invalid_api_key": 401,
    "context_length_exceeded": 400,
    "FAILED_PRECONDITION": 400,
    "OUT_OF_RANGE": 400,
    "ServiceQuotaExceededException": 429,
    "ModelNotReadyException": 429,
    "ModelStreamErrorException": 424,
}
"""Types and codes the providers send beside those (OpenAI's ``code`` values, Google's
statuses with no HTTP status of their own, Bedrock's other exceptions), read exactly."""


def error_status(error_type: str | None, default: int = 500) -> int:
    """The HTTP status an error type stands for, in any provider's vocabulary (a
    Bedrock stream's ``throttlingException`` spelling included)."""
    if error_type is None:
        return default
    if error_type in EXTRA_STATUSES:
        return EXTRA_STATUSES[error_type]
    found = DOCUMENTED_STATUSES.get(error_type)
    if found is None:
        found = DOCUMENTED_STATUSES.get(error_type[:1].upper() + error_type[1:])
    return default if found is None else found
