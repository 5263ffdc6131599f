"""What the Gemini API says on HTTP: ``POST /v1beta/models/{model}:generateContent``.

- Routes: google-genai posts to ``{base_url}/v1beta/models/{model}:generateContent`` or
  ``:streamGenerateContent`` (``?alt=sse``: an SSE stream, else one JSON array whose items
  arrive over time); the model and the stream flag are in the path, not the body
  (https://ai.google.dev/api/generate-content). ``/v1/models/...`` is answered too.
- Auth: ``x-goog-api-key`` (or ``?key=``), the key from ``GEMINI_API_KEY``.
- Stream: SSE ``data:`` lines ended by CRLF (``alt=sse``, as Google's server writes them).
- Errors: ``{"error": {"code", "message", "status"}}`` with Google's canonical status
  names (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes); in a stream
  the same body as one more chunk; ``streamGenerateContent`` without ``alt=sse`` answers
  an error as a one-item array.
- Models: ``GET /v1beta/models`` answers ``{"models": [{"name": "models/...", ...}]}``
  (https://ai.google.dev/api/models#method:-models.list).
- Token counting: ``POST /v1beta/models/{model}:countTokens`` takes ``{"contents"}`` or
  ``{"generateContentRequest"}`` (the whole request, with system instruction and tools),
  answers ``{"totalTokens"}`` (https://ai.google.dev/api/tokens).
- Strict reading: Vertex AI's additions and proto3 JSON's second spelling of every field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from chatcodec._providers.families.google.errors import ERROR_READS, ERROR_TYPES, write_error
from chatcodec._providers.families.google.models import models_url, read_models
from chatcodec._providers.gemini.markers import INCLUDE_THOUGHTS, PROVIDER
from chatcodec._providers.gemini.stream_framing import FRAMING
from chatcodec.codec_kit import as_dict, as_list, bearer_key, count_written, model_in_path, read_nested_error
from chatcodec.contract import (
    Call,
    CountFront,
    CountUpstream,
    Detection,
    Edge,
    ErrorShape,
    Extension,
    Framing,
    Front,
    ModelList,
    RouteError,
    Upstream,
    UpstreamModels,
)

METHODS = {"generateContent": False, "streamGenerateContent": True}
"""The path's method -> whether it streams."""


def read_call(payload: dict[str, Any], target: str | None, query: Mapping[str, str]) -> Call:
    """The model and the method are the path's ``{model}:{method}``; the body gets the
    model, as the codec reads it; ``generationConfig.candidateCount`` says how many answers."""
    model, _, method = (target or "").rpartition(":")
    if method not in METHODS or not model:
        raise RouteError(f"unknown Gemini method {target!r}: expected generateContent or streamGenerateContent")
    framing: Framing = "sse" if query.get("alt") == "sse" else "json-array"
    options = {INCLUDE_THOUGHTS: True} if asks_for_thoughts(payload) else None
    choices = count_written((as_dict(payload.get("generationConfig")) or {}).get("candidateCount"))
    return Call({**payload, "model": model}, model, METHODS[method], framing, options, choices=choices)


def asks_for_thoughts(payload: Mapping[str, Any]) -> bool:
    """``generationConfig.thinkingConfig.includeThoughts`` (google-genai may spell the keys
    snake_case): Gemini answers with thoughts only then, and so does a server of its API."""
    config = as_dict(payload.get("generationConfig") or payload.get("generation_config")) or {}
    thinking = as_dict(config.get("thinkingConfig") or config.get("thinking_config")) or {}
    return (thinking.get("includeThoughts") or thinking.get("include_thoughts")) is True


def write_models(names: Sequence[str]) -> dict[str, Any]:
    methods = ["generateContent", "streamGenerateContent", "countTokens"]
    models = [{"name": f"models/{name}", "displayName": name, "supportedGenerationMethods": methods} for name in names]
    return {"models": models}


def count_request(body: dict[str, Any], path_model: str | None) -> dict[str, Any]:
    """The ``generateContentRequest`` when given (it holds the system instruction and
    tools), else the body's ``contents``; the model is the path's."""
    inner = as_dict(body.get("generateContentRequest"))
    request = dict(inner) if inner is not None else {key: value for key, value in body.items()}
    return {**request, "model": path_model or request.get("model")}


def count_url(base: str, model: str) -> str:
    return f"{base}/v1beta/models/{quote(model.removeprefix('models/'), safe='')}:countTokens"


def count_body(body: dict[str, Any], model: str) -> dict[str, Any]:
    request = model_in_path(body, False)
    return {"generateContentRequest": {"model": f"models/{model.removeprefix('models/')}", **request}}


def read_count(body: object) -> int | None:
    tokens = (as_dict(body) or {}).get("totalTokens")
    return tokens if isinstance(tokens, int) else None


def caller_key(headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """google-genai's ``x-goog-api-key`` header, a ``?key=`` query, or a bearer token."""
    return headers.get("x-goog-api-key") or query.get("key") or bearer_key(headers, query)


def upstream_url(base: str, model: str, stream: bool) -> str:
    name = quote(model.removeprefix("models/"), safe="")
    return f"{base}/v1beta/models/{name}:" + ("streamGenerateContent?alt=sse" if stream else "generateContent")


def upstream_headers(key: str | None, caller_headers: Mapping[str, str]) -> dict[str, str]:
    return {"x-goog-api-key": key} if key else {}


def read_error(body: object) -> tuple[str, str | None]:
    """The error of a body that may be a JSON array holding it as its first item
    (``streamGenerateContent`` without ``alt=sse`` answers ``[{"error": ...}]``)."""
    items = as_list(body)
    return read_nested_error(items[0] if items else body)


_VERTEX = "https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.endpoints/generateContent"
_VERTEX_LABELS = "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentRequest"
_REST = "https://ai.google.dev/api/generate-content#request-body"
_IMAGE_CONFIG = "https://ai.google.dev/api/generate-content#ImageConfig"
_RECORDED = "recorded, no documentation found: tests/fixtures/"

EXTENSIONS: tuple[Extension, ...] = (
    Extension(PROVIDER, "GenerateContentRequest", ("labels", "model"), _VERTEX_LABELS),
    Extension(PROVIDER, "GenerateContentRequest", ("model",), _REST),
    # The SDK types it on its own GenerateContentConfig (``image_config``), not on the
    # GenerationConfig the REST body's table is generated from; both spellings (proto3 JSON).
    Extension(PROVIDER, "GenerationConfig", ("imageConfig", "image_config"), _IMAGE_CONFIG),
    Extension(PROVIDER, "GenerateContentResponse", ("error",), _VERTEX),
    Extension(
        PROVIDER,
        "GenerateContentResponseUsageMetadata",
        ("serviceTier",),
        _RECORDED + "gemini/response/function_call_thought_signature.json",
    ),
)
"""Vertex AI's additions and proto3 JSON's two spellings (strict reading accepts them)."""

EDGE = Edge(
    PROVIDER,
    response_name="a Gemini response",
    framing=FRAMING,
    errors=ErrorShape(ERROR_TYPES, "INTERNAL", write_error, read_error, reads=ERROR_READS),
    front=Front(
        ("/v1beta/models/{target}", "/v1/models/{target}"),
        read_call,
        caller_key,
        models=ModelList(("/v1beta/models", "/v1/models"), write_models),
        count_tokens=CountFront(
            ("/v1beta/models/{model}:countTokens", "/v1/models/{model}:countTokens"),
            count_request,
            lambda tokens: {"totalTokens": tokens},
        ),
    ),
    upstream=Upstream(
        upstream_url,
        "GEMINI_API_KEY",
        upstream_headers,
        model_in_path,
        count_tokens=CountUpstream(count_url, count_body, read_count),
        models=UpstreamModels(models_url, read_models),
        semconv_name="gcp.gemini",
    ),
    detection=Detection(
        package=__package__,
        roles=None,
        shapes=(
            "tool:functionDeclarations",
            "message:model-or-parts",
        ),
        snake_case=True,
    ),
    extensions=EXTENSIONS,
)
"""The Gemini API edge."""
