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

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from chatcodec import (
    AnyMessage,
    Loss,
    OnLoss,
    ToolDefinition,
    validate_model,
)
from chatcodec._public_label import shown_as
from chatcodec._training import families, jinja, reading, tokenizer_checks, tokens
from chatcodec._training.errors import TemplateError
from chatcodec._training.shaping import Shaper
from chatcodec._training.template_limits import BOUND_RULES, DEFAULT_LIMITS, TemplateLimits
from chatcodec.contract import LossRecorder

TrainOn = Literal["last_assistant_message", "all_assistant_messages"]
"""Which assistant messages' sampled tokens are trainable."""


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


def render(
    conversation: object,
    *,
    template: str | os.PathLike[str] | None = None,
    source: str | None = None,
    tools: Sequence[ToolDefinition | Mapping[str, Any]] | None = None,
    tokenizer: object = None,
    add_generation_prompt: bool = False,
    train_on: TrainOn = "last_assistant_message",
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    template_variables: Mapping[str, Any] | None = None,
    template_limits: TemplateLimits = DEFAULT_LIMITS,
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
    template (time, output). Losses name paths in the canonical messages.
    """
    recorder = LossRecorder()
    variables = {**tokens.special_tokens(tokenizer), **(template_variables or {})}
    chosen = families.resolve(_template_text(template, tokenizer), variables or None, template_limits)
    profile = chosen.profile
    read = reading.read_input(conversation, source, recorder)
    request = read.request
    messages, request_tools = list(request.messages), list(request.tools)
    shaper = Shaper(profile, recorder, object_arguments=read.object_arguments)
    shaped, origins = shaper.messages(messages)
    written_tools = shaper.tools(_tools(tools) if tools is not None else request_tools)
    run = _Runner(chosen.text, written_tools, dict(profile.variables), template_limits)
    text, tags = run(shaped, add_generation_prompt)
    ends = _message_ends(run, shaped, text, add_generation_prompt)
    sampled = _sampled_spans(
        run,
        shaped=shaped,
        origins=origins,
        text=text,
        ends=ends,
        tags=tags,
        turn_end=profile.turn_end,
        recorder=recorder,
    )
    _check_rendered(messages, text, recorder, shaper.lost)
    trained = _trained(sampled, messages, train_on, add_generation_prompt)
    recorder.settle(on_loss, losses, stacklevel=3)
    rendering = Rendering(text=text, sampled=tuple(sampled), losses=recorder.losses, template_family=chosen.family)
    if tokenizer is None:
        return rendering
    tokenizer_checks.check_encodable(text, messages)
    name, tokenizer = tokenizer_checks.tokenizer_name(tokenizer), tokens.loaded(tokenizer)
    tokenizer_checks.check_markers(tokens.encoder(tokenizer), name, chosen.text, text)
    return _tokenized(rendering, tokenizer, ends, origins, trained)


def _template_text(template: str | os.PathLike[str] | None, tokenizer: object) -> str | os.PathLike[str]:
    if template is not None:
        return template
    carried = tokens.template_of(tokenizer)
    if carried is None:
        raise TemplateError("render: name a template (a family or its text), or pass a tokenizer that carries one")
    return carried


def _tools(tools: Sequence[ToolDefinition | Mapping[str, Any]]) -> list[ToolDefinition]:
    read: list[ToolDefinition] = []
    for tool in tools:
        if isinstance(tool, ToolDefinition):
            read.append(tool)
        elif tool.get("type") == "function" and isinstance(tool.get("function"), Mapping):
            read.append(validate_model(ToolDefinition, tool["function"]))
        else:
            read.append(validate_model(ToolDefinition, tool))
    return read


class _Runner:
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

    def text_or_none(self, messages: Sequence[Mapping[str, Any]], prompt: bool) -> str | None:
        try:
            return self(messages, prompt)[0]
        except TemplateError as error:  # a shorter conversation the template refuses (a tool result first)
            if error.rule in BOUND_RULES:
                raise
            return None


def _message_ends(
    run: _Runner, shaped: list[dict[str, Any]], text: str, add_generation_prompt: bool
) -> list[int | None]:
    """Where each template message's text ends in ``text``: the length of the conversation
    up to it, rendered alone, where that is a prefix of the whole (None where it is not)."""
    ends: list[int | None] = []
    for count in range(1, len(shaped) + 1):
        if count == len(shaped) and not add_generation_prompt:
            ends.append(len(text))
            continue
        shorter = run.text_or_none(shaped[:count], False)
        ends.append(len(shorter) if shorter is not None and text.startswith(shorter) else None)
    return ends


def _sampled_spans(
    run: _Runner,
    *,
    shaped: list[dict[str, Any]],
    origins: list[int],
    text: str,
    ends: list[int | None],
    tags: list[tuple[int, int]],
    turn_end: str,
    recorder: LossRecorder,
) -> list[SampledSpan]:
    """Each assistant message's sampled text, where the rendering shows where it ends (a
    turn the template renders differently once more turns follow has no known end)."""
    spans: list[SampledSpan] = []
    for position, message in enumerate(shaped):
        if message["role"] != "assistant":
            continue
        before = ends[position - 1] if position else 0
        known_end = ends[position]
        tagged = _tag_within(tags, before, known_end)
        if tagged is not None:
            start, end = tagged
        elif known_end is not None:
            start = _prompt_end(run, shaped[: position + 1], text, origins[position], recorder)
            end = known_end
        else:
            continue
        spans.append(SampledSpan(origins[position], start, _trimmed(text, start, end, turn_end)))
    return spans


def _tag_within(tags: list[tuple[int, int]], start: int | None, end: int | None) -> tuple[int, int] | None:
    if start is None:
        return None
    for tag_start, tag_end in tags:
        if tag_start >= start and (end is None or tag_end <= end):
            return tag_start, tag_end
    return None


def _prompt_end(run: _Runner, through: list[dict[str, Any]], text: str, message: int, recorder: LossRecorder) -> int:
    """Where the generation prompt before the answer ``through[-1]`` ends in ``text``.

    Where the prompt the model saw is not a prefix of the whole rendering (the template drops
    an earlier turn's reasoning once an answer follows), the answer's first rendered text is
    looked for after the part the two share, and the last generation prompt before it is the
    start; a loss says the turn is trained after other text than it was sampled after.
    """
    prompt = run.text_or_none(through[:-1], True)
    if prompt is None:
        raise TemplateError(
            "the chat template refuses the conversation before this answer", path=f"$.messages[{message}]"
        )
    if text.startswith(prompt):
        return len(prompt)
    shared = 0
    for prompt_char, text_char in zip(prompt, text, strict=False):
        if prompt_char != text_char:
            break
        shared += 1
    recorder.add(
        ("messages", message),
        "generation prompt",
        "the chat template renders the conversation before this turn otherwise once the turn follows (it drops "
        "or adds text there): the trained tokens follow other text than the prompt the model sampled after",
        "rule",
    )
    asked = run.text_or_none(through[:-1], False) or ""
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


def _trimmed(text: str, start: int, end: int, turn_end: str) -> int:
    """``end`` moved back to just after the turn's end token: what follows it (a newline
    before the next turn) is the template's, not the model's."""
    if not turn_end:
        return end
    found = text.rfind(turn_end, start, end)
    return found + len(turn_end) if found >= 0 else end


def _check_rendered(messages: Sequence[AnyMessage], text: str, recorder: LossRecorder, reported: set[str]) -> None:
    """Every text the shaping kept must be in the rendering: a template that skips a part
    (an earlier turn's reasoning, a field it does not read) leaves a loss, not a silence;
    ``reported`` are the canonical paths the shaping already reported."""
    for index, message in enumerate(messages):
        content = message.content
        pieces = [(None, "text", content)] if isinstance(content, str) else _pieces(content)
        for position, what, value in pieces:
            path = f"$.messages[{index}]" + ("" if position is None else f".content[{position}]")
            if not _within(path, reported) and not _shown(value, text):
                recorder.add(
                    _steps(index, position),
                    what,
                    "the chat template does not render it (it drops this turn's reasoning, the text beside a "
                    "call, or reads no such field)",
                )


def _steps(index: int, position: int | None) -> tuple[str | int, ...]:
    return ("messages", index) if position is None else ("messages", index, "content", position)


def _within(path: str, reported: set[str]) -> bool:
    """Whether a loss at ``path`` or around it (``$.messages[1].content``) is already reported."""
    return any(path == place or path.startswith((f"{place}[", f"{place}.")) for place in reported)


def _pieces(content: Sequence[Any]) -> list[tuple[int | None, str, str]]:
    return [(position, what, value) for position, part in enumerate(content) for what, value in _texts_of(part)]


def _shown(value: str, text: str) -> bool:
    """Whether ``value`` is in the rendering as it is, trimmed, or as a JSON string's inside
    (a template writing it with ``tojson``, as gpt-oss writes a tool result)."""
    stripped = value.strip()
    return not stripped or stripped in text or json.dumps(stripped, ensure_ascii=False)[1:-1] in text


def _texts_of(part: Any) -> list[tuple[str, str]]:
    kind = getattr(part, "type", "")
    if kind == "thinking" and not part.redacted:
        return [("thinking part", part.text)]
    if kind == "tool_result" and isinstance(part.content, str):
        return [("tool result", part.content)]
    if kind == "tool_use" and part.kind == "function":
        return [("tool call", part.name)]
    if kind == "text":
        return [("text part", part.text)]
    return []


def _trained(
    sampled: list[SampledSpan], messages: Sequence[AnyMessage], train_on: TrainOn, add_generation_prompt: bool
) -> list[SampledSpan]:
    if train_on not in ("last_assistant_message", "all_assistant_messages"):
        raise ValueError(f"train_on: expected 'last_assistant_message' or 'all_assistant_messages', not {train_on!r}")
    if add_generation_prompt and train_on == "last_assistant_message":
        return []  # a prompt to sample from: the last answer is the one to come
    if not any(message.role == "assistant" for message in messages):
        if add_generation_prompt:
            return []
        raise TemplateError("nothing to train: the conversation has no assistant message")
    answers = [index for index, message in enumerate(messages) if message.role == "assistant"]
    wanted = answers[-1:] if train_on == "last_assistant_message" else answers
    found = {span.message for span in sampled}
    for index in wanted:
        if index not in found:
            raise TemplateError(
                "the chat template renders this turn differently once more turns follow, and marks no "
                "generation: its sampled tokens cannot be told apart (train on the last assistant message "
                "of each prefix, or use a template with generation tags)",
                path=f"$.messages[{index}]",
            )
    chosen = [span for span in sampled if span.message in wanted]
    if not any(span.end > span.start for span in chosen):
        raise TemplateError("nothing to train: the template renders the assistant message(s) as no sampled text")
    return chosen


def _tokenized(
    rendering: Rendering,
    tokenizer: object,
    ends: list[int | None],
    origins: list[int],
    trained: list[SampledSpan],
) -> Rendering:
    text = rendering.text
    known = [(end, origins[position]) for position, end in enumerate(ends) if end is not None]
    cuts = [end for end, _ in known]
    for span in rendering.sampled:
        cuts += [span.start, span.end]
    ids, starts = tokens.tokenize_pieces(tokens.encoder(tokenizer), text, cuts)
    trainable = [any(span.start <= start < span.end for span in trained) for start in starts]
    owners: list[int] = []
    for start in starts:
        owner = next((message for end, message in known if start < end), -1)
        sampled_owner = next((span.message for span in rendering.sampled if span.start <= start < span.end), None)
        owners.append(owner if sampled_owner is None else sampled_owner)
    return Rendering(
        text=text,
        sampled=rendering.sampled,
        token_ids=ids,
        trainable=trainable,
        message_indices=owners,
        losses=rendering.losses,
        template_family=rendering.template_family,
    )


shown_as("chatcodec", Rendering, render)
