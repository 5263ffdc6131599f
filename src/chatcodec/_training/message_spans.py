"""Each message's tokens in a rendering: where they are and how many (renderers'
``message_token_spans`` and ``tokens_per_message``).

A trainer weighting or counting by message (a length penalty on the answers, SFT on a tool's
output, verifiers' node per message) asks which tokens are whose; a rendering already says it
per token (:attr:`~chatcodec.Rendering.message_indices`), so this is one pass over that list. As
in renderers, a span is the message's first token to its last (``token_ids[start:end]``) and the
tokens outside every message (the generation prompt, index -1) are in none; ``count`` says how
many tokens are the message's, so a span holding others (a template that moves a message) shows
as ``count < end - start``. ``trained`` counts the message's trainable tokens (renderers'
``sampled_only``, on the tokens a rendering trains).
"""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec._public_label import shown_as
from chatcodec._training.render import Rendering


@dataclass(frozen=True, slots=True)
class MessageTokens:
    """One message's tokens in a rendering."""

    message: int
    """Index of the message (in the conversation's canonical messages)."""
    start: int | None
    """Its first token's index in :attr:`~chatcodec.Rendering.token_ids` (None: it has none)."""
    end: int | None
    """One past its last token's index (None: it has none)."""
    count: int
    """How many tokens are the message's."""
    trained: int
    """How many of them are trainable."""


def message_token_spans(rendering: Rendering) -> list[MessageTokens]:
    """One :class:`MessageTokens` per canonical message of ``rendering``, in order (the
    rendering's tokens are needed: render with ``tokenizer=``)."""
    owners, trainable = rendering.message_indices, rendering.trainable
    count = max(rendering.message_count, max(owners, default=-1) + 1)
    starts: list[int | None] = [None] * count
    ends: list[int | None] = [None] * count
    counts, trained = [0] * count, [0] * count
    for position, (owner, is_trained) in enumerate(zip(owners, trainable, strict=True)):
        if owner < 0:
            continue
        if starts[owner] is None:
            starts[owner] = position
        ends[owner] = position + 1
        counts[owner] += 1
        trained[owner] += is_trained
    return [MessageTokens(index, starts[index], ends[index], counts[index], trained[index]) for index in range(count)]


shown_as("chatcodec", MessageTokens, message_token_spans)
