"""A chatcodec codec for Cohere's Chat API v2 (``POST /v2/chat``), written outside chatcodec:
it imports only ``chatcodec``, ``chatcodec.contract`` and ``chatcodec.codec_kit`` (and
``chatcodec.testing`` for its laws), as any third-party codec would.

A request holds ``messages`` in four roles: ``system``, ``user`` (text and ``image_url``
content), ``assistant`` (text and ``thinking`` content, a ``tool_plan``, ``tool_calls`` whose
``arguments`` are JSON text, ``citations``) and ``tool`` (one call's result, its content text
or ``document`` blocks). The response is the one assistant ``message``, its ``finish_reason``
(``COMPLETE``, ``TOOL_CALL``...) and ``usage`` (billed units and tokens). Installing the
distribution registers the codec under the name ``cohere-chat`` (its ``chatcodec.codecs``
entry point), so ``chatcodec convert --from cohere-chat --to anthropic`` works in any process.

API documentation:

- Reference: https://docs.cohere.com/reference/chat
- Tool use: https://docs.cohere.com/v2/docs/tool-use-overview
- Citations: https://docs.cohere.com/v2/docs/citations
- Errors: https://docs.cohere.com/reference/errors

Modules, one job each (the folder contract of a built-in provider):

- ``codec``: the codec object the entry point names.
- ``markers``: the codec's name, its kit, its options and its spelling markers.
- ``capabilities``: what the wire can carry.
- ``wire``: the wire's shapes, keys spelled as the API spells them.
- ``request`` / ``response``: the one reader and writer of each body.
- ``messages`` / ``parts``: the four roles' messages and their content blocks.
- ``tools`` / ``settings``: tool definitions and ``tool_choice``; ``max_tokens``,
  ``temperature``, ``p``, ``k``, ``stop_sequences``, ``seed``, the penalties.
- ``finish_reason``: ``finish_reason`` <-> the canonical finish reason.
- ``usage``: ``usage.tokens`` <-> the canonical counts, billed units kept.
- ``rules``: ``model`` is required.
- ``edge``: the error body, and the upstream ``chatcodec serve`` calls.
- ``laws``: the facts the provider laws need (``chatcodec check-codec cohere-chat``).
"""

API_VERSION = "v2"
"""The Chat API version this codec reads and writes."""
