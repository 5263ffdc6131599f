"""litellm: its OpenAI -> Anthropic converter and request transform, its Anthropic -> OpenAI
adapter, and its stream chunk builder.

litellm is imported only when a contender is built, with ``LITELLM_LOCAL_MODEL_COST_MAP``
set: otherwise the import tries to download the model price map (three retries, several
seconds, and network this bench must not need).
"""

from __future__ import annotations

import os
from typing import Any

from bench.equivalence import anthropic_view, openai_completion_view, openai_view
from bench.timing import Contender

FOOTNOTES = [
    "litellm converter = `AnthropicConfig.translate_system_message` on the leading system messages plus "
    "`anthropic_messages_pt` on the rest (what `transform_request` calls); request transform = "
    "`AnthropicConfig.map_openai_params` (tools, tool_choice, max tokens, temperature) then `transform_request`, "
    "on a fresh `optional_params` each call. litellm drops `reasoning_content` without `thinking_blocks`.",
]


def _import() -> None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm  # noqa: F401  (the import itself is the check that litellm is installed)


def _leading_system(messages: list[dict[str, Any]]) -> int:
    count = 0
    while count < len(messages) and messages[count]["role"] == "system":
        count += 1
    return count


def openai_to_anthropic(payload: dict[str, Any]) -> list[Contender]:
    _import()
    from litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig

    config = AnthropicConfig()
    model = payload["model"]
    messages = payload["messages"]
    leading = _leading_system(messages)
    settings = {key: value for key, value in payload.items() if key not in ("model", "messages")}

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
        Contender(
            "litellm converter",
            converter,
            lambda result: anthropic_view(result, "messages"),
            "system + messages only",
            scope="messages",
        ),
        Contender("litellm request transform", transform, anthropic_view),
    ]


def anthropic_to_openai(payload: dict[str, Any]) -> list[Contender]:
    _import()
    from litellm.llms.anthropic.pass_through.adapters.transformation import LiteLLMAnthropicMessagesAdapter

    adapter = LiteLLMAnthropicMessagesAdapter()

    def translate() -> object:
        return adapter.translate_anthropic_to_openai(payload)[0]

    note = "`LiteLLMAnthropicMessagesAdapter.translate_anthropic_to_openai` (its /v1/messages adapter)"
    return [Contender("litellm anthropic adapter", translate, openai_view, note)]


def accumulate_openai(chunks: list[dict[str, Any]]) -> list[Contender]:
    _import()
    import litellm
    from litellm.types.utils import ModelResponseStream

    objects = [ModelResponseStream(**chunk) for chunk in chunks]

    def build() -> object:
        return litellm.stream_chunk_builder(objects)

    def view(response: Any) -> object:
        return openai_completion_view(response.model_dump())

    note = "`stream_chunk_builder` on `ModelResponseStream` objects built beforehand (what its stream yields)"
    return [Contender("litellm stream_chunk_builder", build, view, note, scope="stream")]


RESPONSES_FOOTNOTES = [
    "litellm Responses bridge = `LiteLLMResponsesTransformationHandler.transform_request` "
    "(`litellm/completion_extras/litellm_responses_transformation/`), what `litellm.completion` runs for a model "
    "served only by the Responses API, on a fresh `optional_params` each call (its `litellm_logging_obj` is a "
    "stand-in, its litellm-only keys are left out of the comparison). It sends the system prompt as `instructions`.",
]


def openai_to_responses(payload: dict[str, Any]) -> list[Contender]:
    _import()
    from types import SimpleNamespace

    from litellm.completion_extras.litellm_responses_transformation.transformation import (
        LiteLLMResponsesTransformationHandler,
    )

    from bench.equivalence import responses_view

    handler = LiteLLMResponsesTransformationHandler()
    settings = {key: value for key, value in payload.items() if key not in ("model", "messages")}

    def transform() -> object:
        return handler.transform_request(
            model=payload["model"],
            messages=payload["messages"],
            optional_params=dict(settings),
            litellm_params={},
            headers={},
            litellm_logging_obj=SimpleNamespace(),
        )

    return [Contender("litellm Responses bridge", transform, responses_view, "chat request -> Responses request")]
