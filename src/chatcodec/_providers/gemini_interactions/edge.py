"""What the Interactions API says on HTTP: ``POST /v1beta/interactions``.

- Route: ``{base_url}/v1beta/interactions``, the model in the body, ``stream: true`` in the
  body for an SSE stream (the streaming guide's REST request,
  https://ai.google.dev/gemini-api/docs/interactions/streaming). google-genai 3.6.1 posts to
  ``/{api_version}/interactions``, its default version ``v1`` (``GOOGLE_AI_API_DEFAULT_VERSION``),
  and asks ``Accept: text/event-stream`` for a stream: a front answers both versions; a kept
  interaction is read back with ``GET /{api_version}/interactions/{id}``.
- Auth: ``x-goog-api-key``, the key from ``GEMINI_API_KEY`` (google-genai's auth hook; a
  caller's ``?key=`` or bearer token is read too, as the ``gemini`` front reads them).
- Revision: ``Api-Revision: 2026-05-20`` is sent upstream, as the REST examples send it: the
  steps schema this folder writes and reads (the default since that date).
- Vertex AI: its Interactions resource is location-scoped,
  ``https://{location}-aiplatform.googleapis.com/v1beta1/projects/{project}/locations/{location}/interactions``
  with OAuth bearer auth (google-genai 3.6.1 puts ``projects/{p}/locations/{l}`` after the API
  version for a Vertex client; ``projects.locations.interactions`` in Vertex AI's reference,
  https://docs.cloud.google.com/gemini-enterprise-agent-platform/reference/rpc/google.learning.vertex.api.interactions.v1beta1;
  Vertex's express-mode API keys do not reach it). A base URL that already names
  ``/projects/{p}/locations/{l}`` is such an endpoint: ``/interactions`` is added to it and
  the key is sent as ``Authorization: Bearer`` (an access token, e.g. from
  ``gcloud auth print-access-token``).
- Stream: SSE, each event named (:mod:`.stream_framing`); an error inside it is an
  ``error`` event (google-genai 3.6.1 ``ErrorEvent``).
- Errors: Google's body and status names, shared with the Gemini API
  (:mod:`chatcodec._providers.families.google.errors`); written with ``code`` the status name,
  as the SDK's ``Error`` types it (a string: its ``CreateInteractionClientErrorData`` refuses
  the numeric code of ``generateContent``'s body), ``status`` beside it for Google's other readers.
- Answering: an Interaction is the server's own resource (its id, continued by
  ``previous_interaction_id``): :mod:`.server`.
- Models: the API has no list of its own (the Gemini API's ``GET /v1beta/models`` lists the
  models; this front lists none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from chatcodec._providers.families.google.errors import ERROR_READS, ERROR_TYPES
from chatcodec._providers.families.google.models import models_url, read_models
from chatcodec._providers.gemini_interactions.markers import PROVIDER
from chatcodec._providers.gemini_interactions.server import ANSWERING
from chatcodec._providers.gemini_interactions.stream_framing import FRAMING
from chatcodec.codec_kit import as_dict, as_list, bearer_key, read_nested_error
from chatcodec.contract import Detection, Edge, ErrorShape, Extension, Front, Upstream, UpstreamModels

REVISION = "2026-05-20"
"""The ``Api-Revision`` sent upstream: the steps schema's (the streaming guide's REST request,
https://ai.google.dev/gemini-api/docs/interactions/streaming; google-genai 3.6.1's
``GOOGLE_GENAI_API_REVISION``)."""


def write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    """Google's error body, its ``code`` the status name (google-genai 3.6.1's ``Error.code`` is
    a string), ``status`` the same name for the readers of the Gemini API's body."""
    del status
    return {"error": {"code": kind, "message": message, "status": kind}}


def is_vertex(base: str) -> bool:
    """Whether ``base`` names a Vertex AI location (``.../projects/{p}/locations/{l}``)."""
    parts = urlsplit(base).path.rstrip("/").split("/")
    return len(parts) >= 4 and parts[-4] == "projects" and parts[-2] == "locations"


def upstream_url(base: str, model: str, stream: bool) -> str:
    """``{base}/v1beta/interactions``, or ``{base}/interactions`` for a Vertex AI location."""
    return f"{base}/interactions" if is_vertex(base) else f"{base}/v1beta/interactions"


def upstream_headers(key: str | None, caller_headers: Mapping[str, str]) -> dict[str, str]:
    """``x-goog-api-key`` and the revision whose schema the body follows."""
    return {"x-goog-api-key": key, "api-revision": REVISION} if key else {"api-revision": REVISION}


def vertex_auth(url: str, body: bytes, headers: Mapping[str, str]) -> dict[str, str]:
    """For a Vertex AI URL, the key as the OAuth bearer token Vertex takes; else the headers as they are."""
    del body
    if not is_vertex(url.rsplit("/", 1)[0]):
        return dict(headers)
    moved = {name: value for name, value in headers.items() if name != "x-goog-api-key"}
    token = headers.get("x-goog-api-key")
    return {**moved, "authorization": f"Bearer {token}"} if token else moved


def upstream_body(body: dict[str, Any], stream: bool) -> dict[str, Any]:
    """The body sent: ``stream: true`` for a stream (as the REST examples send it), and
    ``store: false`` unless the body says (the encoder option ``store``, ``--option store=true``,
    or an Interactions caller's own). The API keeps every interaction by default (``store``
    true: https://ai.google.dev/gemini-api/docs/interactions), and a client of another API
    sends its whole history on every call, so each call kept would be a copy of the last one
    longer, kept for nothing the client can ask for."""
    sent = {**body, "stream": True} if stream else dict(body)
    sent.setdefault("store", False)
    return sent


def caller_key(headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """google-genai's ``x-goog-api-key`` header, a ``?key=`` query, or a bearer token."""
    return headers.get("x-goog-api-key") or query.get("key") or bearer_key(headers, query)


def write_event(message: str, status: int, kind: str) -> dict[str, Any]:
    """The ``error`` event of a stream (``{"event_type": "error", "error": {"code", "message"}}``)."""
    del status
    return {"event_type": "error", "error": {"code": kind, "message": message}}


EXTENSIONS = (
    Extension(
        PROVIDER,
        "Interaction",
        ("object",),
        # "object": "interaction" on the API reference's answers; google-genai 3.6.1 types it on the
        # stream's InteractionSseEventInteraction ("Output only. The resource type.") but not on Interaction
        "https://ai.google.dev/api/interactions-api",
    ),
)
"""What an Interaction holds beyond the SDK's type, which strict reading accepts."""

FAILED_WITHOUT_WORDS = 'the interaction failed (its status is "failed" and it names no error)'
"""The message of a failed Interaction that lists no ``errors``: a failure all the same."""


def read_error(body: object) -> tuple[str, str | None]:
    """Google's error body, or a failed Interaction (HTTP 200, ``status: "failed"``): its first
    entry of ``errors`` (google-genai 3.6.1 ``Interaction.errors``, each ``{code, message}``, the
    code "a URI that identifies the error type"), else :data:`FAILED_WITHOUT_WORDS`; so a caller of
    another API gets the failure as its own error, never an answer that stopped."""
    fields = as_dict(body)
    if fields is None or fields.get("status") != "failed" or "error" in fields:
        return read_nested_error(body)
    errors = as_list(fields.get("errors")) or []
    first = (as_dict(errors[0]) if errors else None) or {}
    message, code = first.get("message"), first.get("code")
    return (
        message if isinstance(message, str) and message else FAILED_WITHOUT_WORDS,
        code if isinstance(code, str) and code else None,
    )


EDGE = Edge(
    PROVIDER,
    response_name="a Gemini Interaction",
    framing=FRAMING,
    errors=ErrorShape(ERROR_TYPES, "INTERNAL", write_error, read_error, write_event=write_event, reads=ERROR_READS),
    front=Front(("/v1beta/interactions", "/v1/interactions"), caller_key=caller_key, answering=ANSWERING),
    upstream=Upstream(
        upstream_url,
        "GEMINI_API_KEY",
        upstream_headers,
        upstream_body,
        sign=vertex_auth,  # the hook that sees the URL: a Vertex location takes the key as a bearer token
        models=UpstreamModels(models_url, read_models),  # the Gemini API's list: the same models
        semconv_name="gcp.gemini",
    ),
    detection=Detection(package=__package__, roles=None, shapes=("tool:parameters", "object:interaction")),
    extensions=EXTENSIONS,
)
"""The Interactions API's edge: SSE streams, Google's errors, the gateway's front and upstream; detection
tells its bodies from OpenAI Responses' (both have ``model``, ``input``, ``tools``, ``store``,
``background``) by its own keys and its ``input`` entries (steps and contents, where Responses
has items)."""
