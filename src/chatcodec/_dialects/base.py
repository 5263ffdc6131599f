"""What every dialect reader shares: the codecs they read with, and their error.

One reader per dialect: an OpenAI shape found in a stored conversation is read by the
openai-chat codec, an Anthropic block by the anthropic codec, so the boundary and
``decode_request`` give the same parts. The readers sit above the providers and reach
them only through the registry (:func:`~chatcodec.get_codec`) and the dialect-reading
methods of :class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`; a codec is loaded
the first time a dialect needs it, so canonical input loads none. The pieces of a plain agent
turn (a plain function call, a reasoning string) are read by the rule the openai-chat codec
reads them with, its plain-part readers the registry hands out by the format's name
(:func:`~chatcodec._registry.get_plain_parts`), not through the codec: an OpenAI-shaped agent
history then builds no codec.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Protocol, cast, runtime_checkable

from chatcodec._registry import get_codec, get_plain_parts

OPENAI_CHAT = "openai-chat"
ANTHROPIC = "anthropic"
LANGCHAIN = "langchain"
"""The format whose content blocks a call's repeated ``tool_use`` block is kept as
(:mod:`.repeated_calls`): LangChain's ``AIMessage`` holds the call both ways."""
OPENAI_RESPONSES = "openai-responses"
"""The codec that reads a list of OpenAI Responses input items given as a conversation (the
OpenAI Agents SDK's ``to_input_list()``: :func:`chatcodec._validation.validate_messages`)."""

Location = tuple[int | str, ...]
"""Steps of a JSON path into the caller's input."""


class DialectError(Exception):
    """An alias field the caller wrote cannot be read (raised before validation)."""

    def __init__(self, location: Location, rule: str, message: str, value: object) -> None:
        super().__init__(message)
        self.location = location
        """Where the value is in the input."""
        self.rule = rule
        """Name of the rule broken (``tool_calls_type``, ...)."""
        self.message = message
        """What is wrong."""
        self.value = value
        """The offending value."""


REASONING_STRING_FIELDS = ("reasoning_content", "reasoning")
"""The compatible servers' reasoning strings on an OpenAI assistant message (DeepSeek,
vLLM: ``reasoning_content``; OpenRouter, Groq: ``reasoning``), as the openai-chat codec
reads them (``_providers/openai_chat/reasoning.py``; a test keeps the two lists equal)."""
REASONING_DETAILS = "reasoning_details"
"""OpenRouter's list of reasoning entries on an OpenAI assistant message."""
REASONING_FIELDS = (*REASONING_STRING_FIELDS, REASONING_DETAILS)


@runtime_checkable
class DialectCodec(Protocol):
    """What the dialect readers need of a codec (``ProviderCodec`` offers it)."""

    def decode_part(self, part: dict[str, Any], /) -> dict[str, Any]: ...

    def decode_assistant(self, message: dict[str, Any], /) -> dict[str, Any]: ...

    def decode_tools(self, tools: list[dict[str, Any]], /) -> list[dict[str, Any]]: ...


_CHECKED: dict[str, DialectCodec] = {}
"""The codecs found able to read their dialect, by name: ``isinstance`` against a protocol
costs microseconds, and the readers ask for a codec once per part they read."""


def dialect_codec(name: str) -> DialectCodec:
    """The registered codec ``name``, which must read the pieces of its dialect."""
    codec = cast("object", get_codec(name))  # compared by identity, then checked
    checked = _CHECKED.get(name)
    if checked is not None and checked is codec:  # the same object the registry gave last time
        return checked
    if not isinstance(codec, DialectCodec):
        raise TypeError(f"the codec registered as {name!r} cannot read its dialect outside a body")
    _CHECKED[name] = codec
    return codec


def without_nulls(fields: dict[str, Any], keep: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``fields`` without its ``None`` values: Hugging Face ``datasets`` gives every part
    of a column every key any part has (``{"type": "text", "text": "hi", "image_url":
    None}``), and Verifiers dumps its unset optional fields (``provider_state: None``). A
    null is an absent key; ``keep`` names the keys where ``None`` means something."""
    if None not in fields.values():
        return fields
    return {key: value for key, value in fields.items() if value is not None or key in keep}


@functools.cache
def plain_call_rule() -> Callable[[Mapping[str, Any]], dict[str, Any] | None]:
    """The openai-chat format's rule for a plain call (its plain-part readers), loaded on first
    use: canonical input loads no provider module, and a plain turn builds no codec."""
    return get_plain_parts(OPENAI_CHAT).plain_call


@functools.cache
def _reasoning_string_rule(field: str) -> Callable[[str], dict[str, Any]]:
    return get_plain_parts(OPENAI_CHAT).STRING_FIELD_PARTS[field]


def reasoning_string_part(field: str, text: str) -> dict[str, Any]:
    """The thinking part of a reasoning string ``field`` alone on a message, read by the rule the
    openai-chat codec reads it with (its plain-part readers): no codec is built or asked for it."""
    return _reasoning_string_rule(field)(text)
