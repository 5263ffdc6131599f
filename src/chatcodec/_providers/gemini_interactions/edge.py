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
from chatcodec.contract import Detection, Edge, ErrorShape

_BUILT_IN_TOOLS = (
    *("code_execution", "file_search", "google_maps", "google_search", "mcp_server_tool", "processing"),
    *("retrieval", "tool_search", "url_context"),
)
"""The built-in tools whose ``<tool>_call`` and ``<tool>_result`` steps an input may hold
(google-genai 3.6.1's ``Step`` arms)."""


def write_event(message: str, status: int, kind: str) -> dict[str, Any]:
    """The ``error`` event of a stream (``{"event_type": "error", "error": {"code", "message"}}``)."""
    del status
    return {"event_type": "error", "error": {"code": kind, "message": message}}


EDGE = Edge(
    PROVIDER,
    response_name="a Gemini Interaction",
    framing=FRAMING,
    errors=ErrorShape(
        ERROR_TYPES, "INTERNAL", write_error, read_nested_error, write_event=write_event, reads=ERROR_READS
    ),
    detection=Detection(
        package=__package__,
        # google-genai 3.6.1's CreateModelInteraction and Interaction fields the wire shapes leave out
        keys=(
            *("agent", "agent_config", "background", "cached_content", "continuation_ids", "continuation_token"),
            *("created", "environment", "environment_id", "errors", "id", "labels", "output_audio"),
            *("output_image", "output_text", "output_video", "previous_interaction_id", "response_modalities"),
            *("safety_settings", "status", "steps", "store", "updated", "usage", "webhook_config"),
            "object",  # "interaction" on every answer of the API reference (https://ai.google.dev/api/interactions-api)
        ),
        roles=None,
        shapes=(
            "tool:parameters",
            "object:interaction",
            # an input list's entries: the SDK's Step and Content arms (InteractionsInput, 3.6.1)
            *(f"input:{kind}" for kind in ("user_input", "model_output", "thought", "function_call")),
            *(f"input:{kind}" for kind in ("function_result", "text", "image", "audio", "video", "document")),
            *(f"input:{tool}_call" for tool in _BUILT_IN_TOOLS),
            *(f"input:{tool}_result" for tool in _BUILT_IN_TOOLS),
        ),
    ),
)
"""The Interactions API's edge: SSE streams, Google's errors, no gateway routes yet; detection
tells its bodies from OpenAI Responses' (both have ``model``, ``input``, ``tools``, ``store``,
``background``) by its own keys and its ``input`` entries (steps and contents, where Responses
has items)."""
