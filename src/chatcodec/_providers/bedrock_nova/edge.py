"""What Nova's InvokeModel says on HTTP: ``POST /model/{modelId}/invoke``.

- Routes: ``{endpoint}/model/{modelId}/invoke``, or ``/invoke-with-response-stream`` for a
  stream; the model is in the path, not the body
  (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html).
  chatcodec neither offers this API to callers nor calls it (no front, no upstream).
- Stream: AWS event-stream messages, each a ``chunk`` whose ``bytes`` are the base64 of one
  JSON event (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html);
  the decoder takes the chunk or the event inside it (``stream_decode.py``).
- Errors: the Bedrock Runtime's, shared with Converse (``families/aws/runtime.py``).
"""

from __future__ import annotations

from chatcodec._providers.bedrock_nova.markers import PROVIDER
from chatcodec._providers.bedrock_nova.stream_framing import FRAMING
from chatcodec._providers.families.aws.runtime import (
    ERROR_READS,
    ERROR_TYPES,
    read_error,
    write_error,
    write_error_event,
)
from chatcodec.contract import Detection, Edge, ErrorShape

EDGE = Edge(
    PROVIDER,
    response_name="a Nova response",
    framing=FRAMING,
    errors=ErrorShape(
        ERROR_TYPES,
        "InternalServerException",
        write_error,
        read_error,
        write_event=write_error_event,
        type_header="x-amzn-ErrorType",
        reads=ERROR_READS,
    ),
    detection=Detection(
        package=__package__,
        roles=("user", "assistant"),
        shapes=("output:object", "part:untyped"),
    ),
)
"""The Nova edge."""
