"""chatcodec's contenders: the public calls a user makes, with full validation.

Every call goes through the stable top-level API exactly as documented, with
``on_loss="ignore"`` (losses are still found and recorded, just not warned about: the
reasoning that Anthropic cannot take is one of them).
"""

from __future__ import annotations

import json
from typing import Any

import chatcodec
from bench.equivalence import anthropic_view, openai_view, stream_view
from bench.timing import Contender
from bench.workloads import ANTHROPIC_OPTIONS


def openai_to_anthropic(payload: dict[str, Any]) -> list[Contender]:
    """The whole conversion, then its two stages timed apart."""
    decoded = chatcodec.decode_request("openai-chat", payload)

    def convert() -> object:
        return chatcodec.convert_request(
            payload, source="openai-chat", target="anthropic", on_loss="ignore", options=ANTHROPIC_OPTIONS
        )

    def decode() -> object:
        return chatcodec.decode_request("openai-chat", payload)

    def encode() -> object:
        return chatcodec.encode_request("anthropic", decoded, on_loss="ignore", options=ANTHROPIC_OPTIONS)

    def view_decoded(request: Any) -> object:
        return anthropic_view(
            chatcodec.encode_request("anthropic", request, on_loss="ignore", options=ANTHROPIC_OPTIONS)
        )

    return [
        Contender(
            "chatcodec convert_request", convert, anthropic_view, "openai-chat dict -> anthropic dict, validated"
        ),
        Contender(
            "chatcodec decode_request (stage)",
            decode,
            view_decoded,
            "openai-chat dict -> ChatRequest; checked by encoding it",
        ),
        Contender(
            "chatcodec encode_request (stage)", encode, anthropic_view, "ChatRequest (prebuilt) -> anthropic dict"
        ),
    ]


def json_bytes(body: bytes, source: str, target: str, view: Any) -> Contender:
    """The whole conversion of a JSON body as bytes (as a server or the CLI reads it)."""

    options = ANTHROPIC_OPTIONS if target == "anthropic" else None  # the API version the floor's output is for

    def convert() -> object:
        return chatcodec.convert_request(body, source=source, target=target, on_loss="ignore", options=options)

    return Contender(CONVERT_JSON, convert, view, f"{source} JSON bytes -> {target} dict, validated")


CONVERT_JSON = "chatcodec convert_request (JSON bytes)"


def anthropic_to_openai(payload: dict[str, Any]) -> list[Contender]:
    def convert() -> object:
        return chatcodec.convert_request(payload, source="anthropic", target="openai-chat", on_loss="ignore")

    return [
        Contender("chatcodec convert_request", convert, openai_view, "anthropic dict -> openai-chat dict, validated")
    ]


def response_view(response: Any) -> object:
    """The stream view of a :class:`chatcodec.ChatResponse`."""
    message = response.message
    thinking = message.thinking
    usage = response.usage
    return stream_view(
        text=message.text,
        thinking=message.reasoning_text,
        signature=thinking[-1].signature if thinking else None,
        tool_calls=[(call.id, call.name, json.loads(call.arguments)) for call in message.tool_calls],
        finish=response.finish_reason.raw if response.finish_reason else None,
        usage=(usage.input_tokens, usage.output_tokens) if usage else (None, None),
    )


def accumulate(provider: str, events: list[dict[str, Any]]) -> list[Contender]:
    def run() -> object:
        return chatcodec.accumulate_stream(provider, events)

    note = f"parsed {provider} event dicts -> ChatResponse, validated"
    return [Contender("chatcodec accumulate_stream", run, response_view, note, scope="stream")]


def openai_to_responses(payload: dict[str, Any]) -> list[Contender]:
    """openai-chat -> openai-responses, whole and in its two stages."""
    from bench.equivalence import responses_view

    decoded = chatcodec.decode_request("openai-chat", payload)

    def convert() -> object:
        return chatcodec.convert_request(payload, source="openai-chat", target="openai-responses", on_loss="ignore")

    def encode() -> object:
        return chatcodec.encode_request("openai-responses", decoded, on_loss="ignore")

    return [
        Contender(
            "chatcodec convert_request", convert, responses_view, "openai-chat dict -> openai-responses dict, validated"
        ),
        Contender(
            "chatcodec encode_request (stage)",
            encode,
            responses_view,
            "ChatRequest (prebuilt) -> openai-responses dict",
        ),
    ]
