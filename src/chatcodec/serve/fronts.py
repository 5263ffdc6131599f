"""The APIs callers talk to: where each keeps its model, stream flag and key.

=====================  =====================================================  ====================
front                  paths                                                  caller's key
=====================  =====================================================  ====================
``openai-chat``        ``POST /v1/chat/completions``                          ``Authorization: Bearer``
``anthropic``          ``POST /v1/messages``                                  ``x-api-key`` (or Bearer)
``openai-responses``   ``POST /v1/responses``                                 ``Authorization: Bearer``
``gemini``             ``POST /v1beta/models/{model}:generateContent``,       ``x-goog-api-key`` or ``?key=``
                       ``:streamGenerateContent`` (``?alt=sse``: SSE, else
                       one JSON array, as Google's server does)
=====================  =====================================================  ====================

Paths are as each official SDK builds them from its ``base_url``: point the OpenAI SDK
at ``http://host:port/v1``, the Anthropic and google-genai SDKs at ``http://host:port``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.stream_framing import Framing

PATHS: dict[str, tuple[str, ...]] = {
    "openai-chat": ("/v1/chat/completions", "/chat/completions"),
    "anthropic": ("/v1/messages",),
    "openai-responses": ("/v1/responses", "/responses"),
    "gemini": ("/v1beta/models/{target:path}", "/v1/models/{target:path}"),
}
"""Routes per front (OpenAI's also without ``/v1``, for a ``base_url`` given without it)."""

_GEMINI_ACTIONS = {"generateContent": False, "streamGenerateContent": True}


class FrontError(ValueError):
    """A request the front cannot route (a Gemini path with an unknown action): 404."""


@dataclass(frozen=True)
class Call:
    """One caller request, as its front says it: the body and what sits outside it."""

    payload: dict[str, Any]
    """The request body, with the model put in for a Gemini front (whose model is in the path)."""
    model: str | None
    """The model the caller named."""
    stream: bool
    """Whether the caller asked for a stream."""
    include_usage: bool
    """OpenAI Chat's ``stream_options.include_usage`` (whether the caller wants a usage chunk)."""
    framing: Framing
    """How the caller's stream is framed (Gemini without ``alt=sse``: one JSON array)."""


def read_call(front: str, payload: dict[str, Any], path_target: str | None, query: Mapping[str, str]) -> Call:
    """What the caller asked, from its body and (Gemini) its path and query."""
    if front == "gemini":
        path_model, _, action = (path_target or "").rpartition(":")
        if action not in _GEMINI_ACTIONS or not path_model:
            raise FrontError(
                f"unknown Gemini method {path_target!r}: expected generateContent or streamGenerateContent"
            )
        framing: Framing = "sse" if query.get("alt") == "sse" else "json-array"
        return Call({**payload, "model": path_model}, path_model, _GEMINI_ACTIONS[action], False, framing)
    model = payload.get("model")
    stream = payload.get("stream") is True
    options = as_dict(payload.get("stream_options")) or {}
    include_usage = options.get("include_usage") is True
    return Call(payload, model if isinstance(model, str) else None, stream, include_usage, "sse")


def caller_key(front: str, headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """The API key the caller's SDK sent, where that SDK sends it."""
    if front == "anthropic" and headers.get("x-api-key"):
        return headers["x-api-key"]
    if front == "gemini":
        key = headers.get("x-goog-api-key") or query.get("key")
        if key:
            return key
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
