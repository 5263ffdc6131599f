"""Fields that compatible servers document beyond the official SDK types, kept by hand.

Strict decoding (:mod:`chatcodec.strict`) refuses a field the provider's published API
does not define; the generated ``providers/<name>/known_fields.json`` files hold what
the SDKs define. The servers chatcodec also reads (DeepSeek, Kimi, OpenRouter, Z.ai,
vLLM, Vertex AI, ...) speak those formats with documented additions, and a request or
answer using them is not a mistake. Each row names where the addition is documented; a
field listed here is read as free-form (strict mode does not look inside it).

A row's kind is a kind name of the provider's ``known_fields.json``, or a pattern
(``fnmatch``: ``*`` for every kind, ``Response*DeltaEvent``). A row sourced
"recorded" was seen in a real answer in the repository's fixtures, with no document
naming it yet (servers add answer fields before their references list them).

A row with an ``api_version`` holds fields of an older API version the provider still
serves, which the SDK the table was generated from no longer types: strict decoding
accepts the fields of every API version the provider documents, since a gateway cannot
tell which version its client speaks from the body alone (Anthropic's comes in the
``anthropic-version`` header).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Extension:
    """One documented field beyond the SDK types."""

    provider: str
    kind: str
    fields: tuple[str, ...]
    source: str
    api_version: str = ""
    """The API version whose fields these are, when the generated table's SDK targets a
    later one that removed them (``""``: an addition, not a version difference)."""


_DEEPSEEK = "https://api-docs.deepseek.com/guides/reasoning_model"
_KIMI = "https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model"
_OPENROUTER_REASONING = "https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks"
_OPENROUTER_CACHE = "https://openrouter.ai/docs/features/prompt-caching#anthropic-claude"
_OPENROUTER_REQUEST = "https://openrouter.ai/docs/api-reference/overview#request-body"
_OPENROUTER_RESPONSE = "https://openrouter.ai/docs/api-reference/overview#responses"
_ZAI = "https://docs.z.ai/guides/capabilities/thinking"
_VLLM = "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html#extra-parameters"
_VLLM_RESPONSE = "https://docs.vllm.ai/en/latest/api/vllm/entrypoints/openai/protocol.html"
_OPENAI_STREAM_ERROR = "https://platform.openai.com/docs/guides/error-codes"
_VERTEX = "https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.endpoints/generateContent"
_VERTEX_LABELS = "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentRequest"
_GEMINI_REST = "https://ai.google.dev/api/generate-content#request-body"
_PROTO_JSON = "https://protobuf.dev/programming-guides/json/#json-options"
_LITELLM = "https://docs.litellm.ai/docs/reasoning_content"
_DEEPSEEK_CACHE = "https://api-docs.deepseek.com/guides/kv_cache"
_GROQ = "https://console.groq.com/docs/api-reference#chat-create"
_RESPONSES_OBJECT = "https://platform.openai.com/docs/api-reference/responses/object"
_RESPONSES_OBFUSCATION = "https://platform.openai.com/docs/api-reference/responses-streaming"
_RECORDED = "recorded, no documentation found: tests/fixtures/"
_GEMINI_OPENAI = "https://ai.google.dev/gemini-api/docs/thought-signatures (OpenAI compatibility: extra_content)"
_ANTHROPIC_VERSIONS = (
    "https://platform.claude.com/docs/en/api/versioning ; https://platform.claude.com/docs/en/api/migration-2026-10-21"
)
_AWS_EVENT_STREAM = "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html"

_CHAT_MESSAGES = ("ChatCompletionMessage", "ChatCompletionAssistantMessageParam", "ChoiceDelta")
_CHAT_PARTS = (
    "ChatCompletionContentPartTextParam",
    "ChatCompletionContentPartImageParam",
    "ChatCompletionContentPartInputAudioParam",
    "File",
)

EXTENSIONS: tuple[Extension, ...] = (
    # --- OpenAI Chat Completions, as the compatible servers speak it ---
    *(Extension("openai-chat", kind, ("reasoning_content",), _DEEPSEEK) for kind in _CHAT_MESSAGES),
    *(Extension("openai-chat", kind, ("reasoning_content",), _KIMI) for kind in _CHAT_MESSAGES),
    *(
        Extension("openai-chat", kind, ("reasoning", "reasoning_details"), _OPENROUTER_REASONING)
        for kind in _CHAT_MESSAGES
    ),
    *(Extension("openai-chat", kind, ("cache_control",), _OPENROUTER_CACHE) for kind in _CHAT_PARTS),
    *(
        Extension("openai-chat", kind, ("provider_specific_fields", "thinking_blocks", "reasoning_content"), _LITELLM)
        for kind in _CHAT_MESSAGES
    ),
    Extension("openai-chat", "ChatCompletionSystemMessageParam", ("cache_control",), _OPENROUTER_CACHE),
    *(
        Extension("openai-chat", kind, ("extra_content",), _GEMINI_OPENAI)
        for kind in (
            "ChatCompletionMessageFunctionToolCall",
            "ChatCompletionMessageFunctionToolCallParam",
            "ChoiceDeltaToolCall",
        )
    ),
    Extension("openai-chat", "ChatCompletionFunctionToolParam", ("cache_control",), _OPENROUTER_CACHE),
    Extension(
        "openai-chat",
        "CompletionCreateParamsNonStreaming",
        ("reasoning", "provider", "transforms", "models", "route", "usage", "plugins"),
        _OPENROUTER_REQUEST,
    ),
    Extension(
        "openai-chat",
        "CompletionCreateParamsStreaming",
        ("reasoning", "provider", "transforms", "models", "route", "usage", "plugins"),
        _OPENROUTER_REQUEST,
    ),
    Extension("openai-chat", "CompletionCreateParamsNonStreaming", ("thinking",), _ZAI),
    Extension("openai-chat", "CompletionCreateParamsStreaming", ("thinking",), _ZAI),
    *(
        Extension(
            "openai-chat",
            kind,
            (
                "top_k",
                "min_p",
                "repetition_penalty",
                "length_penalty",
                "min_tokens",
                "best_of",
                "use_beam_search",
                "ignore_eos",
                "skip_special_tokens",
                "spaces_between_special_tokens",
                "stop_token_ids",
                "include_stop_str_in_output",
                "chat_template",
                "chat_template_kwargs",
                "add_generation_prompt",
                "continue_final_message",
                "guided_json",
                "guided_regex",
                "guided_choice",
                "guided_grammar",
                "structured_outputs",
                "priority",
                "request_id",
            ),
            _VLLM,
        )
        for kind in ("CompletionCreateParamsNonStreaming", "CompletionCreateParamsStreaming")
    ),
    Extension("openai-chat", "ChatCompletion", ("provider", "prompt_logprobs", "kv_transfer_params"), _VLLM_RESPONSE),
    Extension("openai-chat", "ChatCompletionChunk", ("provider", "error"), _OPENROUTER_RESPONSE),
    Extension("openai-chat", "ChatCompletionChunk", ("error",), _OPENAI_STREAM_ERROR),
    Extension("openai-chat", "*Choice", ("stop_reason", "native_finish_reason", "error"), _VLLM_RESPONSE),
    Extension("openai-chat", "CompletionUsage", ("cost", "is_byok", "cost_details"), _OPENROUTER_RESPONSE),
    Extension(
        "openai-chat", "CompletionUsage", ("prompt_cache_hit_tokens", "prompt_cache_miss_tokens"), _DEEPSEEK_CACHE
    ),
    Extension("openai-chat", "CompletionUsage", ("queue_time", "prompt_time", "completion_time", "total_time"), _GROQ),
    Extension("openai-chat", "ChatCompletionChunk", ("x_groq",), _GROQ),
    Extension(
        "openai-chat",
        "ChoiceDelta",
        ("channel",),
        _RECORDED + "openai-chat/stream/groq_reasoning_channel_tool_call.sse",
    ),
    Extension("openai-chat", "PromptTokensDetails", ("video_tokens", "image_tokens"), _OPENROUTER_RESPONSE),
    Extension("openai-chat", "CompletionTokensDetails", ("image_tokens",), _OPENROUTER_RESPONSE),
    # --- OpenAI Responses: the response object as the API reference lists it, beyond the SDK ---
    Extension(
        "openai-responses",
        "Response",
        ("store", "billing", "presence_penalty", "frequency_penalty", "content_filters"),
        _RESPONSES_OBJECT,
    ),
    Extension("openai-responses", "Response*DeltaEvent", ("obfuscation",), _RESPONSES_OBFUSCATION),
    Extension(
        "openai-responses",
        "WebSearchTool",
        ("return_token_budget", "search_content_types"),
        _RECORDED + "openai-responses/response/web_search_call_url_citation.json",
    ),
    # --- Anthropic: API version 2023-06-01, which anthropic 2.12 (targeting 2026-10-21) no longer types ---
    # 2026-10-21 removed the sampling parameters (400 "temperature: Extra inputs are not
    # permitted"); 2023-06-01 keeps them, and Claude Code and every older SDK send that version.
    *(
        Extension("anthropic", kind, ("temperature", "top_p", "top_k"), _ANTHROPIC_VERSIONS, api_version="2023-06-01")
        for kind in ("MessageCreateParamsNonStreaming", "MessageCreateParamsStreaming")
    ),
    # --- Anthropic: answer fields newer than the SDK ---
    Extension(
        "anthropic",
        "CodeExecutionResultBlock",
        ("abort_reason",),
        _RECORDED + "anthropic/response/server_tool_code_execution_result.json",
    ),
    Extension(
        "anthropic",
        "RefusalStopDetails",
        ("recommended_model",),
        _RECORDED + "anthropic/response/refusal_stop_details.json",
    ),
    # --- Gemini: Vertex AI's additions, and proto3 JSON's two spellings of every field ---
    Extension("gemini", "GenerateContentRequest", ("labels", "model"), _VERTEX_LABELS),
    Extension(
        "gemini",
        "GenerateContentRequest",
        (
            "system_instruction",
            "tool_config",
            "safety_settings",
            "generation_config",
            "cached_content",
        ),
        _PROTO_JSON,
    ),
    Extension("gemini", "GenerateContentRequest", ("model",), _GEMINI_REST),
    Extension("gemini", "GenerateContentResponse", ("error",), _VERTEX),
    Extension(
        "gemini",
        "GenerateContentResponseUsageMetadata",
        ("serviceTier",),
        _RECORDED + "gemini/response/function_call_thought_signature.json",
    ),
    # --- Bedrock: the event stream's padding member on every event; usage beyond botocore ---
    Extension("bedrock-converse", "*", ("p",), _AWS_EVENT_STREAM),
    Extension(
        "bedrock-converse",
        "TokenUsage",
        ("serverToolUsage", "cacheReadInputTokenCount", "cacheWriteInputTokenCount"),
        _RECORDED + "bedrock-converse/response/cache_read_usage_cache_details.json",
    ),
)
"""Every documented extension strict decoding accepts, with its source."""


def extension_fields(provider: str, kinds: Iterable[str]) -> dict[str, frozenset[str]]:
    """Kind name -> the extension fields a ``provider`` object of that kind may hold."""
    rows = [row for row in EXTENSIONS if row.provider == provider]
    found: dict[str, frozenset[str]] = {}
    for kind in kinds:
        fields = frozenset(field for row in rows if fnmatch.fnmatchcase(kind, row.kind) for field in row.fields)
        if fields:
            found[kind] = fields
    return found
