"""The OpenAI Responses API codec (``POST /v1/responses``): requests, responses and streams.

The registry loads :data:`chatcodec.providers.openai_responses.codec.CODEC` as ``openai-responses``.
"""
