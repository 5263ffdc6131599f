"""The Responses rules and field lists that read plain values, in one place for both paths.

The general encoder (``request.py``, ``items.py``) and the one pass (``one_pass.py``,
issue 25) write the same losses with the same texts; the one pass works on canonical
dicts and must not load the canonical models (first use), so these rules take the
values themselves, not the typed objects, and this module imports no model.
"""

from __future__ import annotations

from typing import Any

from chatcodec.losses import LossRecorder, Steps
from chatcodec.providers.kit import split_fields
from chatcodec.providers.openai_responses.markers import KIT
from chatcodec.providers.target_rules import carries_nothing

MAPPED_FIELDS = frozenset(
    {
        "model",
        "input",
        "instructions",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_output_tokens",
        "temperature",
        "top_p",
        "metadata",
        "stream",
        "reasoning",
        "text",
    }
)
"""The request fields both decoders map to canonical; the rest rides in the bag."""

SCALAR_FIELDS = ("model", "temperature", "top_p", "metadata", "stream")
"""The request fields read into canonical as they are."""

_TOOL_FIELDS = ("type", "name", "description", "parameters", "strict")


def decode_function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A canonical tool for a ``function`` tool: its other fields in the bag, and markers
    for a ``parameters`` or ``strict`` the wire left out (both are written by default)."""
    definition: dict[str, Any] = {"name": tool["name"]}
    for key in ("description", "parameters", "strict"):
        if tool.get(key) is not None:
            definition[key] = tool[key]
    rest = split_fields(tool, _TOOL_FIELDS)
    for key in ("parameters", "strict"):
        if key not in tool:
            rest[f"_no_{key}"] = True
    return KIT.attach(definition, rest)


UNSENT_SETTINGS = ("top_k", "frequency_penalty", "presence_penalty", "seed", "cache_control")
"""Canonical request settings Responses has no field for."""


def unsent_setting(key: str, value: object, losses: LossRecorder) -> None:
    """A setting Responses has no field for is reported, unless it says nothing
    (:func:`~chatcodec.providers.target_rules.carries_nothing`)."""
    if value is not None and not carries_nothing(key, value):
        losses.add((key,), key, "Responses has no such request setting", "setting")


def unsent_stop(losses: LossRecorder) -> None:
    """Stop sequences, which Responses has no field for."""
    losses.add(("stop",), "stop sequences", "Responses has no stop sequences", "setting")


def text_metadata(metadata: dict[str, Any], losses: LossRecorder) -> dict[str, Any]:
    """Responses ``metadata`` values are strings (``Dict[str, str]`` in the SDK): others
    are left out and reported."""
    kept: dict[str, Any] = {}
    for key, value in metadata.items():
        if isinstance(value, str):
            kept[key] = value
        else:
            losses.add(
                ("metadata", key),
                f"metadata value of type {type(value).__name__}",
                "Responses metadata is text",
                "metadata",
            )
    return kept


def foreign_thinking(provider: str | None, signed: bool, losses: LossRecorder, at: Steps) -> None:
    """Reasoning that is not OpenAI's (``signed``: it carries another provider's signature
    or encrypted reasoning) is never sent as a Responses reasoning item: reported."""
    if provider is not None or signed:
        who = provider or "another provider"
        why = "OpenAI cannot verify it and it is never sent as a Responses reasoning item"
        losses.add(at, f"reasoning from {who}", why)
    else:
        why = "a replayed Responses reasoning item needs the id and encrypted_content OpenAI gave it"
        losses.add(at, "unsigned reasoning text", why)


def call_arguments(arguments: str, losses: LossRecorder, at: Steps) -> str:
    """A ``function_call``'s ``arguments``: the API parses them as JSON and rejects ""
    (issue 24 item 2), so a call without arguments is "{}", as in openai-chat, reported."""
    if arguments.strip():
        return arguments
    losses.add((*at, "arguments"), "empty tool arguments", "Responses needs JSON; sent '{}'")
    return "{}"


def another_assistant_text(losses: LossRecorder, at: Steps) -> None:
    """An assistant text right after another text item of its turn: a Responses input
    message holds one text, so it is sent as its own message, which reads back as a turn."""
    why = "a Responses input message holds one text: sent as its own message, it reads back as another turn"
    losses.add(at, "assistant text part", why)
