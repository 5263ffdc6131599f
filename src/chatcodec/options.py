"""Each encoder's options, typed, so a checker catches a misspelt key in user code.

``options=`` on :func:`~chatcodec.encode_request`, :func:`~chatcodec.convert_request`
and the other encoders is typed :data:`EncoderOptions`, the union of the codecs'
TypedDicts: ``options={"max_token": 1024}`` fails mypy and pyright, and at run time
every codec refuses a name its table (a provider's ``markers.OPTIONS``) does not hold,
with an :class:`~chatcodec.OptionError` (:mod:`chatcodec._option_table`). Annotate
a dict built ahead of the call with the codec's own TypedDict
(``settings: AnthropicOptions = {...}``). Wire fields to send are not options: they go in
``extra_fields=``.

Every key is optional (``total=False``); ``tests/test_options.py`` holds each TypedDict's
keys equal to its codec's table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

__all__ = [
    "AnthropicOptions",
    "BedrockConverseOptions",
    "EncoderOptions",
    "GeminiOptions",
    "OllamaOptions",
    "OpenAIChatOptions",
    "OpenAIResponsesOptions",
    "ReadingOptions",
    "RuleOptions",
    "StrictSchema",
    "UnsignedThinking",
]

UnsignedThinking = Literal["drop", "text"]
"""Thinking the target cannot verify (another provider's, unsigned): dropped with a loss
(the default) or sent as plain text."""

StrictSchema = Literal["rewrite", "drop_strict"]
"""A strict function or ``json_schema`` format whose schema OpenAI's strict mode refuses:
rewritten to what it takes (the default) or sent as it is with ``strict: false``."""


class RuleOptions(TypedDict, total=False):
    """The target rules' options, taken by every provider codec
    (:mod:`chatcodec._providers.contract.target_rules`)."""

    api_version: str
    """The API version the body is for (default: what the provider's current official SDK sends)."""
    skip_rules: str | Sequence[str]
    """Names of target rules not to apply; ``"*"``: none applies (the storage mode)."""


class AnthropicOptions(RuleOptions, total=False):
    """The ``anthropic`` encoder's options."""

    max_tokens: int
    """``max_tokens`` sent when the request has none (Anthropic requires it; else 4096, a loss)."""
    model: str
    """The model a request without one is sent to."""
    unsigned_thinking: UnsignedThinking
    """Thinking Anthropic cannot verify: ``"drop"`` (default) or ``"text"``."""
    server: str
    """The Anthropic-compatible server the body is written for (``"deepseek"``, ``"minimax"``...)."""


class OpenAIChatOptions(RuleOptions, total=False):
    """The ``openai-chat`` encoder's options."""

    model: str
    """The model a request without one is sent to."""
    reasoning_field: Literal["reasoning_content", "reasoning", "reasoning_details"] | None
    """Where another provider's reasoning goes; ``None`` drops it with a loss."""
    max_tokens_key: Literal["max_completion_tokens", "max_tokens"]
    """The key the token limit is sent under (``"max_tokens"`` for servers without the newer key)."""
    include_usage: bool
    """For a stream: whether the usage is sent as one last chunk (``stream_options.include_usage``)."""
    strict_schema: StrictSchema
    """What a strict function or format whose schema strict mode refuses becomes."""
    server: str
    """The OpenAI-compatible server the body is written for (``"deepseek"``, ``"groq"``, ``"vllm"``...)."""
    missing_signature: Literal["report", "skip"]
    """For Gemini's OpenAI endpoint: a tool call without a thought signature is reported
    (default) or sent with the documented skip sentinel."""


class OpenAIResponsesOptions(RuleOptions, total=False):
    """The ``openai-responses`` encoder's options."""

    model: str
    """The model a request without one is sent to."""
    strict_schema: StrictSchema
    """What a strict function or format whose schema strict mode refuses becomes."""
    server_fields: Mapping[str, Any]
    """A server answering the request itself: the response resource fields it sets."""
    encrypted_reasoning: bool
    """Seal another provider's signed reasoning into output items, so it comes back."""
    seal_key: str
    """The key each seal carries a MAC under (HMAC-SHA256), so a reader holding it can
    refuse a seal it did not write (:func:`chatcodec._providers.openai_responses.carried_reasoning.verify_seal`)."""


class GeminiOptions(RuleOptions, total=False):
    """The ``gemini`` encoder's options."""

    missing_signature: Literal["report", "skip"]
    """A call Gemini 3 wants signed that has no signature: reported (default) or sent
    with the documented ``skip_thought_signature_validator`` sentinel."""
    tools_layout: Sequence[Sequence[int | bool | None]]
    """How the ``Tool`` objects group the declarations (a read payload's own layout is
    kept without it)."""
    include_thoughts: bool
    """An answer shows another provider's reasoning as thought parts (the caller asked
    for ``includeThoughts``)."""


class BedrockConverseOptions(RuleOptions, total=False):
    """The ``bedrock-converse`` encoder's options."""

    unsigned_thinking: UnsignedThinking
    """Thinking Bedrock cannot verify: ``"drop"`` (default) or ``"text"``."""
    tool_result_status: Literal["source", "always", "never"]
    """When ``toolResult.status`` is written: as the source had it (default), always, never."""


class OllamaOptions(RuleOptions, total=False):
    """The ``ollama`` encoder's options."""

    model: str
    """The model a request without one is sent to."""


class ReadingOptions(TypedDict, total=False):
    """:func:`~chatcodec.decode_request`'s options."""

    server: str
    """The compatible server the body is for: strict reading accepts its documented fields."""


EncoderOptions = (
    AnthropicOptions
    | OpenAIChatOptions
    | OpenAIResponsesOptions
    | GeminiOptions
    | BedrockConverseOptions
    | OllamaOptions
)
"""What ``options=`` takes: one codec's options (the codec named checks the names at run time)."""
