"""The Interactions edge's HTTP facts: where a request goes, how it is authenticated, and an
error body google-genai 3.6.1's Interactions client parses (its ``CreateInteractionClientErrorData``
and ``ErrorEvent``, ``Error.code`` a string)."""

from __future__ import annotations

import pytest
from google.genai._gaos.errors.createinteraction import CreateInteractionClientErrorData
from google.genai._gaos.types.interactions import ErrorEvent
from google.genai._gaos.utils import unmarshal

import chatcodec
from chatcodec._providers.gemini_interactions.edge import EDGE, upstream_url, vertex_auth

VERTEX = "https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p/locations/us-central1"
"""A Vertex AI location (google-genai 3.6.1's ``get_google_genai_api_version`` for a Vertex client)."""


def test_the_gemini_api_and_a_vertex_location_get_their_interactions_paths() -> None:
    """``POST /v1beta/interactions`` (https://ai.google.dev/api/interactions-api); Vertex's
    resource is ``projects.locations.interactions``."""
    gemini = "https://generativelanguage.googleapis.com"
    assert upstream_url(gemini, "gemini-3-flash-preview", True) == f"{gemini}/v1beta/interactions"
    assert upstream_url(VERTEX, "gemini-3-flash-preview", False) == f"{VERTEX}/interactions"
    assert upstream_url(f"{gemini}/v1beta/projects", "m", False) == f"{gemini}/v1beta/projects/v1beta/interactions"


def test_a_key_goes_as_x_goog_api_key_and_to_vertex_as_a_bearer_token() -> None:
    assert EDGE.upstream is not None
    headers = EDGE.upstream.headers("key", {})
    assert headers == {"x-goog-api-key": "key", "api-revision": "2026-05-20"}
    assert vertex_auth(f"{VERTEX}/interactions", b"{}", headers) == {
        "api-revision": "2026-05-20",
        "authorization": "Bearer key",
    }
    plain = "https://generativelanguage.googleapis.com/v1beta/interactions"
    assert vertex_auth(plain, b"{}", headers) == headers


@pytest.mark.parametrize("status", [400, 401, 404, 429, 500, 503])
def test_an_error_body_and_event_parse_with_the_sdk(status: int) -> None:
    body = chatcodec.error_body("gemini-interactions", "boom", status)
    parsed = unmarshal(body, CreateInteractionClientErrorData)
    assert parsed.error.message == "boom"
    assert parsed.error.code == body["error"]["status"]
    event = unmarshal(chatcodec.error_event("gemini-interactions", "boom", status), ErrorEvent)
    assert event.error is not None
    assert event.error.code == parsed.error.code
