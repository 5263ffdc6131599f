"""What the conformance laws need to know about openai-responses: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The SDK oracles are the provider's own test helpers (``responses_support``): the
``ResponseCreateParams`` TypedDict walk, the SDK's ``Response`` model and its
``ResponseStreamEvent`` union. A recorded stream pairs with the response its terminal
event (``response.completed``) carries: the API's own non-streamed body for that turn,
which is also what the SDK's accumulator (``openai.lib.streaming.responses``) ends with.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from hypothesis import strategies as st

import chatcodec
import chatcodec.testing as canonical
from chatcodec.testing._laws.entry import ProviderEntry, SingleHop, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import effort_reading, without_empty_instructions
from conformance.normal_forms import without_neutral_penalties, without_unasked_logprobs
from conformance.recordings import recordings_of
from providers.openai_responses.conformance_streams import CASES
from providers.openai_responses.responses_support import (
    assert_request_matches_sdk,
    assert_response_matches_sdk,
    assert_stream_matches_sdk,
    with_cache_write_count,
)

NAME = "openai-responses"

check_request = assert_request_matches_sdk


def check_response(payload: JsonObject) -> None:
    assert_response_matches_sdk(payload)


def check_stream(events: list[JsonObject]) -> None:
    """Recordings predate fields the SDK now requires (``cache_write_tokens``; the March
    2025 ones also ``sequence_number`` and a delta's ``logprobs``), and the live API sends
    a ``web_search_call`` without the ``action`` the SDK requires in ``output_item.added``:
    they are filled in where missing. The encoder writes all three, which its own tests check strictly."""
    assert_stream_matches_sdk([_newer_fields(position, event) for position, event in enumerate(events)])


def _newer_fields(position: int, event: JsonObject) -> JsonObject:
    patched = with_cache_write_count(event)
    patched.setdefault("sequence_number", position)
    item = patched.get("item")
    if isinstance(item, dict) and item.get("type") == "web_search_call":
        item.setdefault("action", {"type": "search"})  # the live API sends none at `added`
    if patched.get("type") in ("response.output_text.delta", "response.output_text.done"):
        patched.setdefault("logprobs", [])
    return patched


def for_sdk(_name: str, body: JsonObject) -> JsonObject:
    return with_cache_write_count(body)


FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "completed": "stop",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
    "max_output_tokens": "length",  # incomplete_details.reason
    "content_filter": "content_filter",  # incomplete_details.reason
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    changed = copy.deepcopy(payload)
    if raw in ("max_output_tokens", "content_filter"):
        changed.update(status="incomplete", incomplete_details={"reason": raw})
    else:
        changed.update(status=raw, incomplete_details=None)
    return changed


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: _terminal_response(provider, name), _same)
        for name in provider.recorded["stream"]
    ]


def _terminal_response(provider: ProviderEntry, name: str) -> JsonObject:
    events = provider.stream_events(name)
    terminal = [event for event in events if event.get("type") == "response.completed"]
    response: JsonObject = terminal[-1]["response"]
    return response


def _same(response: chatcodec.ChatResponse) -> object:
    return response.model_dump(mode="json")


# --- silent rewrites and the single-hop loss law ------------------------------------------------


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``messages.py``, ``items.py``, ``parts.py``):

    * a tool message is one ``function_call_output`` item per result, and a run of them
      reads back as one tool message (as openai-chat groups consecutive tool messages);
    * a run of assistant messages is one run of items: it reads back as one assistant
      message, its parts in order (string content as a text part), except where a message
      item follows a message item (a new turn), and an assistant turn that is one plain
      text reads back as a string;
    * ``input_image`` requires ``detail``: an image with none is sent ``"auto"``, the API's
      default;
    * a ``data:`` image URL reads back as the base64 source it spells;
    * a user or system message's cache marker is its last part's ``prompt_cache_breakpoint``;
    * a reasoning config with nothing set says nothing: ``reasoning`` reads back as absent;
      thinking disabled is effort ``none``, adaptive thinking at an effort is reasoning
      switched on at it (as on OpenAI Chat);
    * a penalty of 0 changes nothing: not sent;
    * an input file has one name: a document's title is sent as its ``filename`` when it
      has none (or the same one), so it reads back as the file name;
    * a tool result of no parts (``content: []``) reads back as the empty text (``output: ""``).
    * (first) an empty system or developer message is not sent
      (``Capabilities.empty_system``; ``normal_forms.without_empty_instructions``).
    """
    request = without_empty_instructions(request)  # an empty prompt is no prompt: not sent
    messages: list[chatcodec.AnyMessage] = []
    for message in request.messages:
        if isinstance(message, chatcodec.ToolMessage) and messages and isinstance(messages[-1], chatcodec.ToolMessage):
            previous = messages[-1]
            messages[-1] = previous.model_copy(update={"content": [*previous.content, *message.content]})
        elif isinstance(message, chatcodec.AssistantMessage) and messages and _joinable(messages[-1], message):
            previous = messages[-1]
            assert isinstance(previous, chatcodec.AssistantMessage)
            messages[-1] = previous.model_copy(update={"content": [*_item_parts(previous), *_item_parts(message)]})
        else:
            messages.append(message)
    messages = [_cache_on_last_part(_string_form(message)) for message in messages]
    update: dict[str, Any] = {"messages": messages}
    reasoning = request.reasoning
    if reasoning is not None and reasoning.model_dump(exclude_none=True) == {}:
        update["reasoning"] = None
    elif reasoning is not None:
        kept = effort_reading(reasoning.model_dump(exclude_none=True))
        update["reasoning"] = chatcodec.ReasoningConfig.model_validate(kept)
    without_neutral_penalties(update, request)
    without_unasked_logprobs(update, request, ("logprobs",))
    dumped = request.model_copy(update=update).model_dump(mode="json")
    for message in dumped["messages"]:
        if message["role"] == "tool":
            for result in message["content"]:  # a result of no parts reads back as the empty text
                if result.get("content") == []:
                    result["content"] = ""
    return chatcodec.ChatRequest.model_validate(_images(dumped))


def _cache_on_last_part(message: chatcodec.AnyMessage) -> chatcodec.AnyMessage:
    """A user or system message's cache marker is its last input part's breakpoint (a
    string message is sent as one ``input_text`` part to carry it)."""
    marker = message.cache_control
    if marker is None or not isinstance(message, chatcodec.UserMessage | chatcodec.SystemMessage):
        return message
    if isinstance(message.content, str):
        part = chatcodec.TextPart(text=message.content, cache_control=marker)
        return message.model_copy(update={"content": [part], "cache_control": None})
    if not message.content:
        return message
    last = message.content[-1]
    if not isinstance(last, chatcodec.TextPart | chatcodec.ImagePart | chatcodec.DocumentPart):
        return message
    if last.cache_control not in (None, marker):
        return message
    content = [*message.content[:-1], last.model_copy(update={"cache_control": marker})]
    return message.model_copy(update={"content": content, "cache_control": None})


def _joinable(previous: chatcodec.AnyMessage, message: chatcodec.AssistantMessage) -> bool:
    """Two assistant turns in a row are one run of items, when both write any, except that
    a message item right after another one is a turn of its own."""
    if not (isinstance(previous, chatcodec.AssistantMessage) and previous.content != [] and message.content != []):
        return False
    return not (_writes_message(_item_parts(previous)[-1]) and _writes_message(_item_parts(message)[0]))


def _writes_message(part: Any) -> bool:
    return isinstance(part, chatcodec.TextPart | chatcodec.RefusalPart)


def _item_parts(message: chatcodec.AssistantMessage) -> list[Any]:
    """The parts a turn's items read back as (a string turn is one text item)."""
    return [chatcodec.TextPart(text=message.content)] if isinstance(message.content, str) else message.parts


def _string_form(message: chatcodec.AnyMessage) -> chatcodec.AnyMessage:
    if not isinstance(message, chatcodec.AssistantMessage) or isinstance(message.content, str):
        return message
    parts = message.content
    if len(parts) == 1 and isinstance(parts[0], chatcodec.TextPart) and parts[0].provider_metadata is None:
        return message.model_copy(update={"content": parts[0].text}) if parts[0].cache_control is None else message
    return message


def _images(value: Any) -> Any:
    if isinstance(value, list):
        return [_images(item) for item in value]
    if not isinstance(value, dict):
        return value
    cleaned = {key: _images(item) for key, item in value.items()}
    if value.get("type") == "image":
        if cleaned.get("detail") is None:
            cleaned["detail"] = "auto"
        source = value.get("source")
        if isinstance(source, dict) and source.get("type") == "url" and "media_type" not in source:
            cleaned["source"] = chatcodec._compat.source_from_url(source["url"])
    title = cleaned.get("title") if value.get("type") == "document" else None
    if title is not None and cleaned.get("filename") in (None, title):
        cleaned["filename"], cleaned["title"] = title, None
    return cleaned


def scrubbed(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """The generated request without this provider's bags or opaque parts, which only its
    decoder writes (random ones are not Responses data)."""
    return chatcodec.validate_model(chatcodec.ChatRequest, _scrub(request.model_dump(mode="json")))


def _scrub(value: Any) -> Any:
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    if not isinstance(value, dict):
        return value
    opaque_data = ("provider_metadata", "provider_options", "data", "metadata", "parameters", "json_schema")
    cleaned = {key: item if key in opaque_data else _scrub(item) for key, item in value.items()}
    if value.get("provider") == NAME:
        cleaned["provider"] = "acme"
    for key in ("provider_metadata", "provider_options"):
        if isinstance(cleaned.get(key), dict):
            cleaned[key] = {name: bag for name, bag in cleaned[key].items() if name != NAME} or None
    return cleaned


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    single_messages = st.builds(chatcodec.ChatRequest, messages=st.lists(canonical.messages(), max_size=1))
    return st.one_of(canonical.chat_requests(), single_messages).map(scrubbed)


def single_hop_original(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """What ``request`` reads back as when nothing is lost: after :func:`silent_rewrites`,
    without provider bags holding only ``_`` markers."""
    return _unmarked(silent_rewrites(request).model_dump(mode="json"))


def single_hop_decoded(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """The request read back, without this codec's ``_`` spelling markers."""
    return _unmarked(request.model_dump(mode="json"))


def _unmarked(value: Any) -> Any:
    if isinstance(value, list):
        return [_unmarked(item) for item in value]
    if not isinstance(value, dict):
        return value
    cleaned = {key: _unmarked(item) for key, item in value.items()}
    for key in ("provider_metadata", "provider_options"):
        bags = cleaned.get(key)
        if isinstance(bags, dict):
            kept = {
                name: {k: v for k, v in bag.items() if not k.startswith("_")}
                for name, bag in bags.items()
                if isinstance(bag, dict)
            }
            kept = {name: bag for name, bag in kept.items() if bag}
            if kept:
                cleaned[key] = kept
            else:
                del cleaned[key]
    return cleaned


# --- responses as this provider shapes them -------------------------------------------------

_WORD = st.text("abcdefgh xyz", min_size=1, max_size=8)


@st.composite
def _output_item(draw: st.DrawFn, index: int) -> JsonObject:
    kind = draw(st.sampled_from(["message", "reasoning", "function_call", "web_search_call"]))
    if kind == "message":
        texts = draw(st.lists(_WORD, min_size=1, max_size=2))
        content = [{"type": "output_text", "text": text, "annotations": []} for text in texts]
        return {"type": "message", "id": f"msg_{index}", "status": "completed", "role": "assistant", "content": content}
    if kind == "reasoning":
        summary = [{"type": "summary_text", "text": text} for text in draw(st.lists(_WORD, max_size=2))]
        return {"type": "reasoning", "id": f"rs_{index}", "summary": summary, "encrypted_content": draw(_WORD)}
    if kind == "function_call":
        arguments = draw(st.sampled_from(['{"a":1}', "{}", '{"city": "Paris"}']))
        return {
            "type": "function_call",
            "id": f"fc_{index}",
            "call_id": f"call_{index}",
            "name": draw(st.sampled_from(["get", "look_up"])),
            "arguments": arguments,
            "status": "completed",
        }
    return {"type": "web_search_call", "id": f"ws_{index}", "status": "completed", "action": {"type": "search"}}


@st.composite
def shaped_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    """Responses decoded from Responses bodies: exactly what the codec carries."""
    count = draw(st.integers(0, 4))
    output = [draw(_output_item(index)) for index in range(count)]
    status = draw(st.sampled_from(["completed", "incomplete", "failed"]))
    body: JsonObject = {
        "id": "resp_1",
        "object": "response",
        "created_at": draw(st.integers(0, 2**31)),
        "model": "gpt-5",
        "status": status,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": draw(st.integers(0, 10)), "cache_write_tokens": 0},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": draw(st.integers(0, 20))},
            "total_tokens": 30,
        },
    }
    return chatcodec.decode_response(NAME, body)


# --- the entry -----------------------------------------------------------------------------------


def _request(**fields: Any) -> JsonObject:
    return {"model": "m", "max_output_tokens": 10, "input": [{"role": "user", "content": "q"}], **fields}


MARKER_REQUESTS: dict[str, JsonObject] = {
    "_custom": _request(
        previous_response_id="resp_1",
        input=[{"type": "custom_tool_call_output", "call_id": "c1", "output": "ok"}],
    ),
    "_tool_order": _request(
        tools=[{"type": "web_search"}, {"type": "function", "name": "f", "parameters": {}, "strict": True}]
    ),
}
"""A custom (free-form) tool call's output whose call is in the previous response (a call
read before its output needs no marker: the call's ``kind`` says it); a server tool before
a function tool."""


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """The decoder reads the response's fields from the terminal ``response.completed``:
    ``value`` goes into that event's ``response``."""
    last = {**events[-1], "response": {**events[-1]["response"], "x_extension": value}}
    return [*events[:-1], last], len(events) - 1


ENTRY = ProviderEntry.minimal(
    name=NAME,
    fixtures=recordings_of(NAME),
    names_in_prose=("openai",),
    rule_models=("gpt-5", "gpt-5.4"),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 8, "response": 8, "stream": 3},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="output_text_logprobs.json",
    pair_streams=stream_pairs,
    stream_pair_count=3,
    streams=CASES,
    shaped_responses=shaped_responses,
    single_hop=SingleHop(requests=single_hop_requests, original=single_hop_original, decoded=single_hop_decoded),
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # the openai SDK's FunctionDefinition.name
    # bags: NO_BAGS (the decoder writes none; encode_response keeps none either, and reports them)
    deep_kept_value=deep_kept_value,
    for_sdk=for_sdk,
    silent_rewrites=silent_rewrites,
    marker_requests=MARKER_REQUESTS,
)
