"""Any conversation to the text and tokens a model trains on, through the model's own template.

The model's template does the rendering (:mod:`.jinja`); chatcodec reads the conversation
(any format ``decode_request`` reads, or canonical messages), shapes it for the template's
profile (:mod:`.shaping`), and finds what the model sampled:

- where the template has ``{% generation %}`` tags, the spans they mark;
- where it has none, the text after the generation prompt: the conversation before an
  answer, rendered with ``add_generation_prompt``, is the prompt the model saw, and what the
  whole rendering adds after it, through the turn's end token, is what the model wrote.

Where a template renders an earlier turn differently once more turns follow (it drops old
reasoning, or its prompt opens reasoning the answer's render does not show), the prompt is
not a prefix of the whole: the sampled span then starts where the two part, and a loss says
that this turn is trained after a different prompt than the one it was sampled after.
Every canonical part is either rendered or reported (a text the template dropped is
looked for in its output), and a mask that trains nothing is an error.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from chatcodec import (
    ChatRequest,
    Loss,
    OnLoss,
    ToolDefinition,
    validate_model,
)
from chatcodec._public_label import shown_as
from chatcodec._training import (
    closing_ends,
    families,
    generation_tags,
    image_tokens,
    jinja,
    message_ends,
    prefix_ends,
    reading,
    rendered_check,
    segment_ends,
    token_marks,
    tokenizer_checks,
    tokens,
)
from chatcodec._training import (
    train_on as training,
)
from chatcodec._training.errors import TemplateError
from chatcodec._training.image_tokens import ImageSizes, ImageTokens
from chatcodec._training.profile import TemplateProfile
from chatcodec._training.sampled_text import prompt_in_text, tag_span, trimmed
from chatcodec._training.shaping import Shaper
from chatcodec._training.template_limits import BOUND_RULES, DEFAULT_LIMITS, TemplateLimits
from chatcodec._training.train_on import TrainOnGiven
from chatcodec.contract import LossRecorder


@dataclass(frozen=True, slots=True)
class SampledSpan:
    """The text of one assistant message that the model sampled, as offsets in the text."""

    message: int
    """Index of the assistant message (in the conversation's canonical messages)."""
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Rendering:
    """A conversation rendered through a chat template: its text, tokens and masks."""

    text: str
    """The text the template rendered."""
    sampled: tuple[SampledSpan, ...]
    """Every assistant message's sampled text (trained or not), in order."""
    token_ids: list[int] = field(default_factory=tokens.Untokenized)
    """The ids of :attr:`text`, with a tokenizer. Without one, an empty stand-in that is false
    and raises :class:`~chatcodec.TemplateError` ("pass tokenizer=") when it is read."""
    trainable: list[bool] = field(default_factory=tokens.Untokenized)
    """One bool per token: whether the model sampled it in a trained message (``train_on``);
    without a tokenizer, the same stand-in as :attr:`token_ids`."""
    message_indices: list[int] = field(default_factory=tokens.Untokenized)
    """One index per token: the canonical message it belongs to; -1 for the generation
    prompt after the last message; without a tokenizer, the same stand-in as :attr:`token_ids`."""
    losses: list[Loss] = field(default_factory=list[Loss])
    """What the template could not show (also warned about or raised, by ``on_loss``)."""
    template_family: str | None = None
    """The family of the template used, when chatcodec knows it."""
    images: tuple[ImageTokens, ...] = ()
    """Each image the template wrote whose token count is known, in order: its size, grid
    (``image_grid_thw``) and, with a tokenizer, its span in :attr:`token_ids`, where its
    placeholder is repeated as the engine repeats it. An image whose count is not known is a loss."""
    message_count: int = 0
    """How many canonical messages the conversation holds (a message may have no tokens)."""


def render(
    conversation: object,
    *,
    template: str | os.PathLike[str] | None = None,
    source: str | None = None,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
    tokenizer: object = None,
    add_generation_prompt: bool = False,
    train_on: TrainOnGiven = "last_assistant_message",
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    template_variables: Mapping[str, Any] | None = None,
    template_limits: TemplateLimits = DEFAULT_LIMITS,
    image_sizes: ImageSizes | None = None,
) -> Rendering:
    """Render ``conversation`` through a chat template, with token ids and a mask of what the
    model sampled.

    With ``add_generation_prompt`` the rendering is a prompt to sample from: nothing is
    trained unless ``train_on="all_assistant_messages"`` asks for the answers it holds.

    ``conversation`` is a request in ``source``'s wire format (anything ``decode_request``
    reads) or a training dialect's row (``source="hf-chat"``), a canonical
    :class:`~chatcodec.ChatRequest`, or a list of messages in any shape
    :func:`~chatcodec.validate_messages` reads or as TRL passes them to ``apply_chat_template``
    (calls without ids, arguments as objects). ``template`` is a family chatcodec knows
    (``"qwen3"``), a template's Jinja text or a file of it (a path, or a name ending in
    ``.jinja``, read as the command line's ``--template`` reads it); without it, the tokenizer's own
    ``chat_template``. ``tools`` (canonical definitions or OpenAI's function tools) replace
    the request's. ``template_variables`` are the template's other names
    (``enable_thinking``, ``reasoning_effort``). ``template_limits`` bound each run of the
    template (time, output). ``image_sizes`` give ``(width, height)`` by URL or file id for the
    images whose bytes the conversation does not hold. Losses name paths in the canonical messages.
    """
    return render_shaped(
        conversation,
        template=template,
        source=source,
        tools=tools,
        tokenizer=tokenizer,
        add_generation_prompt=add_generation_prompt,
        train_on=train_on,
        on_loss=on_loss,
        losses=losses,
        template_variables=template_variables,
        template_limits=template_limits,
        image_sizes=image_sizes,
        stacklevel=4,
    ).rendering


_ReadEnds = segment_ends.SegmentEnds | closing_ends.ClosingEnds
"""The prefix renders' ends and prompts, read from a template's runs."""


@dataclass(frozen=True, slots=True)
class ShapedRendering:
    """A rendering and what it rendered: the request read and the template's messages and tools
    (a rollout row holds them, so its conversation is read and shaped once)."""

    rendering: Rendering
    request: ChatRequest
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]


def render_shaped(
    conversation: object,
    *,
    template: str | os.PathLike[str] | None = None,
    source: str | None = None,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
    tokenizer: object = None,
    add_generation_prompt: bool = False,
    train_on: TrainOnGiven = "last_assistant_message",
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    template_variables: Mapping[str, Any] | None = None,
    template_limits: TemplateLimits = DEFAULT_LIMITS,
    image_sizes: ImageSizes | None = None,
    stacklevel: int = 3,
) -> ShapedRendering:
    """:func:`render`, with the request it read and the messages and tools the template rendered."""
    recorder = LossRecorder()
    chosen = chosen_template(template, tokenizer, template_variables, template_limits)
    profile = chosen.profile
    read = reading.read_input(conversation, source, recorder)
    request = read.request
    messages, request_tools = list(request.messages), list(request.tools)
    shaper = Shaper(profile, recorder, object_arguments=read.object_arguments)
    shaped, origins = shaper.messages(messages)
    written_tools = shaper.tools(tools_of(tools) if tools is not None else request_tools)
    run = Runner(chosen.text, written_tools, dict(profile.variables), template_limits)
    caller_variables = bool(template_variables)
    segmented_run = segmented(run, chosen, shaped, add_generation_prompt, caller_variables=caller_variables)
    found: _ReadEnds | None = None
    if segmented_run is None:
        text, tags, starts = run_once(
            run, chosen, shaped, origins, add_generation_prompt, caller_variables=caller_variables
        )
    else:
        (text, tags, found), starts = segmented_run, None
    if found is not None:
        ends: list[int | None] = found.ends
    elif starts is None:
        ends = prefix_ends.message_ends(run, shaped, text, profile.generation_prompt if add_generation_prompt else None)
    else:
        ends = one_run_ends(run, shaped, origins, text, starts, add_generation_prompt=add_generation_prompt)
    sampled = _sampled_spans(
        run,
        shaped=shaped,
        origins=origins,
        text=text,
        ends=ends,
        tags=tags,
        profile=profile,
        one_run=starts is not None,
        recorder=recorder,
        segments=found,
    )
    looked_from = rendered_check.message_starts(len(messages), ends, origins)
    rendered_ends = rendered_check.message_ends(len(messages), ends, origins)
    rendered_check.check_rendered(messages, text, recorder, shaper.lost, looked_from, ends=rendered_ends)
    marks = _Marks(
        ends,
        origins,
        sampled,
        *training.trained(
            sampled, messages, text, looked_from, train_on=train_on, add_generation_prompt=add_generation_prompt
        ),
    )
    images = image_tokens.planned(chosen.family, shaper.images, image_sizes, recorder, tokenized=tokenizer is not None)
    recorder.settle(on_loss, losses, stacklevel=stacklevel)
    rendering = Rendering(
        text=text,
        sampled=tuple(sampled),
        losses=recorder.losses,
        template_family=chosen.family,
        message_count=len(messages),
        images=image_tokens.known(images),
    )
    if tokenizer is not None:
        tokenizer_checks.check_encodable(text, messages)
        given, tokenizer = tokenizer, tokens.loaded(tokenizer)
        tokenizer_checks.check_markers(tokens.encoder(tokenizer), given, chosen.text, text, chosen.family)
        rendering = _tokenized(rendering, tokenizer, chosen.family, marks, images)
    return ShapedRendering(rendering, request, shaped, written_tools)


@dataclass(frozen=True, slots=True)
class _Marks:
    """What a rendering's tokens are marked by: where each message ends and comes from, the
    sampled spans, the trained ones and the role bodies ``train_on`` names."""

    ends: list[int | None]
    origins: list[int]
    sampled: list[SampledSpan]
    trained: list[SampledSpan]
    bodies: list[tuple[int, int]]


def _tokenized(
    rendering: Rendering, tokenizer: object, family: str | None, marks: _Marks, images: list[ImageTokens | None]
) -> Rendering:
    """``rendering`` with its ids, their marks and owners, each image's placeholder repeated."""
    text = rendering.text
    ids, trainable, owners = token_marks.marked_tokens(
        tokenizer, text, ends=marks.ends, origins=marks.origins, sampled=marks.sampled, trained=marks.trained
    )
    trainable = training.with_bodies(trainable, tokenizer, text, ids, marks.bodies)
    ids, trainable, owners, placed = image_tokens.expanded(
        tokens.encoder(tokenizer), family, images, ids=ids, trainable=trainable, owners=owners
    )
    return replace(rendering, token_ids=ids, trainable=trainable, message_indices=owners, images=tuple(placed))


def rendered_text(
    conversation: object,
    *,
    template: str | os.PathLike[str],
    add_generation_prompt: bool,
    template_variables: Mapping[str, Any] | None = None,
    template_limits: TemplateLimits = DEFAULT_LIMITS,
) -> str:
    """The template's text of ``conversation`` as :func:`render` writes it, and nothing else:
    no spans, ids or losses, for a comparison of two renderings (one run of the template where
    :func:`render` finds each message's end too)."""
    chosen = chosen_template(template, None, template_variables, template_limits)
    recorder = LossRecorder()
    read = reading.read_input(conversation, None, recorder)
    shaper = Shaper(chosen.profile, recorder, object_arguments=read.object_arguments)
    shaped, origins = shaper.messages(list(read.request.messages))
    run = Runner(chosen.text, shaper.tools(list(read.request.tools)), dict(chosen.profile.variables), template_limits)
    text = run_once(run, chosen, shaped, origins, add_generation_prompt, caller_variables=bool(template_variables))[0]
    return text


def chosen_template(
    template: str | os.PathLike[str] | None,
    tokenizer: object,
    template_variables: Mapping[str, Any] | None,
    limits: TemplateLimits,
) -> families.Template:
    """The template ``render`` uses: the one named, else the tokenizer's, with the special
    tokens a template reads by name (``bos_token``) and the caller's variables."""
    variables = {**tokens.special_tokens(tokenizer), **(template_variables or {})}
    return families.resolve(_template_text(template, tokenizer), variables or None, limits)


def run_once(
    run: Runner,
    chosen: families.Template,
    shaped: list[dict[str, Any]],
    origins: list[int],
    prompt: bool,
    *,
    caller_variables: bool = False,
) -> tuple[str, list[tuple[int, int]], list[int | None] | None]:
    """The template's run over ``shaped``: its text, generation tags and, on a prefix-stable
    template, where each message starts in it (None where the run does not show that, or
    :func:`_starts_hold` fails for a template chatcodec does not know, one given the caller's
    variables (a family's stored profile was read without them) or a family whose entry says
    its run shows starts late, ``one_run_starts``)."""
    if not chosen.profile.prefix_stable:
        return (*run(shaped, prompt), None)
    text, tags, starts = run.watched(shaped, prompt)
    checked = chosen.family is None or caller_variables or families.starts_checked(chosen.family)
    if starts is not None and checked and not _starts_hold(run, shaped, origins, text, starts):
        starts = None
    return text, tags, starts


def segmented(
    run: Runner, chosen: families.Template, shaped: list[dict[str, Any]], prompt: bool, *, caller_variables: bool
) -> tuple[str, list[tuple[int, int]], _ReadEnds | None] | None:
    """On a template that shows reasoning only after the last question (:mod:`.segment_ends`),
    its run over ``shaped``, watched, with the prefix renders' ends read from its segments'
    runs (None where they cannot be read); None for any other template."""
    if closing_ends.applies(chosen.family, chosen.profile, shaped):  # DeepSeek-V3: its last message closed otherwise
        read: Callable[..., _ReadEnds | None] = closing_ends.closing_ends
    elif segment_ends.applies(chosen.family, chosen.profile, chosen.text, shaped):
        read = segment_ends.segment_ends
    else:
        return None
    text, tags, starts = run.watched(shaped, prompt)
    if starts is None:
        return text, tags, None
    assert chosen.family is not None  # only a family chatcodec knows takes the path
    found = read(
        run,
        chosen.family,
        chosen.profile,
        shaped,
        text,
        starts=starts,
        add_generation_prompt=prompt,
        checked=caller_variables,
    )
    return text, tags, found


def _template_text(template: str | os.PathLike[str] | None, tokenizer: object) -> str | os.PathLike[str]:
    if template is not None:
        return template
    carried = tokens.template_of(tokenizer)
    if carried is None:
        raise TemplateError("render: name a template (a family or its text), or pass a tokenizer that carries one")
    return carried


def tools_of(tools: Sequence[ToolDefinition | Mapping[str, Any]]) -> list[ToolDefinition]:
    read: list[ToolDefinition] = []
    for tool in tools:
        if isinstance(tool, ToolDefinition):
            read.append(tool)
        elif tool.get("type") == "function" and isinstance(tool.get("function"), Mapping):
            read.append(validate_model(ToolDefinition, tool["function"]))
        else:
            read.append(validate_model(ToolDefinition, tool))
    return read


class Runner:
    """One template with its tools and variables, rendered for any run of messages."""

    def __init__(
        self, template: str, tools: list[dict[str, Any]], variables: dict[str, Any], limits: TemplateLimits
    ) -> None:
        self.template = template
        self.tools = tools
        self.variables = variables
        self.limits = limits

    def __call__(self, messages: Sequence[Mapping[str, Any]], prompt: bool) -> tuple[str, list[tuple[int, int]]]:
        return jinja.run(
            self.template,
            messages,
            tools=self.tools,
            add_generation_prompt=prompt,
            variables=self.variables,
            limits=self.limits,
        )

    def without_tools(self) -> Runner:
        return Runner(self.template, [], self.variables, self.limits)

    def text_or_none(self, messages: Sequence[Mapping[str, Any]], prompt: bool) -> str | None:
        try:
            return self(messages, prompt)[0]
        except TemplateError as error:  # a shorter conversation the template refuses (a tool result first)
            if error.rule in BOUND_RULES:
                raise
            return None

    def watched(
        self, messages: list[dict[str, Any]], prompt: bool
    ) -> tuple[str, list[tuple[int, int]], list[int | None] | None]:
        """The render, with where each message's text starts in it (None where the run does not show it)."""
        return message_ends.run(
            self.template,
            messages,
            tools=self.tools,
            add_generation_prompt=prompt,
            variables=self.variables,
            limits=self.limits,
        )


def _starts_hold(
    run: Runner, shaped: list[dict[str, Any]], origins: list[int], text: str, starts: list[int | None]
) -> bool:
    """Whether a template chatcodec does not know ends its shorter conversations where the
    one run shows, checked on one: the conversation up to its middle message, or the first
    after it that starts a canonical message (between two results of parallel calls a ChatML
    template has not closed the turn: no shorter conversation ends there)."""
    middle = len(shaped) // 2
    if len(shaped) < 2:
        return True
    middle = next(
        (position for position in range(middle, len(shaped)) if origins[position - 1] != origins[position]), middle
    )
    if starts[middle] is None:
        return True
    return prefix_ends.prefix_end(run, shaped[:middle], text) == starts[middle]


def one_run_ends(
    run: Runner,
    shaped: list[dict[str, Any]],
    origins: list[int],
    text: str,
    starts: list[int | None],
    *,
    add_generation_prompt: bool,
) -> list[int | None]:
    """Where each template message's text ends, from where the next one starts in the one run.

    Between two template messages of one canonical message (the results of parallel calls)
    no end is given: a ChatML template closes the turn only after the last result, so the
    shorter conversation is no prefix there, and the tokens belong to the same message
    either way. A message the template wrote before its loop (a system prompt in its
    header), and the last before a generation prompt, end where the conversation through
    them, rendered alone, ends (where that is a prefix of the text).
    """
    ends: list[int | None] = []
    for position in range(len(shaped) - 1):
        if origins[position] == origins[position + 1]:
            ends.append(None)
        else:
            following = starts[position + 1]
            ends.append(
                following if following is not None else prefix_ends.prefix_end(run, shaped[: position + 1], text)
            )
    if shaped:
        ends.append(prefix_ends.prefix_end(run, shaped, text) if add_generation_prompt else len(text))
    return ends


def _sampled_spans(
    run: Runner,
    *,
    shaped: list[dict[str, Any]],
    origins: list[int],
    text: str,
    ends: list[int | None],
    tags: list[tuple[int, int]],
    profile: TemplateProfile,
    one_run: bool,
    recorder: LossRecorder,
    segments: _ReadEnds | None = None,
) -> list[SampledSpan]:
    """Each assistant message's sampled text, where the rendering shows where it ends (a
    turn the template renders differently once more turns follow has no known end).

    Found in the one run (``one_run``: a prefix-stable template), a tag is looked up by
    bisection and the prompt before an answer is the conversation before it and the
    template's generation prompt, where the text holds that prompt there; read from the
    segments' runs (``segments``), the prompt's text too where the text does not hold it."""
    tag_within = (
        generation_tags.TagIndex(tags).within
        if one_run or segments is not None
        else functools.partial(generation_tags.tag_within, tags)
    )
    spans: list[SampledSpan] = []
    for position, message in enumerate(shaped):
        if message["role"] != "assistant":
            continue
        before = ends[position - 1] if position else 0
        known_end = ends[position]
        tagged = tag_within(before, known_end)
        if tagged is not None:
            start, end = tag_span(text, tagged, before, profile.generation_prompt, profile.turn_end)
        elif known_end is not None:
            found = prompt_in_text(text, before, profile.generation_prompt) if one_run else None
            if segments is not None:
                found = segments.prompts[position]
            start = (
                found
                if found is not None
                else _prompt_end(
                    run,
                    shaped[: position + 1],
                    text,
                    origins[position],
                    recorder,
                    read=None if segments is None else segments.prompt_text(position),
                )
            )
            end = known_end
        else:
            continue
        spans.append(SampledSpan(origins[position], start, trimmed(text, start, end, profile.turn_end)))
    return spans


def _prompt_end(
    run: Runner,
    through: list[dict[str, Any]],
    text: str,
    message: int,
    recorder: LossRecorder,
    *,
    read: tuple[str, str] | None = None,
) -> int:
    """Where the generation prompt before the answer ``through[-1]`` ends in ``text``
    (``read``: the conversation before it rendered without and with the generation prompt,
    where the segments' runs tell them; else both are rendered).

    Where the prompt the model saw is not a prefix of the whole rendering (the template drops
    an earlier turn's reasoning once an answer follows), the answer's first rendered text is
    looked for after the part the two share, and the last generation prompt before it is the
    start; a loss says the turn is trained after other text than it was sampled after.
    """
    prompt = run.text_or_none(through[:-1], True) if read is None else read[1]
    if prompt is None:
        raise TemplateError(
            "the chat template refuses the conversation before this answer", path=f"$.messages[{message}]"
        )
    if text.startswith(prompt):
        return len(prompt)
    shared = segment_ends.shared_length(prompt, text)
    recorder.add(
        ("messages", message),
        "generation prompt",
        "the chat template renders the conversation before this turn otherwise once the turn follows (it drops "
        "or adds text there): the trained tokens follow other text than the prompt the model sampled after",
        "rule",
    )
    asked = (run.text_or_none(through[:-1], False) or "") if read is None else read[0]
    opener = prompt[len(asked) :] if prompt.startswith(asked) else ""
    anchor = _first_rendered(through[-1], text, shared)
    if opener and anchor is not None:
        found = text.rfind(opener, shared, anchor)
        if found >= 0:
            return found + len(opener)
    opened = prompt.rfind("<", 0, shared)
    if opened >= 0 and ">" not in prompt[opened:shared]:
        shared = opened  # never inside a special token's text (DeepSeek's prompt token against its call token)
    return shared


def _first_rendered(answer: dict[str, Any], text: str, after: int) -> int | None:
    """Where the answer's first rendered piece (its reasoning, text or first call's name)
    appears in ``text`` after ``after``."""
    calls: list[dict[str, Any]] = answer.get("tool_calls") or []
    pieces = [value for key, value in answer.items() if key not in ("role", "tool_calls") and isinstance(value, str)]
    pieces += [call["function"]["name"] for call in calls]
    found = [position for piece in pieces if piece.strip() and (position := text.find(piece.strip(), after)) >= 0]
    return min(found) if found else None


shown_as("chatcodec", Rendering, render)
