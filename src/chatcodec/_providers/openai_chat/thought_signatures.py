"""Gemini's thought signature on an OpenAI-compatible tool call <-> ``thoughtSignature``.

Gemini's OpenAI-compatible endpoint returns the signature of a function call as
``tool_calls[].extra_content.google.thought_signature`` and needs it back there on the
next turn, or Gemini 3 answers 400 "Function call is missing a thought_signature"
(https://ai.google.dev/gemini-api/docs/thought-signatures, "OpenAI compatibility").
It is the same value Gemini's own API carries as ``thoughtSignature`` on the
``functionCall`` part, so the decoder keeps it in the part's ``gemini`` bag under that
key, where the Gemini encoder writes it back; this encoder writes a ``gemini`` bag's
signature as ``extra_content`` (the bag's helpers are the kit's,
:mod:`chatcodec._providers.families.google.thought_signatures`). The rest of ``extra_content`` stays in
the openai-chat bag, as every unmapped field does.
"""

from __future__ import annotations

from typing import Any

from chatcodec._providers.families.google.thought_signatures import (
    GEMINI,
    GEMINI_KEY,
    attach_signature,
    split_signature,
)
from chatcodec.codec_kit import as_dict

__all__ = ["GEMINI", "GEMINI_KEY", "attach_signature", "split_signature", "take_signature", "write_signature"]


def take_signature(bag: dict[str, Any]) -> str | None:
    """The signature in a decoded tool call's bag, removed from it (and ``extra_content``
    or its ``google`` object when nothing else is left in them)."""
    extra = as_dict(bag.get("extra_content"))
    google = as_dict(extra.get("google")) if extra is not None else None
    signature = google.get("thought_signature") if google is not None else None
    if extra is None or google is None or not isinstance(signature, str):
        return None
    google = {key: value for key, value in google.items() if key != "thought_signature"}
    extra = {**extra, "google": google} if google else {key: value for key, value in extra.items() if key != "google"}
    if extra:
        bag["extra_content"] = extra
    else:
        del bag["extra_content"]
    return signature


def write_signature(call: dict[str, Any], signature: str | None) -> None:
    """Put ``signature`` in ``call``'s ``extra_content.google`` (other keys there kept)."""
    if signature is None:
        return
    extra = dict(as_dict(call.get("extra_content")) or {})
    extra["google"] = {**(as_dict(extra.get("google")) or {}), "thought_signature": signature}
    call["extra_content"] = extra
