"""Why an answer ended, what it cost and its tokens' log probabilities: the pieces of a
:class:`~chatcodec.ChatResponse` a stream's events carry too, apart from the response (and
its messages), so a stream builds none of those classes (a fresh process's first stream,
issue 60)."""

from __future__ import annotations

from typing import Literal

from chatcodec._model._base import (
    Byte,
    CanonicalModel,
    NonNegativeInt,
    ProviderMetadata,
    omitted_when_empty,
    omitted_when_none,
)
from chatcodec._public_label import shown_as

UnifiedFinishReason = Literal["stop", "length", "tool_calls", "content_filter", "refusal", "pause", "error", "other"]
"""Why generation ended, the same across providers.

``stop``: natural end or a stop sequence; ``length``: hit the token limit;
``tool_calls``: wants tool results; ``content_filter``: blocked by a safety system;
``refusal``: the model declined; ``pause``: a long server-side turn paused (Anthropic
``pause_turn``), send it back to continue; ``error``: failed; ``other``: anything else
(look at ``raw``).
"""


class FinishReason(CanonicalModel):
    """Why generation ended: the normalized value and the provider's own words."""

    unified: UnifiedFinishReason
    """The normalized reason."""
    raw: str | None = omitted_when_none()
    """The provider's value exactly as sent (``end_turn``, ``STOP``, ``tool_use`` ...)."""


class Usage(CanonicalModel):
    """Token counts, normalized so nothing is counted twice.

    ``input_tokens`` is the whole prompt, cached parts included (Anthropic reports cache
    reads and writes *outside* its ``input_tokens``; its codec adds them back in).
    ``output_tokens`` includes ``reasoning_tokens``.
    """

    input_tokens: NonNegativeInt | None = omitted_when_none()
    """All prompt tokens, cache reads and writes included."""
    output_tokens: NonNegativeInt | None = omitted_when_none()
    """All generated tokens, reasoning included."""
    cache_read_tokens: NonNegativeInt | None = omitted_when_none()
    """Prompt tokens served from the cache (part of ``input_tokens``)."""
    cache_write_tokens: NonNegativeInt | None = omitted_when_none()
    """Prompt tokens written to the cache (part of ``input_tokens``)."""
    reasoning_tokens: NonNegativeInt | None = omitted_when_none()
    """Generated tokens spent on reasoning (part of ``output_tokens``)."""
    provider_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider-specific counts (cache TTL split, server-tool use, audio tokens ...)."""

    @property
    def total_tokens(self) -> int | None:
        """Input plus output, when both are known."""
        if self.input_tokens is None or self.output_tokens is None:
            return None
        return self.input_tokens + self.output_tokens


class TopLogprob(CanonicalModel):
    """One of the likeliest tokens at a position, with its log probability."""

    token: str
    """The token's text."""
    logprob: float
    """Its log probability (natural log, 0 or less)."""
    bytes: list[Byte] | None = omitted_when_none()
    """Its UTF-8 bytes, where a token is part of a character its text cannot show alone."""


class TokenLogprob(CanonicalModel):
    """One generated token, its log probability and the likeliest alternatives at its
    position (OpenAI Chat's ``logprobs.content`` entry, Ollama's ``logprobs`` entry,
    Responses' ``output_text.logprobs`` entry)."""

    token: str
    """The token's text."""
    logprob: float
    """Its log probability (natural log, 0 or less)."""
    bytes: list[Byte] | None = omitted_when_none()
    """Its UTF-8 bytes, where a token is part of a character its text cannot show alone."""
    top_logprobs: list[TopLogprob] = omitted_when_empty()
    """The likeliest tokens at this position (as many as the request's ``top_logprobs``)."""


shown_as("chatcodec", FinishReason, TokenLogprob, TopLogprob, Usage)
