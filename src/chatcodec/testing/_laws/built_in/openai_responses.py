"""OpenAI Responses' law facts: what the codec rewrites without a report (``messages.py``,
``items.py``, ``parts.py``: the single-hop normal form), the requests that make its reader
write a meaningful marker, its tool-name rule and the names that say the vendor."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec._compat import source_from_url
from chatcodec.codec_kit import is_dict, is_list
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import SingleHop
from chatcodec.testing._laws.normal_forms import effort_reading, without_empty_instructions
from chatcodec.testing._strategies import chat_requests, messages

NAME = "openai-responses"
JsonObject = dict[str, Any]


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
            results = messages[-1]
            assert isinstance(results, chatcodec.ToolMessage)
            messages[-1] = results.model_copy(update={"content": [*results.content, *message.content]})
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
    r.without_neutral_penalties(update, request)
    r.without_unasked_logprobs(update, request, ("logprobs",))
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
    if is_list(value):
        return [_images(item) for item in value]
    if not is_dict(value):
        return value
    cleaned = {key: _images(item) for key, item in value.items()}
    if value.get("type") == "image":
        if cleaned.get("detail") is None:
            cleaned["detail"] = "auto"
        source = value.get("source")
        if is_dict(source) and source.get("type") == "url" and "media_type" not in source:
            cleaned["source"] = source_from_url(source["url"])
    title = cleaned.get("title") if value.get("type") == "document" else None
    if title is not None and cleaned.get("filename") in (None, title):
        cleaned["filename"], cleaned["title"] = title, None
    return cleaned


def scrubbed(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """The generated request without this provider's bags or opaque parts, which only its
    decoder writes (random ones are not Responses data)."""
    return chatcodec.validate_model(chatcodec.ChatRequest, r.without_data_of(request.model_dump(mode="json"), NAME))


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    single_messages = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
    return st.one_of(chat_requests(), single_messages).map(scrubbed)


def single_hop_original(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """What ``request`` reads back as when nothing is lost: after :func:`silent_rewrites`,
    without provider bags holding only ``_`` markers."""
    unmarked: dict[str, Any] = _unmarked(silent_rewrites(request).model_dump(mode="json"))
    return unmarked


def single_hop_decoded(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """The request read back, without this codec's ``_`` spelling markers."""
    unmarked: dict[str, Any] = _unmarked(request.model_dump(mode="json"))
    return unmarked


def _unmarked(value: Any) -> Any:
    if is_list(value):
        return [_unmarked(item) for item in value]
    if not is_dict(value):
        return value
    cleaned = {key: _unmarked(item) for key, item in value.items()}
    for key in ("provider_metadata", "provider_options"):
        bags = cleaned.get(key)
        if is_dict(bags):
            kept = {
                name: {k: v for k, v in bag.items() if not k.startswith("_")}
                for name, bag in bags.items()
                if is_dict(bag)
            }
            kept = {name: bag for name, bag in kept.items() if bag}
            if kept:
                cleaned[key] = kept
            else:
                del cleaned[key]
    return cleaned


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


entry = partial(
    derived_entry,
    NAME,
    names_in_prose=("openai",),
    rule_models=("gpt-5", "gpt-5.4"),
    single_hop=SingleHop(requests=single_hop_requests, original=single_hop_original, decoded=single_hop_decoded),
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # the openai SDK's FunctionDefinition.name
    # bags: NO_BAGS (the decoder writes none; encode_response keeps none either, and reports them)
    silent_rewrites=silent_rewrites,
    marker_requests=MARKER_REQUESTS,
)
"""The facts the codec gives, for ``chatcodec check-codec openai-responses`` (the repository's
tests add the recordings' and the SDK's as keywords)."""
