"""Gemini's law facts: what the codec rewrites without a report (the single-hop normal form), what
a stream and a body of one answer share, and the bags its decoder writes."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.contract import is_dict, is_list
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import BagSamples, ProviderEntry, SingleHop
from chatcodec.testing._laws.normal_forms import (
    calls_of,
    compact_call,
    with_compact_arguments,
    without_empty_instructions,
    without_provider_data,
    without_spelling_markers,
)
from chatcodec.testing._strategies import chat_requests, messages


def streamed_form(response: chatcodec.ChatResponse) -> object:
    """A stream cannot say how the wire spelled a message's ``role`` or a candidate's
    ``index`` on the chunk that did not carry it, its tool arguments are text, and a later
    choice with nothing in it (no part, no finish) has no event to stand for it."""
    choices = [
        choice
        for choice in response.choices
        if choice.message.parts or choice.finish_reason or choice.provider_metadata
    ]
    kept = response.model_copy(update={"choices": choices or response.choices[:1]})
    return without_spelling_markers(with_compact_arguments(kept))


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``messages.py``, ``parts.py``, ``results.py``):

    * Gemini has no string content: a string reads back as one text part (``""`` too);
    * leading system messages are one ``systemInstruction``: two or more read back as one
      holding their parts in order (a ``developer`` message reads back as system, reported),
      and none when they hold no part (nothing is said: no ``systemInstruction``);
    * the results of consecutive tool messages are one user turn: one tool message;
    * tool-call arguments are sent as the parsed ``args`` object: compact JSON back
      (empty text is ``{}``);
    * a result names its function (taken from the call when the result has no name); its
      text is the ``response``, its media follow: a list holding only one text (or
      nothing) reads back as that text (or ``""``), and the text of a list reads back
      ahead of its media;
    * ``detail="auto"``, ``parallel_tool_calls=True``, ``response_format`` ``text`` and
      ``stream=False`` are Gemini's defaults: left out;
    * encoder options (``provider_options["gemini"]["missing_signature"]``) are not sent;
    * the model travels in the URL, not the body: a body written from a
      canonical request names none;
    * thinking on (a switch, adaptive, a budget) asks for its thoughts: it reads back
      ``include_thoughts=True`` unless it said otherwise; a switch on reads back as
      ``adaptive`` (a dynamic budget, or a level shown with its thoughts) beside no budget,
      and as nothing beside one; a level shown with its thoughts is ``adaptive``
      (``settings.py``).
    * (first) an empty system or developer message is not sent
      (``Capabilities.empty_system``; ``normal_forms.without_empty_instructions``).
    """
    request = without_empty_instructions(request)  # an empty prompt is no prompt: not sent
    dumped = request.model_dump(mode="json")
    dumped["model"] = None
    names = {call.id: call.name for message in request.messages for call in calls_of(message)}
    dumped["messages"] = _messages(dumped["messages"], names)
    for key, default in (("parallel_tool_calls", True), ("stream", False)):
        if dumped.get(key) is default:
            del dumped[key]
    response_format: dict[str, Any] = dumped.get("response_format") or {}
    if response_format.get("type") == "text":
        del dumped["response_format"]
    options: dict[str, Any] = dumped.get("provider_options") or {}
    if is_dict(options.get("gemini")):
        options["gemini"].pop("missing_signature", None)
        if not options["gemini"]:
            del options["gemini"]
        dumped["provider_options"] = options or None
    _level_is_dynamic(dumped.get("reasoning"))
    return chatcodec.ChatRequest.model_validate(_without_auto_detail(dumped))


def _level_is_dynamic(reasoning: dict[str, Any] | None) -> None:
    if reasoning is None or reasoning.get("enabled") is False:
        return
    budget = reasoning.get("budget_tokens")
    on = reasoning.get("enabled") or reasoning.get("adaptive") or (budget is not None and budget > 0)
    if on and reasoning.get("include_thoughts") is None:
        reasoning["include_thoughts"] = True
    if reasoning.get("enabled") is True:
        del reasoning["enabled"]
        if budget is None and reasoning.get("adaptive") is None:
            reasoning["adaptive"] = True
    shown = reasoning.get("include_thoughts") is True and reasoning.get("effort") not in (None, "none")
    if shown and budget is None and reasoning.get("adaptive") is None:
        reasoning["adaptive"] = True


def _messages(messages: list[Any], names: dict[str, str]) -> list[Any]:
    rewritten: list[Any] = []
    leading = True
    for original in messages:
        message = dict(original)
        if isinstance(message.get("content"), str) and message["role"] != "text":
            message["content"] = [{"type": "text", "text": message["content"]}]
        if message["role"] == "assistant":
            message["content"] = [compact_call(part) for part in message["content"]]
        if message["role"] == "tool":
            message["content"] = [_result(part, names) for part in message["content"]]
        previous = rewritten[-1] if rewritten else None
        joins_system = leading and message["role"] == "system" and previous is not None
        joins_tool = message["role"] == "tool" and previous is not None and previous["role"] == "tool"
        if joins_system or joins_tool:
            assert previous is not None
            previous["content"] = [*previous["content"], *message["content"]]
            for key in ("cache_control", "name"):  # reported when dropped: the joined turn still says it
                if previous.get(key) is None and message.get(key) is not None:
                    previous[key] = message[key]
        else:
            rewritten.append(message)
        leading = leading and message["role"] == "system"
    first = rewritten[0] if len(rewritten) > 1 else None
    if first is not None and first["role"] == "system" and not first["content"] and not _said(first):
        del rewritten[0]  # an empty system prompt writes no systemInstruction (request.py)
    return rewritten


def _said(message: dict[str, Any]) -> bool:
    return any(message.get(key) for key in ("name", "cache_control", "provider_metadata"))


def _result(part: Any, names: dict[str, str]) -> Any:
    result = dict(part)
    if result.get("name") is None and result["tool_use_id"] in names:
        result["name"] = names[result["tool_use_id"]]
    content = result.get("content", "")
    if content == []:
        result["content"] = ""  # an empty result is an empty output
    elif is_list(content):
        texts = [item for item in content if item.get("type") == "text"]
        media = [item for item in content if item.get("type") != "text"]
        if (
            not media
            and len(texts) == 1
            and not texts[0].get("provider_metadata")
            and not texts[0].get("cache_control")
        ):
            result["content"] = texts[0]["text"]
        elif len(texts) <= 1:
            result["content"] = [*texts, *media]
    return result


def _without_auto_detail(value: Any) -> Any:
    if is_list(value):
        return [_without_auto_detail(item) for item in value]
    if not is_dict(value):
        return value
    cleaned = {key: _without_auto_detail(item) for key, item in value.items()}
    if value.get("type") == "image" and value.get("detail") == "auto":
        cleaned["detail"] = None
    return cleaned


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request, and single-message ones too (so one loss does not hide another
    change), without a registered provider's data, and with the documented sentinel chosen
    for unsigned calls (the default reports every such call: a loss by policy, not a change)."""
    single_messages = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
    generated = st.one_of(chat_requests(), single_messages).map(without_provider_data)
    return generated.map(_skipping_signatures)


def _skipping_signatures(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    options = dict(request.provider_options or {})
    options["gemini"] = {"missing_signature": "skip"}
    return request.model_copy(update={"provider_options": options})


def single_hop_original(request: chatcodec.ChatRequest) -> object:
    return without_spelling_markers(silent_rewrites(request))


def single_hop_decoded(request: chatcodec.ChatRequest) -> object:
    return without_spelling_markers(request)


BAGS = BagSamples(
    choice={
        "citationMetadata": {"citations": [{"startIndex": 0, "endIndex": 1, "uri": "https://example.com/otters"}]},
        "finishMessage": "done",
    },
    message=None,  # a Content has no field but parts and role (the SDK forbids others)
    stream_place="on any event",  # a candidate has its fields on any chunk
    recorded=True,
)


def entry() -> ProviderEntry:
    """The facts the codec gives, for ``chatcodec check-codec gemini``."""
    return derived_entry(
        "gemini",
        names_in_prose=("gemini", "google", "vertex"),
        single_hop=SingleHop(requests=single_hop_requests, original=single_hop_original, decoded=single_hop_decoded),
        # google-genai's FunctionDeclaration.name: a letter or ``_`` first, then also ``.``,
        # ``:`` and ``-``, up to 128.
        tool_name_rule=re.compile(r"\A[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}\Z"),
        bags=BAGS,
        same_result=streamed_form,
        silent_rewrites=silent_rewrites,
        unplaced_response_fields=("created", "usage.cache_write_tokens"),
        # Not ``reports_reparsed_arguments``: args are an object too, but duplicate keys in the
        # argument text collapse without a report today (found moving this table; not yet fixed).
    )
