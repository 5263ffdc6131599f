"""The APIs callers talk to: their paths, and where each keeps its model, stream flag and key.

Each is the provider's fact, in its edge (``Edge.front``, ``_providers/<name>/edge.py``):
the routes as the official SDK builds them from its ``base_url`` (point the OpenAI SDK
at ``http://host:port/v1``, the Anthropic and google-genai SDKs at ``http://host:port``),
where the call's model and stream flag are (the body, or Gemini's path), and where the
caller's SDK sends its key. A provider whose edge has no front is not offered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.contract.edge import Call, Front, RouteError
from chatcodec._registry import get_edge

__all__ = ["Call", "FrontError", "caller_key", "front", "read_call", "routes"]

FrontError = RouteError
"""A request the front cannot route (a Gemini path with an unknown method): 404."""


def front(api: str) -> Front:
    """The caller-facing side of ``api`` (refused when its edge has none)."""
    found = get_edge(api).front
    if found is None:
        raise ValueError(f"{api} cannot be offered to callers: its edge has no front")
    return found


def routes(api: str) -> tuple[str, ...]:
    """The Starlette paths of ``api`` (a ``{target}`` takes the rest of the path)."""
    return tuple(route.replace("{target}", "{target:path}") for route in front(api).routes)


def read_call(api: str, payload: dict[str, Any], path_target: str | None, query: Mapping[str, str]) -> Call:
    """What the caller asked, from its body and (Gemini) its path and query."""
    return front(api).read_call(payload, path_target, query)


def caller_key(api: str, headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """The API key the caller's SDK sent, where that SDK sends it."""
    return front(api).caller_key(headers, query)
