"""What each Claude model can be asked for: its largest ``max_tokens`` and whether it thinks.

**Output limits.** Anthropic's Messages API requires ``max_tokens``; OpenAI, Gemini, Bedrock
and Ollama requests may leave it out and get the model's own limit. A fixed stand-in (4096)
made every client that sends none a client of a 4096-token model, and capped every thinking
budget below it, so all efforts from ``medium`` up became one budget (Codex at effort
``medium`` and ``high``: ``budget_tokens: 4095``); and Claude 3.5 Haiku, whose limit is
8,192, got half of it. The model's documented output limit is what such a client asked for.

**Extended thinking.** Claude 3.7 Sonnet and every Claude 4+ model think; Claude 3 Haiku,
Sonnet and Opus and Claude 3.5 Haiku and Sonnet do not, and refuse a ``thinking`` object.
An OpenAI ``reasoning_effort`` sent to one of them as a thinking budget was a request the
model refuses; a model this table does not name (another vendor's id behind an
Anthropic-compatible server, a Bedrock inference profile) may refuse it too, so thinking is
made up from an effort only for a model known to think (``wire_rules.py``).

Each row is "Max output" and "Extended thinking" of Anthropic's models overview, checked
2026-05 (:data:`MODELS_SOURCE`; the legacy models table for Claude 3 to 4.5; each model's own
overview page for the later ones, as ``https://platform.claude.com/docs/en/models/opus-4-6/overview``:
128K; Fable 5.1, Opus 5.5, Sonnet 5.5 and Haiku 5.5 at 128K in the lineup table of those
pages). Claude 3.7 Sonnet's 128K needs the beta header ``output-128k-2025-02-19``: 64K is
what it takes without one. A model this table does not name gets none: the caller's default.

A request that does not stream gets at most :data:`NON_STREAMING_LIMIT`: Anthropic's SDKs
refuse, before sending, a non-streaming request whose ``max_tokens`` implies more than ten
minutes ("Streaming is required for operations that may take longer than 10 minutes":
``60 min * max_tokens / 128,000``, so above 21,333; the Python SDK's ``_base_client.py``,
https://platform.claude.com/docs/en/cli-sdks-libraries/sdks/python#long-requests). The API
itself takes more (vercel/ai#20649), so a thinking budget above it still gets room.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from chatcodec._narrow import as_dict
from chatcodec._providers.contract.target_rules import ModelFamily, RuleCall
from chatcodec._providers.families.claude.model_rules import ThinkingPlace, claude_version

MODELS_SOURCE = "https://platform.claude.com/docs/en/about-claude/models/overview"
"""Anthropic's models overview: each model's "Max output" and "Extended thinking"."""


@dataclass(frozen=True, slots=True)
class ClaudeModel:
    """One row of :data:`CLAUDE_MODELS`: the models of one name from one version on."""

    name: str
    """``opus``, ``sonnet``, ``haiku``, ``fable`` or ``mythos``."""
    first: tuple[int, int]
    """The first version the row holds for (Claude 3.5 is ``(3, 5)``)."""
    output_limit: int
    """The largest ``max_tokens`` the model takes ("Max output")."""
    thinks: bool
    """Whether the model has extended thinking (takes a ``thinking`` object)."""
    source: str = MODELS_SOURCE
    """Where Anthropic says so."""


CLAUDE_MODELS: tuple[ClaudeModel, ...] = (
    # later rows first: a model's row is the first whose name matches and whose first version it has reached
    ClaudeModel("opus", (4, 6), 128_000, True, "https://platform.claude.com/docs/en/models/opus-4-6/overview"),
    ClaudeModel("opus", (4, 5), 64_000, True),
    ClaudeModel("opus", (4, 0), 32_000, True),
    ClaudeModel("opus", (3, 0), 4_096, False),
    ClaudeModel("sonnet", (4, 6), 128_000, True, "https://platform.claude.com/docs/en/models/sonnet-4-6/overview"),
    ClaudeModel("sonnet", (4, 0), 64_000, True),
    ClaudeModel("sonnet", (3, 7), 64_000, True),
    ClaudeModel("sonnet", (3, 5), 8_192, False),
    ClaudeModel("sonnet", (3, 0), 4_096, False),
    ClaudeModel("haiku", (5, 5), 128_000, True, "https://platform.claude.com/docs/en/models/haiku-5-5/overview"),
    ClaudeModel("haiku", (4, 5), 64_000, True, "https://platform.claude.com/docs/en/models/haiku-4-5/overview"),
    ClaudeModel("haiku", (3, 5), 8_192, False),
    ClaudeModel("haiku", (3, 0), 4_096, False),
    ClaudeModel("fable", (5, 0), 128_000, True, "https://platform.claude.com/docs/en/models/haiku-5-5/overview"),
    ClaudeModel("mythos", (5, -1), 128_000, True, "https://platform.claude.com/docs/en/models/haiku-5-5/overview"),
)
"""Every Claude model chatcodec knows, with its limits (module docstring)."""

_CLAUDE_3_ID = re.compile(r"claude-3(?:[-.](\d))?-(opus|sonnet|haiku)(?![a-z])")
"""Claude 3 ids put the version first: ``claude-3-5-haiku-20241022``, Bedrock's
``anthropic.claude-3-opus-20240229-v1:0``."""


@lru_cache(maxsize=256)
def claude_model(model: str | None) -> ClaudeModel | None:
    """The row of :data:`CLAUDE_MODELS` for ``model`` (``claude-3-5-haiku-20241022``,
    ``claude-opus-4-7``, Bedrock's ``us.anthropic.claude-sonnet-4-5-...``); None for an id
    the table does not name. Cached, as :func:`claude_version` is: asked on every request."""
    if model is None:
        return None
    parsed = claude_version(model)
    if parsed is None:
        old = _CLAUDE_3_ID.search(model.lower())
        if old is None:
            return None
        parsed = old[2], (3, int(old[1] or 0))
    name, version = parsed
    for row in CLAUDE_MODELS:
        if row.name == name and version >= row.first:
            return row
    return None


def output_limit(model: str | None) -> int | None:
    """The largest ``max_tokens`` ``model`` takes (``claude-opus-4-7``: 128,000;
    ``claude-3-5-haiku-20241022``: 8,192); None for a model not in the table."""
    row = claude_model(model)
    return row.output_limit if row is not None else None


def known_to_think(model: str | None) -> bool:
    """Whether ``model`` is a Claude model the table says has extended thinking: the only
    models a thinking budget is made up for (module docstring)."""
    row = claude_model(model)
    return row is not None and row.thinks


NO_EXTENDED_THINKING = ModelFamily(
    "Claude 3 Haiku, Sonnet, Opus, 3.5 Haiku, 3.5 Sonnet (no extended thinking)",
    lambda model: (row := claude_model(model)) is not None and not row.thinks,
)
"""The Claude models without extended thinking, which refuse a ``thinking`` object."""


def drop_thinking(call: RuleCall, place: ThinkingPlace) -> None:
    """A model without extended thinking refuses ``thinking`` (``enabled`` with a budget, or
    ``adaptive``): not sent. ``disabled`` asks for nothing and is kept."""
    holder: dict[str, object] | None = call.body
    for key in place.thinking[:-1]:
        holder = as_dict(holder.get(key)) if holder is not None else None
    thinking = as_dict(holder.get(place.thinking[-1])) if holder is not None else None
    if holder is None or thinking is None or thinking.get("type") == "disabled":
        return
    del holder[place.thinking[-1]]
    call.report(place.thinking, f"{thinking.get('type')} thinking", "not sent: the model has no extended thinking")


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


def models_table() -> str:
    """The table of :data:`CLAUDE_MODELS` as Markdown, for the docs (``make docs``)."""
    rows = [
        "| model | from version | largest `max_tokens` | extended thinking | source |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in CLAUDE_MODELS:
        version = "preview" if row.first[1] < 0 else ".".join(str(part) for part in row.first)
        thinks = "yes" if row.thinks else "no: none is made up from an effort, and `thinking` is not sent"
        rows.append(f"| Claude {row.name.title()} | {version} | {row.output_limit:,} | {thinks} | {row.source} |")
    return "\n".join(rows)
