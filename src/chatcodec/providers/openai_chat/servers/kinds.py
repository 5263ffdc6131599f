"""The SDK kind names the servers' extension rows attach fields to (``known_fields.json``)."""

from __future__ import annotations

PROVIDER = "openai-chat"
"""The provider every row belongs to (the edge's own name)."""

REQUESTS = ("CompletionCreateParamsNonStreaming", "CompletionCreateParamsStreaming")
"""A request body, streamed or not."""
ANSWER_MESSAGES = ("ChatCompletionMessage", "ChoiceDelta")
"""An assistant message in an answer and in a stream chunk."""
SENT_MESSAGES = ("ChatCompletionAssistantMessageParam",)
"""An assistant message sent back in a request."""
MESSAGES = (*ANSWER_MESSAGES, *SENT_MESSAGES)
PARTS = (
    "ChatCompletionContentPartTextParam",
    "ChatCompletionContentPartImageParam",
    "ChatCompletionContentPartInputAudioParam",
    "File",
)
"""User content parts."""
TOOL_CALLS = (
    "ChatCompletionMessageFunctionToolCall",
    "ChatCompletionMessageFunctionToolCallParam",
    "ChoiceDeltaToolCall",
)
"""A function tool call, answered, sent back and streamed."""
