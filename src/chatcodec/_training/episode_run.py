"""Every turn of an episode from one run of a prefix-stable template.

A turn's prompt is the conversation before its answer with the generation prompt, and its
completion the answer's sampled text in the conversation through it: two renders per answer,
the square of the answers in all. On a template whose shorter renders are prefixes of the
longer (``TemplateProfile.prefix_stable``) both are prefixes of one rendering, the
conversation through its last answer: a prompt is that text up to where the answer's message
starts, then the generation prompt the text holds there, and a completion is the answer's
sampled span as ``render``'s one run finds it. So one run, and one tokenization cut where
``render`` cuts, give every turn the text and ids its own renders would.

``render``'s own rules decide each step (the one run and its check, the ends, the tags, the
prompt in the text, the trimmed end, the check that every kept text is shown); where one of
them cannot tell (no one-run ends, a prompt the text does not hold, a span it cannot place)
this answers None and ``render_turns`` renders each turn, as it does for every template that is
not prefix-stable. An image's placeholder is repeated to the engine's count as ``render``
repeats it (:mod:`.image_tokens`), its losses reported where each render reports them. Those
renders are the tests' oracle.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chatcodec import AnyMessage, Loss, PayloadError, ToolDefinition
from chatcodec._training import (
    families,
    generation_tags,
    image_tokens,
    reading,
    rendered_check,
    sampled_text,
    segment_ends,
    tokenizer_checks,
    tokens,
)
from chatcodec._training import render as rendering
from chatcodec._training.errors import TemplateError
from chatcodec._training.image_tokens import ImageSizes, ImageTokens
from chatcodec._training.shaping import Shaper
from chatcodec._training.template_limits import BOUND_RULES, DEFAULT_LIMITS, TemplateLimits
from chatcodec.contract import LossRecorder


@dataclass(frozen=True, slots=True)
class TurnTokens:
    """One turn's prompt and completion as ``render`` gives them, before its logprobs."""

    message_index: int
    prompt_ids: list[int]
    completion_ids: list[int]
    prompt_text: str
    completion_text: str
    prompt_images: tuple[ImageTokens, ...] = ()


def one_run_turns(
    read: reading.ReadConversation,
    answers: list[int],
    *,
    template: str | None,
    tokenizer: object,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None,
    variables: Mapping[str, Any] | None,
    limits: TemplateLimits = DEFAULT_LIMITS,
    image_sizes: ImageSizes | None = None,
) -> tuple[list[TurnTokens], list[Loss]] | None:
    """The turns of the ``answers`` (canonical indices, in order) and the losses their
    renders report, each once in the order they find them; None where one run cannot tell.

    An error (a template refusing the conversation, a tokenizer that is another model's) is
    None too: the per-turn renders raise it at the turn that meets it. A run past the
    template's limits is raised here, since every render through the last answer would be."""
    try:
        return _turns(
            read,
            answers,
            template=template,
            tokenizer=tokenizer,
            tools=tools,
            variables=variables,
            limits=limits,
            sizes=image_sizes,
        )
    except TemplateError as error:
        if error.rule in BOUND_RULES:
            raise
        return None
    except (PayloadError, ValueError):
        return None


def _turns(
    read: reading.ReadConversation,
    answers: list[int],
    *,
    template: str | None,
    tokenizer: object,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None,
    variables: Mapping[str, Any] | None,
    limits: TemplateLimits,
    sizes: ImageSizes | None = None,
) -> tuple[list[TurnTokens], list[Loss]] | None:
    chosen = rendering.chosen_template(template, tokenizer, variables, limits)
    if answers[0] == 0:
        return None
    if chosen.profile.prefix_stable:
        return _run_turns(
            read,
            answers,
            chosen=chosen,
            tokenizer=tokenizer,
            tools=tools,
            variables=variables,
            limits=limits,
            sizes=sizes,
        )
    groups = _segment_groups(read, answers, chosen, variables)
    if groups is None:
        return None
    turns: list[TurnTokens] = []
    losses: list[Loss] = []
    for group in groups:
        found = _run_turns(
            read, group, chosen=chosen, tokenizer=tokenizer, tools=tools, variables=variables, limits=limits
        )
        if found is None:
            return None
        turns += found[0]
        losses += [loss for loss in found[1] if loss not in losses]
    return turns, losses


def _segment_groups(
    read: reading.ReadConversation, answers: list[int], chosen: families.Template, variables: Mapping[str, Any] | None
) -> list[list[int]] | None:
    """On a template that shows reasoning only after the last question (:mod:`.segment_ends`),
    the answers by the question they follow: the renders of one group's turns are prefixes of
    the rendering through its last answer, where every answer but that last carries reasoning
    (written alike as the last or not); None where the rule cannot be held."""
    profile, key = chosen.profile, chosen.profile.reasoning_key
    messages = read.request.messages[: answers[-1] + 1]
    shaped, origins = Shaper(profile, LossRecorder(), object_arguments=read.object_arguments).messages(messages)
    if variables or key is None or not segment_ends.applies(chosen.family, profile, chosen.text, shaped):
        return None
    if profile.earlier_reasoning != "after_last_user":
        return None  # gpt-oss cuts at its final answers, not at questions: each turn rendered
    groups: dict[int, list[int]] = {}
    positions = {origin: position for position, origin in enumerate(origins)}
    users = [position for position, message in enumerate(shaped) if message["role"] == "user"]
    for answer in answers:
        position = positions[answer]
        groups.setdefault(bisect.bisect_left(users, position), []).append(answer)
    for group in groups.values():
        for answer in group[:-1]:
            reasoning = shaped[positions[answer]].get(key)
            if not (isinstance(reasoning, str) and reasoning):
                return None
    return list(groups.values())


def _run_turns(
    read: reading.ReadConversation,
    answers: list[int],
    *,
    chosen: families.Template,
    tokenizer: object,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None,
    variables: Mapping[str, Any] | None,
    limits: TemplateLimits,
    sizes: ImageSizes | None = None,
) -> tuple[list[TurnTokens], list[Loss]] | None:
    """The turns of ``answers`` from one run of the conversation through the last of them."""
    profile = chosen.profile
    messages = read.request.messages[: answers[-1] + 1]
    recorder = LossRecorder()
    shaper = Shaper(profile, recorder, object_arguments=read.object_arguments)
    shaped, origins = shaper.messages(messages)
    written_tools = shaper.tools(rendering.tools_of(tools) if tools is not None else list(read.request.tools))
    run = rendering.Runner(chosen.text, written_tools, dict(profile.variables), limits)
    if profile.prefix_stable:
        text, tags, starts = rendering.run_once(run, chosen, shaped, origins, False)
    else:
        text, tags, starts = run.watched(shaped, False)
    if starts is None:
        return None
    ends = rendering.one_run_ends(run, shaped, origins, text, starts, add_generation_prompt=False)
    prompt = _generation_prompt(run, shaped, text, ends, origins.index(answers[0]))
    if prompt is None:
        return None
    placed = _placed(
        text, ends=ends, tags=tags, origins=origins, answers=answers, prompt=prompt, turn_end=profile.turn_end
    )
    checked = chosen.family is None or bool(variables)  # a stored profile is read without the caller's variables
    if placed is None or (checked and not _prompt_holds(run, shaped, text, placed)):
        return None
    tokenizer_checks.check_encodable(text, messages)
    tokenizer_checks.check_markers(tokens.encoder(tokenizer), tokenizer, chosen.text, text, chosen.family)
    cuts = [end for end in ends if end is not None] + [bound for turn in placed for bound in turn.span]
    encode = tokens.batch_encoder(tokenizer)
    ids, piece_starts, counts = tokens.tokenize_pieces(encode, text, cuts)
    pictured = LossRecorder()  # each render reports its images' losses after the rest (render's order)
    plan = image_tokens.planned(chosen.family, shaper.images, sizes, pictured, tokenized=True)
    ids, counts, images = _expanded(tokens.encoder(tokenizer), chosen.family, plan, ids, counts)
    token_at = dict(zip([*piece_starts, len(text)], itertools.accumulate(counts, initial=0), strict=True))
    # what the text holds between the conversation before an answer and its sampled span: the
    # generation prompt, after what closes the message before it where the one run puts that
    # close after the message's start (Qwen3.5's tool results, closed once ``loop.nextitem`` is read)
    prompts = encode([text[turn.before : turn.prompt_end] for turn in placed])
    turns = [
        TurnTokens(
            message_index=turn.message,
            prompt_ids=ids[: token_at[turn.before]] + prompted,
            completion_ids=ids[token_at[turn.span[0]] : token_at[turn.span[1]]],
            prompt_text=text[: turn.prompt_end],
            completion_text=text[turn.span[0] : turn.span[1]],
            prompt_images=tuple(image for image in images if (image.end or 0) <= token_at[turn.before]),
        )
        for turn, prompted in zip(placed, prompts, strict=True)
    ]
    looked_from = rendered_check.message_starts(len(messages), ends, origins)
    image_losses = iter(pictured.losses)
    untold = [
        (int(path[1]), next(image_losses)) for (path, _), image in zip(shaper.images, plan, strict=True) if not image
    ]
    found = _losses(
        recorder.losses, shaper, messages=messages, text=text, placed=placed, starts=looked_from, untold=untold
    )
    return turns, found


def _expanded(
    encode: tokens.Encode, family: str | None, plan: list[ImageTokens | None], ids: list[int], counts: list[int]
) -> tuple[list[int], list[int], tuple[ImageTokens, ...]]:
    """The one run's ids with each image's placeholder repeated as ``render`` repeats it, and
    each piece's count of ids after it (a piece's pads stay in the piece)."""
    owners = [piece for piece, count in enumerate(counts) for _ in range(count)]
    unmarked = [False] * len(ids)
    ids, _, owners, images = image_tokens.expanded(encode, family, plan, ids=ids, trainable=unmarked, owners=owners)
    grown = [0] * len(counts)
    for piece in owners:
        grown[piece] += 1
    return ids, grown, images


@dataclass(frozen=True, slots=True)
class _Placed:
    """Where one turn is in the rendering through the last answer."""

    message: int
    position: int
    """The answer's index among the template's messages."""
    before: int
    """Where the conversation before the answer ends."""
    prompt_end: int
    """Where its prompt ends: the conversation before the answer, then the generation prompt."""
    through: int
    """Where the conversation through the answer ends."""
    span: tuple[int, int]
    """The answer's sampled text."""


def _placed(
    text: str,
    *,
    ends: list[int | None],
    tags: list[tuple[int, int]],
    origins: list[int],
    answers: list[int],
    prompt: str,
    turn_end: str,
) -> list[_Placed] | None:
    """Each answer's place, as ``render``'s one run finds its sampled span (its generation
    tag, else the text after the generation prompt), where the text holds the generation
    prompt after the conversation before it; None where an answer has no such place."""
    positions = {origin: position for position, origin in enumerate(origins)}
    within = generation_tags.TagIndex(tags).within
    placed: list[_Placed] = []
    for message in answers:
        position = positions[message]
        before, through = ends[position - 1], ends[position]
        if before is None or through is None:
            return None
        tagged = within(before, through)
        prompted = sampled_text.prompt_in_text(text, before, prompt)
        if prompted is None and tagged is not None:
            prompted = sampled_text.prompt_before_tag(text, before, tagged[0], prompt)
        if prompted is None:
            return None
        start, end = sampled_text.tag_span(text, tagged, before, prompt, turn_end) if tagged else (prompted, through)
        end = sampled_text.trimmed(text, start, end, turn_end)
        if start < prompted or end <= start:
            return None
        placed.append(_Placed(message, position, before, prompted, through, (start, end)))
    return placed


def _generation_prompt(
    run: rendering.Runner, shaped: list[dict[str, Any]], text: str, ends: list[int | None], first: int
) -> str | None:
    """What the template writes for ``add_generation_prompt`` after the conversation before
    the first answer (at ``first``): the first prompt, rendered, less the text before the
    answer, where that text is the rendering's own (None where it is not). The profile's
    generation prompt is read without the caller's variables (``enable_thinking=False`` opens
    an empty reasoning block there), so the first turn's prompt says it."""
    before = ends[first - 1] if first else None
    prompt = run.text_or_none(shaped[:first], True) if before is not None else None
    if prompt is None or before is None or not prompt.startswith(text[:before]) or len(prompt) == before:
        return None
    return prompt[before:]


def _prompt_holds(run: rendering.Runner, shaped: list[dict[str, Any]], text: str, placed: list[_Placed]) -> bool:
    """Whether a template chatcodec does not know prompts as the rendering shows, checked
    on one turn (the middle one), as ``render`` checks its one-run ends on one message."""
    middle = placed[len(placed) // 2]
    return run.text_or_none(shaped[: middle.position], True) == text[: middle.prompt_end]


def _losses(
    shaping: list[Loss],
    shaper: Shaper,
    *,
    messages: Sequence[AnyMessage],
    text: str,
    placed: list[_Placed],
    starts: list[int],
    untold: Sequence[tuple[int, Loss]] = (),
) -> list[Loss]:
    """The losses the per-turn renders report, each once, in the order they report them.

    Each render reports the shaping losses of its messages, then the tools', then the kept
    texts it does not show (``starts``: where each message's text is looked for first). Its
    text is a prefix of this one, longer than the render's before it, so a text missing from
    any render is missing from the first one holding its message: each text is looked for
    once, in that render's length of the text."""
    renders = [
        (count, limit)
        for turn in placed
        for count, limit in ((turn.message, turn.prompt_end), (turn.message + 1, turn.through))
    ]
    first_limits: list[int] = []
    for count, limit in renders:
        first_limits += [limit] * (count - len(first_limits))
    unshown = LossRecorder()
    lost: list[int] = [0] * len(messages)
    for index, position, what, value in rendered_check.checked_pieces(messages, shaper.lost):
        if not rendered_check.shown(value, text, starts[index], first_limits[index]):
            rendered_check.lose(unshown, index, position, what)
            lost[index] += 1
    unshown_losses = iter(unshown.losses)
    by_message = [list(itertools.islice(unshown_losses, count)) for count in lost]
    marks = [0, *shaper.marks]
    found: list[Loss] = []
    seen: set[Loss] = set()
    held = 0
    for number, (count, _) in enumerate(renders):
        reported = shaping[marks[held] : marks[count]]
        reported += shaping[marks[-1] :] if number == 0 else []  # the tools'
        reported += [loss for index in range(held, count) for loss in by_message[index]]
        reported += [loss for message, loss in untold if held <= message < count]  # render's images, after
        new = [loss for loss in reported if loss not in seen]
        found += new
        seen.update(new)
        held = count
    return found
