"""Hypothesis strategies that build valid instances of every canonical chatcodec type.

Code that consumes chatcodec models (codecs, proxies, agents, storage layers) is best
checked against many shapes nobody thought to write by hand: thinking interleaved with
tool calls, empty texts, cache markers on odd parts, provider metadata everywhere. These
strategies produce such values directly as canonical models, always valid, so a user's
property tests can say "for any conversation ..." in one line.

This module draws what a request holds (sources, parts, messages, tools, requests); the sizes
and free-form JSON are ``_blocks``', what a model gives back is ``_answers``'. Each public
function returns the same (cached) strategy object on every call.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Literal, get_args

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
from chatcodec._model.tools import ToolChoice, ToolDefinition
from chatcodec._narrow import as_dict, as_list
from chatcodec._public_label import shown_as
from chatcodec.testing._blocks import (
    BASE64_ALPHABET,
    COUNTS,
    FINITE_FLOATS,
    MAX_TEXT,
    MEDIA_TYPES,
    NON_EMPTY_TEXTS,
    PROVIDERS,
    TEXTS,
    TOOL_NAMES,
    json_objects,
    lists,
    optional,
    provider_metadata,
)


@cache
def cache_controls() -> st.SearchStrategy[CacheControl]:
    """Prompt-cache markers, with or without a TTL."""
    return st.builds(CacheControl, ttl=optional(st.one_of(st.sampled_from(["5m", "1h"]), TEXTS)))


def _part_extras() -> dict[str, st.SearchStrategy[object]]:
    """Strategies for the fields every part (and tool definition) carries."""
    return {"cache_control": optional(cache_controls()), "provider_metadata": optional(provider_metadata())}


def _message_extras() -> dict[str, st.SearchStrategy[object]]:
    """Strategies for the fields every message carries."""
    return {"name": optional(TEXTS), **_part_extras()}


# --- media sources ---------------------------------------------------------------------


@cache
def url_sources() -> st.SearchStrategy[UrlSource]:
    """URL media sources (any non-empty URL text, ``data:`` URLs included)."""
    urls = st.one_of(st.sampled_from(["https://example.com/a.png", "gs://bucket/a.pdf", "data:,x"]), NON_EMPTY_TEXTS)
    return st.builds(UrlSource, url=urls, media_type=optional(MEDIA_TYPES))


@cache
def base64_sources() -> st.SearchStrategy[Base64Source]:
    """Inline base64 sources (the data is kept verbatim, so any text is valid)."""
    data = st.one_of(st.text(alphabet=BASE64_ALPHABET, max_size=MAX_TEXT), TEXTS)
    return st.builds(Base64Source, media_type=MEDIA_TYPES, data=data)


@cache
def file_sources() -> st.SearchStrategy[FileSource]:
    """Provider file-id sources."""
    return st.builds(FileSource, file_id=NON_EMPTY_TEXTS, media_type=optional(MEDIA_TYPES))


@cache
def text_sources() -> st.SearchStrategy[TextSource]:
    """Inline plain-text document sources."""
    return st.builds(TextSource, text=TEXTS, media_type=MEDIA_TYPES)


@cache
def _media_sources() -> st.SearchStrategy[UrlSource | Base64Source | FileSource]:
    return st.one_of(url_sources(), base64_sources(), file_sources())


# --- parts -----------------------------------------------------------------------------


@cache
def text_parts() -> st.SearchStrategy[TextPart]:
    """Text parts, sometimes cached or carrying provider metadata."""
    return st.builds(TextPart, text=TEXTS, **_part_extras())


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
        title=optional(TEXTS),
        filename=optional(TEXTS),
        **_part_extras(),
    )


@cache
def thinking_parts() -> st.SearchStrategy[ThinkingPart]:
    """Thinking parts: readable, signed, encrypted or redacted (redacted ones carry a payload)."""
    fields: dict[str, st.SearchStrategy[object]] = {
        "text": TEXTS,
        "signature": optional(TEXTS),
        "provider": optional(PROVIDERS),
        "model": optional(TEXTS),
        **_part_extras(),
    }
    return st.one_of(
        st.builds(ThinkingPart, encrypted=optional(TEXTS), **fields),
        st.builds(ThinkingPart, encrypted=TEXTS, redacted=st.booleans(), **fields),
    )


@cache
def refusal_parts() -> st.SearchStrategy[RefusalPart]:
    """Refusal parts."""
    return st.builds(RefusalPart, text=TEXTS, **_part_extras())


@st.composite
def _tool_arguments(draw: st.DrawFn) -> str:
    kind = draw(st.integers(min_value=0, max_value=5))
    if kind == 0:
        return draw(TEXTS)  # anything at all, as a model may produce
    valid = json.dumps(draw(json_objects()), ensure_ascii=draw(st.booleans()))
    if kind == 1:
        return valid[: draw(st.integers(min_value=0, max_value=len(valid)))]  # cut short
    return valid


@cache
def tool_use_parts() -> st.SearchStrategy[ToolUsePart]:
    """Tool calls; arguments are mostly JSON object text, sometimes truncated or arbitrary.
    Now and then a custom (freeform) call, whose input is any text."""
    function_calls = st.builds(ToolUsePart, id=TEXTS, name=TOOL_NAMES, arguments=_tool_arguments(), **_part_extras())
    custom_calls = st.builds(
        ToolUsePart, id=TEXTS, name=TOOL_NAMES, arguments=TEXTS, kind=st.just("custom"), **_part_extras()
    )
    return st.one_of(function_calls, function_calls, function_calls, custom_calls)


@cache
def opaque_parts() -> st.SearchStrategy[OpaquePart]:
    """Opaque provider blocks."""
    return st.builds(OpaquePart, provider=PROVIDERS, data=json_objects(), **_part_extras())


@cache
def tool_result_parts() -> st.SearchStrategy[ToolResultPart]:
    """Tool results with text or part-list content."""
    nested: st.SearchStrategy[ToolResultContentPart] = st.one_of(
        text_parts(), image_parts(), audio_parts(), video_parts(), document_parts(), opaque_parts()
    )
    return st.builds(
        ToolResultPart,
        tool_use_id=TEXTS,
        content=st.one_of(TEXTS, lists(nested)),
        is_error=st.booleans(),
        name=optional(TEXTS),
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
    content = st.one_of(TEXTS, lists(parts))
    return st.builds(SystemMessage, role=st.sampled_from(roles), content=content, **_message_extras())


@cache
def user_messages() -> st.SearchStrategy[UserMessage]:
    """User messages with text or part-list content."""
    parts: st.SearchStrategy[UserContentPart] = st.one_of(
        text_parts(), image_parts(), audio_parts(), video_parts(), document_parts(), opaque_parts()
    )
    return st.builds(UserMessage, content=st.one_of(TEXTS, lists(parts)), **_message_extras())


@cache
def assistant_messages() -> st.SearchStrategy[AssistantMessage]:
    """Assistant messages: a string, or parts in any produced order."""
    content = st.one_of(TEXTS, lists(assistant_content_parts()))
    return st.builds(AssistantMessage, content=content, **_message_extras())


@cache
def tool_messages() -> st.SearchStrategy[ToolMessage]:
    """Tool messages holding one or more results."""
    return st.builds(ToolMessage, content=lists(tool_result_parts(), min_size=1), **_message_extras())


@cache
def text_messages() -> st.SearchStrategy[TextMessage]:
    """Completion-style raw text messages."""
    return st.builds(TextMessage, content=TEXTS, **_message_extras())


@cache
def messages() -> st.SearchStrategy[AnyMessage]:
    """A message of any role."""
    return st.one_of(system_messages(), user_messages(), assistant_messages(), tool_messages(), text_messages())


@cache
def conversations() -> st.SearchStrategy[list[AnyMessage]]:
    """Conversations: short lists of messages of any roles, in any order."""
    return lists(messages())


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
        name=TOOL_NAMES,
        description=optional(TEXTS),
        parameters=_json_schemas(),
        strict=optional(st.booleans()),
        **_part_extras(),
    )


@cache
def tool_choices() -> st.SearchStrategy[ToolChoice]:
    """Tool choices; ``name`` is set exactly when ``type`` is ``tool``."""
    plain = st.builds(ToolChoice, type=st.sampled_from(["auto", "none", "required"]))
    named = st.builds(ToolChoice, type=st.just("tool"), name=TOOL_NAMES)
    return st.one_of(plain, named)


@cache
def reasoning_configs() -> st.SearchStrategy[ReasoningConfig]:
    """Reasoning settings, each field present or not."""
    efforts: tuple[ReasoningEffort, ...] = get_args(ReasoningEffort)
    return st.builds(
        ReasoningConfig,
        enabled=optional(st.booleans()),
        effort=optional(st.sampled_from(efforts)),
        budget_tokens=optional(COUNTS),
        adaptive=optional(st.booleans()),
        summary=optional(st.one_of(st.sampled_from(["auto", "concise", "detailed"]), TEXTS)),
        include_thoughts=optional(st.booleans()),
    )


@cache
def response_formats() -> st.SearchStrategy[ResponseFormat]:
    """Response formats: text, any JSON object, or a JSON schema."""
    return st.builds(
        ResponseFormat,
        type=st.sampled_from(["text", "json_object", "json_schema"]),
        name=optional(TEXTS),
        description=optional(TEXTS),
        json_schema=optional(_json_schemas()),
        strict=optional(st.booleans()),
    )


def chat_requests(*, bags: bool = True) -> st.SearchStrategy[ChatRequest]:
    """Chat requests with every optional knob present or not. ``bags=False``: without any
    codec's bags (``provider_metadata``, ``provider_options``) or opaque parts, what only a
    decoder writes: the requests a single hop of an outside codec's laws starts from."""
    return _chat_requests() if bags else _plain_chat_requests()


@cache
def _plain_chat_requests() -> st.SearchStrategy[ChatRequest]:
    return _chat_requests().map(lambda request: ChatRequest.model_validate(_bagless(request.model_dump(mode="json"))))


def _bagless(value: object) -> object:
    """``value`` (canonical data) without bags or opaque parts, at any depth."""
    items: list[object] | None = as_list(value)
    if items is not None:
        return [_bagless(item) for item in items if _kind(item) != "opaque"]
    fields: dict[str, object] | None = as_dict(value)
    if fields is None:
        return value
    return {key: _bagless(item) for key, item in fields.items() if key not in ("provider_metadata", "provider_options")}


def _kind(item: object) -> object:
    fields: dict[str, object] = as_dict(item) or {}
    return fields.get("type")


@cache
def _chat_requests() -> st.SearchStrategy[ChatRequest]:
    return st.builds(
        ChatRequest,
        model=optional(TEXTS),
        messages=conversations(),
        tools=lists(tool_definitions()),
        provider_tools=lists(opaque_parts()),
        tool_choice=optional(tool_choices()),
        parallel_tool_calls=optional(st.booleans()),
        max_tokens=optional(st.integers(min_value=1, max_value=2**31 - 1)),
        stop=lists(TEXTS),
        temperature=optional(FINITE_FLOATS),
        top_p=optional(FINITE_FLOATS),
        top_k=optional(st.integers(min_value=-(2**31), max_value=2**31 - 1)),
        frequency_penalty=optional(FINITE_FLOATS),
        presence_penalty=optional(FINITE_FLOATS),
        seed=optional(st.integers(min_value=-(2**63), max_value=2**63 - 1)),
        logprobs=optional(st.booleans()),
        top_logprobs=optional(st.integers(min_value=0, max_value=20)),
        reasoning=optional(reasoning_configs()),
        response_format=optional(response_formats()),
        verbosity=optional(st.sampled_from(("low", "medium", "high"))),
        stream=optional(st.booleans()),
        cache_control=optional(cache_controls()),
        prompt_cache_key=optional(TEXTS),
        metadata=optional(json_objects()),
        user=optional(TEXTS),
        safety_identifier=optional(TEXTS),
        service_tier=optional(st.sampled_from(SERVICE_TIERS) | TEXTS),
        provider_options=optional(provider_metadata()),
    )


SERVICE_TIERS = ("auto", "default", "flex", "priority", "scale", "fast", "ultrafast", "reserved")
"""The tiers some format has (:attr:`chatcodec.ChatRequest.service_tier`)."""

shown_as(
    "chatcodec.testing",
    assistant_content_parts,
    assistant_messages,
    audio_parts,
    base64_sources,
    cache_controls,
    chat_requests,
    conversations,
    document_parts,
    file_sources,
    image_parts,
    messages,
    opaque_parts,
    reasoning_configs,
    refusal_parts,
    response_formats,
    system_messages,
    text_messages,
    text_parts,
    text_sources,
    thinking_parts,
    tool_choices,
    tool_definitions,
    tool_messages,
    tool_result_parts,
    tool_use_parts,
    url_sources,
    user_messages,
    video_parts,
)
