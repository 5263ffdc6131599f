"""Content blocks <-> canonical parts: the AWS family's reader and writer
(``families/aws/parts.py``) for Nova's body, which lacks Converse's ``document``,
``audio``, ``guardContent`` and ``citationsContent`` blocks and serves no Claude (its
:data:`~.markers.BODY`; the writer reads the body from its ``BedrockContext``)."""

from __future__ import annotations

from chatcodec._providers.families.aws import parts as family

encode_part = family.encode_part
"""One canonical part as a Nova block (None: not carried, reported)."""
