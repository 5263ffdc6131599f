"""What the sampler saw and wrote at one turn of an episode: the unit RL trainers consume.

verl's ``AgentLoopOutput``, SkyRL's ``GeneratorOutput``, slime's ``Sample``, TRL's GRPO
``rollout_func`` and verifiers' ``TurnTokens`` all hold the same record: the prompt ids a
server sent the model, the completion ids it sampled and their logprobs, never re-tokenized.
A turn is that record, whether chatcodec rendered it (``render_turns``) or a gateway recorded
it from an inference server; merging turns into one training sequence is a separate step that
says where an episode's prompts stop extending each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec._public_label import shown_as
from chatcodec._training.image_tokens import ImageTokens


@dataclass(frozen=True, slots=True)
class SampledTurn:
    """One assistant turn of an episode as the sampler saw it: token in, token out."""

    message_index: int
    """Index of the assistant message this turn produced, in the episode's canonical messages."""
    prompt_ids: list[int]
    """The ids the model was prompted with (the template's rendering of the messages before
    the answer, with the generation prompt)."""
    completion_ids: list[int]
    """The ids the model sampled for the answer, through the template's end-of-turn token."""
    logprobs: list[float] | None = None
    """One logprob per completion id, where the sampler reported them."""
    prompt_text: str | None = None
    """The text of :attr:`prompt_ids`, where it is known."""
    completion_text: str | None = None
    """The text of :attr:`completion_ids`, where it is known."""
    is_content: list[bool] | None = None
    """One flag per completion id: the answer's body (its reasoning, text, call arguments) or
    the template's markup around it (``<think>``, ``<|im_end|>``), a split within the sampled
    tokens (``renderers``' ``is_content`` is true on every sampled token: docs/training.md);
    None where that cannot be told (a template that rewrites the body, a recorded turn)."""
    prompt_break: str | None = None
    """Why :attr:`prompt_ids` is a fresh rendering where the turns before it were to be
    extended (an edited, cut or re-rendered answer): a trainer sample never runs across it."""
    parent_turn: str | None = None
    """The request id of the earlier recorded turn this one reuses or extends off the line of
    the session (a retry, a sibling, a branch continued)."""
    prompt_images: tuple[ImageTokens, ...] = ()
    """Each image in the prompt whose token count is known: its size, its grid
    (``image_grid_thw``) and where its placeholder tokens lie in :attr:`prompt_ids`; empty
    for a recorded turn (its server counted them)."""


shown_as("chatcodec", SampledTurn)
