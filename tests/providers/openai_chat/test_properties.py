"""Hypothesis properties of the openai-chat codec.

Inside OpenAI's capabilities (local strategies below build only what the wire can say),
``decode(encode(x)) == x`` with no loss. For anything at all (the shared
``chatcodec.testing`` strategies), the output passes the SDK types. Streams accumulate to
the non-streamed result under any chunking. (A loss is reported exactly when something
changed: that law is in ``tests/conformance/test_losses.py``, for every provider.)
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import (
    AnyMessage,
    AssistantMessage,
    AudioPart,
    Base64Source,
    CacheControl,
    ChatRequest,
    ChatResponse,
    DocumentPart,
    FileSource,
    FinishReason,
    ImagePart,
    OpaquePart,
    ReasoningConfig,
    RefusalPart,
    ResponseChoice,
    ResponseFormat,
    SystemMessage,
    TextPart,
    ThinkingPart,
    ToolChoice,
    ToolDefinition,
    ToolMessage,
    ToolResultPart,
    ToolUsePart,
    UrlSource,
    Usage,
    UserMessage,
)
from chatcodec._losses import LossRecorder
from chatcodec._providers.history.turns import history_for
from chatcodec._providers.openai_chat.capabilities import CAPABILITIES
from chatcodec.streams._replay import events_from_response
from chatcodec.testing import chat_requests, chat_responses, chunkings, json_objects
from providers.openai_chat.openai_chat_support import (
    FORMAT,
    assert_chunks_match_sdk,
    assert_request_matches_sdk,
    assert_response_matches_sdk,
    encode_events,
    encode_request,
    encode_response,
)


def content_as_list(response: chatcodec.ChatResponse) -> dict[str, Any]:
    """A response dump with every message's content as a list of parts, as a stream builds
    it: a string becomes one text part (an empty string too, as the stream keeps an empty
    text part; the core's ``content_form="list"`` would drop it)."""
    dumped: dict[str, Any] = response.model_dump(mode="json")
    for choice in dumped["choices"]:
        message = choice["message"]
        if isinstance(message.get("content", ""), str):
            message["content"] = [{"type": "text", "text": message.get("content", "")}]
    return dumped


PROPERTY = settings(max_examples=100, deadline=None)

TEXT = st.text(max_size=12)
WORD = st.text(min_size=1, max_size=12)
BASE64 = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", max_size=12)
URLS = st.builds(lambda tail: f"https://example.com/{tail}", st.text(alphabet="abc/.-_", max_size=8))
CACHE = st.one_of(st.none(), st.builds(CacheControl, ttl=st.sampled_from([None, "30m", "12h"])))
NAMES = st.one_of(st.none(), TEXT)
# A Chat server's own file ids are tokens (``file-abc123``); one with a slash is another
# provider's URI or path, which the writer reports (server_media.own_file_id).
FILE_IDS = st.text(st.characters(exclude_characters="/"), min_size=1, max_size=12)


def own_thinking(field: str, text: str, signature: str | None = None, **bag: Any) -> ThinkingPart:
    return ThinkingPart(
        text=text, signature=signature, provider=FORMAT, provider_metadata={FORMAT: {"field": field, **bag}}
    )


# --- OpenAI-shaped canonical values --------------------------------------------------------

TEXT_PARTS = st.builds(TextPart, text=TEXT, cache_control=CACHE)
IMAGES = st.builds(
    ImagePart,
    source=st.one_of(
        st.builds(UrlSource, url=URLS),
        st.builds(Base64Source, media_type=st.sampled_from(["image/png", "image/jpeg"]), data=BASE64),
    ),
    detail=st.sampled_from([None, "auto", "low", "high"]),
    cache_control=CACHE,
)
AUDIO = st.builds(
    AudioPart, source=st.builds(Base64Source, media_type=st.sampled_from(["audio/wav", "audio/mpeg"]), data=BASE64)
)
DOCUMENTS = st.one_of(
    st.builds(  # file data needs a file name (OpenAI rejects it without one)
        DocumentPart, source=st.builds(Base64Source, media_type=st.just("application/pdf"), data=BASE64), filename=TEXT
    ),
    st.builds(DocumentPart, source=st.builds(FileSource, file_id=FILE_IDS), filename=NAMES),
)
TOOL_NAMES = st.from_regex(r"[a-zA-Z0-9_-]{1,64}", fullmatch=True)
"""Function names OpenAI accepts (``^[a-zA-Z0-9_-]{1,64}$``)."""
CALLS = st.builds(ToolUsePart, id=TEXT, name=TOOL_NAMES, arguments=TEXT.filter(str.strip))  # blank: sent as "{}"


@st.composite
def openai_assistant_content(draw: st.DrawFn, *, response: bool = False) -> list[Any]:
    """Parts in OpenAI's order: reasoning fields, one text, one refusal, tool calls."""
    parts: list[Any] = []
    # Distinct prefixes: a reasoning string equal to the others reads back as their copy.
    if draw(st.booleans()):
        parts.append(own_thinking("reasoning_content", "c:" + draw(TEXT)))
    if draw(st.booleans()):
        parts.append(own_thinking("reasoning", "r:" + draw(TEXT)))
    for index in range(draw(st.integers(0, 2))):
        entry = {
            "type": "reasoning.text",
            # an answer's Claude entry (read as Claude's thinking, issue 76) is replayed as a stream with its
            # bag at its end, after its field was chosen: tests/providers/test_openrouter_claude_thinking.py
            "format": draw(st.sampled_from(["unknown"] if response else ["anthropic-claude-v1", "unknown"])),
            "index": index,
        }
        part = own_thinking("reasoning_details", "d:" + draw(TEXT), draw(st.one_of(st.none(), WORD)), **entry)
        if entry["format"] == "anthropic-claude-v1":
            part = part.model_copy(update={"provider": "anthropic"})  # Claude's thinking (issue 76)
        parts.append(part)
    if draw(st.booleans()):
        parts.append(TextPart(text=draw(TEXT), cache_control=None if response else draw(CACHE)))
    if draw(st.booleans()):
        parts.append(RefusalPart(text=draw(TEXT)))
    parts.extend(draw(st.lists(CALLS, max_size=3)))
    return parts


def _user_content() -> st.SearchStrategy[Any]:
    return st.one_of(TEXT, st.lists(st.one_of(TEXT_PARTS, IMAGES, AUDIO, DOCUMENTS), max_size=4))


RESULTS = st.builds(
    ToolResultPart, tool_use_id=TEXT, content=st.one_of(TEXT, st.lists(TEXT_PARTS, min_size=1, max_size=2))
)
"""A result's content: text, or text parts; no empty list, which is the empty text canonically
(a tool message's ``content: []`` reads as ``""``, marked, as Responses' ``output: []`` does)."""
MESSAGES = st.one_of(
    st.builds(
        SystemMessage,
        role=st.sampled_from(["system", "developer"]),
        # OpenAI refuses an empty list ("Expected an array with minimum length 1"): an empty
        # system prompt is not sent (Capabilities.empty_system)
        content=st.one_of(TEXT, st.lists(TEXT_PARTS, min_size=1, max_size=2)),
        name=NAMES,
    ),
    st.builds(UserMessage, content=_user_content(), name=NAMES),
    st.builds(AssistantMessage, content=st.one_of(TEXT, openai_assistant_content()), name=NAMES),
    st.builds(ToolMessage, content=st.lists(RESULTS, min_size=1, max_size=3)),
)


def _no_adjacent_tool_messages(messages: list[AnyMessage]) -> list[AnyMessage]:
    kept: list[AnyMessage] = []
    for message in messages:
        if not (isinstance(message, ToolMessage) and kept and isinstance(kept[-1], ToolMessage)):
            kept.append(message)
    return kept


def _in_openai_order(messages: list[AnyMessage]) -> bool:
    """Whether OpenAI takes the turns as they are: no message between a call and its
    results, which the writer moves after them with a loss (OpenAI refuses it otherwise);
    and no empty text beside an assistant turn's calls, which the wire holds only as
    ``content: ""``, spelling the reader reads as no text (nothing to keep: issue 107)."""
    if any(_empty_text_beside_calls(message) for message in messages):
        return False
    recorder = LossRecorder()
    history_for([message.model_dump() for message in messages], recorder, FORMAT, CAPABILITIES)
    return not recorder.losses


def _empty_text_beside_calls(message: AnyMessage) -> bool:
    content = message.content if message.role == "assistant" else None
    if not isinstance(content, list):
        return False
    kinds = [part.type for part in content]
    return "tool_use" in kinds and any(part.type == "text" and not part.text for part in content)


FORMATS = st.one_of(
    st.builds(ResponseFormat, type=st.sampled_from(["text", "json_object"])),
    st.builds(
        ResponseFormat,
        type=st.just("json_schema"),
        name=TEXT,
        description=st.one_of(st.none(), TEXT),
        json_schema=st.one_of(st.none(), json_objects()),
        strict=st.one_of(st.none(), st.booleans()),
    ),
)


def _in(low: float, high: float) -> st.SearchStrategy[float | None]:
    """Numbers in a documented range (chat/create: temperature 0 to 2, top_p 0 to 1, the
    penalties -2 to 2): an OpenAI-shaped request is one OpenAI takes."""
    return st.one_of(st.none(), st.floats(min_value=low, max_value=high))


OPENAI_REQUESTS = st.builds(
    ChatRequest,
    model=WORD,
    messages=st.lists(MESSAGES, max_size=5).map(_no_adjacent_tool_messages).filter(_in_openai_order),
    tools=st.lists(
        st.builds(
            ToolDefinition,
            name=TOOL_NAMES,
            description=st.one_of(st.none(), TEXT),
            parameters=json_objects(),
            strict=st.one_of(st.none(), st.booleans()),
        ),
        max_size=2,
    ),
    tool_choice=st.one_of(
        st.none(),
        st.builds(ToolChoice, type=st.sampled_from(["auto", "none", "required"])),
        st.builds(ToolChoice, type=st.just("tool"), name=TOOL_NAMES),
    ),
    parallel_tool_calls=st.one_of(st.none(), st.booleans()),
    max_tokens=st.one_of(st.none(), st.integers(1, 2**31)),
    stop=st.lists(TEXT, max_size=3),
    temperature=_in(0, 2),
    top_p=_in(0, 1),
    frequency_penalty=_in(-2, 2),
    presence_penalty=_in(-2, 2),
    seed=st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1)),
    reasoning=st.one_of(
        st.none(),  # as the OpenAI reader gives an effort: reasoning switched on at it
        st.builds(ReasoningConfig, effort=st.sampled_from(["minimal", "low", "medium", "high"]), enabled=st.just(True)),
    ),
    response_format=st.one_of(st.none(), FORMATS),
    stream=st.one_of(st.none(), st.booleans()),
    metadata=st.one_of(st.none(), st.dictionaries(TEXT, TEXT, max_size=2)),
)


def _finish_reasons() -> st.SearchStrategy[FinishReason]:
    words = ["stop", "length", "tool_calls", "content_filter"]
    return st.builds(lambda word: FinishReason(unified=word, raw=word), st.sampled_from(words))


OPENAI_USAGE = st.builds(
    Usage,
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**6),
    cache_read_tokens=st.one_of(st.none(), st.integers(0, 10**6)),
    reasoning_tokens=st.one_of(st.none(), st.integers(0, 10**6)),
)


@st.composite
def openai_responses(draw: st.DrawFn) -> ChatResponse:
    count = draw(st.integers(1, 3))
    choices = []
    for index in range(count):
        content = draw(openai_assistant_content(response=True))
        reason = draw(_finish_reasons())
        bag = None
        if reason.raw == "stop" and any(isinstance(part, ToolUsePart) for part in content):
            # a turn that calls stops as one, the server's word marked to be written back (issue 76)
            reason, bag = FinishReason(unified="tool_calls", raw="stop"), {FORMAT: {"_finish_reason": "stop"}}
        message = AssistantMessage(content=content)
        choices.append(ResponseChoice(index=index, message=message, finish_reason=reason, provider_metadata=bag))
    fingerprint = draw(st.one_of(st.none(), WORD))
    return ChatResponse(
        id=draw(WORD),
        model=draw(WORD),
        created=draw(st.integers(0, 2**40)),
        choices=choices,
        usage=draw(st.one_of(st.none(), OPENAI_USAGE)),
        provider_metadata={FORMAT: {"system_fingerprint": fingerprint}} if fingerprint else None,
    )


# --- inside OpenAI's capabilities: exact --------------------------------------------------


@PROPERTY
@given(OPENAI_REQUESTS)
def test_openai_shaped_requests_round_trip_exactly(request: ChatRequest) -> None:
    encoded, losses = encode_request(request)
    assert losses == []
    assert_request_matches_sdk(encoded)
    assert chatcodec.decode_request(FORMAT, encoded).model_dump(mode="json") == request.model_dump(mode="json")


@PROPERTY
@given(openai_responses())
def test_openai_shaped_responses_round_trip(response: ChatResponse) -> None:
    encoded, losses = encode_response(response)
    assert losses == []
    assert_response_matches_sdk(encoded)
    decoded = chatcodec.decode_response(FORMAT, encoded)
    assert content_as_list(decoded) == content_as_list(response)  # a lone text reads back as a string


@PROPERTY
@given(openai_responses(), chunkings())
def test_stream_accumulates_to_the_non_streamed_result_under_any_split(
    response: ChatResponse, split: chatcodec.testing.Splitter
) -> None:
    chunks, losses = encode_events(list(events_from_response(response, split)))
    assert losses == []
    assert_chunks_match_sdk(chunks)
    streamed = chatcodec.accumulate_stream(FORMAT, chunks)
    whole = chatcodec.decode_response(FORMAT, encode_response(response)[0])
    assert content_as_list(streamed) == content_as_list(whole)


# --- anything at all: SDK-valid output ----------------------------------------------------


def _verbatim_blocks(request: ChatRequest) -> list[dict[str, Any]]:
    """The openai-chat blocks the request holds as opaque parts, in tool results too: the
    writer sends each as given (a block a compatible server or a later API added), so the
    SDK's types cannot be their oracle."""
    blocks: list[dict[str, Any]] = []
    pending: list[Any] = [message.content for message in request.messages]
    while pending:
        content = pending.pop()
        if isinstance(content, str):
            continue
        for part in content:
            if part.type == "opaque" and part.provider == FORMAT:
                blocks.append(part.data)
            elif part.type == "tool_result":
                pending.append(part.content)
    return blocks


def _sdk_formats_only(payload: dict[str, Any], verbatim: list[dict[str, Any]]) -> dict[str, Any]:
    """Audio formats other than wav and mp3 are sent as given (compatible servers take more);
    the SDK lists only those two, so such parts are left out of the SDK check, as are the
    blocks sent verbatim (each must be there exactly as given)."""
    sent: list[Any] = []
    for message in payload.get("messages", []):
        if isinstance(message.get("content"), list):
            sent.extend(message["content"])
            message["content"] = [
                part
                for part in message["content"]
                if part not in verbatim
                and (part.get("type") != "input_audio" or part["input_audio"]["format"] in ("wav", "mp3"))
            ]
    assert all(block in sent for block in verbatim), "a verbatim block was not sent as given"
    return payload


@PROPERTY
@given(chat_requests())
def test_any_request_encodes_to_an_sdk_valid_body(request: ChatRequest) -> None:
    encoded, _ = encode_request(request.model_copy(update={"model": request.model or "m"}))
    assert_request_matches_sdk(_sdk_formats_only(encoded, _verbatim_blocks(request)))


def test_a_verbatim_block_in_a_tool_result_is_sent_as_given_and_left_out_of_the_sdk_check() -> None:
    """The example CI's Hypothesis run found: an opaque openai-chat part inside a tool result."""
    block: dict[str, Any] = {"id": None}
    request = ChatRequest(
        model="m",
        messages=[
            SystemMessage(content=""),
            ToolMessage(content=[ToolResultPart(tool_use_id="", content=[OpaquePart(provider=FORMAT, data=block)])]),
        ],
    )
    encoded, _ = encode_request(request)
    assert encoded["messages"][1]["content"] == [block]
    assert_request_matches_sdk(_sdk_formats_only(encoded, _verbatim_blocks(request)))


@PROPERTY
@given(chat_responses(finished=True), chunkings())
def test_any_response_encodes_to_sdk_valid_bodies_and_chunks(
    response: ChatResponse, split: chatcodec.testing.Splitter
) -> None:
    encoded, _ = encode_response(response)
    assert_response_matches_sdk(encoded)
    chunks, _ = encode_events(list(events_from_response(response, split)))
    assert_chunks_match_sdk(chunks)
    chatcodec.accumulate_stream(FORMAT, chunks)  # and they decode again
