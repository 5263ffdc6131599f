"""``stopReason`` words: the AWS family's one table for both Bedrock block bodies
(``families/aws/finish_reason.py``), this folder's ``finish_reasons`` role."""

from __future__ import annotations

from chatcodec._providers.families.aws.finish_reason import decode_finish_reason, encode_finish_reason

__all__ = ["decode_finish_reason", "encode_finish_reason"]
