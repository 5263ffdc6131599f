"""Anthropic's law facts: what the codec rewrites without a report (``request.py`` and
``messages.py``) and the single-hop normal form judged on what a request means, the API version
that still takes sampling settings, the request that makes its reader write a meaningful
marker, the names that say the vendor, its tool-name rule and what its wire has no place for."""

from __future__ import annotations

import base64
import json
import re
from functools import partial
from typing import Any, cast

from hypothesis import strategies as st

import chatcodec
from chatcodec.codec_kit import is_dict, is_list, thinking_on
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import SingleHop
from chatcodec.testing._laws.normal_forms import with_compact_arguments
from chatcodec.testing._strategies import chat_requests, messages

JsonObject = dict[str, Any]

SAMPLING_DEFAULT = 1.0
"""Anthropic's ``temperature`` and ``top_p`` when none is sent."""


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``request.py`` and ``messages.py``):

    * ``response_format`` of type ``text`` is the default output: it is left out;
    * ``parallel_tool_calls=False`` rides on ``tool_choice``, so without a choice it is sent
      with the default choice, ``auto``; ``parallel_tool_calls=True`` is the default, left
      out when there is no choice to carry it (none, or ``none``);
    * tool-call arguments are sent as the parsed ``input`` object: a JSON object's text
      reads back as compact JSON;
    * an image's ``detail="auto"`` is OpenAI's default: Anthropic has no such setting, and
      sending none says the same;
    * a user message right after tool results joins their user turn as blocks, so its
      string content reads back as one text part;
    * leading system messages are one ``system`` field: two or more read back as one
      system message holding their parts in order;
    * a document's ``filename`` is sent as its ``title`` when it has none (or the same
      one): both are the name the document is shown by (OpenAI ``filename``, Anthropic
      ``title``), so it reads back as the title;
    * a base64 ``text/plain`` document is sent as the UTF-8 text it encodes (Anthropic
      takes base64 documents as PDF only): the same bytes, read back as a text source.

    * a penalty of 0 changes nothing: not sent;
    * the API version in force by default (2026-10-21) takes no sampling setting: a
      ``temperature`` or ``top_p`` at Anthropic's default (1.0) says nothing, so the target
      rule ``sampling_removed`` leaves it out without a report (any other value is a loss);
    * a reasoning config with nothing set says nothing: no ``thinking`` is sent, and
      ``reasoning`` reads back as absent;
    * ``include_thoughts`` with thinking on (a switch, adaptive thinking, a budget) says
      nothing: Claude returns its thinking whenever it thinks, so it is not sent and reads
      back as absent (Gemini's ``includeThoughts``, which a hop through Gemini adds);
    * a thinking budget with no switch is ``{"type": "enabled"}`` with it: it reads back
      switched on.

    (``max_tokens`` is not here: a request without one is a reported loss.)
    """
    update: dict[str, Any] = {}
    choice = request.tool_choice
    if request.parallel_tool_calls is False and choice is None:
        update["tool_choice"] = chatcodec.ToolChoice(type="auto")
    if request.parallel_tool_calls is True and (choice is None or choice.type == "none"):
        update["parallel_tool_calls"] = None
    if request.response_format is not None and request.response_format.type == "text":
        update["response_format"] = None
    r.without_neutral_penalties(update, request)
    r.without_unasked_logprobs(update, request)
    for key in ("temperature", "top_p"):
        if getattr(request, key) == SAMPLING_DEFAULT:
            update[key] = None
    reasoning = request.reasoning
    if reasoning is not None and reasoning.include_thoughts is True and thinking_on(reasoning.model_dump()):
        reasoning = update["reasoning"] = reasoning.model_copy(update={"include_thoughts": None})
    if reasoning is not None and reasoning.enabled is None and (reasoning.budget_tokens or 0) > 0:
        reasoning = update["reasoning"] = reasoning.model_copy(update={"enabled": True})
    if reasoning is not None and reasoning.model_dump(exclude_none=True) == {}:
        update["reasoning"] = None
    messages = _leading_systems_joined(request.messages)
    messages = [
        _joined_to_results(_message_rewritten(message), previous)
        for previous, message in zip([None, *messages], messages, strict=False)
    ]
    rewritten = request.model_copy(update={**update, "messages": messages})
    as_sent = r.everywhere(r.AUTO_DETAIL, ({"type": "document"}, document_as_sent))
    return chatcodec.ChatRequest.model_validate(as_sent(rewritten.model_dump(mode="json")))


def document_as_sent(document: dict[str, Any]) -> dict[str, Any]:
    """A dumped document part as Anthropic reads it back (see :func:`silent_rewrites`)."""
    sent = dict(document)
    if sent.get("filename") is not None and sent.get("title") in (None, sent["filename"]):
        sent["title"], sent["filename"] = sent["filename"], None
    source = sent.get("source")
    if is_dict(source) and source.get("type") == "base64" and source.get("media_type") == "text/plain":
        try:
            text = base64.b64decode(source["data"], validate=True).decode("utf-8")
        except ValueError:
            return sent
        sent["source"] = {"type": "text", "text": text, "media_type": "text/plain"}
    return sent


def _leading_systems_joined(messages: list[chatcodec.AnyMessage]) -> list[chatcodec.AnyMessage]:
    count = 0
    while count < len(messages) and isinstance(messages[count], chatcodec.SystemMessage):
        count += 1
    if count < 2:
        return messages
    parts = [part for message in messages[:count] for part in message.parts]
    return [chatcodec.SystemMessage.model_validate({"content": parts}), *messages[count:]]


def _joined_to_results(message: chatcodec.AnyMessage, previous: chatcodec.AnyMessage | None) -> chatcodec.AnyMessage:
    after_results = isinstance(previous, chatcodec.ToolMessage)
    if (
        isinstance(message, chatcodec.UserMessage)
        and after_results
        and isinstance(message.content, str)
        and message.content
    ):
        return message.model_copy(update={"content": [chatcodec.TextPart(text=message.content)]})
    return message


def _message_rewritten(message: chatcodec.AnyMessage) -> chatcodec.AnyMessage:
    if isinstance(message, chatcodec.AssistantMessage) and message.tool_calls:
        return message.model_copy(update={"content": [_compact(part) for part in message.parts]})
    return message


def _compact(part: Any) -> Any:
    if isinstance(part, chatcodec.ToolUsePart) and part.arguments_are_valid_json:
        parsed = part.parsed_arguments()
        if is_dict(parsed):
            return part.model_copy(update={"arguments": json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))})
    return part


def compact_arguments(response: chatcodec.ChatResponse) -> object:
    """A stream passes argument text through; a non-streamed body carries the parsed
    ``input`` object, which decodes to compact JSON."""
    return with_compact_arguments(response)


def scrubbed(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """The generated request without Anthropic bags or opaque Anthropic blocks: those are
    written only by this codec's decoder, and random ones are not Anthropic data."""
    dumped = request.model_dump(mode="json")
    scrubbed = r.without_data_of(dumped, "anthropic", opaque_only=True)
    return chatcodec.validate_model(chatcodec.ChatRequest, scrubbed | {"reasoning": None})


def meaning(request: chatcodec.ChatRequest) -> dict[str, Any]:
    """What a request says, without the spellings the codec is documented to change:
    turn boundaries (results are grouped, system prompts joined), string versus list
    content, a message's cache marker (it moves to its last
    part), thinking attribution (``provider``/``model`` are re-derived on decoding),
    argument JSON formatting, defaults written out (``tool_choice`` auto for
    ``parallel_tool_calls=False``), a result ``name`` its call implies, ``detail="auto"``,
    a document's name and plain-text source (:func:`document_as_sent`), a penalty of 0
    (it changes nothing, so it is not sent: :func:`without_neutral_penalties`)."""
    neutral: dict[str, Any] = {}
    r.without_neutral_penalties(neutral, request)
    r.without_unasked_logprobs(neutral, request)
    request = request.model_copy(update=neutral)
    names = {call.id: call.name for message in request.messages for call in _calls_of(message)}
    items: list[Any] = []
    for message in request.messages:
        role = {"tool": "user"}.get(message.role, message.role)  # developer -> system is reported
        read: list[Any] = message.parts if message.content != "" else [chatcodec.TextPart(text="")]
        parts: list[Any] = [_part_meaning(part, names) for part in read] or [{"empty": True}]
        marker = None if message.cache_control is None else message.cache_control.model_dump(mode="json")
        if marker is not None and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = marker
        elif marker is not None and parts[-1]["cache_control"] != marker:
            parts.append({"message cache_control": marker})  # two different markers at one point
        items += [(role, part) for part in parts]
        items += [("name", message.name)] if message.name is not None else []
        metadata = _without_markers({"provider_metadata": message.provider_metadata or {}})
        items += [("metadata", metadata)] if metadata else []
    dumped = request.model_dump(mode="json", exclude={"messages"})
    user_id = (request.metadata or {}).get("user_id")
    if isinstance(user_id, str) and request.user in (None, user_id):  # Anthropic's spelling of the user
        dumped["user"] = user_id
        metadata = {key: value for key, value in (request.metadata or {}).items() if key != "user_id"}
        dumped["metadata"] = metadata or None
    choice = request.tool_choice
    if request.parallel_tool_calls and (choice is None or choice.type == "none"):
        del dumped["parallel_tool_calls"]  # parallel calls are the default
    if choice is None and request.parallel_tool_calls is False:
        dumped["tool_choice"] = {"type": "auto"}
    if request.response_format is not None and request.response_format.type == "text":
        del dumped["response_format"]
    meant: dict[str, Any] = _without_markers({"items": items, **dumped})
    return meant


def _without_markers(value: Any) -> Any:
    """Provider bags without ``_`` spelling markers, and without bags left empty: neither
    carries information (so neither is reported when another provider drops them)."""
    if is_list(value):
        return [_without_markers(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_without_markers(item) for item in cast("tuple[object, ...]", value))
    if not is_dict(value):
        return value
    bag_keys = ("provider_metadata", "provider_options")  # provider data: not walked into
    cleaned = {key: item if key in bag_keys else _without_markers(item) for key, item in value.items()}
    for key in bag_keys:
        if is_dict(cleaned.get(key)):
            bags = {name: {k: v for k, v in bag.items() if not k.startswith("_")} for name, bag in cleaned[key].items()}
            cleaned[key] = {name: bag for name, bag in bags.items() if bag} or None
            if cleaned[key] is None:
                del cleaned[key]
    return cleaned


def _part_meaning(part: Any, names: dict[str, str]) -> dict[str, Any]:
    dumped: dict[str, Any] = part.model_dump(mode="json")
    if isinstance(part, chatcodec.ThinkingPart):
        dumped.pop("provider", None)
        dumped.pop("model", None)
    if isinstance(part, chatcodec.ToolUsePart) and part.arguments_are_valid_json:
        dumped["arguments"] = part.parsed_arguments()
    if isinstance(part, chatcodec.ToolResultPart):
        if part.name is not None and names.get(part.tool_use_id) == part.name:
            dumped.pop("name")
        if isinstance(part.content, list):
            dumped["content"] = [_part_meaning(item, names) for item in part.content]
    if isinstance(part, chatcodec.ImagePart) and part.detail == "auto":
        dumped.pop("detail")
    if isinstance(part, chatcodec.DocumentPart):
        dumped = document_as_sent(dumped)
    return {key: value for key, value in dumped.items() if value is not None}


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request, and single-message ones too, so one loss is not hidden behind
    another change; without Anthropic data (:func:`scrubbed`)."""
    single_messages = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
    return st.one_of(chat_requests(), single_messages).map(scrubbed)


SERVER_THEN_CLIENT_TOOLS: JsonObject = {
    "model": "m",
    "max_tokens": 10,
    "messages": [{"role": "user", "content": "q"}],
    "tools": [{"type": "web_search_20250305", "name": "web_search"}, {"name": "f", "input_schema": {}}],
}
"""A server tool before a client tool: the ``_tool_order`` marker."""


def _calls_of(message: chatcodec.AnyMessage) -> list[chatcodec.ToolUsePart]:
    return message.tool_calls if isinstance(message, chatcodec.AssistantMessage) else []


entry = partial(
    derived_entry,
    "anthropic",
    rule_models=("claude-3-5-haiku", "claude-sonnet-4-5", "claude-opus-4-7", "claude-sonnet-5", "claude-opus-5-5"),
    sampling_options={"api_version": "2023-06-01"},  # 2026-10-21 takes no sampling settings
    names_in_prose=("anthropic", "claude"),
    single_hop=SingleHop(requests=single_hop_requests, original=meaning, decoded=meaning),
    # Anthropic's client tools share OpenAI's rule (the openai SDK's FunctionDefinition.name).
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),
    # bags: NO_BAGS (the decoder writes none; encode_response keeps none either, and reports them)
    same_result=compact_arguments,
    silent_rewrites=silent_rewrites,
    unplaced_response_fields=("created",),
    reports_reparsed_arguments=True,  # ``input`` is an object: the argument text is parsed
    marker_requests={"_tool_order": SERVER_THEN_CLIENT_TOOLS},
)
"""The facts the codec gives, for ``chatcodec check-codec anthropic`` (the repository's tests
add the recordings' and the SDK's as keywords)."""
