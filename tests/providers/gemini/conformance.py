"""What the conformance laws need to know about gemini: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The SDK oracles are google-genai's pydantic types with unknown fields forbidden
(``_providers/gemini/gemini_support.py``). google-genai has no stream accumulator, so each
recorded stream pairs with :func:`wire_accumulation`: the chunks folded into one
``GenerateContentResponse`` on the wire, as Google describes a stream (text of one part
concatenated chunk after chunk, calls whole, Vertex's partial arguments assembled, the
last usage and finish reason), written here independently of the codec.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from hypothesis import strategies as st

import chatcodec
import chatcodec.testing as canonical
from chatcodec.testing._laws.entry import BagSamples, ProviderEntry, SingleHop, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import (
    with_compact_arguments,
    without_empty_instructions,
    without_provider_data,
    without_spelling_markers,
)
from conformance.recordings import recordings_of
from providers.gemini.conformance_streams import CASES
from providers.gemini.gemini_support import assert_valid_request, assert_valid_response, assert_valid_stream
from providers.gemini.gemini_support import for_sdk as strip_newer_fields
from providers.gemini.strategies import gemini_responses

check_request = assert_valid_request
check_response = assert_valid_response


def check_stream(events: list[JsonObject]) -> None:
    assert_valid_stream(events)


def for_sdk(_name: str, body: JsonObject) -> JsonObject:
    return strip_newer_fields(body)


FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "MALFORMED_FUNCTION_CALL": "error",
    "UNEXPECTED_TOOL_CALL": "error",
    "TOO_MANY_TOOL_CALLS": "error",
    "MISSING_THOUGHT_SIGNATURE": "error",
    "MALFORMED_RESPONSE": "error",
    "LANGUAGE": "other",
    "OTHER": "other",
    "IMAGE_OTHER": "other",
    "NO_IMAGE": "other",
    "FINISH_REASON_UNSPECIFIED": "other",
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    body = copy.deepcopy(payload)
    body["candidates"][0]["finishReason"] = raw
    return body


# --- streamed == non-streamed: the chunks folded on the wire ------------------------------------


def wire_accumulation(events: list[JsonObject]) -> JsonObject:
    """One ``GenerateContentResponse`` for a stream of one candidate."""
    body: JsonObject = {}
    candidate: JsonObject = {}
    parts: list[JsonObject] = []
    usage: JsonObject = {}
    partial: JsonObject | None = None
    for chunk in events:
        for key, value in chunk.items():
            if key not in ("candidates", "usageMetadata"):
                body.setdefault(key, value)
        usage.update(chunk.get("usageMetadata") or {})
        for item in chunk.get("candidates") or []:
            candidate.update({key: value for key, value in item.items() if key != "content"})
            for position, part in enumerate((item.get("content") or {}).get("parts") or []):
                partial = _fold(parts, part, position == 0, partial)
    candidate["content"] = {"parts": parts, "role": "model"}
    body["candidates"] = [candidate]
    if usage:
        body["usageMetadata"] = usage
    return body


def _fold(parts: list[JsonObject], part: JsonObject, first: bool, partial: JsonObject | None) -> JsonObject | None:
    call = part.get("functionCall")
    if partial is not None and call is not None and "name" not in call:
        for piece in call.get("partialArgs") or []:
            key = piece["jsonPath"].removeprefix("$.")
            value = piece.get("stringValue", piece.get("numberValue"))
            previous = partial["functionCall"]["args"].get(key)
            partial["functionCall"]["args"][key] = previous + value if isinstance(previous, str) else value
        return None if not call else partial
    if call is not None and call.get("willContinue"):
        opened = {**copy.deepcopy(part), "functionCall": {"name": call["name"], "args": {}}}
        parts.append(opened)
        return opened
    last = parts[-1] if parts else None
    if first and last is not None and "text" in part and "text" in last and _same_kind(last, part):
        last["text"] += part["text"]
        if "thoughtSignature" in part:
            last["thoughtSignature"] = part["thoughtSignature"]
        return partial
    parts.append(copy.deepcopy(part))
    return partial


def _same_kind(last: JsonObject, part: JsonObject) -> bool:
    if set(part) - {"text", "thought", "thoughtSignature"} or set(last) - {"text", "thought", "thoughtSignature"}:
        return False
    return bool(last.get("thought")) == bool(part.get("thought")) and not (
        "thoughtSignature" in last and "thoughtSignature" in part
    )


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


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: wire_accumulation(provider.stream_events(name)), streamed_form)
        for name in provider.recorded["stream"]
    ]


# --- what passes through Gemini unreported ------------------------------------------------------


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
    names = {call.id: call.name for message in request.messages for call in _calls_of(message)}
    dumped["messages"] = _messages(dumped["messages"], names)
    for key, default in (("parallel_tool_calls", True), ("stream", False)):
        if dumped.get(key) is default:
            del dumped[key]
    if (dumped.get("response_format") or {}).get("type") == "text":
        del dumped["response_format"]
    options = dumped.get("provider_options") or {}
    if isinstance(options.get("gemini"), dict):
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


def _calls_of(message: chatcodec.AnyMessage) -> list[chatcodec.ToolUsePart]:
    return message.tool_calls if isinstance(message, chatcodec.AssistantMessage) else []


def _messages(messages: list[Any], names: dict[str, str]) -> list[Any]:
    rewritten: list[Any] = []
    leading = True
    for original in messages:
        message = dict(original)
        if isinstance(message.get("content"), str) and message["role"] != "text":
            message["content"] = [{"type": "text", "text": message["content"]}]
        if message["role"] == "assistant":
            message["content"] = [_compact(part) for part in message["content"]]
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


def _compact(part: Any) -> Any:
    if part.get("type") != "tool_use":
        return part
    text = part.get("arguments", "")
    try:
        parsed = json.loads(text) if text.strip() else {}
    except ValueError:
        return part
    if isinstance(parsed, dict):
        return {**part, "arguments": json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))}
    return part


def _result(part: Any, names: dict[str, str]) -> Any:
    result = dict(part)
    if result.get("name") is None and result["tool_use_id"] in names:
        result["name"] = names[result["tool_use_id"]]
    content = result.get("content", "")
    if content == []:
        result["content"] = ""  # an empty result is an empty output
    elif isinstance(content, list):
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
    if isinstance(value, list):
        return [_without_auto_detail(item) for item in value]
    if not isinstance(value, dict):
        return value
    cleaned = {key: _without_auto_detail(item) for key, item in value.items()}
    if value.get("type") == "image" and value.get("detail") == "auto":
        cleaned["detail"] = None
    return cleaned


# --- the single-hop loss law -------------------------------------------------------------------


def single_hop_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request, and single-message ones too (so one loss does not hide another
    change), without a registered provider's data, and with the documented sentinel chosen
    for unsigned calls (the default reports every such call: a loss by policy, not a change)."""
    single_messages = st.builds(chatcodec.ChatRequest, messages=st.lists(canonical.messages(), max_size=1))
    generated = st.one_of(canonical.chat_requests(), single_messages).map(without_provider_data)
    return generated.map(_skipping_signatures)


def _skipping_signatures(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    options = dict(request.provider_options or {})
    options["gemini"] = {"missing_signature": "skip"}
    return request.model_copy(update={"provider_options": options})


def single_hop_original(request: chatcodec.ChatRequest) -> object:
    return without_spelling_markers(silent_rewrites(request))


def single_hop_decoded(request: chatcodec.ChatRequest) -> object:
    return without_spelling_markers(request)


# --- the entry -----------------------------------------------------------------------------------


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """A chunk keeps its unknown top-level fields: ``value`` goes into the first one."""
    return [{**events[0], "x_extension": value}, *events[1:]], 0


ENTRY = ProviderEntry(
    name="gemini",
    fixtures=recordings_of("gemini"),
    names_in_prose=("gemini", "google", "vertex"),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 9, "response": 7, "stream": 6},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="text_stop.json",
    pair_streams=stream_pairs,
    stream_pair_count=6,
    streams=CASES,
    shaped_responses=gemini_responses,
    single_hop=SingleHop(requests=single_hop_requests, original=single_hop_original, decoded=single_hop_decoded),
    # google-genai's FunctionDeclaration.name: a letter or ``_`` first, then also ``.``,
    # ``:`` and ``-``, up to 128.
    tool_name_rule=re.compile(r"\A[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}\Z"),
    bags=BagSamples(
        choice={
            "citationMetadata": {"citations": [{"startIndex": 0, "endIndex": 1, "uri": "https://example.com/otters"}]},
            "finishMessage": "done",
        },
        message=None,  # a Content has no field but parts and role (the SDK forbids others)
        stream_place="on any event",  # a candidate has its fields on any chunk
        recorded=True,
    ),
    deep_kept_value=deep_kept_value,
    same_result=streamed_form,
    for_sdk=for_sdk,
    silent_rewrites=silent_rewrites,
    unplaced_response_fields=("created", "usage.cache_write_tokens"),
    # Not ``reports_reparsed_arguments``: args are an object too, but duplicate keys in the
    # argument text collapse without a report today (found moving this table; not yet fixed).
)
