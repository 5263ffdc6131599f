"""Gemini's side of the one-pass request path (issue 25, :mod:`chatcodec.one_pass`): both
directions, each in its own module.

* :func:`decode_request` (:mod:`.one_pass_decode`): a ``generateContent`` body of the
  common shapes, validated once in Rust, to the canonical request dict the general
  decoder and the canonical validation give;
* :func:`encode_request` (:mod:`.one_pass_encode`): a canonical request dict from another
  format to the body the general encoder writes, with the same losses in the same order.

Each returns ``None`` for a shape it does not handle, and the general path runs.
"""

from __future__ import annotations

from chatcodec.providers.gemini.one_pass_decode import decode_request
from chatcodec.providers.gemini.one_pass_encode import encode_request

__all__ = ["decode_request", "encode_request"]
