"""What the Interactions API says on HTTP: ``POST /v1beta/interactions``.

- Route: ``{base_url}/v1beta/interactions``, the model in the body, ``stream: true`` for an
  SSE stream (https://ai.google.dev/api/interactions-api).
- Auth: ``x-goog-api-key``, the key from ``GEMINI_API_KEY``.
- Stream: SSE, each event named (:mod:`.stream_framing`); an error inside it is an
  ``error`` event (google-genai 3.6.1 ``ErrorEvent``).
- Errors: Google's body and status names, as the Gemini API's
  (:mod:`chatcodec._providers.families.google.errors`).

The gateway's front and upstream for this API are not written yet (``front`` and
``upstream`` None): ``chatcodec serve`` neither answers nor calls it.
"""

from __future__ import annotations

from typing import Any

from chatcodec._providers.families.google.errors import ERROR_READS, ERROR_TYPES, write_error
from chatcodec._providers.gemini_interactions.markers import PROVIDER
from chatcodec._providers.gemini_interactions.stream_framing import FRAMING
from chatcodec.codec_kit import read_nested_error
from chatcodec.contract import Detection, Edge, ErrorShape, Extension


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

EDGE = Edge(
    PROVIDER,
    response_name="a Gemini Interaction",
    framing=FRAMING,
    errors=ErrorShape(
        ERROR_TYPES, "INTERNAL", write_error, read_nested_error, write_event=write_event, reads=ERROR_READS
    ),
    detection=Detection(package=__package__, roles=None, shapes=("tool:parameters", "object:interaction")),
    extensions=EXTENSIONS,
)
"""The Interactions API's edge: SSE streams, Google's errors, no gateway routes yet; detection
tells its bodies from OpenAI Responses' (both have ``model``, ``input``, ``tools``, ``store``,
``background``) by its own keys and its ``input`` entries (steps and contents, where Responses
has items)."""
