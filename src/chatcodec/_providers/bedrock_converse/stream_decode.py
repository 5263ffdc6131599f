"""Decoding ConverseStream events: the AWS family's stream decoder
(``families/aws/stream_decode.py``) over Converse's body, its usage and its adapters.

An event is one object with one member, ``{"<eventType>": {...payload}}``, as boto3
yields it from ``converse_stream()["stream"]``; the ``metadata`` event's ``metrics`` and
``trace`` are kept in the finish's bag (a Converse response has them at its top).
"""

from __future__ import annotations

from chatcodec._providers.bedrock_converse.markers import BODY
from chatcodec._providers.bedrock_converse.usage import decode_usage, encode_usage
from chatcodec._providers.bedrock_converse.wire import adapters
from chatcodec._providers.families.aws.stream_decode import BlockStreamDecoder, StreamFacts

FACTS = StreamFacts(BODY, "ConverseStream", adapters(), decode_usage, encode_usage)
"""Converse's stream (its adapters built on first use: a stream's decoder is imported with
the canonical models)."""


class StreamDecoder(BlockStreamDecoder):
    """Push-style decoding: :meth:`feed` each wire event as it arrives, then :meth:`close`."""

    facts = FACTS
