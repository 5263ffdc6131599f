"""Turning a finished :class:`ChatResponse` back into canonical stream events.

Proxies serve a streaming API from a non-streaming upstream (or from a cache), and tests
check accumulation against the non-streamed result; both need a response replayed as
events. ``split`` decides how text and argument deltas are cut, so any chunking can be
reproduced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, assert_never

from chatcodec._model.content import (
    AnyPart,
    AudioPart,
    DocumentPart,
    ImagePart,
    OpaquePart,
    RefusalPart,
    TextPart,
    ThinkingPart,
    ToolResultPart,
    ToolUsePart,
    VideoPart,
)
from chatcodec._model.response import ChatResponse, ResponseChoice
from chatcodec._model.response_fields import TokenLogprob
from chatcodec._model.stream_events import (
    AnyStreamEvent,
    ChoiceMetadataEvent,
    FinishEvent,
    PartEvent,
    RefusalDeltaEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)

Splitter = Callable[[str], list[str]]
"""Cuts a text into the deltas to emit; joined, they must give the text back."""


def whole(text: str) -> list[str]:
    """The default splitter: one delta holding everything (none for empty text)."""
    return [text] if text else []


def events_from_response(response: ChatResponse, split: Splitter = whole) -> Iterator[AnyStreamEvent]:
    """The events that, accumulated, give ``response`` back: every choice, in index order,
    with its bag and its message's, its content as a list of parts. Only the message's
    ``name`` and ``cache_control`` have no event (an answer has neither on any wire)."""
    yield ResponseStartEvent(
        id=response.id, model=response.model, created=response.created, provider_metadata=response.provider_metadata
    )
    for choice in response.choices:
        yield from _choice_events(choice, split)
    if response.usage is not None:
        yield UsageEvent(usage=response.usage)


def _choice_events(choice: ResponseChoice, split: Splitter) -> Iterator[AnyStreamEvent]:
    """A choice's parts, then its message's bag (and its own, when it has no finish to
    carry it) on a :class:`ChoiceMetadataEvent`, then its finish. A choice with nothing at
    all still gets that event, so it is not lost from the response.

    Its ``logprobs`` ride on its finish; an unfinished choice's on the first delta of its
    first streamed text part (the accumulated choice gathers its deltas' tokens), as a
    stream cut before its finish gave them. An unfinished choice with tokens but no such
    part has no event to carry them, and its tokens are not replayed."""
    parts = choice.message.parts
    finished = choice.finish_reason is not None
    carrier = None if finished or choice.logprobs is None else _first_streamed_text(parts)
    for index, part in enumerate(parts):
        tokens = choice.logprobs if index == carrier else None
        yield from _part_events(part, index, choice.index, split, tokens)
    choice_bag = None if finished else choice.provider_metadata
    message_bag = choice.message.provider_metadata
    if choice_bag is not None or message_bag is not None or not (parts or finished):
        yield ChoiceMetadataEvent(choice=choice.index, choice_metadata=choice_bag, message_metadata=message_bag)
    if choice.finish_reason is not None:  # the choice's bag and logprobs ride on its finish
        yield FinishEvent(
            choice=choice.index,
            finish_reason=choice.finish_reason,
            logprobs=choice.logprobs,
            choice_metadata=choice.provider_metadata,
        )


def _first_streamed_text(parts: list[AnyPart]) -> int | None:
    """The place of the first text part replayed as deltas (one with a cache breakpoint
    is replayed whole); None when there is none."""
    return next((index for index, part in enumerate(parts) if _streamed_text(part)), None)


def _streamed_text(part: AnyPart) -> bool:
    return isinstance(part, TextPart) and part.cache_control is None


def _part_events(
    part: AnyPart, index: int, choice: int, split: Splitter, tokens: list[TokenLogprob] | None = None
) -> Iterator[AnyStreamEvent]:
    """``part``'s events; ``tokens`` (a streamed text part's only) ride on its first delta,
    an empty one when its text gives none."""
    where: dict[str, Any] = {"index": index, "choice": choice}
    metadata = part.provider_metadata
    match part:
        case TextPart() if _streamed_text(part):
            yield TextStartEvent(**where)
            deltas = split(part.text) or ([""] if tokens is not None else [])
            for position, delta in enumerate(deltas):
                yield TextDeltaEvent(**where, delta=delta, logprobs=tokens if position == 0 else None)
            yield TextEndEvent(**where, provider_metadata=metadata, citations=part.citations)
        case ThinkingPart() if part.cache_control is None and not part.redacted:
            yield ThinkingStartEvent(**where, provider=part.provider, model=part.model)
            yield from (ThinkingDeltaEvent(**where, delta=delta) for delta in split(part.text))
            if part.signature is not None:  # an empty signature is still a signature
                deltas = split(part.signature) or [""]
                yield from (ThinkingSignatureDeltaEvent(**where, delta=delta) for delta in deltas)
            yield ThinkingEndEvent(**where, encrypted=part.encrypted, provider_metadata=metadata)
        case ToolUsePart() if part.cache_control is None:
            # The call's bag rides on its start, where the Anthropic, Bedrock and OpenAI Chat
            # streams give a call's fields (Anthropic's ``caller`` is in content_block_start):
            # an encoder that has sent the start cannot place them from the end.
            yield ToolCallStartEvent(**where, id=part.id, name=part.name, provider_metadata=metadata, kind=part.kind)
            yield from (ToolCallDeltaEvent(**where, delta=delta) for delta in split(part.arguments))
            yield ToolCallEndEvent(**where)
        case RefusalPart() if part.cache_control is None and metadata is None and part.text:
            yield from (RefusalDeltaEvent(**where, delta=delta) for delta in split(part.text))
        case TextPart() | ThinkingPart() | ToolUsePart() | RefusalPart() | ImagePart() | AudioPart() | OpaquePart():
            yield PartEvent(**where, part=part)
        case DocumentPart() | VideoPart() | ToolResultPart():
            raise ValueError(f"an assistant message cannot hold a {part.type} part")
        case _:
            assert_never(part)
