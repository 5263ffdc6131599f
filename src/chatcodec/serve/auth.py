"""Keys for the upstream: the caller's own, passed through, or the server's.

The caller's key (:func:`~chatcodec.serve.fronts.caller_key`) goes to the upstream in
the upstream's own header; when the caller sent none, the server's environment supplies
it (``--api-key-env``, by default the variable the upstream's SDK reads). Bedrock takes
a bearer API key (``AWS_BEARER_TOKEN_BEDROCK``, as boto3 does since 2025), or, without
one, a request signed with SigV4 from botocore's credential chain when botocore is
installed (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Mapping

DEFAULT_KEY_ENV = {
    "openai-chat": "OPENAI_API_KEY",
    "openai-responses": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "bedrock-converse": "AWS_BEARER_TOKEN_BEDROCK",
}
ANTHROPIC_VERSION = "2023-06-01"
_PASSED_THROUGH = ("anthropic-version", "anthropic-beta", "openai-organization", "openai-project")
"""Caller headers the upstream reads too, when caller and upstream speak the same family."""
_BEDROCK_REGION = re.compile(r"bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com")


def upstream_key(upstream: str, caller: str | None, key_env: str | None) -> str | None:
    """The key to send: the caller's, else the environment's."""
    if caller:
        return caller
    return os.environ.get(key_env or DEFAULT_KEY_ENV[upstream]) or None


def auth_headers(upstream: str, key: str | None, caller_headers: Mapping[str, str]) -> dict[str, str]:
    """The upstream's auth (and version) headers for ``key``."""
    headers: dict[str, str] = {}
    if upstream == "anthropic":
        headers["anthropic-version"] = caller_headers.get("anthropic-version", ANTHROPIC_VERSION)
        if "anthropic-beta" in caller_headers:
            headers["anthropic-beta"] = caller_headers["anthropic-beta"]
        if key:
            headers["x-api-key"] = key
    elif upstream == "gemini":
        if key:
            headers["x-goog-api-key"] = key
    elif key:
        headers["authorization"] = f"Bearer {key}"
    if upstream.startswith("openai"):
        headers.update({name: caller_headers[name] for name in _PASSED_THROUGH[2:] if name in caller_headers})
    return headers


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
    match = _BEDROCK_REGION.search(url)
    region = match.group(1) if match else os.environ.get("AWS_REGION", "us-east-1")
    request = requests.AWSRequest(method="POST", url=url, data=body, headers=dict(headers))
    auth.SigV4Auth(credentials, "bedrock", region).add_auth(request)
    return {str(name): str(value) for name, value in request.headers.items()}
