"""DeepSeek's API (``https://api.deepseek.com``).

- Reasoning comes back as ``reasoning_content``; in thinking mode it must be sent back on
  every assistant message that made tool calls, in all later requests (earlier turns
  included, not only the current turn's loop), or DeepSeek answers 400 "The
  `reasoning_content` in the thinking mode must be passed back to the API"
  (https://api-docs.deepseek.com/guides/thinking_mode, "Tool calls"; the zh-cn page:
  "在后续所有 user 交互轮次中必须回传"; opencode#24722). Kimi has the rule for the current
  turn. A step with no reasoning to send (a history from a format that kept none) gets an
  empty one, reported. ``deepseek-chat`` (non-thinking mode) and a body with
  ``thinking: {"type": "disabled"}`` are left alone.
- The reference lists its fields; the token limit is ``max_tokens``
  (https://api-docs.deepseek.com/api/create-chat-completion). Content is text, except for
  the vision model (``deepseek-v4-flash-vision-exp``, 2026-08; ``deepseek-flash`` since
  2026-09-10, the old name kept as an alias: https://api-docs.deepseek.com/guides/vision),
  which takes ``image_url`` parts and files uploaded to its Files API as
  ``{"type": "file", "file_id": ...}`` parts, the id beside the type, not nested in
  ``file`` as OpenAI spells it (Vercel's ``@ai-sdk/deepseek``: ``DeepSeekContentPartFile``
  in ``deepseek-chat-api-types.ts``; https://api-docs.deepseek.com/guides/files_api): an
  image to any other DeepSeek model is dropped, a rule loss.
- ``reasoning_effort`` is ``high`` or ``max`` (thinking mode guide).
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import ModelParts, Refusal, Server, ServerCall, ServerRule
from chatcodec._providers.openai_chat.servers.turns import reasoning_back_in_tool_loop
from chatcodec.contract import Extension

DOCS = "https://api-docs.deepseek.com/api/create-chat-completion"
THINKING = "https://api-docs.deepseek.com/guides/thinking_mode"
_REASONING = "https://api-docs.deepseek.com/guides/reasoning_model"
_PREFIX = "https://api-docs.deepseek.com/guides/chat_prefix_completion"
_CACHE = "https://api-docs.deepseek.com/guides/kv_cache"
_VISION = (
    "https://api-docs.deepseek.com/guides/vision (deepseek-flash, and the alias deepseek-v4-flash-vision-exp, "
    "take images: image_url parts and Files API ids)"
)
_FILE_ID = (
    "https://api-docs.deepseek.com/guides/files_api (a file is referenced by file_id); Vercel's @ai-sdk/deepseek "
    "DeepSeekContentPartFile: {type: 'file', file_id}"
)

FIELDS = frozenset(
    {
        "model",
        "messages",
        "thinking",
        "frequency_penalty",
        "max_tokens",
        "presence_penalty",
        "response_format",
        "stop",
        "stream",
        "stream_options",
        "temperature",
        "top_p",
        "tools",
        "tool_choice",
        "logprobs",
        "top_logprobs",
        "reasoning_effort",
    }
)
"""The request fields DeepSeek's reference lists."""


def _thinking(call: ServerCall) -> bool:
    """Thinking mode is on by default; ``deepseek-chat`` is the non-thinking mode."""
    return call.model != "deepseek-chat"


SERVER = Server(
    "deepseek",
    "DeepSeek",
    DOCS,
    hosts=("api.deepseek.com",),
    models=(r"deepseek-(chat|reasoner|flash|v\d[\w.-]*)",),
    fields=FIELDS,
    refuses=(Refusal("max_completion_tokens", DOCS, instead="max_tokens"),),
    extensions=(
        *(Extension(kinds.PROVIDER, kind, ("thinking",), THINKING) for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("reasoning_content",), _REASONING) for kind in kinds.MESSAGES),
        Extension(kinds.PROVIDER, "ChatCompletionAssistantMessageParam", ("prefix",), _PREFIX),
        Extension(
            kinds.PROVIDER, "DeepSeekFilePart", ("type", "file_id"), _FILE_ID, arm_of=kinds.USER_CONTENT, tag="file"
        ),
        Extension(kinds.PROVIDER, "CompletionUsage", ("prompt_cache_hit_tokens", "prompt_cache_miss_tokens"), _CACHE),
    ),
    reasoning_field="reasoning_content",
    reasoning_source=THINKING,
    efforts=("high", "max"),
    efforts_source=THINKING,
    parts=frozenset({"text"}),
    parts_source=DOCS + " (message content is text)",
    model_parts=(
        ModelParts(r"deepseek-(flash|([\w.-]*-)?vision[\w.-]*)", frozenset({"text", "image_url", "file"}), _VISION),
    ),
    image_files=True,
    rules=(
        ServerRule(
            "reasoning_in_tool_loop",
            "each tool-call step of every turn carries `reasoning_content` (empty when none was kept, reported)",
            THINKING,
            reasoning_back_in_tool_loop(THINKING, _thinking, every_turn=True),
        ),
    ),
    semconv_name="deepseek",
    # sampling_ranges: OpenAI's, as its reference gives them (temperature <= 2; top_p <= 1; frequency_penalty,
    # presence_penalty >= -2 and <= 2: https://api-docs.deepseek.com/api/create-chat-completion)
)
"""DeepSeek."""
