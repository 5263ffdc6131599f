"""Google's error facts, one for every Google API wire (``generateContent`` and Interactions):
the body ``{"error": {"code", "message", "status"}}`` and its canonical status names by
HTTP status (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ERROR_TYPES: Mapping[int, str] = {
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
"""Google's canonical status names by HTTP status."""

ERROR_READS: Mapping[str, int] = {"FAILED_PRECONDITION": 400, "OUT_OF_RANGE": 400}
"""Google's canonical statuses with no HTTP status of their own in the table above, read
as the 400 the API answers them with
(https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes)."""


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    """Google's error body."""
    return {"error": {"code": status, "message": message, "status": kind}}
