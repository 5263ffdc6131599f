"""Bedrock Converse's side of the one-pass conversion path (issue 25): the reading
(:mod:`.one_pass_decode`) and the writing (:mod:`.one_pass_encode`) of a Converse
request's common shapes, each returning ``None`` for anything else so the general path
runs. Neither loads a canonical model on the common shapes (first use)."""

from __future__ import annotations

from chatcodec.providers.bedrock_converse.one_pass_decode import decode_request
from chatcodec.providers.bedrock_converse.one_pass_encode import encode_request

__all__ = ["decode_request", "encode_request"]
