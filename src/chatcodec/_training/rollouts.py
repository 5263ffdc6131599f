"""Rollout rows from any conversation: ``chatcodec convert --to rollout --template NAME --tokenizer FILE``.

A rollout row is what a trainer reads back from a rollout: the conversation in the
template's shapes (the same row ``--to hf-chat --template NAME`` writes) and its tokens as
``render`` makes them: ``token_ids``, ``message_indices`` and ``sampled_mask`` (the tokens
``render`` marks trainable: the model's sampled text of the last answer, or of every answer
with ``--train-on all_assistant_messages``). A conversation
read from a wire body is rendered again the same way, so a rollout row made here, converted
to OpenAI Chat or Anthropic and back, comes back the same row.

A row that already holds its tokens (a rollout converted to itself) keeps them: its ids are
what the model saw, and its mask and logprobs what the sampler recorded, which a rendering
cannot know. The rendering checks them: where the template renders other ids, the row is
refused at the first token that differs, never rewritten; where they agree, a column the row
lacks (a Verifiers step has no ``message_indices``) is the rendering's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from chatcodec import Loss
from chatcodec._training.errors import TemplateError
from chatcodec._training.render import render_shaped
from chatcodec._training.rows import settings_losses, shaped_row
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits
from chatcodec._training.train_on import TrainOn

if TYPE_CHECKING:
    from chatcodec._api import SdkPayload


def rollout_row(
    payload: Mapping[str, Any],
    source: str,
    template: str,
    tokenizer: object,
    *,
    own_tokens: Mapping[str, list[Any]] | None = None,
    train_on: TrainOn = "last_assistant_message",
    limits: TemplateLimits = DEFAULT_LIMITS,
) -> tuple[dict[str, Any], list[Loss]]:
    """A rollout row for the request ``payload`` (in ``source``'s format) rendered through
    ``template`` with ``tokenizer`` (an object, or a ``tokenizer.json`` path), and what the
    template could not show (at ``payload``'s paths). ``own_tokens``: the token columns the
    row held, kept where the rendering gives the same ids (a column the row lacks, as a
    Verifiers step's ``message_indices``, is the rendering's). ``train_on``: which answers
    ``sampled_mask`` marks, as ``render`` takes it; ``limits`` bound each run of the template."""
    losses: list[Loss] = []
    shaped = render_shaped(
        cast("SdkPayload", payload),
        source=source,
        template=template,
        tokenizer=tokenizer,
        train_on=train_on,
        on_loss="ignore",
        losses=losses,
        template_limits=limits,
    )  # the row holds the messages and tools the template rendered: read and shaped once
    rendered = shaped.rendering
    ids = rendered.token_ids or []
    if own_tokens is not None:
        _check_ids(own_tokens.get("token_ids") or [], ids)
    losses += settings_losses(shaped.request, "rollout rows")
    tokens: dict[str, Any] = {
        "token_ids": ids,
        "message_indices": rendered.message_indices,
        "sampled_mask": rendered.trainable,
    }
    return {**shaped_row(shaped.messages, shaped.tools), **tokens, **(own_tokens or {})}, losses


def _check_ids(own: list[Any], rendered: list[int]) -> None:
    """Refuse a row whose ids the template does not render, at the first that differs."""
    if own == rendered:
        return
    index = next((index for index, (a, b) in enumerate(zip(own, rendered, strict=False)) if a != b), None)
    if index is None:
        index = min(len(own), len(rendered))
        found = f"{len(own)} token ids where the template renders {len(rendered)}"
    else:
        found = f"token id {own[index]} where the template renders {rendered[index]}"
    raise TemplateError(
        f"the row's tokens are not what the template renders for its messages ({found}): they are the row's "
        "record of what the model saw, and are not replaced (convert without --template to keep them, or fix "
        "the template or tokenizer) [rule: rollout_tokens]",
        path=f"$.token_ids[{index}]",
    )
