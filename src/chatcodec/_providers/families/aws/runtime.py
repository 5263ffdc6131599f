"""The Bedrock Runtime's facts every AWS body shares on HTTP, whatever the operation
(Converse, InvokeModel and their streams): its exception types by HTTP status, the error
body and stream exception event it writes and how to read them back, and SigV4 signing.

- Errors: a ``{"message"}`` body with the type in the ``x-amzn-ErrorType`` header; in a
  stream an exception event named after the type in lower camel case
  (``{"throttlingException": {"message"}}``;
  https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors,
  https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html#API_runtime_InvokeModelWithResponseStream_Errors).
- Auth: with no bearer key, a request signed with SigV4 from botocore's credential chain
  when botocore is installed (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec._providers.contract.edge import read_nested_error

ERROR_TYPES: Mapping[int, str] = {
    400: "ValidationException",
    403: "AccessDeniedException",
    404: "ResourceNotFoundException",
    408: "ModelTimeoutException",
    424: "ModelErrorException",
    429: "ThrottlingException",
    500: "InternalServerException",
    503: "ServiceUnavailableException",
}
"""The Bedrock Runtime exceptions by HTTP status
(https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors)."""
_OTHER_EXCEPTIONS: Mapping[str, int] = {
    "ServiceQuotaExceededException": 429,
    "ModelNotReadyException": 429,
    "ModelStreamErrorException": 424,
}
ERROR_READS: Mapping[str, int] = {
    **_OTHER_EXCEPTIONS,
    **{
        kind[:1].lower() + kind[1:]: status
        for kind, status in [*((kind, status) for status, kind in ERROR_TYPES.items()), *_OTHER_EXCEPTIONS.items()]
    },
}
"""The Runtime's other exceptions, and every exception as a stream's member names it
(``throttlingException``), with its HTTP status."""
_REGION = re.compile(r"bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com")


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    return {"message": message}


def write_error_event(message: str, status: int, kind: str) -> dict[str, Any]:
    return {kind[:1].lower() + kind[1:]: {"message": message}}


def read_error(body: object) -> tuple[str, str | None]:
    """A stream's ``{"throttlingException": {"message"}}`` (the type is the member's
    name), else the ``{"message"}`` body (its type is in the header)."""
    fields = as_dict(body)
    if fields is not None and len(fields) == 1 and next(iter(fields)).endswith("Exception"):
        ((name, inner),) = fields.items()
        message = (as_dict(inner) or {}).get("message")
        return (message if isinstance(message, str) else ""), name
    return read_nested_error(body)


def sigv4_headers(url: str, body: bytes, headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` plus a SigV4 signature for Bedrock, from botocore's credential chain
    (environment, profile, instance role); unchanged when botocore or credentials are missing."""
    try:  # botocore has no type information: reached through import_module, as Any
        auth = importlib.import_module("botocore.auth")
        requests = importlib.import_module("botocore.awsrequest")
        sessions = importlib.import_module("botocore.session")
    except ImportError:
        return dict(headers)
    credentials = sessions.Session().get_credentials()
    if credentials is None:
        return dict(headers)
    match = _REGION.search(url)
    region = match.group(1) if match else os.environ.get("AWS_REGION", "us-east-1")
    request = requests.AWSRequest(method="POST", url=url, data=body, headers=dict(headers))
    auth.SigV4Auth(credentials, "bedrock", region).add_auth(request)
    return {str(name): str(value) for name, value in request.headers.items()}
