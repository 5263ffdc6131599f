"""Each Claude model's largest ``max_tokens``: the value sent when a request gives none.

Anthropic's Messages API requires ``max_tokens``; OpenAI, Gemini, Bedrock and Ollama
requests may leave it out and get the model's own limit. A fixed stand-in (4096) made
every client that sends none a client of a 4096-token model, and capped every thinking
budget below it, so all efforts from ``medium`` up became one budget (Codex at effort
``medium`` and ``high``: ``budget_tokens: 4095``). The model's documented output limit is
what such a client asked for. "Max output" per model, from each model's overview page
(https://platform.claude.com/docs/en/models/opus-4-6/overview : 128K;
https://platform.claude.com/docs/en/models/sonnet-4-6/overview : 128K;
https://platform.claude.com/docs/en/models/haiku-5-5/overview : 128K, and the lineup
table on those pages: Fable 5.1, Opus 5.5, Sonnet 5.5 at 128K;
https://platform.claude.com/docs/en/models/haiku-4-5/overview : 64K; Opus 4.5, Sonnet
4.5 and Sonnet 4: 64K, Opus 4 and 4.1: 32K, in the models overview's legacy table,
https://platform.claude.com/docs/en/about-claude/models/overview ). A model this table
does not name (``claude-3-...``, another vendor's id) gets none: the caller's default.

A request that does not stream gets at most :data:`NON_STREAMING_LIMIT`: Anthropic's SDKs
refuse, before sending, a non-streaming request whose ``max_tokens`` implies more than ten
minutes ("Streaming is required for operations that may take longer than 10 minutes":
``60 min * max_tokens / 128,000``, so above 21,333; the Python SDK's ``_base_client.py``,
https://platform.claude.com/docs/en/cli-sdks-libraries/sdks/python#long-requests). The API
itself takes more (vercel/ai#20649), so a thinking budget above it still gets room.
"""

from __future__ import annotations

from chatcodec._providers.families.claude.model_rules import claude_version

_LIMITS: tuple[tuple[str, tuple[int, int], int], ...] = (
    # (name, first version, max output tokens), later rows first
    ("opus", (4, 6), 128_000),
    ("opus", (4, 5), 64_000),
    ("opus", (4, 0), 32_000),
    ("sonnet", (4, 6), 128_000),
    ("sonnet", (4, 0), 64_000),
    ("haiku", (5, 5), 128_000),
    ("haiku", (4, 5), 64_000),
    ("fable", (5, 0), 128_000),
    ("mythos", (5, -1), 128_000),
)
"""The documented output limits (module docstring), a model's row the first whose name
matches and whose first version it has reached."""


NON_STREAMING_LIMIT = 21_333
"""The largest ``max_tokens`` the Anthropic SDKs send without streaming (module docstring)."""


def filled_max_tokens(model: str | None, *, streaming: bool) -> int | None:
    """The ``max_tokens`` to send for ``model`` when the client gave none: its output limit,
    at most :data:`NON_STREAMING_LIMIT` for a request that does not stream; None for a model
    not in the table."""
    limit = output_limit(model)
    if limit is None or streaming:
        return limit
    return min(limit, NON_STREAMING_LIMIT)


def output_limit(model: str | None) -> int | None:
    """The largest ``max_tokens`` ``model`` takes (``claude-opus-4-7``: 128,000; Bedrock's
    ``us.anthropic.claude-sonnet-4-5-...``: 64,000); None for a model not in the table."""
    parsed = claude_version(model) if model is not None else None
    if parsed is None:
        return None
    name, version = parsed
    for row_name, first, limit in _LIMITS:
        if row_name == name and version >= first:
            return limit
    return None
