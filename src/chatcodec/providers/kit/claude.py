"""Claude rules shared by the two wires that serve Claude (Anthropic, Bedrock Converse):
whose thinking signatures verify where, and usage counted apart from the cache."""

from __future__ import annotations

from chatcodec.losses import LossRecorder, Steps
from chatcodec.response import Usage

CLAUDE_SIGNERS = frozenset({"anthropic", "bedrock-converse"})
"""Providers whose Claude thinking carries Anthropic's signature scheme (the Anthropic
API itself; Claude on Bedrock Converse): Anthropic's documentation says signatures are
compatible across the platforms that serve Claude."""


def is_claude_model(model: str | None) -> bool:
    """Whether a model id names a Claude model (``claude-sonnet-4-5``, Bedrock's
    ``us.anthropic.claude-3-7-sonnet-20250219-v1:0`` or an ARN holding one)."""
    return model is not None and "claude" in model.lower()


def claude_signed(provider: str | None, model: str | None) -> bool:
    """Whether thinking from ``provider`` and ``model`` is signed by Claude's scheme, so
    another platform serving Claude can verify it: Anthropic's own, or Bedrock's when the
    model that produced it is known to be Claude."""
    if provider == "anthropic":
        return True
    return provider in CLAUDE_SIGNERS and is_claude_model(model)


def uncached_input_tokens(usage: Usage, losses: LossRecorder, at: Steps) -> int | None:
    """The input tokens neither read from nor written to the cache, for wires that count
    those apart (Anthropic, Bedrock Converse) while canonical ``input_tokens`` includes
    them (so nothing is counted twice). A total smaller than its cache parts cannot be
    written: it is reported and sent as zero."""
    if usage.input_tokens is None:
        return None
    uncached = usage.input_tokens - (usage.cache_read_tokens or 0) - (usage.cache_write_tokens or 0)
    if uncached < 0:
        losses.add((*at, "input_tokens"), "input token count", "smaller than the cache reads plus writes", "metadata")
        return 0
    return uncached
