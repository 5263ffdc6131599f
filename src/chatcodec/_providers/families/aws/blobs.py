"""Bedrock's blobs: the base64 text the JSON form of a ``bytes`` source or a redacted
reasoning block carries, which botocore decodes as standard, padded base64 and refuses
otherwise (its parameter validator's ``blob`` type). Both AWS bodies check media data and
signatures with it before writing them.
"""

from __future__ import annotations

import base64
import binascii

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def is_base64(text: str) -> bool:
    """Whether ``text`` is standard, padded base64 (botocore's blobs), and not empty.

    The usual spelling (the alphabet only, padded to a multiple of four) is recognised
    without decoding, by ``bytes.translate`` (several times faster on an image, which every
    request of a session resends); anything else is decided by decoding it."""
    if text.isascii():
        raw = text.encode("ascii")
        body = raw.rstrip(b"=")
        if body and len(raw) % 4 == 0 and len(raw) - len(body) <= 2 and not body.translate(None, _ALPHABET):
            return True
    try:
        return bool(text) and len(base64.b64decode(text, validate=True)) > 0
    except (binascii.Error, ValueError):
        return False
