"""OpenAI Chat Completions (``/v1/chat/completions``), registered as ``openai-chat``.

API documentation:

- Reference: https://platform.openai.com/docs/api-reference/chat/create
- Streaming (chunk objects): https://platform.openai.com/docs/api-reference/chat-streaming
- Changelog: https://platform.openai.com/docs/changelog
- SDK types (the tests' oracle): https://github.com/openai/openai-python/tree/main/src/openai/types/chat

The lingua franca of LLM APIs: OpenAI itself and the compatible servers (DeepSeek,
OpenRouter, Groq, Mistral, vLLM, z.ai) speak it, each adding its own reasoning field.
The codec reads all of them and writes each back the way it came; see ``reasoning.py``
for the reasoning fields and ``stream.py`` for how tool-call fragments are keyed.
"""
