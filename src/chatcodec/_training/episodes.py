"""An episode as the sampler saw it: one :class:`~chatcodec.SampledTurn` per answer, made by ``render``.

A server rendering a chat template prompts the model with the conversation so far and the
generation prompt, and the model samples the answer through the end-of-turn token. So a turn
is two renderings, both ``chatcodec.render``'s: the messages before the answer with
``add_generation_prompt=True`` (the prompt), and the messages through the answer, whose
trainable tokens are what the model sampled (the newline a template writes after the end
token is the template's, never the model's). Nothing here knows a template: the shaping, the
sampled spans and the tokenization are ``render``'s, so turns follow wherever render changes.

The conversation is read once; each rendering gets the canonical messages up to its answer,
and the losses of all of them are reported once each, named in the caller's payload as
``render`` names them. Two renders per answer cost the square of the answers; on a
prefix-stable template :mod:`.episode_run` gives the same turns from one run, and these
renders are for the templates (and episodes) it cannot serve.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from chatcodec import AnyMessage, Loss, OnLoss, PayloadError, ToolDefinition
from chatcodec._public_label import shown_as
from chatcodec._training import episode_run, reading, tokens, turn_values
from chatcodec._training import render as rendering
from chatcodec._training.content_marks import content_flags
from chatcodec._training.episode_run import TurnTokens
from chatcodec._training.errors import TemplateError
from chatcodec._training.image_tokens import ImageSizes
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits
from chatcodec._training.turns import SampledTurn
from chatcodec.contract import LossRecorder

if TYPE_CHECKING:
    from chatcodec.contract import Steps


AFTER_THE_LAST_ANSWER: Final = "a turn ends with its answer: a message after the last answer is in no turn's prompt"
"""Why a message after the last answer is a loss of the turns (a row that keeps the
messages beside its turns does not lose it)."""


def render_turns(
    conversation: object,
    *,
    template: str | None = None,
    tokenizer: object,
    source: str | None = None,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
    logprobs: Sequence[Sequence[float] | None] | None = None,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    template_variables: Mapping[str, Any] | None = None,
    template_limits: TemplateLimits = DEFAULT_LIMITS,
    image_sizes: ImageSizes | None = None,
) -> list[SampledTurn]:
    """One :class:`~chatcodec.SampledTurn` per assistant message of ``conversation``, in order:
    the ids the model was prompted with and the ids it sampled, as ``render`` gives them.

    ``prompt_ids`` is :func:`~chatcodec.render` of the messages before the answer with
    ``add_generation_prompt=True``; ``completion_ids`` are the answer's sampled tokens in
    ``render`` of the messages through it, ending with the template's end-of-turn token.
    ``logprobs`` holds one entry per assistant message, in order: a list of one logprob per
    completion id, or ``None`` for an answer sampled without them. The other arguments are
    ``render``'s (``template_limits`` bound each run of the template, as there); each image in a
    prompt is its placeholder repeated to the engine's count, and the turn's ``prompt_images`` say
    where. Messages after the last answer are in no turn, a loss each.
    """
    if tokenizer is None:
        raise TemplateError("render_turns: pass a tokenizer (turns are token ids, as the sampler saw them)")
    listed = cast("object", logprobs)  # a caller's data, whatever its annotation
    if listed is not None and (not isinstance(listed, Sequence) or isinstance(listed, str | bytes)):
        raise PayloadError(
            f"expected a list with one entry per assistant message, not {type(logprobs).__name__}", "$.logprobs"
        )
    recorder = LossRecorder()
    read = reading.read_input(conversation, source, recorder)
    request = read.request
    answers = [index for index, message in enumerate(request.messages) if message.role == "assistant"]
    if not answers:
        raise TemplateError("no turns: the conversation has no assistant message")
    if logprobs is not None and len(logprobs) != len(answers):
        raise PayloadError(
            f"expected one entry per assistant message ({len(answers)}), not {len(logprobs)}", "$.logprobs"
        )
    loaded = tokens.loaded(tokenizer)
    one_run = episode_run.one_run_turns(
        read,
        answers,
        template=template,
        tokenizer=loaded,
        tools=tools,
        variables=template_variables,
        limits=template_limits,
        image_sizes=image_sizes,
    )
    run = _Renderer(read, template, loaded, tools, template_variables, limits=template_limits, image_sizes=image_sizes)
    turns: list[SampledTurn] = []
    for number, index in enumerate(answers):
        given = None if logprobs is None else turn_values.logprobs(logprobs[number], f"$.logprobs[{number}]")
        turn = run.turn(index) if one_run is None else one_run[0][number]
        turns.append(_sampled_turn(turn, request.messages[index], given, number, loaded))
    for loss in run.found if one_run is None else one_run[1]:
        recorder.add(_steps(loss.path), loss.what, loss.why, loss.kind)
    for index in range(answers[-1] + 1, len(request.messages)):
        recorder.add(("messages", index), f"{request.messages[index].role} message", AFTER_THE_LAST_ANSWER)
    recorder.settle(on_loss, losses, stacklevel=3)
    return turns


class _Renderer:
    """``render`` with one conversation's template, tokenizer and tools, for its prefixes;
    the losses every rendering found, each kept once."""

    def __init__(
        self,
        read: reading.ReadConversation,
        template: str | None,
        tokenizer: object,
        tools: Sequence[ToolDefinition | Mapping[str, Any]] | None,
        variables: Mapping[str, Any] | None,
        *,
        limits: TemplateLimits,
        image_sizes: ImageSizes | None = None,
    ) -> None:
        self.read = read
        self.limits = limits
        self.request = read.request
        self.template = template
        self.tokenizer = tokenizer
        self.tools = tools
        self.variables = variables
        self.image_sizes = image_sizes
        self.found: list[Loss] = []

    def __call__(self, count: int, prompt: bool) -> rendering.Rendering:
        found: list[Loss] = []
        messages = self.request.messages[:count]
        head = reading.ReadConversation(
            self.request.model_copy(update={"messages": messages}), self.read.object_arguments
        )
        rendered = rendering.render(
            head,
            template=self.template,
            tokenizer=self.tokenizer,
            tools=self.tools,
            add_generation_prompt=prompt,
            on_loss="ignore",
            losses=found,
            template_variables=self.variables,
            template_limits=self.limits,
            image_sizes=self.image_sizes,
        )
        self.found += [loss for loss in found if loss not in self.found]
        return rendered

    def turn(self, index: int) -> TurnTokens:
        prompt = self(index, True)
        through = self(index + 1, False)
        ids, trainable = through.token_ids or [], through.trainable or []
        prompt_ids = prompt.token_ids or []
        span = next(span for span in reversed(through.sampled) if span.message == index)
        start = span.start
        if through.text.startswith(prompt.text) and ids[: len(prompt_ids)] == prompt_ids:
            # the model sampled nothing its prompt holds: a generation tag opening inside what the
            # generation prompt wrote (``enable_thinking=False``'s empty reasoning) starts after it
            start = max(start, len(prompt.text))
            trainable = [False] * len(prompt_ids) + trainable[len(prompt_ids) :]
        return TurnTokens(
            message_index=index,
            prompt_ids=prompt_ids,
            completion_ids=[token for token, sampled in zip(ids, trainable, strict=True) if sampled],
            prompt_text=prompt.text,
            completion_text=through.text[start : span.end],
            prompt_images=prompt.images,
        )


def _sampled_turn(
    turn: TurnTokens, answer: AnyMessage, logprobs: list[float] | None, number: int, tokenizer: object
) -> SampledTurn:
    """A turn with its logprobs (one per completion id) and which completion ids are the answer's body."""
    turn_values.one_per_completion_id(logprobs, turn.completion_ids, f"$.logprobs[{number}]")
    return SampledTurn(
        message_index=turn.message_index,
        prompt_ids=turn.prompt_ids,
        completion_ids=turn.completion_ids,
        logprobs=logprobs,
        prompt_text=turn.prompt_text,
        completion_text=turn.completion_text,
        is_content=content_flags(answer, turn.completion_text, turn.completion_ids, tokenizer),
        prompt_images=turn.prompt_images,
    )


_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _steps(path: str) -> Steps | str:
    """A canonical loss path (``$.messages[2].content[0]``) as its steps, so the recorder
    names it in the caller's payload; a path of another form stays as it is."""
    steps: list[str | int] = []
    position = 1
    while position < len(path):
        step = _STEP.match(path, position)
        if step is None or not path.startswith("$"):
            return path
        name, number = step.groups()
        steps.append(int(number) if number is not None else name)
        position = step.end()
    return tuple(steps)


shown_as("chatcodec", render_turns)
