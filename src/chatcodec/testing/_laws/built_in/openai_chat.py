"""OpenAI Chat's law facts: what the codec rewrites without a report (the single-hop normal form),
what a stream and a body of one answer share, the bags its decoder writes, the request that makes
its reader write a meaningful marker, and requests that differ from a plain twin only in a
spelling the reader marks so its own writer restores it (converted to any other format, the two
give the same body and the same reports; what each does at home is tested beside the folder's
tests: ``test_sdk_dump_nulls.py``, ``test_sdk_accumulated_calls.py``, ``test_silent_changes.py``)."""

from __future__ import annotations

import copy
import re
from functools import partial
from typing import Any, cast

import chatcodec
from chatcodec._compat import source_from_url
from chatcodec.codec_kit import is_dict, is_list
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import BagSamples, SingleHop
from chatcodec.testing._laws.normal_forms import effort_reading, without_empty_instructions
from chatcodec.testing._strategies import chat_requests

_SPELLED = {"provider_metadata": {"openai-chat": {"_cache": "cache_control"}}}
"""A message read with a message-level ``cache_control`` (the ``_cache`` marker): written back there."""


def _onto_last_part(message: dict[str, Any]) -> dict[str, Any]:
    """A message's ``cache_control`` on list content is OpenAI's breakpoint on its last part
    (``cache_control.onto_last_part``), unless read as a message-level one; on a string, the
    breakpoint of the one text part the writer makes of it (an empty string takes none: a
    reported loss); a tool message's results carry their own, and a last part's own different
    marker is a reported loss."""
    cache, content = message.get("cache_control"), message["content"]
    if cache is None or message["role"] == "tool" or r.holds(message, _SPELLED):
        return message
    if isinstance(content, str) and content and message["role"] in _MARKED_STRINGS:
        return {
            **message,
            "cache_control": None,
            "content": [{"type": "text", "text": content, "cache_control": cache}],
        }
    if not is_list(content) or not content:
        return message
    last = content[-1]
    if last.get("type") not in ("text", "image", "audio", "document") or last.get("cache_control") not in (None, cache):
        return message
    return {**message, "cache_control": None, "content": [*content[:-1], {**last, "cache_control": cache}]}


_MARKED_STRINGS = frozenset({"system", "developer", "user", "assistant"})
"""The roles whose marked string the writer sends as one marked text part."""


def _document(document: dict[str, Any]) -> dict[str, Any]:
    """A title is sent as the file name when it has none (or the same one): both name it."""
    title = document.get("title")
    return {"filename": title, "title": None} if title is not None and document.get("filename") in (None, title) else {}


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report (``messages.py``, ``request.py``); media in tool
    results, moved to a user message after the group, are a reported loss, not rewritten here."""
    return r.rewritten(
        request,
        r.in_messages(
            lambda messages: [_without_empty_text(_onto_last_part(each)) for each in r.joined(r.tool_runs, messages)]
        ),
        r.everywhere(
            ({"type": "document"}, _document),
            ({"type": "tool_use"}, _blank_call),
            ({"type": "tool_result", "content": []}, {"content": ""}),  # no parts: the empty text
            # a data: URL reads back as the base64 source it spells
            (
                {"type": "image", "source": {"type": "url", "media_type": None}},
                lambda image: {"source": source_from_url(image["source"]["url"])},
            ),
        ),
        # a reasoning config with nothing set is left out; thinking is read as an effort
        r.at_top(({}, lambda top: {"reasoning": effort_reading(top.get("reasoning") or None)})),
    )


def _without_empty_text(message: dict[str, Any]) -> dict[str, Any]:
    """An assistant turn's one empty text beside its calls (its only text, no other part but
    reasoning) is written as ``content: ""``, which the reader reads as spelling (no text part:
    ``plain_turn.read_plain_turn``): an empty text says nothing."""
    content = message["content"]
    if message["role"] != "assistant" or not is_list(content):
        return message
    texts = [part for part in content if part.get("type") == "text"]
    kinds = {part.get("type") for part in content}
    if (
        len(texts) != 1
        or texts[0].get("text") != ""
        or "tool_use" not in kinds
        or kinds - {"text", "tool_use", "thinking"}
    ):
        return message
    return {**message, "content": [part for part in content if part is not texts[0]]}


def _blank_call(part: dict[str, Any]) -> dict[str, Any]:
    """A function call's blank argument text means no arguments: sent as ``"{}"`` (a custom
    call's input is free text, sent as it is)."""
    blank = isinstance(part.get("arguments"), str) and not part["arguments"].strip()
    return {"arguments": "{}"} if blank and part.get("kind") != "custom" else {}


def streamed_form(response: chatcodec.ChatResponse) -> object:
    """What a stream can reproduce of a response: content as a list of parts (a stream builds
    parts) without empty ones (a replay sends no delta for them), no message ``name`` (an
    answer's message has none on the wire), and of the choice's bag and the message's
    (carried on the finish chunk) only what is not ``null`` (a chunk's ``logprobs: null``
    says nothing, so the stream decoder drops it)."""
    choices = [
        choice.model_copy(
            update={
                "provider_metadata": _without_nulls(choice.provider_metadata),
                "message": chatcodec.AssistantMessage(
                    content=cast(
                        "Any", [part for part in choice.message.parts if not _empty(part.model_dump(mode="json"))]
                    ),
                    provider_metadata=_without_nulls(choice.message.provider_metadata),
                ),
            }
        )
        for choice in response.choices
    ]
    return response.model_copy(update={"choices": choices}).model_dump(mode="json")


_EMPTY_REASONING = {"type": "thinking", "text": "", "signature": None, "encrypted": None}


def _empty(part: dict[str, Any]) -> bool:
    """An empty text, or a plain reasoning string left empty (``reasoning_content: ""``, which
    OpenAI Chat writes for another provider's reasoning): no delta opens a part for them."""
    bags: dict[str, dict[str, Any]] = part.get("provider_metadata") or {}
    field = (bags.get("openai-chat") or {}).get("field")
    return part == {"type": "text", "text": ""} or (
        r.holds(part, _EMPTY_REASONING) and field in ("reasoning_content", "reasoning")
    )


def _without_nulls(metadata: dict[str, dict[str, Any]] | None) -> dict[str, dict[str, Any]] | None:
    """The bags without their ``null`` fields, nor the ``_nulls`` and ``_empty`` markers that
    spell an SDK dump's and a server's empty fields (``null_spelling.py``)."""
    kept = {
        provider: {key: value for key, value in bag.items() if value is not None and key not in ("_nulls", "_empty")}
        for provider, bag in (metadata or {}).items()
    }
    return {provider: bag for provider, bag in kept.items() if bag} or None


def _silent_bags(value: dict[str, Any]) -> dict[str, Any]:
    """Another provider's bag holding only ``_`` markers is dropped without a report: it says
    how another provider spelled a value."""
    return {
        key: {
            name: bag for name, bag in bags.items() if name == "openai-chat" or any(not k.startswith("_") for k in bag)
        }
        or None
        for key in ("provider_metadata", "provider_options")
        if is_dict(bags := value.get(key))
    }


def single_hop_original(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What any canonical request (another provider's data too: the codec must report what it
    cannot carry) reads back as when nothing is lost; read back, it is compared exactly,
    this provider's markers included."""
    return r.rewritten(silent_rewrites(without_empty_instructions(request)), r.everywhere(({}, _silent_bags)))


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


# --- the requests its reader marks: a meaningful marker, and spellings kept for its own writer ---


_EPHEMERAL = {"type": "ephemeral"}
GATEWAY_CACHE_REQUEST: dict[str, Any] = {
    "model": "m",
    "max_completion_tokens": 10,
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}, "cache_control": _EPHEMERAL}],
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "q", "cache_control": _EPHEMERAL}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "f", "arguments": "{}"},
                    "cache_control": _EPHEMERAL,
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok", "cache_control": _EPHEMERAL},
    ],
}
"""OpenRouter / litellm breakpoints on a tool, a part, a tool call and a tool message."""


MAX_TOKENS_REQUEST: dict[str, Any] = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "q"}]}
"""A request spelling its limit ``max_tokens`` (the ``_max_tokens_key`` marker): kept at
home; another provider holds the limit in its own field and drops the key unreported."""

CALL = {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}}


def sdk_dump_session() -> dict[str, Any]:
    """What an agent on the openai SDK sends: ``model_dump()`` of the assistant message
    (its four ``null`` fields), and ``"name": null`` on the messages it builds itself."""
    return {
        "model": "gpt-5.1",
        "max_completion_tokens": 1000,
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Read a.py", "name": None},
            {
                "content": None,
                "refusal": None,
                "role": "assistant",
                "annotations": None,
                "audio": None,
                "function_call": None,
                "tool_calls": [CALL],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "print('hi')", "name": None},
            {"role": "user", "content": [{"type": "text", "text": "and now?"}], "name": None},
        ],
    }


def without_nulls(request: dict[str, Any]) -> dict[str, Any]:
    """``request`` without its messages' ``null`` fields (``content`` kept)."""
    plain = copy.deepcopy(request)
    plain["messages"] = [
        {key: value for key, value in message.items() if value is not None or key == "content"}
        for message in plain["messages"]
    ]
    return plain


def accumulated_call_session(*, index: bool = True) -> dict[str, Any]:
    """An assistant message the OpenAI SDK accumulated from a stream: each tool call keeps
    its ``index`` (where it streamed, nothing a user sent)."""
    call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [{"index": 0, **call} if index else call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
        "max_completion_tokens": 50,
    }


SPELLING_TWINS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "max_tokens key": (
        MAX_TOKENS_REQUEST,
        {"model": "m", "max_completion_tokens": 10, "messages": [{"role": "user", "content": "q"}]},
    ),
    "sdk dump nulls": (sdk_dump_session(), without_nulls(sdk_dump_session())),
    "accumulated call index": (accumulated_call_session(), accumulated_call_session(index=False)),
}


entry = partial(
    derived_entry,
    "openai-chat",
    rule_models=("gpt-5", "gpt-5.1", "gpt-5.4", "gpt-5.6"),
    names_in_prose=("openai", "gpt", "openrouter", "deepseek"),
    single_hop=SingleHop(requests=chat_requests, original=single_hop_original, decoded=lambda request: request),
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),  # the SDK's FunctionDefinition.name
    bags=BAGS,
    same_result=streamed_form,
    silent_rewrites=silent_rewrites,
    own_parameters=("frequency_penalty", "presence_penalty", "seed"),
    marker_requests={"_cache": GATEWAY_CACHE_REQUEST},
    spelling_twins=SPELLING_TWINS,
)
"""The facts the codec gives, for ``chatcodec check-codec openai-chat``."""
