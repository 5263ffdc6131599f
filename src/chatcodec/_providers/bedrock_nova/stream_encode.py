"""Encoding a Nova stream: canonical events -> the JSON events inside
InvokeModelWithResponseStream's chunks, by the AWS family's stream encoder
(``families/aws/stream_encode.py``) over Nova's :data:`~.stream_decode.FACTS`: the
``metadata`` event carries the usage and what the decoder kept of the event, and the last
event the ``amazon-bedrock-invocationMetrics``."""

from __future__ import annotations

from chatcodec._providers.bedrock_nova.stream_decode import FACTS
from chatcodec._providers.families.aws.stream_encode import BlockStreamEncoder


class StreamEncoder(BlockStreamEncoder):
    """Feed canonical events with :meth:`feed`, then :meth:`close` for the ``metadata`` event."""

    facts = FACTS
