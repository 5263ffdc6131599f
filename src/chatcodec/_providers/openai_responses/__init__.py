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

Modules (each a job of its own).

The contract's files as in ``_providers/_template``, each with the job its map gives:
``stream_framing``, ``markers``, ``capabilities``, ``edge``, ``wire``, ``request``,
``response``, ``messages``, ``origins``, ``parts``, ``tools``, ``settings``, ``finish_reason``,
``usage``, ``rules``, ``structure``, ``stream_decode``, ``stream_encode``.

The contract's files this folder says more of:

- ``batch_rows``: where Responses bodies ride in batch files (OpenAI Batch rows).

This provider's own:

- ``agents_sdk``: the OpenAI Agents SDK's stored items sent on as OpenAI takes them (its
  placeholder ids and ``provider_data`` left out, reported).
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
