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

Modules (each a job of its own; the contract's files as in ``_providers/_template``):

- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``markers``: this provider's name, its kit, its encoder options and the spelling markers it
  keeps in its bags.
- ``capabilities``: what the wire can carry, as data (``CAPABILITIES``), read by the shared
  rules, strict mode and the laws.
- ``edge``: what the API says on HTTP (``EDGE``): routes, upstream, stream framing, error
  shapes, detection marks.
- ``batch_rows``: where Messages bodies ride in batch files (Message Batches; Bedrock batch
  rows of a Claude model).
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
- ``structure``: what strict mode's structural rules read of a request (its turns, token limit,
  calls and results).
- ``dialect``: what the dialect readers (``chatcodec._dialects``) read of this shape outside a
  request body.
- ``stream_decode``: wire stream events -> the shared stream builder (the one stream path).
- ``stream_encode``: canonical stream events -> wire stream events.
- ``stream_shapes``: the common stream events as one closed pydantic-core schema (the decoder's
  check of an event before the wire adapters).

This provider's own:

- ``convenience``: the Clacky-style helpers an agent loop calls around the API
  (``build_request_body``, ``parse_response``, ...).
- ``encode_context``: what an encode carries beyond the shared context (unsigned thinking, tool
  names, cache breakpoints), and a written block's restored fields and cache marker.
- ``media``: the image and document sources Anthropic takes, and how a canonical source is
  written as one.
- ``servers``: the Anthropic-compatible servers (DeepSeek, Kimi, MiniMax, z.ai) a body can be
  written for, as data.
- ``thinking``: canonical thinking parts to ``thinking`` and ``redacted_thinking`` blocks (which
  signatures are replayed).
- ``tool_ids``: tool-call ids Anthropic accepts, by a reversible, collision-free rewrite.
"""
