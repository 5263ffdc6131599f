"""The OpenAI Responses API codec (``POST /v1/responses``): requests, responses and streams.

API documentation:

- Reference: https://platform.openai.com/docs/api-reference/responses/create
- Streaming (semantic events): https://platform.openai.com/docs/api-reference/responses-streaming
- Migration from Chat Completions: https://platform.openai.com/docs/guides/migrate-to-responses
- Changelog: https://platform.openai.com/docs/changelog
- SDK types (the tests' oracle): https://github.com/openai/openai-python/tree/main/src/openai/types/responses
- Open Responses (the open specification of this API; a server's resource, :mod:`.server`):
  https://www.openresponses.org/specification

The registry loads :data:`chatcodec.providers.openai_responses.codec.CODEC` as ``openai-responses``.
"""
