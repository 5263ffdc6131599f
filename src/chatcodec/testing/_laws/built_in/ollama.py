"""Ollama's law facts: what the codec rewrites without a report (the single-hop normal form), what
a stream and a body of one answer share, and the bags its decoder writes."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.contract import is_list
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import BagSamples, ProviderEntry, SingleHop
from chatcodec.testing._laws.normal_forms import (
    calls_of,
    compact_call,
    without_empty_instructions,
    without_provider_data,
    without_spelling_markers,
)
from chatcodec.testing._strategies import chat_requests, messages


def streamed_form(response: chatcodec.ChatResponse) -> object:
    """What a stream and a body of one answer share: the message's parts as a list (a
    stream builds parts, a body of text alone reads as a string), without the pure-spelling
    markers (``_done``: a ``done`` line without a reason, which a body needs no marker for)."""
    choices = [
        choice.model_copy(update={"message": choice.message.model_copy(update={"content": choice.message.parts})})
        for choice in response.choices
    ]
    return without_spelling_markers(response.model_copy(update={"choices": choices}))


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``messages.py``, ``parts.py``, ``settings.py``,
    ``tools.py``), because the request means the same after it:

    * a message's content is one string beside its images and calls: a list holding one
      plain text (or nothing) reads back as that text (or ``""``), and an empty text part
      beside other parts is no part;
    * the results of consecutive tool messages are one tool message (each result is an
      Ollama message of its own);
    * a result without a tool name takes its call's (the templates show it to the model);
    * tool-call arguments are sent as the parsed object: compact JSON back (empty text is ``{}``);
    * ``tool_choice`` ``auto``, ``parallel_tool_calls: true``, ``response_format`` ``text``
      and an empty reasoning config are Ollama's defaults: left out;
    * ``strict: true`` on a schema is what Ollama always does: left out;
    * reasoning: a level is thinking switched on at that effort (an effort reads back with
      ``enabled: true``), and effort ``none`` is ``think: false`` (``enabled: false``).
    * (first) an empty system or developer message is not sent
      (``Capabilities.empty_system``; ``normal_forms.without_empty_instructions``).
    """
    request = without_empty_instructions(request)  # an empty prompt is no prompt: not sent
    dumped = request.model_dump(mode="json")
    names = {call.id: call.name for message in request.messages for call in calls_of(message)}
    dumped["messages"] = _messages(dumped["messages"], names)
    choice: dict[str, Any] = dumped.get("tool_choice") or {}
    if choice.get("type") == "auto":
        dumped["tool_choice"] = None
    if dumped.get("parallel_tool_calls") is True:
        dumped["parallel_tool_calls"] = None
    response_format = dumped.get("response_format")
    if response_format is not None and response_format.get("type") == "text":
        dumped["response_format"] = None
    elif response_format is not None and response_format.get("strict") is True:
        response_format["strict"] = None
    dumped["reasoning"] = _reasoning(dumped.get("reasoning"))
    return chatcodec.ChatRequest.model_validate(dumped)


def _reasoning(reasoning: dict[str, Any] | None) -> dict[str, Any] | None:
    if reasoning is None:
        return None
    kept = {key: value for key, value in reasoning.items() if value is not None}
    if not kept:
        return None
    if kept.get("effort") == "none" and kept.get("enabled") is not True:
        kept.pop("effort")
        kept["enabled"] = False
    elif kept.get("effort") is not None and kept.get("enabled") is None:
        kept["enabled"] = True
    return kept


def _messages(messages: list[Any], names: dict[str, str]) -> list[Any]:
    rewritten: list[Any] = []
    for original in messages:
        message = dict(original)
        if message["role"] == "tool":
            message["content"] = [_result(part, names) for part in message["content"]]
            previous = rewritten[-1] if rewritten else None
            if previous is not None and previous["role"] == "tool":
                previous["content"] = [*previous["content"], *message["content"]]
                for key in ("cache_control", "name"):  # reported when dropped: the joined turn still says it
                    if previous.get(key) is None and message.get(key) is not None:
                        previous[key] = message[key]
                continue
        elif is_list(message.get("content")):
            message["content"] = _laid_out(message["content"])
        rewritten.append(message)
    return rewritten


def _laid_out(parts: list[Any]) -> Any:
    """Content as it reads back: empty plain texts gone, and one plain text (or nothing) a string."""
    kept = [compact_call(part) for part in parts if not _empty_text(part)]
    if not kept:
        return ""
    if len(kept) == 1 and _plain_text(kept[0]):
        return kept[0]["text"]
    return kept


def _plain_text(part: dict[str, Any]) -> bool:
    """A text part with nothing but its text: no cache marker, and no bag holding data (a
    bag that is empty, ``{"openai": {}}``, carries nothing, so nothing is reported)."""
    bags: dict[str, Any] = part.get("provider_metadata") or {}
    return part.get("type") == "text" and not part.get("cache_control") and not any(bags.values())


def _empty_text(part: dict[str, Any]) -> bool:
    return _plain_text(part) and part.get("text") == ""


def _result(part: Any, names: dict[str, str]) -> Any:
    result = dict(part)
    if result.get("name") is None and result["tool_use_id"] in names:
        result["name"] = names[result["tool_use_id"]]
    if is_list(result.get("content")):
        result["content"] = _laid_out(result["content"])
    return result


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request, and single-message ones too (so one loss does not hide another
    change), without a registered provider's data."""
    single_messages = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
    return st.one_of(chat_requests(), single_messages).map(without_provider_data)


def single_hop_original(request: chatcodec.ChatRequest) -> object:
    return without_spelling_markers(silent_rewrites(request))


def single_hop_decoded(request: chatcodec.ChatRequest) -> object:
    return without_spelling_markers(request)


BAGS = BagSamples(
    # an empty top_logprobs Go's omitempty never writes: the bag keeps it as it came; the
    # server's own spelling is the canonical choice.logprobs (tests/test_token_logprobs.py)
    choice={"logprobs": [{"token": "Otters", "logprob": -0.25, "top_logprobs": []}]},
    message={"_nulls": ["images"]},
    stream_place="on any event",  # every line may carry them; the encoder writes a last line for them
    recorded=True,
)


def entry() -> ProviderEntry:
    """The facts the codec gives, for ``chatcodec check-codec ollama``."""
    return derived_entry(
        "ollama",
        names_in_prose=("ollama", "llama", "qwen"),
        single_hop=SingleHop(requests=single_hop_requests, original=single_hop_original, decoded=single_hop_decoded),
        # Ollama documents no rule: ``api.ToolFunction.Name`` is any string, shown to the model
        # by the template; a blank one names no tool (fitted and reported, as everywhere).
        tool_name_rule=re.compile(r"\A(?s:.*\S.*)\Z"),
        bags=BAGS,
        same_result=streamed_form,
        silent_rewrites=silent_rewrites,
        unplaced_response_fields=(
            "id",
            "usage.cache_read_tokens",
            "usage.cache_write_tokens",
            "usage.reasoning_tokens",
        ),
        own_parameters=("keep_alive",),
        reports_reparsed_arguments=True,
    )
