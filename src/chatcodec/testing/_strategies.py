"""Hypothesis strategies that build valid instances of every canonical chatcodec type.

Code that consumes chatcodec models (codecs, proxies, agents, storage layers) is best
checked against many shapes nobody thought to write by hand: thinking interleaved with
tool calls, empty texts, cache markers on odd parts, provider metadata everywhere. These
strategies produce such values directly as canonical models, always valid, so a user's
property tests can say "for any conversation ..." in one line.

Sizes are kept small (a few items per list, short texts) so properties run fast; text alphabets stay general (any code
point but surrogates). Free-form JSON (provider metadata, tool schemas, opaque blocks) avoids floats, so it survives
any JSON round trip exactly. Each public function returns the same (cached) strategy object on every call.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import cycle
from typing import Literal, TypeVar, get_args

from hypothesis import strategies as st
from pydantic import JsonValue

from chatcodec._model.content import (
    AssistantContentPart,
    AudioPart,
    Base64Source,
    CacheControl,
    DocumentPart,
    FileSource,
    ImagePart,
    OpaquePart,
    RefusalPart,
    SystemContentPart,
    TextPart,
    TextSource,
    ThinkingPart,
    ToolResultContentPart,
    ToolResultPart,
    ToolUsePart,
    UrlSource,
    UserContentPart,
    VideoPart,
)
from chatcodec._model.messages import AnyMessage, AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage
from chatcodec._model.request import ChatRequest, ReasoningConfig, ReasoningEffort, ResponseFormat
from chatcodec._model.response import ChatResponse, FinishReason, ResponseChoice, UnifiedFinishReason, Usage
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
from chatcodec._model.tools import ToolChoice, ToolDefinition

ValueT = TypeVar("ValueT")

Splitter = Callable[[str], list[str]]
"""Cuts a text into non-empty pieces that join back to it."""

_MAX_ITEMS = 5
_MAX_TEXT = 20

# --- building blocks -----------------------------------------------------------------


def _optional(strategy: st.SearchStrategy[ValueT]) -> st.SearchStrategy[ValueT | None]:
    return st.one_of(st.none(), strategy)


def _lists(strategy: st.SearchStrategy[ValueT], min_size: int = 0) -> st.SearchStrategy[list[ValueT]]:
    return st.lists(strategy, min_size=min_size, max_size=_MAX_ITEMS)


_TEXTS = st.text(max_size=_MAX_TEXT)
_NON_EMPTY_TEXTS = st.text(min_size=1, max_size=_MAX_TEXT)
_TOOL_NAMES = _NON_EMPTY_TEXTS.filter(str.strip)
"""Tool names: never blank, which names no tool (encoders refuse it)."""
_COUNTS = st.integers(min_value=0, max_value=2**31 - 1)
_TIMESTAMPS = st.integers(min_value=0, max_value=2**40)
_INDEXES = st.integers(min_value=0, max_value=_MAX_ITEMS)
_FINITE_FLOATS = st.floats(allow_nan=False, allow_infinity=False)
_KEYS = st.one_of(st.sampled_from(["id", "type", "signature", "index"]), st.text(max_size=8))
_SCALARS: st.SearchStrategy[JsonValue] = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**53), max_value=2**53), _TEXTS
)
_PROVIDERS = st.one_of(st.sampled_from(["anthropic", "openai", "gemini", "bedrock"]), _TEXTS)
_MEDIA_TYPES = st.one_of(
    st.sampled_from(
        ["image/png", "image/jpeg", "audio/wav", "audio/mpeg", "video/mp4", "application/pdf", "text/plain"]
    ),
    _NON_EMPTY_TEXTS,
)
_BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_"


@cache
def json_values() -> st.SearchStrategy[JsonValue]:
    """Small JSON values: null, booleans, integers, strings, lists and objects (no floats)."""

    def extend(children: st.SearchStrategy[JsonValue]) -> st.SearchStrategy[JsonValue]:
        return st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(_KEYS, children, max_size=3),
        )

    return st.recursive(_SCALARS, extend, max_leaves=5)


@cache
def json_objects() -> st.SearchStrategy[dict[str, JsonValue]]:
    """Small JSON objects with :func:`json_values` as values."""
    return st.dictionaries(_KEYS, json_values(), max_size=3)


@cache
def provider_metadata() -> st.SearchStrategy[dict[str, dict[str, JsonValue]]]:
    """Provider metadata bags: provider name to a JSON object (either may be empty)."""
    return st.dictionaries(_PROVIDERS, json_objects(), max_size=2)


@cache
def cache_controls() -> st.SearchStrategy[CacheControl]:
    """Prompt-cache markers, with or without a TTL."""
    return st.builds(CacheControl, ttl=_optional(st.one_of(st.sampled_from(["5m", "1h"]), _TEXTS)))


def _part_extras() -> dict[str, st.SearchStrategy[object]]:
    """Strategies for the fields every part (and tool definition) carries."""
    return {"cache_control": _optional(cache_controls()), "provider_metadata": _optional(provider_metadata())}


def _message_extras() -> dict[str, st.SearchStrategy[object]]:
    """Strategies for the fields every message carries."""
    return {"name": _optional(_TEXTS), **_part_extras()}


# --- media sources ---------------------------------------------------------------------


@cache
def url_sources() -> st.SearchStrategy[UrlSource]:
    """URL media sources (any non-empty URL text, ``data:`` URLs included)."""
    urls = st.one_of(st.sampled_from(["https://example.com/a.png", "gs://bucket/a.pdf", "data:,x"]), _NON_EMPTY_TEXTS)
    return st.builds(UrlSource, url=urls, media_type=_optional(_MEDIA_TYPES))


@cache
def base64_sources() -> st.SearchStrategy[Base64Source]:
    """Inline base64 sources (the data is kept verbatim, so any text is valid)."""
    data = st.one_of(st.text(alphabet=_BASE64_ALPHABET, max_size=_MAX_TEXT), _TEXTS)
    return st.builds(Base64Source, media_type=_MEDIA_TYPES, data=data)


@cache
def file_sources() -> st.SearchStrategy[FileSource]:
    """Provider file-id sources."""
    return st.builds(FileSource, file_id=_NON_EMPTY_TEXTS, media_type=_optional(_MEDIA_TYPES))


@cache
def text_sources() -> st.SearchStrategy[TextSource]:
    """Inline plain-text document sources."""
    return st.builds(TextSource, text=_TEXTS, media_type=_MEDIA_TYPES)


@cache
def _media_sources() -> st.SearchStrategy[UrlSource | Base64Source | FileSource]:
    return st.one_of(url_sources(), base64_sources(), file_sources())


# --- parts -----------------------------------------------------------------------------


@cache
def text_parts() -> st.SearchStrategy[TextPart]:
    """Text parts, sometimes cached or carrying provider metadata."""
    return st.builds(TextPart, text=_TEXTS, **_part_extras())


@cache
def image_parts() -> st.SearchStrategy[ImagePart]:
    """Image parts from URL, base64 or file sources."""
    details: list[Literal["auto", "low", "high"] | None] = [None, "auto", "low", "high"]
    return st.builds(ImagePart, source=_media_sources(), detail=st.sampled_from(details), **_part_extras())


@cache
def audio_parts() -> st.SearchStrategy[AudioPart]:
    """Audio parts from URL, base64 or file sources."""
    return st.builds(AudioPart, source=_media_sources(), **_part_extras())


@cache
def video_parts() -> st.SearchStrategy[VideoPart]:
    """Video parts from URL, base64 or file sources, with or without the clip to watch."""
    offsets = st.one_of(st.none(), st.floats(min_value=0, max_value=86_400, allow_nan=False))
    frame_rates = st.one_of(st.none(), st.floats(min_value=0.01, max_value=60, allow_nan=False))
    return st.builds(
        VideoPart,
        source=_media_sources(),
        start_offset=offsets,
        end_offset=offsets,
        fps=frame_rates,
        **_part_extras(),
    )


@cache
def document_parts() -> st.SearchStrategy[DocumentPart]:
    """Document parts from any document source."""
    return st.builds(
        DocumentPart,
        source=st.one_of(_media_sources(), text_sources()),
        title=_optional(_TEXTS),
        filename=_optional(_TEXTS),
        **_part_extras(),
    )


@cache
def thinking_parts() -> st.SearchStrategy[ThinkingPart]:
    """Thinking parts: readable, signed, encrypted or redacted (redacted ones carry a payload)."""
    fields: dict[str, st.SearchStrategy[object]] = {
        "text": _TEXTS,
        "signature": _optional(_TEXTS),
        "provider": _optional(_PROVIDERS),
        "model": _optional(_TEXTS),
        **_part_extras(),
    }
    return st.one_of(
        st.builds(ThinkingPart, encrypted=_optional(_TEXTS), **fields),
        st.builds(ThinkingPart, encrypted=_TEXTS, redacted=st.booleans(), **fields),
    )


@cache
def refusal_parts() -> st.SearchStrategy[RefusalPart]:
    """Refusal parts."""
    return st.builds(RefusalPart, text=_TEXTS, **_part_extras())


@st.composite
def _tool_arguments(draw: st.DrawFn) -> str:
    kind = draw(st.integers(min_value=0, max_value=5))
    if kind == 0:
        return draw(_TEXTS)  # anything at all, as a model may produce
    valid = json.dumps(draw(json_objects()), ensure_ascii=draw(st.booleans()))
    if kind == 1:
        return valid[: draw(st.integers(min_value=0, max_value=len(valid)))]  # cut short
    return valid


@cache
def tool_use_parts() -> st.SearchStrategy[ToolUsePart]:
    """Tool calls; arguments are mostly JSON object text, sometimes truncated or arbitrary.
    Now and then a custom (freeform) call, whose input is any text."""
    function_calls = st.builds(ToolUsePart, id=_TEXTS, name=_TOOL_NAMES, arguments=_tool_arguments(), **_part_extras())
    custom_calls = st.builds(
        ToolUsePart, id=_TEXTS, name=_TOOL_NAMES, arguments=_TEXTS, kind=st.just("custom"), **_part_extras()
    )
    return st.one_of(function_calls, function_calls, function_calls, custom_calls)


@cache
def opaque_parts() -> st.SearchStrategy[OpaquePart]:
    """Opaque provider blocks."""
    return st.builds(OpaquePart, provider=_PROVIDERS, data=json_objects(), **_part_extras())


@cache
def tool_result_parts() -> st.SearchStrategy[ToolResultPart]:
    """Tool results with text or part-list content."""
    nested: st.SearchStrategy[ToolResultContentPart] = st.one_of(
        text_parts(), image_parts(), audio_parts(), video_parts(), document_parts(), opaque_parts()
    )
    return st.builds(
        ToolResultPart,
        tool_use_id=_TEXTS,
        content=st.one_of(_TEXTS, _lists(nested)),
        is_error=st.booleans(),
        name=_optional(_TEXTS),
        **_part_extras(),
    )


@cache
def assistant_content_parts() -> st.SearchStrategy[AssistantContentPart]:
    """Any part an assistant message may hold."""
    return st.one_of(
        text_parts(), thinking_parts(), tool_use_parts(), refusal_parts(), image_parts(), audio_parts(), opaque_parts()
    )


# --- messages --------------------------------------------------------------------------


@cache
def system_messages() -> st.SearchStrategy[SystemMessage]:
    """System messages, with role ``system`` or ``developer``."""
    roles: list[Literal["system", "developer"]] = ["system", "developer"]
    parts: st.SearchStrategy[SystemContentPart] = st.one_of(text_parts(), opaque_parts())
    content = st.one_of(_TEXTS, _lists(parts))
    return st.builds(SystemMessage, role=st.sampled_from(roles), content=content, **_message_extras())


@cache
def user_messages() -> st.SearchStrategy[UserMessage]:
    """User messages with text or part-list content."""
    parts: st.SearchStrategy[UserContentPart] = st.one_of(
        text_parts(), image_parts(), audio_parts(), video_parts(), document_parts(), opaque_parts()
    )
    return st.builds(UserMessage, content=st.one_of(_TEXTS, _lists(parts)), **_message_extras())


@cache
def assistant_messages() -> st.SearchStrategy[AssistantMessage]:
    """Assistant messages: a string, or parts in any produced order."""
    content = st.one_of(_TEXTS, _lists(assistant_content_parts()))
    return st.builds(AssistantMessage, content=content, **_message_extras())


@cache
def tool_messages() -> st.SearchStrategy[ToolMessage]:
    """Tool messages holding one or more results."""
    return st.builds(ToolMessage, content=_lists(tool_result_parts(), min_size=1), **_message_extras())


@cache
def text_messages() -> st.SearchStrategy[TextMessage]:
    """Completion-style raw text messages."""
    return st.builds(TextMessage, content=_TEXTS, **_message_extras())


@cache
def messages() -> st.SearchStrategy[AnyMessage]:
    """A message of any role."""
    return st.one_of(system_messages(), user_messages(), assistant_messages(), tool_messages(), text_messages())


@cache
def conversations() -> st.SearchStrategy[list[AnyMessage]]:
    """Conversations: short lists of messages of any roles, in any order."""
    return _lists(messages())


# --- requests --------------------------------------------------------------------------


@cache
def _json_schemas() -> st.SearchStrategy[dict[str, JsonValue]]:
    fixed: dict[str, JsonValue] = {"type": "object", "properties": {"city": {"type": "string"}}}
    return st.one_of(st.just(fixed), json_objects())


@cache
def tool_definitions() -> st.SearchStrategy[ToolDefinition]:
    """Function tool definitions."""
    return st.builds(
        ToolDefinition,
        name=_TOOL_NAMES,
        description=_optional(_TEXTS),
        parameters=_json_schemas(),
        strict=_optional(st.booleans()),
        **_part_extras(),
    )


@cache
def tool_choices() -> st.SearchStrategy[ToolChoice]:
    """Tool choices; ``name`` is set exactly when ``type`` is ``tool``."""
    plain = st.builds(ToolChoice, type=st.sampled_from(["auto", "none", "required"]))
    named = st.builds(ToolChoice, type=st.just("tool"), name=_TOOL_NAMES)
    return st.one_of(plain, named)


@cache
def reasoning_configs() -> st.SearchStrategy[ReasoningConfig]:
    """Reasoning settings, each field present or not."""
    efforts: tuple[ReasoningEffort, ...] = get_args(ReasoningEffort)
    return st.builds(
        ReasoningConfig,
        enabled=_optional(st.booleans()),
        effort=_optional(st.sampled_from(efforts)),
        budget_tokens=_optional(_COUNTS),
        adaptive=_optional(st.booleans()),
        summary=_optional(st.one_of(st.sampled_from(["auto", "concise", "detailed"]), _TEXTS)),
        include_thoughts=_optional(st.booleans()),
    )


@cache
def response_formats() -> st.SearchStrategy[ResponseFormat]:
    """Response formats: text, any JSON object, or a JSON schema."""
    return st.builds(
        ResponseFormat,
        type=st.sampled_from(["text", "json_object", "json_schema"]),
        name=_optional(_TEXTS),
        description=_optional(_TEXTS),
        json_schema=_optional(_json_schemas()),
        strict=_optional(st.booleans()),
    )


@cache
def chat_requests() -> st.SearchStrategy[ChatRequest]:
    """Chat requests with every optional knob present or not."""
    return st.builds(
        ChatRequest,
        model=_optional(_TEXTS),
        messages=conversations(),
        tools=_lists(tool_definitions()),
        provider_tools=_lists(opaque_parts()),
        tool_choice=_optional(tool_choices()),
        parallel_tool_calls=_optional(st.booleans()),
        max_tokens=_optional(st.integers(min_value=1, max_value=2**31 - 1)),
        stop=_lists(_TEXTS),
        temperature=_optional(_FINITE_FLOATS),
        top_p=_optional(_FINITE_FLOATS),
        top_k=_optional(st.integers(min_value=-(2**31), max_value=2**31 - 1)),
        frequency_penalty=_optional(_FINITE_FLOATS),
        presence_penalty=_optional(_FINITE_FLOATS),
        seed=_optional(st.integers(min_value=-(2**63), max_value=2**63 - 1)),
        logprobs=_optional(st.booleans()),
        top_logprobs=_optional(st.integers(min_value=0, max_value=20)),
        reasoning=_optional(reasoning_configs()),
        response_format=_optional(response_formats()),
        stream=_optional(st.booleans()),
        cache_control=_optional(cache_controls()),
        metadata=_optional(json_objects()),
        user=_optional(_TEXTS),
        service_tier=_optional(st.sampled_from(SERVICE_TIERS) | _TEXTS),
        provider_options=_optional(provider_metadata()),
    )


SERVICE_TIERS = ("auto", "default", "flex", "priority", "scale", "fast", "ultrafast", "reserved")
"""The tiers some format has (:attr:`chatcodec.ChatRequest.service_tier`)."""


# --- responses -------------------------------------------------------------------------


@cache
def finish_reasons() -> st.SearchStrategy[FinishReason]:
    """Finish reasons, with or without the provider's raw value."""
    unified: tuple[UnifiedFinishReason, ...] = get_args(UnifiedFinishReason)
    raw = st.one_of(st.sampled_from(["end_turn", "STOP", "tool_use", "max_tokens"]), _TEXTS)
    return st.builds(FinishReason, unified=st.sampled_from(unified), raw=_optional(raw))


@cache
def usages() -> st.SearchStrategy[Usage]:
    """Token counts, each present or not."""
    return st.builds(
        Usage,
        input_tokens=_optional(_COUNTS),
        output_tokens=_optional(_COUNTS),
        cache_read_tokens=_optional(_COUNTS),
        cache_write_tokens=_optional(_COUNTS),
        reasoning_tokens=_optional(_COUNTS),
        provider_metadata=_optional(provider_metadata()),
    )


@cache
def response_choices(*, finished: bool = False) -> st.SearchStrategy[ResponseChoice]:
    """Response choices at any small index (``finished``: each with its finish reason)."""
    return st.builds(
        ResponseChoice,
        index=_INDEXES,
        message=assistant_messages(),
        finish_reason=finish_reasons() if finished else _optional(finish_reasons()),
        provider_metadata=_optional(provider_metadata()),
    )


def _renumbered(choices: list[ResponseChoice]) -> list[ResponseChoice]:
    return [choice.model_copy(update={"index": position}) for position, choice in enumerate(choices)]


@cache
def chat_responses(*, finished: bool = False) -> st.SearchStrategy[ChatResponse]:
    """Chat responses with one to three choices, indexed 0, 1, 2 in order; ``finished``:
    each choice with its finish reason, as a whole stream gives them (docs/streams.md)."""
    return st.builds(
        ChatResponse,
        id=_optional(_TEXTS),
        model=_optional(_TEXTS),
        created=_optional(_TIMESTAMPS),
        choices=st.lists(response_choices(finished=finished), min_size=1, max_size=3).map(_renumbered),
        usage=_optional(usages()),
        provider_metadata=_optional(provider_metadata()),
    )


# --- stream events ---------------------------------------------------------------------


@cache
def _part_events() -> st.SearchStrategy[AnyStreamEvent]:
    fields: dict[str, st.SearchStrategy[object]] = {
        "index": _INDEXES,
        "choice": st.integers(min_value=0, max_value=2),
        "provider_metadata": _optional(provider_metadata()),
    }
    deltas = (TextDeltaEvent, RefusalDeltaEvent, ThinkingDeltaEvent, ThinkingSignatureDeltaEvent, ToolCallDeltaEvent)
    return st.one_of(
        *(st.builds(kind, delta=_TEXTS, **fields) for kind in deltas),
        *(st.builds(kind, **fields) for kind in (TextStartEvent, TextEndEvent, ToolCallEndEvent)),
        st.builds(ThinkingStartEvent, provider=_optional(_PROVIDERS), model=_optional(_TEXTS), **fields),
        st.builds(ThinkingEndEvent, encrypted=_optional(_TEXTS), **fields),
        st.builds(ToolCallStartEvent, id=_TEXTS, name=_TEXTS, kind=st.sampled_from(["function", "custom"]), **fields),
        st.builds(PartEvent, part=assistant_content_parts(), **fields),
    )


@cache
def _response_events() -> st.SearchStrategy[AnyStreamEvent]:
    metadata = _optional(provider_metadata())
    return st.one_of(
        st.builds(
            ResponseStartEvent,
            id=_optional(_TEXTS),
            model=_optional(_TEXTS),
            created=_optional(_TIMESTAMPS),
            provider_metadata=metadata,
        ),
        st.builds(UsageEvent, usage=usages(), provider_metadata=metadata),
        st.builds(
            FinishEvent,
            choice=st.integers(min_value=0, max_value=2),
            finish_reason=finish_reasons(),
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
            ErrorEvent, message=_TEXTS, error_type=_optional(_TEXTS), body=json_values(), provider_metadata=metadata
        ),
    )


@cache
def stream_events() -> st.SearchStrategy[AnyStreamEvent]:
    """Any single valid stream event (not a coherent stream: see ``events_from_response``)."""
    return st.one_of(_response_events(), _part_events())


# --- chunking --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Chunker:
    """Cuts text into pieces whose lengths cycle through ``sizes``."""

    sizes: tuple[int, ...]

    def __call__(self, text: str) -> list[str]:
        pieces: list[str] = []
        start = 0
        sizes = cycle(self.sizes)
        while start < len(text):
            end = start + next(sizes)
            pieces.append(text[start:end])
            start = end
        return pieces


@cache
def chunkings() -> st.SearchStrategy[Splitter]:
    """Splitters cutting a text into non-empty pieces (joined, they give the text back).

    Each drawn splitter is deterministic: piece lengths cycle through a drawn list of sizes, from
    one code point at a time to everything at once. An empty text gives no pieces (no deltas).
    """
    sizes = st.lists(st.integers(min_value=1, max_value=_MAX_TEXT + 1), min_size=1, max_size=_MAX_ITEMS)
    return sizes.map(lambda drawn: _Chunker(tuple(drawn)))
