"""Who signed a thought: pydantic-ai's ``provider_name`` <-> the format whose reader verifies it.

pydantic-ai names the provider that produced a ``ThinkingPart`` (``provider_name``), and where
its signature goes depends on that provider: Claude's (Anthropic, or Claude on Bedrock) is the
canonical ``signature``, OpenAI's is its ``encrypted_content`` (``encrypted``), Gemini's is a
thought signature. So this module names the formats that read those signatures back: the one
place in this folder that does.
"""

from __future__ import annotations

ANTHROPIC = "anthropic"
BEDROCK = "bedrock-converse"
GEMINI = "gemini"
OPENAI = "openai-responses"

CLAUDE = (ANTHROPIC, BEDROCK)
"""The formats whose thinking Claude signed."""

PROVIDERS = {
    "anthropic": ANTHROPIC,
    "bedrock": BEDROCK,
    "google-gla": GEMINI,
    "google-vertex": GEMINI,
    "google": GEMINI,
    "google-cloud": GEMINI,
    "openai": OPENAI,
}
"""pydantic-ai's ``provider_name`` -> the canonical thinking ``provider`` (chatcodec's format name)."""

PROVIDER_NAMES = {
    ANTHROPIC: "anthropic",
    BEDROCK: "bedrock",
    GEMINI: "google-gla",
    OPENAI: "openai",
    "openai-chat": "openai",
}
"""The reverse, for thinking read from another format."""
