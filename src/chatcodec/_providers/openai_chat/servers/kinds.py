"""The SDK kind names the servers' extension rows attach fields to (``known_fields.json``)."""

from __future__ import annotations

from chatcodec.contract import Extension

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
USER_CONTENT = "ChatCompletionUserMessageParam.content"
"""The union of a user message's content parts."""
PART_ARMS = {
    "video_url": Extension(
        PROVIDER,
        "VideoURLPart",
        ("type", "video_url"),
        "https://docs.vllm.ai/en/latest/features/multimodal_inputs.html",
        arm_of=USER_CONTENT,
        tag="video_url",
    ),
    "audio_url": Extension(
        PROVIDER,
        "AudioURLPart",
        ("type", "audio_url"),
        "https://docs.together.ai/docs/audio-overview",
        arm_of=USER_CONTENT,
        tag="audio_url",
    ),
}
"""User content parts the SDK types have no arm for, by the ``type`` a server's ``parts``
(or a model row's) names: strict reading accepts one for a server that takes it."""
