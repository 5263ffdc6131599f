"""The Anthropic Messages API codec (registry name ``"anthropic"``).

API documentation:

- Reference: https://platform.claude.com/docs/en/api/messages
- Streaming (server-sent events): https://platform.claude.com/docs/en/build-with-claude/streaming
- Versions and migration: https://platform.claude.com/docs/en/api/versioning ,
  https://platform.claude.com/docs/en/api/migration-2026-10-21
- SDK types (the tests' oracle): https://github.com/anthropics/anthropic-sdk-python/tree/main/src/anthropic/types

Load it through the registry (``chatcodec.get_codec("anthropic")``) or the top-level
functions; the Anthropic-specific helpers (Clacky parity, tool-id mapping) that have no place
in the provider-neutral API are in their modules (``convenience``, ``tool_ids``,
``request.tool_id_map``).

Modules (each a job of its own).

The contract's files as in ``_providers/_template``, each with the job its map gives:
``stream_framing``, ``markers``, ``capabilities``, ``edge``, ``wire``, ``request``,
``response``, ``messages``, ``origins``, ``parts``, ``tools``, ``settings``, ``finish_reason``,
``usage``, ``rules``, ``structure``, ``dialect``, ``stream_decode``, ``stream_encode``.

The contract's files this folder says more of:

- ``batch_rows``: where Messages bodies ride in batch files (Message Batches; Bedrock batch
  rows of a Claude model).

This provider's own:

- ``convenience``: the Clacky-style helpers an agent loop calls around the API
  (``build_request_body``, ``parse_response``, ...).
- ``encode_context``: what an encode carries beyond the shared context (unsigned thinking, tool
  names, cache breakpoints), and a written block's restored fields and cache marker.
- ``media``: the image and document sources Anthropic takes, and how a canonical source is
  written as one.
- ``servers``: the Anthropic-compatible servers (DeepSeek, Kimi, MiniMax, z.ai) a body can be
  written for, as data.
- ``stream_shapes``: the common stream events as one closed pydantic-core schema (the decoder's
  check of an event before the wire adapters).
- ``thinking``: canonical thinking parts to ``thinking`` and ``redacted_thinking`` blocks (which
  signatures are replayed).
- ``tool_ids``: tool-call ids Anthropic accepts, by a reversible, collision-free rewrite.
"""
