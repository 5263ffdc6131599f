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

Modules (each a job of its own; the contract's files as in ``_providers/_template``):

- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``markers``: this provider's name, its kit, its encoder options and the spelling markers it
  keeps in its bags.
- ``capabilities``: what the wire can carry, as data (``CAPABILITIES``), read by the shared
  rules, strict mode and the laws.
- ``edge``: what the API says on HTTP (``EDGE``): routes, upstream, stream framing, error
  shapes, detection marks.
- ``wire``: the one description of the wire: its shapes, keys spelled as the API spells them.
- ``request``: the one reader and the one writer of request bodies, over canonical data.
- ``response``: the one reader and the one writer of response bodies, over canonical data.
- ``messages``: the wire's message list <-> canonical messages.
- ``origins``: where each canonical message came from in the request read, for a
  conversion's loss paths (:mod:`chatcodec._providers.kit.origins`).
- ``parts``: content blocks <-> canonical content parts.
- ``tools``: tool definitions and tool choice, both ways.
- ``settings``: sampling, reasoning and output-format settings, both ways.
- ``finish_reason``: the wire's finish word <-> the canonical finish reason.
- ``usage``: token counts <-> canonical usage.
- ``rules``: what the target accepts today, by API version and model family (``RULES``, with
  sources).
- ``stream_decode``: wire stream events -> the shared stream builder (the one stream path).
- ``stream_encode``: canonical stream events -> wire stream events.

This provider's own:

- ``call_ids``: ids for tool calls that came without one, and the pairing of results with calls.
- ``media``: images, as bare base64 strings in a message's ``images`` list.
- ``timestamps``: ``created_at`` (RFC 3339 with nanoseconds and a zone) <-> the canonical
  ``created``.
"""
