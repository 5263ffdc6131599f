"""What Ollama's native chat API says on HTTP: ``POST /api/chat``.

- Routes: the ``ollama`` SDKs post to ``{host}/api/chat`` (``OLLAMA_HOST``, by default
  ``http://localhost:11434``); the model and the stream flag are in the body, and the
  server streams unless the body says ``"stream": false``
  (https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion).
- Auth: none on a local server; ollama.com's cloud takes ``Authorization: Bearer``, the
  key from ``OLLAMA_API_KEY`` (the Python SDK's ``Client`` reads it).
- Stream: JSON Lines (``application/x-ndjson``), one object a line, the last with
  ``done: true`` (https://docs.ollama.com/api/streaming).
- Errors: ``{"error": "<message>"}`` with the HTTP status (400, 404, 429, 500, 502), no
  error type; inside a stream the same object as one more line
  (https://docs.ollama.com/api/errors).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.ollama.markers import PROVIDER
from chatcodec._providers.ollama.stream_framing import FRAMING
from chatcodec.codec_kit import as_dict, as_list
from chatcodec.contract import Call, Detection, Edge, ErrorShape, Front, ModelList, Upstream, UpstreamModels


def read_call(payload: dict[str, Any], target: str | None, query: Mapping[str, str]) -> Call:
    """The model and the stream flag are in the body; a body without ``stream`` streams."""
    model = payload.get("model")
    return Call(payload, model if isinstance(model, str) else None, payload.get("stream") is not False, "jsonl")


def upstream_url(base: str, model: str, stream: bool) -> str:
    return f"{base}/api/chat"


def upstream_body(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """The stream flag, always written: the server streams when it is left out."""
    return {**body, "stream": stream}


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    """``{"error": "<message>"}``: Ollama's errors name no type (the HTTP status says it)."""
    return {"error": message}


def read_error(body: object) -> tuple[str, str | None]:
    """The message of an ``{"error": "..."}`` body (a text body is the message itself)."""
    if isinstance(body, str):
        return body, None
    error = (as_dict(body) or {}).get("error")
    return (error if isinstance(error, str) else ""), None


def read_tags(body: object) -> list[str]:
    """The model names of ``GET /api/tags`` (``{"models": [{"name", "model", ...}]}``,
    https://docs.ollama.com/api/tags)."""
    entries = [as_dict(entry) or {} for entry in as_list((as_dict(body) or {}).get("models")) or ()]
    return [entry["name"] for entry in entries if isinstance(entry.get("name"), str)]


def write_models(names: Sequence[str]) -> dict[str, Any]:
    """``GET /api/tags``'s ``{"models": [{"name", "model", "modified_at", "size", "digest",
    "details"}]}`` (https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models)."""
    details: dict[str, Any] = {}
    models = [
        {
            "name": name,
            "model": name,
            "modified_at": "1970-01-01T00:00:00Z",
            "size": 0,
            "digest": "",
            "details": details,
        }
        for name in names
    ]
    return {"models": models}


EDGE = Edge(
    PROVIDER,
    response_name="an Ollama chat response",
    framing=FRAMING,
    errors=ErrorShape({}, "server_error", write_error, read_error, reads={"server_error": 500}),
    front=Front(("/api/chat",), read_call, models=ModelList(("/api/tags",), write_models)),
    upstream=Upstream(
        upstream_url,
        "OLLAMA_API_KEY",
        body=upstream_body,
        models=UpstreamModels(lambda base: f"{base}/api/tags", read_tags),
    ),
    detection=Detection(
        package=__package__,
        # ChatRequest fields the reader keeps in the bag (api/types.go,
        # https://github.com/ollama/ollama/blob/main/api/types.go)
        keys=("truncate", "shift", "logprobs", "top_logprobs"),
        roles=("system", "user", "assistant", "tool"),
        shapes=(
            "tool:function",
            "message:tool_calls",
        ),
    ),
)
"""The Ollama ``/api/chat`` edge."""
