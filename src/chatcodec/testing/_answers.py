"""Hypothesis strategies for what a model gives back: responses, their token log
probabilities, and single stream events.

Logprobs are drawn whether or not they spell the answer's text, with or without their bytes,
so a format that places them along its text parts, or has no place for them, is checked for
reporting what it cannot carry.
"""

from __future__ import annotations

from functools import cache
from typing import get_args

from hypothesis import strategies as st

from chatcodec._model.response import ChatResponse, ResponseChoice
from chatcodec._model.response_fields import FinishReason, TokenLogprob, TopLogprob, UnifiedFinishReason, Usage
from chatcodec._model.stream_events import (
    AnyStreamEvent,
    ChoiceMetadataEvent,
    ErrorEvent,
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
from chatcodec._public_label import shown_as
from chatcodec.testing._blocks import (
    COUNTS,
    INDEXES,
    PROVIDERS,
    TEXTS,
    TIMESTAMPS,
    json_values,
    lists,
    optional,
    provider_metadata,
)
from chatcodec.testing._strategies import assistant_content_parts, assistant_messages

# --- responses -------------------------------------------------------------------------


@cache
def finish_reasons() -> st.SearchStrategy[FinishReason]:
    """Finish reasons, with or without the provider's raw value."""
    unified: tuple[UnifiedFinishReason, ...] = get_args(UnifiedFinishReason)
    raw = st.one_of(st.sampled_from(["end_turn", "STOP", "tool_use", "max_tokens"]), TEXTS)
    return st.builds(FinishReason, unified=st.sampled_from(unified), raw=optional(raw))


@cache
def usages() -> st.SearchStrategy[Usage]:
    """Token counts, each present or not."""
    return st.builds(
        Usage,
        input_tokens=optional(COUNTS),
        output_tokens=optional(COUNTS),
        cache_read_tokens=optional(COUNTS),
        cache_write_tokens=optional(COUNTS),
        reasoning_tokens=optional(COUNTS),
        provider_metadata=optional(provider_metadata()),
    )


_LOGPROB_VALUES = st.floats(max_value=0.0, allow_nan=False, allow_infinity=False)


@st.composite
def _token_bytes(draw: st.DrawFn, token: str) -> list[int] | None:
    """A token's ``bytes``: none, its text's UTF-8, or bytes of their own (part of a
    character cut between tokens, which the text cannot show)."""
    own = st.lists(st.integers(min_value=0, max_value=255), max_size=4)
    return draw(st.one_of(st.none(), st.just(list(token.encode())), own))


@cache
def _top_logprobs() -> st.SearchStrategy[TopLogprob]:
    return TEXTS.flatmap(
        lambda token: st.builds(TopLogprob, token=st.just(token), logprob=_LOGPROB_VALUES, bytes=_token_bytes(token))
    )


@cache
def _token_logprobs() -> st.SearchStrategy[list[TokenLogprob]]:
    """Tokens with their log probabilities and up to three alternatives: an answer's
    (``ResponseChoice.logprobs``) or a stream delta's. They need not spell the answer's
    text, so a format that splits them along its text parts must report what it cannot."""
    token = TEXTS.flatmap(
        lambda text: st.builds(
            TokenLogprob,
            token=st.just(text),
            logprob=_LOGPROB_VALUES,
            bytes=_token_bytes(text),
            top_logprobs=st.lists(_top_logprobs(), max_size=3),
        )
    )
    return lists(token)


@cache
def response_choices(*, finished: bool = False) -> st.SearchStrategy[ResponseChoice]:
    """Response choices at any small index (``finished``: each with its finish reason)."""
    return st.builds(
        ResponseChoice,
        index=INDEXES,
        message=assistant_messages(),
        finish_reason=finish_reasons() if finished else optional(finish_reasons()),
        logprobs=optional(_token_logprobs()),
        provider_metadata=optional(provider_metadata()),
    )


def _renumbered(choices: list[ResponseChoice]) -> list[ResponseChoice]:
    return [choice.model_copy(update={"index": position}) for position, choice in enumerate(choices)]


@cache
def chat_responses(*, finished: bool = False) -> st.SearchStrategy[ChatResponse]:
    """Chat responses with one to three choices, indexed 0, 1, 2 in order; ``finished``:
    each choice with its finish reason, as a whole stream gives them (docs/streams.md)."""
    return st.builds(
        ChatResponse,
        id=optional(TEXTS),
        model=optional(TEXTS),
        created=optional(TIMESTAMPS),
        choices=st.lists(response_choices(finished=finished), min_size=1, max_size=3).map(_renumbered),
        usage=optional(usages()),
        provider_metadata=optional(provider_metadata()),
    )


# --- stream events ---------------------------------------------------------------------


@cache
def _part_events() -> st.SearchStrategy[AnyStreamEvent]:
    fields: dict[str, st.SearchStrategy[object]] = {
        "index": INDEXES,
        "choice": st.integers(min_value=0, max_value=2),
        "provider_metadata": optional(provider_metadata()),
    }
    deltas = (RefusalDeltaEvent, ThinkingDeltaEvent, ThinkingSignatureDeltaEvent, ToolCallDeltaEvent)
    return st.one_of(
        st.builds(TextDeltaEvent, delta=TEXTS, logprobs=optional(_token_logprobs()), **fields),
        *(st.builds(kind, delta=TEXTS, **fields) for kind in deltas),
        *(st.builds(kind, **fields) for kind in (TextStartEvent, TextEndEvent, ToolCallEndEvent)),
        st.builds(ThinkingStartEvent, provider=optional(PROVIDERS), model=optional(TEXTS), **fields),
        st.builds(ThinkingEndEvent, encrypted=optional(TEXTS), **fields),
        st.builds(ToolCallStartEvent, id=TEXTS, name=TEXTS, kind=st.sampled_from(["function", "custom"]), **fields),
        st.builds(PartEvent, part=assistant_content_parts(), **fields),
    )


@cache
def _response_events() -> st.SearchStrategy[AnyStreamEvent]:
    metadata = optional(provider_metadata())
    return st.one_of(
        st.builds(
            ResponseStartEvent,
            id=optional(TEXTS),
            model=optional(TEXTS),
            created=optional(TIMESTAMPS),
            provider_metadata=metadata,
        ),
        st.builds(UsageEvent, usage=usages(), provider_metadata=metadata),
        st.builds(
            FinishEvent,
            choice=st.integers(min_value=0, max_value=2),
            finish_reason=finish_reasons(),
            logprobs=optional(_token_logprobs()),
            provider_metadata=metadata,
            choice_metadata=metadata,
        ),
        st.builds(
            ChoiceMetadataEvent,
            choice=st.integers(min_value=0, max_value=2),
            provider_metadata=metadata,
            choice_metadata=metadata,
            message_metadata=metadata,
        ),
        st.builds(
            ErrorEvent, message=TEXTS, error_type=optional(TEXTS), body=json_values(), provider_metadata=metadata
        ),
    )


@cache
def stream_events() -> st.SearchStrategy[AnyStreamEvent]:
    """Any single valid stream event (not a coherent stream: see ``events_from_response``)."""
    return st.one_of(_response_events(), _part_events())


shown_as("chatcodec.testing", chat_responses, finish_reasons, response_choices, stream_events, usages)
