"""Amazon Nova's native InvokeModel body (``schemaVersion: "messages-v1"``), registered as
``bedrock-nova``: the Nova understanding models (Micro, Lite, Pro, Premier, Nova 2 Lite)
called with ``POST /model/{modelId}/invoke`` and ``/invoke-with-response-stream``.

API documentation:

- Reference: https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html
- Streaming: https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-invoke-api.html
- Changelog: https://docs.aws.amazon.com/nova/latest/userguide/doc-history.html
- Invoke API (version 1): https://docs.aws.amazon.com/nova/latest/userguide/using-invoke-api.html
- Tool use: https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-tools.html
- Runtime operations: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html

Nova's body is Bedrock's block wire (the Converse API's content blocks) with its own
top-level settings, so this folder holds only what is Nova's and takes the rest from the
AWS family (``_providers/families/aws/``: the block shapes, tool ids, turn alternation,
the Runtime's errors, the batch rows' layout). botocore has no model of the body
(InvokeModel's ``body`` is a blob): the shapes follow the user guide.

Modules:

- ``wire``: the body's own shapes (request, ``inferenceConfig`` in both spellings, response,
  usage, stream ``metadata``) over the family's blocks.
- ``request``: the one reader and writer of a request body (system, messages, settings, tools).
- ``response``: the one reader and writer of an answer (``output.message``, ``stopReason``,
  ``usage``).
- ``messages``: turns <-> canonical messages (the AWS family's turns, over Nova's body: no
  system turns, no cache ttl).
- ``settings``: ``inferenceConfig`` (its two spellings) and ``reasoningConfig``.
- ``usage``: token counts (the cache counts beside the input).
- ``stream_decode``: InvokeModelWithResponseStream chunks -> the stream builder (the AWS
  family's decoder, with the chunk framing).
- ``stream_encode``: canonical events -> the chunks' JSON events (the AWS family's encoder).
- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``markers``: the name, the kit, the options, the markers (each classified), and ``ROLES``:
  the roles the AWS family plays for this folder (its ``stopReason`` table, its block reader
  and writer as ``parts``, its ``structure``, its ``origins`` of a request's messages).
- ``tools``: the family's tool config over this body.
- ``capabilities``: what the body can carry.
- ``rules``: the schema version, the sampling ranges, and the Nova models' rules (Micro text
  only, media counts and sizes, reasoning on Nova 2) over the family's model table
  (``families/aws/nova_models.py``), which Converse applies to a Nova model id too.
- ``edge``: HTTP facts: routes, event-stream framing, the Runtime's errors.
- ``batch_rows``: Bedrock batch rows (``--from bedrock-batch:bedrock-nova``).
"""
