"""Bedrock Converse's side of the one-pass conversion path (issue 25): the reading of a
Converse request's common shapes (:mod:`.one_pass_decode`), returning ``None`` for
anything else so the general path runs."""

from __future__ import annotations

from chatcodec.providers.bedrock_converse.one_pass_decode import decode_request

__all__ = ["decode_request"]
