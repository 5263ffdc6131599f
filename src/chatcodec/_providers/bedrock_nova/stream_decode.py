"""Decoding InvokeModelWithResponseStream events for Nova: the AWS family's stream decoder
(``families/aws/stream_decode.py``) over Nova's body, with its framing.

Each event-stream message is a ``chunk`` whose ``bytes`` are the base64 of one JSON event
(``{"chunk": {"bytes": "eyJtZXNzYWdlU3RhcnQiOi..."}}``, as boto3 yields it and the
framing reads it); the event inside is one of the family's block events (``messageStart``,
``contentBlockStart`` / ``Delta`` / ``Stop``, ``messageStop``, ``metadata``;
https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-invoke-api.html). The decoder
takes a chunk or the event inside it alike. The last event may carry
``amazon-bedrock-invocationMetrics`` beside its member, kept with the finish; the
``metadata`` event's ``metrics`` and ``trace`` are kept under ``_metadata`` (a Nova answer
has neither at its top).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from chatcodec import StreamError
from chatcodec._providers.bedrock_nova.markers import BODY
from chatcodec._providers.bedrock_nova.usage import decode_usage, encode_usage
from chatcodec._providers.bedrock_nova.wire import adapters
from chatcodec._providers.families.aws.stream_decode import BlockStreamDecoder, StreamFacts
from chatcodec.codec_kit import as_dict

INVOCATION_METRICS = "amazon-bedrock-invocationMetrics"
"""The member Bedrock adds to the last chunk of an InvokeModel stream."""
METADATA = "_metadata"
"""Marker: the ``metadata`` event came, with its members besides ``usage`` (``True``: none)."""

FACTS = StreamFacts(
    BODY,
    "Nova stream",
    adapters(),
    decode_usage,
    encode_usage,
    metadata_marker=METADATA,
    last_member=INVOCATION_METRICS,
)
"""Nova's stream (its adapters built on first use, with the canonical models)."""


class StreamDecoder(BlockStreamDecoder):
    """Push-style decoding: :meth:`feed` each event as it arrives, then :meth:`close`."""

    facts = FACTS

    def _fields(self, event: Any) -> dict[str, Any] | None:
        """The JSON event a ``chunk``'s base64 ``bytes`` hold (or the event itself), its
        ``amazon-bedrock-invocationMetrics`` kept for the finish."""
        fields = as_dict(event)
        if fields is not None and len(fields) == 1 and "chunk" in fields:
            fields = self._unwrapped(fields["chunk"])
        if fields is not None and INVOCATION_METRICS in fields and len(fields) == 2:
            fields = dict(fields)
            self.extra[INVOCATION_METRICS] = fields.pop(INVOCATION_METRICS)
        return fields

    def _unwrapped(self, chunk: object) -> dict[str, Any] | None:
        data = (as_dict(chunk) or {}).get("bytes")
        if not isinstance(data, str):
            raise StreamError("a chunk holds its event as base64 bytes", "$.chunk.bytes", self.position)
        try:
            return as_dict(json.loads(base64.b64decode(data, validate=True)))
        except (binascii.Error, ValueError, RecursionError):
            raise StreamError(
                "a chunk's bytes are not the base64 of a JSON event", "$.chunk.bytes", self.position
            ) from None
