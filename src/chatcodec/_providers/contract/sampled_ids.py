"""How a compatible server reports the token ids it prompted with and sampled, as data.

vLLM and SGLang put the prompt's and the completion's token ids on a Chat Completions answer
when the body asks (``return_token_ids``); a gateway recording what an agent harness trains on
(``chatcodec serve --record``) asks for them and takes them out before the answer is converted.
Each server's record says how (its ``servers/`` module), so the edge names no server. A module of
its own, beside the edge: a server's record is read on a first conversion, which imports no edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chatcodec._public_label import shown_as


@dataclass(frozen=True, slots=True)
class TakenIds:
    """The token ids an answer (or one stream chunk) carried, taken out of it."""

    prompt_ids: list[int] | None = None
    """The ids the model was prompted with (a stream's first chunk carries them)."""
    completion_ids: list[int] = field(default_factory=lambda: [])
    """The ids it sampled (a stream chunk's: those of its delta)."""
    logprobs: list[float] | None = None
    """The sampled ids' logprobs, one each, where they came."""
    finish_reason: str | None = None
    """The choice's finish reason as the server wrote it."""
    unreadable: str | None = None
    """What an id field held that is no list of integers (``choices[0].token_ids is [1.0, 2.0]``):
    a gateway records such a turn as an ``error`` saying so, never as a turn without those ids."""


@dataclass(frozen=True, slots=True)
class SampledIds:
    """How a compatible server reports the token ids it prompted with and sampled (a gateway
    recording turns asks for them: ``chatcodec serve --record``)."""

    asks: tuple[str, ...]
    """The body fields that ask for them, each set to ``true`` (vLLM's ``return_token_ids``
    and ``logprobs``)."""
    take: Callable[[dict[str, Any], bool], TakenIds]
    """``(an answer or a stream chunk, whether the caller asked for logprobs itself)`` ->
    its ids, the fields that held them taken out of it (the caller asked for none of them;
    ``logprobs`` stays when the caller asked for it)."""
    streams: bool
    """Whether a stream carries them (else a streamed call is sent without asking: the
    server refuses the fields on a stream)."""
    source: str
    """Where the server documents them."""
    give_back: Callable[[dict[str, Any], TakenIds], None] | None = None
    """``(an answer or a stream chunk, the ids taken out of it)`` -> the ids put back in the
    server's own fields, for a caller that asked for them itself (``return_token_ids``): it
    gets the answer it asked for. None: the caller's answer keeps none."""


shown_as("chatcodec.contract", TakenIds, SampledIds)
