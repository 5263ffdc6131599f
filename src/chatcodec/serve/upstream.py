"""The upstream call: its URL, body and headers, per upstream API.

URLs are built the way each official SDK builds them from its ``base_url``:

======================  ==================================================================
``openai-chat``         ``{base}/chat/completions`` (the base includes ``/v1``)
``openai-responses``    ``{base}/responses``
``anthropic``           ``{base}/v1/messages``
``gemini``              ``{base}/v1beta/models/{model}:generateContent``, or
                        ``:streamGenerateContent?alt=sse`` for a stream
``bedrock-converse``    ``{base}/model/{modelId}/converse``, or ``/converse-stream``
======================  ==================================================================

Gemini and Bedrock take the model in the URL, so it is taken out of the body. An OpenAI
Chat stream asks for ``stream_options.include_usage``, so usage reaches every caller
that wants it (the caller's own wish is applied on the way back).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from chatcodec.serve.auth import auth_headers, sigv4_headers


@dataclass(frozen=True)
class UpstreamCall:
    """One request to send upstream."""

    url: str
    body: bytes
    headers: dict[str, str]


def upstream_call(
    upstream: str,
    base_url: str,
    body: dict[str, Any],
    *,
    model: str | None,
    stream: bool,
    key: str | None,
    caller_headers: Mapping[str, str],
) -> UpstreamCall:
    """The request for ``body`` (already in the upstream's format)."""
    body = dict(body)
    base = base_url.rstrip("/")
    if upstream in ("gemini", "bedrock-converse"):
        body.pop("model", None)
        body.pop("modelId", None)
        body.pop("stream", None)
    elif stream:
        body["stream"] = True
    if upstream == "openai-chat" and stream:
        body["stream_options"] = {**(body.get("stream_options") or {}), "include_usage": True}
    url = _url(upstream, base, model or "", stream)
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {"content-type": "application/json", **auth_headers(upstream, key, caller_headers)}
    if upstream == "bedrock-converse" and "authorization" not in headers:
        headers = sigv4_headers(url, data, headers)
    return UpstreamCall(url, data, headers)


def _url(upstream: str, base: str, model: str, stream: bool) -> str:
    match upstream:
        case "openai-chat":
            return f"{base}/chat/completions"
        case "openai-responses":
            return f"{base}/responses"
        case "anthropic":
            return f"{base}/v1/messages"
        case "gemini":
            name = model.removeprefix("models/")
            return f"{base}/v1beta/models/{quote(name, safe='')}:" + (
                "streamGenerateContent?alt=sse" if stream else "generateContent"
            )
        case _:
            return f"{base}/model/{quote(model, safe='')}/" + ("converse-stream" if stream else "converse")
