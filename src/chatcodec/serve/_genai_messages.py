"""The gateway's spans' message attributes, written by the ``otel-genai`` format's writer
(:mod:`chatcodec._frameworks.otel_genai.conversation`), so what the gateway records is what
``chatcodec convert --from otel-genai`` reads back: one implementation of the conventions'
messages (``gen_ai.system_instructions``, ``gen_ai.input.messages``, ``gen_ai.output.messages``,
https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/) and of its tools
(``gen_ai.tool.definitions``).

A span records what passed; it converts nothing, so what the conventions cannot carry (a
thinking signature, a cache marker) is left out of it without a report: the request itself
went upstream whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.otel_genai.conversation import finish_word, output_message, write_conversation
from chatcodec._frameworks.otel_genai.markers import PROVIDER
from chatcodec._frameworks.otel_genai.tool_definitions import write_tool
from chatcodec.contract import EncodeContext, LossRecorder

finish_reason = finish_word
"""A canonical unified finish reason in the conventions' vocabulary."""


def conversation(messages: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A request's messages as the span's ``gen_ai.system_instructions`` (its first system or
    developer message) and ``gen_ai.input.messages`` (the rest)."""
    return write_conversation(messages, EncodeContext(PROVIDER, LossRecorder()))


def answer(message: Mapping[str, Any], reason: str | None) -> dict[str, Any]:
    """One answer (an assistant message) as an output message with its finish reason."""
    return output_message(message, reason, EncodeContext(PROVIDER, LossRecorder()), ("message",))


def tool_definitions(tools: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A request's tools as ``gen_ai.tool.definitions``."""
    context = EncodeContext(PROVIDER, LossRecorder())
    return [write_tool(tool, context, ("tools", index)) for index, tool in enumerate(tools)]
