"""litellm on the agent sessions: every request conversion it has between two of the five formats.

:data:`PAIRS` names, per pair, what litellm 1.106 itself runs (its converters sit in or
beside ``litellm_core_utils/prompt_templates/factory.py``; the request transforms are the
provider configs' ``map_openai_params`` and ``transform_request``, as ``completion`` calls
them); :data:`FOOTNOTES` says it in the report.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.anchors_litellm import _import, _leading_system

FOOTNOTES = [
    "litellm rows convert the full session with what litellm runs for the pair: Anthropic -> OpenAI Chat, its "
    "/v1/messages adapter (`translate_anthropic_to_openai`); OpenAI Chat -> Anthropic, Gemini and Bedrock, its "
    "*converter* (system prompt and messages only: `anthropic_messages_pt`, `_gemini_convert_messages_with_history`, "
    "`_bedrock_converse_messages_pt`, each with the provider's system-message step) and its *request transform* "
    "(`map_openai_params` on a fresh `optional_params`, then `transform_request`, or `transform_request_body` for "
    "Gemini, whose `map_openai_params` edits the tool schemas in place and so gets a deep copy of the settings); "
    "OpenAI Chat <-> Responses, its two Responses bridges. litellm's logger is set to `ERROR`: it logs a warning "
    "on every Bedrock conversion that joins a tool turn and a user turn.",
]


@dataclass(frozen=True)
class Anchor:
    """One litellm call converting one payload."""

    name: str
    call: Callable[[], object]
    note: str
    messages_only: bool = False
    """It writes the system prompt and messages only (no tools, no settings)."""


def _settings(payload: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key not in ("model", "messages")}


def _anthropic_to_openai(payload: dict[str, Any]) -> list[Anchor]:
    from litellm.llms.anthropic.pass_through.adapters.transformation import LiteLLMAnthropicMessagesAdapter

    adapter = LiteLLMAnthropicMessagesAdapter()
    note = "`translate_anthropic_to_openai`, its /v1/messages adapter"
    return [Anchor("litellm anthropic adapter", lambda: adapter.translate_anthropic_to_openai(payload)[0], note)]


def _openai_to_anthropic(payload: dict[str, Any]) -> list[Anchor]:
    from litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig

    config = AnthropicConfig()
    model, messages, settings = payload["model"], payload["messages"], _settings(payload)

    leading = _leading_system(messages)

    def converter() -> object:
        system = config.translate_system_message(messages=messages[:leading])
        turns = anthropic_messages_pt(messages[leading:], model=model, llm_provider="anthropic")
        return {"system": system, "messages": turns}

    def transform() -> object:
        optional = config.map_openai_params(
            non_default_params=dict(settings), optional_params={}, model=model, drop_params=False
        )
        return config.transform_request(
            model=model, messages=messages, optional_params=optional, litellm_params={}, headers={}
        )

    return [
        Anchor("litellm converter", converter, "system + messages only", messages_only=True),
        Anchor("litellm request transform", transform, "`map_openai_params` + `transform_request`"),
    ]


def _openai_to_gemini(payload: dict[str, Any]) -> list[Anchor]:
    from litellm.llms.gemini.chat.transformation import GoogleAIStudioGeminiConfig
    from litellm.llms.vertex_ai.gemini.transformation import (
        _gemini_convert_messages_with_history,
        transform_request_body,
        transform_system_message,
    )

    config = GoogleAIStudioGeminiConfig()
    model, messages, settings = payload["model"], payload["messages"], _settings(payload)

    def converter() -> object:
        system, rest = transform_system_message(True, list(messages))  # it pops the system messages
        return {"systemInstruction": system, "contents": _gemini_convert_messages_with_history(rest, model=model)}

    def transform() -> object:
        # its map_openai_params strips keys Gemini rejects from the tool schemas in place
        optional = config.map_openai_params(
            non_default_params=copy.deepcopy(settings), optional_params={}, model=model, drop_params=False
        )
        return transform_request_body(
            messages=list(messages),
            model=model,
            optional_params=optional,
            custom_llm_provider="gemini",
            litellm_params={},
            cached_content=None,
        )

    return [
        Anchor("litellm converter", converter, "system + messages only", messages_only=True),
        Anchor("litellm request transform", transform, "`map_openai_params` + `transform_request`"),
    ]


def _openai_to_bedrock(payload: dict[str, Any]) -> list[Anchor]:
    from litellm.litellm_core_utils.prompt_templates.factory import _bedrock_converse_messages_pt
    from litellm.llms.bedrock.chat.converse_transformation import AmazonConverseConfig

    config = AmazonConverseConfig()
    model, messages, settings = payload["model"], payload["messages"], _settings(payload)

    def converter() -> object:
        rest, system = config._transform_system_message(list(messages), model=model)
        turns = _bedrock_converse_messages_pt(rest, model=model, llm_provider="bedrock_converse")
        return {"system": system, "messages": turns}

    def transform() -> object:
        optional = config.map_openai_params(
            non_default_params=dict(settings), optional_params={}, model=model, drop_params=False
        )
        return config.transform_request(
            model=model, messages=list(messages), optional_params=optional, litellm_params={}, headers={}
        )

    return [
        Anchor("litellm converter", converter, "system + messages only", messages_only=True),
        Anchor("litellm request transform", transform, "`map_openai_params` + `transform_request`"),
    ]


def _openai_to_responses(payload: dict[str, Any]) -> list[Anchor]:
    from bench import anchors_litellm

    (bridge,) = anchors_litellm.openai_to_responses(payload)
    return [Anchor(bridge.name, bridge.call, bridge.note)]


def _responses_to_openai(payload: dict[str, Any]) -> list[Anchor]:
    from litellm.responses.litellm_completion_transformation.transformation import LiteLLMCompletionResponsesConfig

    settings = {key: value for key, value in payload.items() if key not in ("model", "input")}
    bridge = LiteLLMCompletionResponsesConfig.transform_responses_api_request_to_chat_completion_request

    def transform() -> object:
        return bridge(model=payload["model"], input=payload["input"], responses_api_request=dict(settings))

    return [Anchor("litellm Responses -> Chat bridge", transform, "Responses request -> chat request")]


PAIRS: dict[tuple[str, str], Callable[[dict[str, Any]], list[Anchor]]] = {
    ("anthropic", "openai-chat"): _anthropic_to_openai,
    ("openai-chat", "anthropic"): _openai_to_anthropic,
    ("openai-chat", "gemini"): _openai_to_gemini,
    ("openai-chat", "bedrock-converse"): _openai_to_bedrock,
    ("openai-chat", "openai-responses"): _openai_to_responses,
    ("openai-responses", "openai-chat"): _responses_to_openai,
}
"""The pairs litellm converts request to request, and how."""


def anchors(source: str, target: str, payload: dict[str, Any]) -> list[Anchor]:
    """litellm's conversions of ``payload``; ``ImportError`` when litellm is not installed."""
    _import()
    logging.getLogger("LiteLLM").setLevel(logging.ERROR)
    return PAIRS[(source, target)](payload)
