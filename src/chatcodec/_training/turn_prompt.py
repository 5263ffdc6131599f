"""The prompt after a sampled turn, for a library's rollout loop: the gateway's rule, called
on one turn.

A loop that samples with ``render_turns``' ids or a token server's, then hands the answer to a
harness and gets a conversation back, needs the gateway's answer to one question: may the next
prompt be the turn's prompt and sampled ids extended, or must it be rendered fresh, and why?
:func:`next_prompt` builds the sampled point from the turn and asks the same rule
(:mod:`chatcodec._training.next_prompt`) the gateway asks, so a loop and the gateway never
disagree on a break.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from chatcodec._errors import PayloadError
from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._public_label import shown_as
from chatcodec._training.call_ids import held_calls
from chatcodec._training.completion.parse import parse_completion
from chatcodec._training.completion.tokens import Decodes
from chatcodec._training.families import given_text
from chatcodec._training.next_prompt import Point, Renderer, cut_reason, digests, prompt_after, sampled_text
from chatcodec._training.origins import source_place
from chatcodec._training.reading import read_input
from chatcodec._training.turns import SampledTurn


@dataclass(frozen=True, slots=True)
class NextPrompt:
    """The prompt after a sampled turn: its ids, its text, and why it is a fresh rendering."""

    prompt_ids: list[int]
    """The turn's prompt and sampled ids and the new messages' tokens, or a fresh rendering."""
    text: str
    """The template's rendering of the conversation, with the generation prompt."""
    prompt_break: str | None
    """Why :attr:`prompt_ids` is a fresh rendering (what changed, and where); None: extended."""


def next_prompt(
    turn: SampledTurn,
    conversation: object,
    *,
    template: str | os.PathLike[str],
    tokenizer: object,
    source: str | None = None,
    tools: Sequence[Any] | None = None,
    finish_reason: str | None = None,
    template_variables: Mapping[str, Any] | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
) -> NextPrompt:
    """The prompt after ``turn`` in ``conversation``: the messages the turn saw, its answer as the
    harness holds it (at ``turn.message_index``) and the new messages, read as
    :func:`~chatcodec.render` reads a conversation (``source``, ``tools``, ``template``,
    ``tokenizer`` and ``template_variables`` as there).

    The prompt is ``turn.prompt_ids``, ``turn.completion_ids`` as sampled and the new messages'
    tokens where the gateway (``chatcodec serve`` rendering the prompt) would extend them: the
    answer sent back is the one the sampled ids parse to as the template spells it, the turn
    closed (``finish_reason`` ``"length"``, or no end token, is a cut turn), the template renders
    the answer the same once newer messages follow, and the messages before it render as
    ``turn.prompt_text`` (where the turn holds none, as the text its ``prompt_ids`` decode to:
    a harness that respelled an earlier answer then breaks too). Otherwise it is a fresh rendering and
    ``prompt_break`` says what changed and where, as the gateway records it. ``on_loss`` and
    ``losses`` work as in :func:`~chatcodec.convert_request`.
    """
    recorder = LossRecorder()
    read = read_input(conversation, source, recorder)
    messages = [message.model_dump(mode="json", exclude_none=True) for message in read.request.messages]
    listed = list(tools) if tools is not None else [tool.model_dump(mode="json") for tool in read.request.tools or []]
    at = turn.message_index
    if not 0 <= at < len(messages):
        raise PayloadError(
            f"the turn's answer is message {at}; the conversation holds {len(messages)} messages",
            "$.turn.message_index",
        )
    text = given_text(template)
    renderer = Renderer(text, tokenizer, listed, object_arguments=read.object_arguments, variables=template_variables)
    before = messages[:at]
    lost: list[Loss] = []
    held = held_calls(before)
    answer = parse_completion(
        turn.completion_ids,
        template=text,
        tokenizer=cast("Decodes", renderer.tokenizer),
        tools=listed or None,
        first_call_index=held.made,
        held_call_ids=held.ids,
        on_loss="ignore",
    )
    completed = sampled_text(turn.completion_ids, renderer.tokenizer)
    point = Point(
        seen=digests(before),
        prompt_text=renderer.compared(before, prompt=True),
        prompt_ids=array("q", turn.prompt_ids),
        completion_ids=array("q", turn.completion_ids),
        completion_text=completed,
        answer=answer.model_dump(mode="json", exclude_none=True),
        cut=cut_reason(completed, finish_reason, renderer.turn_end),
        request_id="",
    )
    place = source_place(conversation, source, lambda: messages) if source is not None else None
    # the messages before the answer, checked against the turn's prompt: by its text where the
    # turn holds it, else by its ids' text (an earlier answer respelled by the harness breaks
    # there too: without the text the turn was prompted with, nothing proves the two the same)
    held_text = turn.prompt_text
    if held_text is None:
        held_text, what = sampled_text(turn.prompt_ids, renderer.tokenizer), "its prompt_ids decode to"
    else:
        what = "its prompt_text"
    if held_text != point.prompt_text:
        why = f"the messages before the turn's answer render otherwise than {what} (an earlier turn rewritten)"
        ids, rendered = renderer.fresh(messages, lost)
        found = NextPrompt(ids, rendered, why)
    else:
        after = prompt_after([point], messages, renderer, lost, place=place)
        found = NextPrompt(after.ids, after.text, after.prompt_break)
    for loss in lost:
        recorder.add(loss.path, loss.what, loss.why, loss.kind)
    recorder.settle(on_loss, losses, stacklevel=3)
    return found


shown_as("chatcodec", next_prompt)
shown_as("chatcodec", NextPrompt)
