"""Canonical stream events to ConverseStream events: the AWS family's stream encoder
(``families/aws/stream_encode.py``) over Converse's :data:`~.stream_decode.FACTS` (its
``metadata`` event carries the usage and the ``metrics`` botocore requires)."""

from __future__ import annotations

from chatcodec._providers.bedrock_converse.stream_decode import FACTS
from chatcodec._providers.families.aws.stream_encode import BlockStreamEncoder


class StreamEncoder(BlockStreamEncoder):
    """Feed canonical events with :meth:`feed`, then call :meth:`close` for the tail."""

    facts = FACTS
