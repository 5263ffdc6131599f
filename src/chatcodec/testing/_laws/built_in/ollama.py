"""Ollama's law facts: what the codec rewrites without a report (``messages.py``, ``parts.py``,
``settings.py``, ``tools.py``), what a stream and a body of one answer share, and its bags."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import chatcodec
from chatcodec.codec_kit import is_list
from chatcodec.testing._laws import rewrites as r
from chatcodec.testing._laws.derived_entry import derived_entry
from chatcodec.testing._laws.entry import BagSamples
from chatcodec.testing._laws.normal_forms import without_spelling_markers


def streamed_form(response: chatcodec.ChatResponse) -> object:
    """A stream builds parts (a body of text alone reads as a string), and a ``done`` line
    without a reason needs a pure-spelling marker (``_done``) a body does not."""
    choices = [
        choice.model_copy(update={"message": choice.message.model_copy(update={"content": choice.message.parts})})
        for choice in response.choices
    ]
    return without_spelling_markers(response.model_copy(update={"choices": choices}))


def _plain_text(part: dict[str, Any]) -> bool:
    """A text part with nothing but its text: no cache marker, no bag holding data."""
    bags: dict[str, Any] = part.get("provider_metadata") or {}
    return part.get("type") == "text" and not part.get("cache_control") and not any(bags.values())


def _laid_out(parts: list[Any]) -> Any:
    """Content is one string beside images and calls: empty plain texts are no part, and one
    plain text (or nothing) reads back as that text (or ``""``)."""
    kept = [part for part in parts if not (_plain_text(part) and part.get("text") == "")]
    return kept[0]["text"] if len(kept) == 1 and _plain_text(kept[0]) else kept or ""


def _content_laid_out(dumped: dict[str, Any]) -> dict[str, Any]:
    """Every message's content laid out (a tool message's results each), and each result's."""
    messages = [
        {**message, "content": _laid_out(message["content"])}
        if message["role"] != "tool" and is_list(message["content"])
        else message
        for message in dumped["messages"]
    ]
    return r.everywhere(({"type": "tool_result"}, _result))({**dumped, "messages": messages})


def _result(result: dict[str, Any]) -> dict[str, Any]:
    return {"content": _laid_out(result["content"])} if is_list(result.get("content")) else {}


def _reasoning(reasoning: dict[str, Any] | None) -> dict[str, Any]:
    """A level is thinking switched on at that effort, and effort ``none`` is ``think: false``;
    an empty config is the default: left out."""
    kept = {key: value for key, value in (reasoning or {}).items() if value is not None}
    if kept.get("effort") == "none" and kept.get("enabled") is not True:
        kept = {**{key: value for key, value in kept.items() if key != "effort"}, "enabled": False}
    elif kept.get("effort") is not None and kept.get("enabled") is None:
        kept["enabled"] = True
    return {"reasoning": kept or None}


def silent_rewrites(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    """What the codec rewrites without a report, because the request means the same after it."""
    return r.rewritten(
        request,
        r.results_named,
        r.in_messages(lambda messages: r.joined(r.tool_runs, messages)),  # each result is a message of its own
        # thinking no provider produced is sent as Ollama's and read back as its own (no producer
        # to lose, as on Bedrock; another provider's is reported: ``parts._encode_thinking``)
        r.everywhere(r.COMPACT_CALLS, ({"type": "thinking", "provider": None}, {"provider": "ollama"})),
        _content_laid_out,
        r.at_top(
            ({"tool_choice": {"type": "auto"}}, {"tool_choice": None}),  # Ollama's defaults: left out
            ({"parallel_tool_calls": True}, {"parallel_tool_calls": None}),
            ({"response_format": {"type": "text"}}, {"response_format": None}),
            # ``strict: true`` on a schema is what Ollama always does
            (
                {"response_format": {"strict": True}},
                lambda top: {"response_format": {**top["response_format"], "strict": None}},
            ),
            ({}, lambda top: _reasoning(top.get("reasoning"))),
        ),
    )


BAGS = BagSamples(
    # an empty top_logprobs Go's omitempty never writes: the bag keeps it as it came; the
    # server's own spelling is the canonical choice.logprobs (tests/test_token_logprobs.py)
    choice={"logprobs": [{"token": "Otters", "logprob": -0.25, "top_logprobs": []}]},
    message={"_nulls": ["images"]},
    stream_place="on any event",  # every line may carry them; the encoder writes a last line for them
    recorded=True,
)


entry = partial(
    derived_entry,
    "ollama",
    names_in_prose=("ollama", "llama", "qwen"),
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
"""The facts the codec gives, for ``chatcodec check-codec ollama``."""
