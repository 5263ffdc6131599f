"""The HTTP status each provider's error types stand for: the tables of the providers'
documented error lists, in a module that imports nothing, so the error classes
(:mod:`chatcodec.errors`) and the error shapes (:mod:`chatcodec.error_shapes`) both read
them without an import circle.

Sources: https://platform.openai.com/docs/guides/error-codes,
https://docs.anthropic.com/en/api/errors,
https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes,
https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors.
"""

from __future__ import annotations

OPENAI_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    409: "conflict_error",
    422: "unprocessable_entity_error",
    429: "rate_limit_error",
}
ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}
GEMINI_STATUSES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ABORTED",
    429: "RESOURCE_EXHAUSTED",
    499: "CANCELLED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
BEDROCK_TYPES = {
    400: "ValidationException",
    403: "AccessDeniedException",
    404: "ResourceNotFoundException",
    408: "ModelTimeoutException",
    424: "ModelErrorException",
    429: "ThrottlingException",
    500: "InternalServerException",
    503: "ServiceUnavailableException",
}
TYPES_BY_PROVIDER: dict[str, dict[int, str]] = {
    "openai-chat": OPENAI_TYPES,
    "openai-responses": OPENAI_TYPES,
    "anthropic": ANTHROPIC_TYPES,
    "gemini": GEMINI_STATUSES,
    "bedrock-converse": BEDROCK_TYPES,
}
SERVER_ERROR = {
    "openai-chat": "server_error",
    "openai-responses": "server_error",
    "anthropic": "api_error",
    "gemini": "INTERNAL",
    "bedrock-converse": "InternalServerException",
}
EXTRA_STATUSES = {
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


def error_status(error_type: str | None, default: int = 500) -> int:
    """The HTTP status an error type stands for, in any provider's vocabulary (a
    Bedrock stream's ``throttlingException`` spelling included)."""
    if error_type is None:
        return default
    if error_type in EXTRA_STATUSES:
        return EXTRA_STATUSES[error_type]
    for table in TYPES_BY_PROVIDER.values():
        for status, name in table.items():
            if name == error_type or name == error_type[:1].upper() + error_type[1:]:
                return status
    return default
