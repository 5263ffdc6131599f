"""Hypothesis properties.

* Inside Anthropic's capabilities, ``decode(encode(request)) == request`` with no loss,
  and the body passes the SDK's request types.
* Outside them, a loss is reported exactly when something changed: that law is in
  ``tests/conformance/test_losses.py``, for every provider.
* For any response and any chunking, the response replayed as events, encoded as
  Anthropic events, decoded and accumulated equals the response encoded and decoded
  non-streamed.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import chatcodec
import chatcodec.testing as canonical
from chatcodec.streams._replay import events_from_response
from providers.anthropic.anthropic_support import assert_valid_request, assert_valid_stream, encode_events
from providers.anthropic.anthropic_support import encode_request as encode
from providers.anthropic.anthropic_support import encode_response as encode_body

SETTINGS = settings(max_examples=100, deadline=None)
_UNIFIED = ["stop", "length", "tool_calls", "content_filter", "refusal", "pause", "error", "other"]

# --- inside the capabilities ---------------------------------------------------------------

_words = st.text(min_size=1, max_size=12).filter(lambda text: text.strip() != "")
_tool_names = st.from_regex(r"[a-zA-Z0-9_-]{1,64}", fullmatch=True)
"""Tool names Anthropic accepts (``^[a-zA-Z0-9_-]{1,64}$``)."""
_file_ids = _words.filter(lambda text: "/" not in text)
"""Anthropic's Files API ids are tokens (``file_011CNha8iCJcU1wXNR6q4V8w``); one with a slash is
another provider's URI or path, which the writer reports (``media.own_file_id``)."""
_caches = st.one_of(st.none(), st.builds(chatcodec.CacheControl, ttl=st.sampled_from([None, "5m", "1h"])))
_json_objects = st.dictionaries(st.text(max_size=5), canonical.json_values(), max_size=3)


def _text_parts(cache: bool) -> st.SearchStrategy[chatcodec.TextPart]:
    return st.builds(chatcodec.TextPart, text=_words, cache_control=_caches if cache else st.none())


_media = st.one_of(
    st.builds(chatcodec.Base64Source, media_type=st.sampled_from(["image/png", "image/jpeg"]), data=st.text()),
    st.builds(chatcodec.UrlSource, url=st.sampled_from(["https://example.com/a.png", "gs://b/c"])),
    st.builds(chatcodec.FileSource, file_id=_file_ids),
)
_images = st.builds(chatcodec.ImagePart, source=_media)
_document_sources = st.one_of(
    st.builds(chatcodec.Base64Source, media_type=st.just("application/pdf"), data=st.text()),
    st.builds(chatcodec.UrlSource, url=st.just("https://example.com/a.pdf")),
    st.builds(chatcodec.FileSource, file_id=_file_ids),
    st.builds(chatcodec.TextSource, text=st.text()),
)
_documents = st.builds(
    chatcodec.DocumentPart,
    source=_document_sources,
    title=st.one_of(st.none(), st.text(max_size=8)),
)
_thinking = st.one_of(
    st.builds(chatcodec.ThinkingPart, text=st.text(max_size=20), signature=_words, provider=st.just("anthropic")),
    st.builds(chatcodec.ThinkingPart, encrypted=_words, redacted=st.just(True), provider=st.just("anthropic")),
)
_calls = st.builds(
    chatcodec.ToolUsePart,
    id=st.text(max_size=10),
    name=_tool_names,
    arguments=_json_objects.map(lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"))),
)


@st.composite
def _conversation(draw: st.DrawFn) -> list[chatcodec.AnyMessage]:
    messages: list[chatcodec.AnyMessage] = []
    if draw(st.booleans()):
        content = draw(st.one_of(_words, st.lists(_text_parts(cache=True), min_size=1, max_size=2)))
        messages.append(chatcodec.SystemMessage(content=content))
    for _ in range(draw(st.integers(0, 3))):
        user_parts = st.lists(st.one_of(_text_parts(cache=True), _images, _documents), min_size=1, max_size=3)
        after_results = bool(messages) and messages[-1].role == "tool"  # joins their turn: list form
        messages.append(
            chatcodec.UserMessage(content=draw(user_parts if after_results else st.one_of(_words, user_parts)))
        )
        assistant_parts = st.lists(st.one_of(_text_parts(cache=False), _thinking, _calls), min_size=1, max_size=3)
        assistant = chatcodec.AssistantMessage(content=draw(st.one_of(_words, assistant_parts)))
        messages.append(assistant)
        if assistant.tool_calls:
            results = [_result(draw, call.id) for call in assistant.tool_calls]
            messages.append(chatcodec.ToolMessage(content=results))
    if messages and messages[-1].role == "assistant":  # not a prefill, whose trailing whitespace is trimmed
        messages.append(chatcodec.UserMessage(content="go on"))
    return messages


def _result(draw: st.DrawFn, tool_use_id: str) -> chatcodec.ToolResultPart:
    content = draw(st.one_of(st.text(max_size=10), st.lists(st.one_of(_text_parts(cache=False), _images), max_size=2)))
    return chatcodec.ToolResultPart(tool_use_id=tool_use_id, content=content, is_error=draw(st.booleans()))


@st.composite
def _requests(draw: st.DrawFn) -> chatcodec.ChatRequest:
    """Requests Anthropic carries exactly (at most four cache markers, no sampling knobs
    the SDK 2.12 types lack: those are checked separately)."""
    messages = draw(_conversation())
    tools = draw(
        st.lists(
            st.builds(
                chatcodec.ToolDefinition,
                name=_tool_names,
                description=st.one_of(st.none(), st.text(max_size=8)),
                # in the structured-outputs subset, which a strict tool's schema is sent in
                parameters=st.just({"type": "object", "properties": {}, "additionalProperties": False}),
                strict=st.one_of(st.none(), st.booleans()),
            ),
            max_size=2,
        )
    )
    named = st.builds(chatcodec.ToolChoice, type=st.just("tool"), name=_tool_names)
    choice = draw(st.one_of(st.none(), canonical.tool_choices().filter(lambda choice: choice.type != "tool"), named))
    parallel = None if choice is None or choice.type == "none" else draw(st.one_of(st.none(), st.booleans()))
    reasoning = draw(
        st.one_of(
            st.none(),
            st.builds(chatcodec.ReasoningConfig, enabled=st.just(True), budget_tokens=st.integers(1024, 9000)),
            st.builds(chatcodec.ReasoningConfig, adaptive=st.just(True), effort=st.sampled_from(["low", "max"])),
            st.builds(chatcodec.ReasoningConfig, enabled=st.just(False)),
        )
    )
    request = chatcodec.ChatRequest(
        model=draw(_words),
        messages=messages,
        tools=tools,
        tool_choice=choice,
        parallel_tool_calls=parallel,
        max_tokens=draw(st.integers(1, 64000)),
        stop=draw(st.lists(_words, max_size=2)),
        user=draw(st.one_of(st.none(), _words)),
        service_tier=draw(st.one_of(st.none(), st.sampled_from(["auto", "default"]))),
        stream=draw(st.one_of(st.none(), st.booleans())),
        reasoning=reasoning,
    )
    call_ids = [
        call.id
        for message in messages
        if isinstance(message, chatcodec.AssistantMessage)
        for call in message.tool_calls
    ]
    assume(len(call_ids) == len(set(call_ids)))  # a repeated tool_use id is refused (test_repeated_call_ids.py)
    markers = sum(1 for message in messages for part in message.parts if part.cache_control is not None)
    return request if markers <= 4 else request.model_copy(update={"messages": []})


@SETTINGS
@given(_requests())
def test_requests_inside_the_capabilities_round_trip_exactly(request: chatcodec.ChatRequest) -> None:
    body, losses = encode(request)
    assert losses == []
    assert chatcodec.decode_request("anthropic", body) == request
    assert_valid_request(body)


@SETTINGS
@given(_requests(), st.floats(0, 1), st.integers(1, 500))
def test_sampling_settings_round_trip(request: chatcodec.ChatRequest, temperature: float, top_k: int) -> None:
    """Sampling knobs are carried (the SDK 2.12 request types no longer list them)."""
    request = request.model_copy(update={"temperature": temperature, "top_p": temperature, "top_k": top_k})
    losses: list[chatcodec.Loss] = []  # API version 2023-06-01: 2026-10-21 has no sampling knobs
    body = chatcodec.encode_request("anthropic", request, on_loss="ignore", losses=losses, options=_OLD_VERSION)
    assert (body["temperature"], body["top_p"], body["top_k"]) == (temperature, temperature, top_k)
    assert chatcodec.decode_request("anthropic", body).model_copy(update={"provider_options": None}) == request
    assert losses == []


_OLD_VERSION = {"api_version": "2023-06-01"}


# --- streams -------------------------------------------------------------------------------


@st.composite
def anthropic_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    parts = draw(
        st.lists(st.one_of(_text_parts(cache=False), _thinking, _calls, canonical.refusal_parts()), max_size=4)
    )
    raws = st.sampled_from([None, "end_turn", "tool_use", "STOP", "max_tokens", "refusal"])
    finish = draw(st.builds(chatcodec.FinishReason, unified=st.sampled_from(_UNIFIED), raw=raws))  # a whole stream
    usages = canonical.usages().map(lambda usage: usage.model_copy(update={"provider_metadata": None}))
    usage = draw(st.one_of(st.none(), usages))
    return chatcodec.ChatResponse(
        id=draw(st.one_of(st.none(), _words)),
        model=draw(st.one_of(st.none(), _words)),
        message=chatcodec.AssistantMessage(content=parts),
        finish_reason=finish,
        usage=usage,
    )


@SETTINGS
@given(anthropic_responses(), canonical.chunkings())
def test_streaming_gives_the_non_streamed_result(response: chatcodec.ChatResponse, split: Any) -> None:
    non_streamed = chatcodec.decode_response("anthropic", encode_body(response)[0])
    wire, _ = encode_events(events_from_response(response, split))
    assert_valid_stream(wire)
    streamed = chatcodec.accumulate_stream("anthropic", wire)
    assert _compact(streamed) == _compact(non_streamed)


def _compact(response: chatcodec.ChatResponse) -> chatcodec.ChatResponse:
    """Tool arguments compared as JSON values: a stream passes the text through, a
    non-streamed body carries the parsed object (invalid text is sent as ``{}`` there and
    reported, while a stream cannot know until it ends)."""
    parts: list[Any] = []
    for part in response.message.parts:
        if isinstance(part, chatcodec.ToolUsePart):
            parsed = part.parsed_arguments() if part.arguments_are_valid_json else None
            arguments = json.dumps(parsed, sort_keys=True) if isinstance(parsed, dict) else "{}"
            parts.append(part.model_copy(update={"arguments": arguments}))
        else:
            parts.append(part)
    choice = response.choices[0].model_copy(update={"message": chatcodec.AssistantMessage(content=parts)})
    return response.model_copy(update={"choices": [choice]})
