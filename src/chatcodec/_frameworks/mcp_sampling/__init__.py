"""The ``mcp-sampling`` format: the Model Context Protocol's sampling messages, a built-in
framework codec written on the public contract (``chatcodec``, ``chatcodec.contract``,
``chatcodec.codec_kit``), as the other agent protocols' (``a2a``, ``ag-ui``) are.

An MCP server asks its client to sample a model with ``sampling/createMessage``; the
request's ``params`` (``CreateMessageRequestParams``) and the client's answer
(``CreateMessageResult``) are this codec's request and response bodies; the whole JSON-RPC
message holding either (``{"jsonrpc": "2.0", "id": ..., "method": "sampling/createMessage",
"params": ...}``, ``{"jsonrpc": "2.0", "id": ..., "result": ...}``) is read too and written
back as it came (:mod:`.json_rpc`). ``chatcodec convert --from mcp-sampling --to anthropic``
hands a server's sampling request to a provider, and the provider's answer comes back as a
result.

The 2026-07-28 revision deprecates sampling (SEP-2577; it stays in the specification for at
least twelve months): a server then asks for a sample inside an ``InputRequiredResult``, whose
``inputRequests`` hold a ``sampling/createMessage`` request with the same
``CreateMessageRequestParams``. This codec does not unwrap that result: it reads the request's
``params``, so a caller hands it the ``params`` of the ``sampling/createMessage`` entry (the
same body as in 2025-11-25), and sends the answer back in the way the revision asks.

API documentation:

- Reference: https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
- Schema: https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts
- Changelog: https://modelcontextprotocol.io/specification/2025-11-25/changelog
- Sampling's deprecation: https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2577 (SEP-2577)

Modules, one job each (the folder contract of a built-in provider):

- ``markers``: the codec's name, its kit, its options and its spelling markers.
- ``capabilities``: what the wire can carry.
- ``wire``: the wire's shapes, keys spelled as the schema spells them.
- ``request`` / ``response``: the one reader and writer of each body.
- ``messages`` / ``parts``: sampling messages and content blocks.
- ``tools`` / ``settings``: tool definitions and ``toolChoice``; ``maxTokens``,
  ``temperature``, ``stopSequences``, ``metadata``.
- ``finish_reason``: ``stopReason`` <-> the canonical finish reason.
- ``usage``: the wire has no token counts.
- ``rules``: ``maxTokens`` is required.
- ``edge``: the JSON-RPC error object a refused sampling request answers with.
- ``json_rpc``: the JSON-RPC message around a body, read and kept.
- ``model_hint``: the first model hint as the canonical ``model``.

The law facts are ``chatcodec.testing._laws.built_in.mcp_sampling`` (``chatcodec check-codec
mcp-sampling``).
"""

SPEC_VERSION = "2025-11-25"
"""The MCP specification revision this codec reads and writes."""
