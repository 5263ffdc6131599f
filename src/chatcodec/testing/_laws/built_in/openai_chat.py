"""OpenAI Chat's law facts: what the codec rewrites without a report (the single-hop normal form),
what a stream and a body of one answer share, and the bags its decoder writes."""

from __future__ import annotations

import re
from typing import Any, cast

from hypothesis import strategies as st

import chatcodec
from chatcodec._compat import source_from_url
from chatcodec._providers.openai_chat.cache_control import spelled
from chatcodec.contract import is_dict, is_list
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import BagSamples, ProviderEntry, SingleHop
from chatcodec.testing._laws.normal_forms import effort_reading, without_empty_instructions
from chatcodec.testing._strategies import chat_requests


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``messages.py``, ``request.py``):

    * consecutive tool messages are one group on the wire: they read back as one message;
    * a ``data:`` image URL reads back as the base64 source it spells;
    * a reasoning config with nothing set says nothing: it is left out; thinking disabled
      is effort ``none``; adaptive thinking at an effort is reasoning switched on at it
      (:func:`~conformance.normal_forms.effort_reading`);
    * a document's ``title`` is sent as its ``filename`` when it has none (or the same
      one): both are the name the document is shown by, so it reads back as the file name;
    * a function call's blank argument text means no arguments: it is sent as ``"{}"``
      (a custom call's input is free text, sent as it is, blank or not);
    * a message-level ``cache_control`` on list content is OpenAI's breakpoint on the last
      part (``cache_control.onto_last_part``): it reads back as that part's marker;
    * a tool result of no parts (``content: []``) reads back as the empty text.

    (Media in tool results, which move to a user message after the group, are a reported
    loss, so they are not rewritten here.)
    * (first) an empty system or developer message is not sent
      (``Capabilities.empty_system``; ``normal_forms.without_empty_instructions``).
    """
    request = without_empty_instructions(request)  # an empty prompt is no prompt: not sent
    messages: list[chatcodec.AnyMessage] = []
    for message in request.messages:
        if isinstance(message, chatcodec.ToolMessage) and messages and isinstance(messages[-1], chatcodec.ToolMessage):
            messages[-1] = _merged(messages[-1], message)
        else:
            messages.append(message)
    dumped: dict[str, Any] = request.model_copy(update={"messages": messages}).model_dump(mode="json")
    if dumped.get("reasoning") == {}:
        dumped["reasoning"] = None
    dumped["reasoning"] = effort_reading(dumped.get("reasoning"))
    for message in dumped["messages"]:
        _marker_onto_last_part(message)
        if message["role"] == "tool":
            for result in message["content"]:  # a result of no parts reads back as the empty text
                if result.get("content") == []:
                    result["content"] = ""
    return chatcodec.ChatRequest.model_validate(_names_and_arguments(_data_urls(dumped)))


_BREAKPOINT_CARRIERS = frozenset({"text", "image", "audio", "document"})
"""The canonical parts whose OpenAI part takes a breakpoint (``cache_control._CARRIERS``)."""


def _marker_onto_last_part(message: dict[str, Any]) -> None:
    """A message's ``cache_control`` moved onto its last part, as the writer moves it: unless
    the message was read with a message-level ``cache_control`` (written back there), tool
    messages (their results carry it), or the last part has its own (a different one is a
    reported loss; the same one says nothing more)."""
    cache = message.get("cache_control")
    content = message.get("content")
    if cache is None or message["role"] == "tool" or not is_list(content) or not content:
        return
    last = content[-1]
    if last.get("type") not in _BREAKPOINT_CARRIERS or spelled(message.get("provider_metadata")):
        return
    if last.get("cache_control") is None:
        last["cache_control"] = cache
        message["cache_control"] = None
    elif last["cache_control"] == cache:
        message["cache_control"] = None


def _names_and_arguments(value: Any) -> Any:
    if is_list(value):
        return [_names_and_arguments(item) for item in value]
    if not is_dict(value):
        return value
    cleaned = {key: _names_and_arguments(item) for key, item in value.items()}
    kind = value.get("type")
    if kind == "document" and value.get("title") is not None and value.get("filename") in (None, value["title"]):
        cleaned["filename"], cleaned["title"] = value["title"], None
    blank = isinstance(value.get("arguments"), str) and not value["arguments"].strip()
    if kind == "tool_use" and blank and value.get("kind") != "custom":  # a custom call's input is free text
        cleaned["arguments"] = "{}"
    return cleaned


def _merged(first: chatcodec.ToolMessage, second: chatcodec.ToolMessage) -> chatcodec.ToolMessage:
    return chatcodec.ToolMessage(
        content=[*first.content, *second.content],
        name=first.name if first.name is not None else second.name,
        cache_control=first.cache_control or second.cache_control,
        provider_metadata={**(second.provider_metadata or {}), **(first.provider_metadata or {})} or None,
    )


def _data_urls(value: Any) -> Any:
    if is_dict(value):
        source = value.get("source")
        if (
            value.get("type") == "image"
            and is_dict(source)
            and source.get("type") == "url"
            and "media_type" not in source
        ):
            value = {**value, "source": source_from_url(source["url"])}
        return {key: _data_urls(item) for key, item in value.items()}
    if is_list(value):
        return [_data_urls(item) for item in value]
    return value


def streamed_form(response: chatcodec.ChatResponse) -> dict[str, Any]:
    """What a stream can reproduce of a response: message content as a list of parts (a
    stream builds parts) without empty texts (a replay sends no delta for an empty text,
    so none arrives), no message ``name`` (an answer's message has none on the wire), and
    of the choice's bag and the message's (carried on the finish chunk, the message's in
    its ``delta``) only what is not ``null`` (a chunk's ``logprobs: null`` or
    ``refusal: null`` says nothing, so the stream decoder drops it)."""
    choices = [
        choice.model_copy(
            update={
                "provider_metadata": _without_nulls(choice.provider_metadata),
                "message": chatcodec.AssistantMessage(
                    content=cast("Any", choice.message.parts),
                    provider_metadata=_without_nulls(choice.message.provider_metadata),
                ),
            }
        )
        for choice in response.choices
    ]
    dumped = content_as_list(response.model_copy(update={"choices": choices}))
    for choice in dumped["choices"]:
        message = choice["message"]
        message["content"] = [part for part in message["content"] if not _empty(part)]
    return dumped


def _empty(part: dict[str, Any]) -> bool:
    """An empty text, or a plain reasoning string left empty (``reasoning_content: ""``,
    which OpenAI Chat output now writes for another provider's reasoning): a
    stream's empty delta opens no part, so neither arrives."""
    if part == {"type": "text", "text": ""}:
        return True
    bags: dict[str, Any] = part.get("provider_metadata") or {}
    bag: dict[str, Any] = bags.get("openai-chat") or {}
    return (
        part.get("type") == "thinking"
        and part.get("text") == ""
        and bag.get("field") in ("reasoning_content", "reasoning")
        and part.get("signature") is None
        and part.get("encrypted") is None
    )


def _without_nulls(metadata: dict[str, dict[str, Any]] | None) -> dict[str, dict[str, Any]] | None:
    """The bags without their ``null`` fields, nor the ``_nulls`` marker that spells an SDK
    dump's (``null_spelling.py``)."""
    kept = {
        provider: {key: value for key, value in bag.items() if value is not None and key != "_nulls"}
        for provider, bag in (metadata or {}).items()
    }
    return {provider: bag for provider, bag in kept.items() if bag} or None


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request: the codec must report what it cannot carry of any of them."""
    return chat_requests()


def single_hop_original(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """What ``request`` reads back as when nothing is lost: after :func:`silent_rewrites`,
    without another provider's bag holding only ``_`` markers (dropped without a report:
    it says how another provider spelled a value)."""
    kept: dict[str, Any] = _without_silent_bags(silent_rewrites(request).model_dump(mode="json"))
    return kept


def single_hop_decoded(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """The request read back, exactly: every field, this provider's markers included."""
    dumped: dict[str, Any] = request.model_dump(mode="json")
    return dumped


def _without_silent_bags(value: Any) -> Any:
    if is_list(value):
        return [_without_silent_bags(item) for item in value]
    if not is_dict(value):
        return value
    cleaned = {key: _without_silent_bags(item) for key, item in value.items()}
    for key in ("provider_metadata", "provider_options"):
        bags = cleaned.get(key)
        if is_dict(bags):
            kept = {
                name: bag
                for name, bag in bags.items()
                if name == "openai-chat" or any(not bag_key.startswith("_") for bag_key in bag)
            }
            if kept:
                cleaned[key] = kept
            else:
                del cleaned[key]
    return cleaned


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


BAGS = BagSamples(
    # logprobs spelled as a server does (a key of its own): the bag keeps it; OpenAI's own
    # spelling, and vLLM's without refusal, are the canonical choice.logprobs
    # (tests/test_token_logprobs.py, providers/openai_chat/test_logprobs_without_refusal.py)
    choice={"native_finish_reason": "end_turn", "logprobs": {"content": [], "text_offset": []}},
    # a message's url citations are its text's now (tests/providers/test_url_citations.py): the
    # sample is a message field with no canonical place, the answer's audio (SDK ChatCompletionAudio)
    message={"audio": {"id": "audio_1", "data": "UklG", "expires_at": 1, "transcript": "hi"}, "refusal": None},
    stream_place="with the finish",  # a chunk's choice fields come with its finish_reason
    recorded=True,
)


def entry() -> ProviderEntry:
    """The facts the codec gives, for ``chatcodec check-codec openai-chat``."""
    return derived_entry(
        "openai-chat",
        rule_models=("gpt-5.6",),
        names_in_prose=("openai", "gpt", "openrouter", "deepseek"),
        single_hop=SingleHop(requests=single_hop_requests, original=single_hop_original, decoded=single_hop_decoded),
        tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # the SDK's FunctionDefinition.name
        bags=BAGS,
        same_result=streamed_form,
        silent_rewrites=silent_rewrites,
        own_parameters=("frequency_penalty", "presence_penalty", "seed"),
    )
