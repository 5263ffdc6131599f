"""The OpenAI Responses API codec (``POST /v1/responses``): requests, responses and streams.

API documentation:

- Reference: https://platform.openai.com/docs/api-reference/responses/create
- Streaming (semantic events): https://platform.openai.com/docs/api-reference/responses-streaming
- Migration from Chat Completions: https://platform.openai.com/docs/guides/migrate-to-responses
- Changelog: https://platform.openai.com/docs/changelog
- SDK types (the tests' oracle): https://github.com/openai/openai-python/tree/main/src/openai/types/responses
- Open Responses (the open specification of this API; a server's resource, :mod:`.server`):
  https://www.openresponses.org/specification

The registry builds its codec from this folder's modules (``ProviderCodec.from_package``) as
``openai-responses``.

Modules (each a job of its own; the contract's files as in ``_providers/_template``):

- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``markers``: this provider's name, its kit, its encoder options and the spelling markers it
  keeps in its bags.
- ``capabilities``: what the wire can carry, as data (``CAPABILITIES``), read by the shared
  rules, strict mode and the laws.
- ``edge``: what the API says on HTTP (``EDGE``): routes, upstream, stream framing, error
  shapes, detection marks.
- ``batch_rows``: where Responses bodies ride in batch files (OpenAI Batch rows).
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
- ``stream_decode``: wire stream events -> the shared stream builder (the one stream path).
- ``stream_encode``: canonical stream events -> wire stream events.

This provider's own:

- ``carried_reasoning``: another provider's signed reasoning, carried to a Responses client in
  ``encrypted_content``.
- ``logprobs``: the answer's token log probabilities <-> its ``output_text`` parts'
  ``logprobs``.
- ``item_reading``: the assistant side of a conversation read: output items -> one canonical
  assistant turn.
- ``items``: the assistant side written: one canonical assistant turn -> output items, with
  the API's rules.
- ``server``: what a server answering the Responses API owes its callers: the Open Responses
  ``ResponseResource``.
- ``stream_items``: the events that show one output item being generated (``added``, deltas,
  ``done``).
"""
