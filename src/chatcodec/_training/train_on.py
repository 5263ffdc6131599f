"""Which tokens a rendering trains: the answers the model sampled, and any role's bodies.

``render``'s ``train_on`` was a choice of answers (the last, or all); SFT on tool outputs or on a
user's words (renderers' use case for its ``is_content`` flag: ``message_role == "tool" and
is_content``) asks for another role's body too. A role's body is what its message holds as
itself (a user's or a system's text, a tool result's text), found in the rendering where the
message's text starts, and a token is trained where it holds any of its characters (as an
answer's body is found for ``is_content``), so the ids are tokenized as they always are, whatever
is trained. The scaffold around a body (``<tool_response>``, the role header) is never trained.
A role asked for and not rendered, or a body the template wrote otherwise, is an error: a mask
that trains nothing, or less than was asked, is never returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar, cast, get_args

from chatcodec import AnyMessage, TextPart, ToolMessage
from chatcodec._training.content_marks import token_starts
from chatcodec._training.errors import TemplateError


class _Span(Protocol):
    """A sampled span as render finds it (its ``SampledSpan``: render imports this module)."""

    @property
    def message(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


SampledSpan = TypeVar("SampledSpan", bound=_Span)

TrainOn = Literal["last_assistant_message", "all_assistant_messages"]
"""Which assistant messages' sampled tokens are trainable."""

Role = Literal["assistant", "user", "tool", "system"]
"""A role whose messages ``train_on`` may train: the answers' sampled tokens, or the others' bodies."""

TrainOnGiven = TrainOn | Role | Sequence[Role]
"""What ``train_on=`` takes: one of :data:`TrainOn`, a role, or several roles."""

_ROLES: tuple[str, ...] = get_args(Role)


@dataclass(frozen=True, slots=True)
class TrainChoice:
    """A ``train_on`` read: which answers, and which other roles' bodies."""

    answers: Literal["last", "all", "none"]
    bodies: frozenset[str]


def choice(given: object) -> TrainChoice:
    """``train_on`` read, or refused with what it takes (the one check, for every caller)."""
    if given == "last_assistant_message":
        return TrainChoice("last", frozenset())
    if given == "all_assistant_messages":
        return TrainChoice("all", frozenset())
    roles: object = (given,) if isinstance(given, str) else given
    if (
        not isinstance(roles, Sequence)
        or not roles
        or not all(role in _ROLES for role in cast("Sequence[object]", roles))
    ):
        raise ValueError(
            "train_on: expected 'last_assistant_message', 'all_assistant_messages', or roles among "
            f"{', '.join(_ROLES)} (one, or a list), not {given!r}"
        )
    chosen = frozenset(cast("Sequence[str]", roles))
    return TrainChoice("all" if "assistant" in chosen else "none", chosen - {"assistant"})


def trained(
    sampled: list[SampledSpan],
    messages: Sequence[AnyMessage],
    text: str,
    starts: list[int],
    *,
    train_on: object,
    add_generation_prompt: bool,
) -> tuple[list[SampledSpan], list[tuple[int, int]]]:
    """What ``train_on`` trains in a rendering: the answers' sampled spans, and the other roles'
    bodies (``starts``: where each message's text is looked for from)."""
    chosen = choice(train_on)
    bodies = body_spans(messages, text, starts, chosen.bodies) if chosen.bodies else []
    return trained_spans(sampled, messages, chosen, add_generation_prompt), bodies


def body_spans(
    messages: Sequence[AnyMessage], text: str, starts: list[int], bodies: frozenset[str]
) -> list[tuple[int, int]]:
    """Where each body of a message whose role is in ``bodies`` is in ``text`` (``starts``: where
    each message's text is looked for from), refused where one is not there or none is asked."""
    spans: list[tuple[int, int]] = []
    asked = [index for index, message in enumerate(messages) if _role(message) in bodies]
    if not asked:
        raise TemplateError(
            f"nothing to train: train_on asks for {', '.join(sorted(bodies))} messages and the conversation has none"
        )
    for index in asked:
        at = starts[index]
        bound = next((start for start in starts[index + 1 :] if start > at), len(text))
        for position, piece in _pieces(messages[index]):
            found = text.find(piece, at, bound)
            if found < 0:
                raise TemplateError(
                    "train_on: the template does not write this body as given, so its tokens cannot be marked",
                    path=f"$.messages[{index}].content" + ("" if position is None else f"[{position}]"),
                    rule="train_on_body",
                )
            spans.append((found, found + len(piece)))
            at = found + len(piece)
    if not spans:
        raise TemplateError(f"nothing to train: the {', '.join(sorted(bodies))} messages asked for have no text")
    return spans


def with_bodies(
    trainable: list[bool], tokenizer: object, text: str, ids: list[int], spans: list[tuple[int, int]]
) -> list[bool]:
    """``trainable`` with every token holding a character of a body span marked."""
    if not spans:
        return trainable
    starts = token_starts(tokenizer, text, ids)
    if starts is None:
        raise TemplateError(
            "train_on: this tokenizer does not tell where each token starts in the text (no offsets, and its ids "
            "decoded one at a time do not spell it), so a body's tokens cannot be told",
            rule="train_on_body",
        )
    ends = [*starts[1:], len(text)]
    ordered = sorted(spans)
    marked = list(trainable)
    span = 0
    for position, (start, end) in enumerate(zip(starts, ends, strict=True)):
        while span < len(ordered) and ordered[span][1] <= start:
            span += 1
        if span < len(ordered) and ordered[span][0] < end:
            marked[position] = True
    return marked


def _role(message: AnyMessage) -> str:
    return "system" if message.role == "developer" else message.role


def _pieces(message: AnyMessage) -> list[tuple[int | None, str]]:
    """A message's body texts (stripped, as a template writes them), with their part's place."""
    if isinstance(message, ToolMessage):
        return [(position, part.text.strip()) for position, part in enumerate(message.content) if part.text.strip()]
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return [(None, content.strip())] if content.strip() else []
    return [
        (position, part.text.strip())
        for position, part in enumerate(cast("list[object]", content))
        if isinstance(part, TextPart) and part.text.strip()
    ]


def trained_spans(
    sampled: list[SampledSpan], messages: Sequence[AnyMessage], chosen: TrainChoice, add_generation_prompt: bool
) -> list[SampledSpan]:
    """The sampled spans of the answers ``chosen`` trains, refused where one cannot be told or,
    with no other role's body to train, where none trains."""
    if chosen.answers == "none":
        return []
    if add_generation_prompt and chosen.answers == "last":
        return []  # a prompt to sample from: the last answer is the one to come
    if not any(message.role == "assistant" for message in messages):
        if add_generation_prompt or chosen.bodies:
            return []
        raise TemplateError("nothing to train: the conversation has no assistant message")
    answers = [index for index, message in enumerate(messages) if message.role == "assistant"]
    wanted = answers[-1:] if chosen.answers == "last" else answers
    found = {span.message for span in sampled}
    for index in wanted:
        if index not in found:
            raise TemplateError(
                "the chat template renders this turn differently once more turns follow, and marks no "
                "generation: its sampled tokens cannot be told apart (train on the last assistant message "
                "of each prefix, or use a template with generation tags)",
                path=f"$.messages[{index}]",
            )
    trained = [span for span in sampled if span.message in wanted]
    if not chosen.bodies and not any(span.end > span.start for span in trained):
        raise TemplateError("nothing to train: the template renders the assistant message(s) as no sampled text")
    return trained
