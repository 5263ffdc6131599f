"""The Ollama codec (registry name ``"ollama"``): Ollama's native chat API, ``POST /api/chat``
(requests, responses and JSON-lines streams), not its OpenAI-compatible ``/v1`` routes.

API documentation:

- Reference: https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
  and its OpenAPI description, https://github.com/ollama/ollama/blob/main/docs/openapi.yaml
- Streaming (``application/x-ndjson``, one JSON object per line, errors as
  ``{"error": ...}`` lines): https://docs.ollama.com/api/streaming ,
  https://docs.ollama.com/api/errors
- Thinking (``think``: a boolean or ``"low"`` / ``"medium"`` / ``"high"`` / ``"max"``):
  https://docs.ollama.com/capabilities/thinking
- Tool calling (arguments as a JSON object; results as ``role: "tool"`` with
  ``tool_name``): https://docs.ollama.com/capabilities/tool-calling
- The server's Go types: https://github.com/ollama/ollama/blob/main/api/types.go
  (``ChatRequest``, ``Message``, ``ToolCall``, ``ChatResponse``, ``Metrics``)
- Changelog (release notes, API changes such as tool-call ids and ``think`` levels):
  https://github.com/ollama/ollama/releases
- SDK types (the tests' oracle): https://github.com/ollama/ollama-python/blob/main/ollama/_types.py

Load it through the registry (``chatcodec.get_codec("ollama")``) or the top-level
functions.

Modules (each a job of its own).

The contract's files as in ``_providers/_template``, each with the job its map gives:
``stream_framing``, ``markers``, ``capabilities``, ``edge``, ``wire``, ``request``,
``response``, ``messages``, ``origins``, ``parts``, ``tools``, ``settings``, ``finish_reason``,
``usage``, ``rules``, ``stream_decode``, ``stream_encode``.

This provider's own:

- ``call_ids``: ids for tool calls that came without one, and the pairing of results with calls.
- ``media``: images, as bare base64 strings in a message's ``images`` list.
- ``timestamps``: ``created_at`` (RFC 3339 with nanoseconds and a zone) <-> the canonical
  ``created``.
"""
