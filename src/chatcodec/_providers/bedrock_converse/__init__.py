"""The ``bedrock-converse`` codec: AWS Bedrock Converse and ConverseStream as JSON.

API documentation:

- Reference: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
- Streaming: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
- Guide: https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference.html
- Changes: https://docs.aws.amazon.com/bedrock/latest/userguide/doc-history.html
- Service model (the tests' oracle, botocore):
  https://github.com/boto/botocore/tree/develop/botocore/data/bedrock-runtime

Modules (what every Bedrock block body shares is in the AWS family, ``_providers/families/aws/``:
the block shapes, tool ids, turn alternation and tool results, the Runtime's errors and signing,
batch rows):

- ``wire``: Converse's own shapes (request, ``inferenceConfig``, usage, response, the stream's
  ``metadata``) over the family's blocks, and the closed schema of a request's common shapes.
- ``request``: the one reader and writer of a request body.
- ``response``: the one reader and writer of an answer.
- ``messages``: turns <-> canonical messages (the AWS family's turns: system turns,
  tool-result runs, merged turns).
- ``settings``: ``additionalModelRequestFields`` (Claude's thinking config) and
  ``outputConfig``.
- ``usage``: token counts (cache counts and their twins).
- ``stream_decode``: ConverseStream events -> the stream builder (the AWS family's decoder).
- ``stream_encode``: canonical events -> ConverseStream events (the AWS family's encoder).
- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``markers``: the name, the kit, the options, the markers (each classified), and ``ROLES``:
  the roles the AWS family plays for this folder (its ``stopReason`` table, its block reader
  and writer as ``parts``, its ``structure``, its ``origins`` of a request's messages).
- ``tools``: the family's tool config over this body.
- ``capabilities``: what the wire can carry.
- ``rules``: Claude's model rules on Bedrock, the sampling ranges.
- ``edge``: HTTP facts: routes, auth, token counting, detection.
- ``batch_rows``: Bedrock batch rows (the default body).
"""
