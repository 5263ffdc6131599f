"""An AI SDK ``providerOptions`` (``providerMetadata`` on a UI part) object <-> canonical fields.

The AI SDK keeps what only one provider understands under that provider's key, on a message
or a part. Three entries have a canonical home, so another format carries them: Anthropic's
``cacheControl`` (the canonical ``cache_control``), a reasoning part's Anthropic
``signature`` / ``redactedData`` (signed and redacted thinking a later Claude turn must send
back) and Google's ``thoughtSignature`` (a thinking part's signature; on a call or a text,
the signature Gemini wants back in that part, kept where the ``gemini`` codec keeps it: the
part's ``gemini`` bag). The rest of the object rides whole in the format's own bag under
the wire name, written back as it was and reported by any other format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.google.thought_signatures import GEMINI, attach_signature, split_signature
from chatcodec.codec_kit import as_dict
from chatcodec.contract import EncodeContext, Steps

ANTHROPIC = "anthropic"
"""The AI SDK's key (and chatcodec's provider name) for Claude."""
GOOGLE = "google"
"""The AI SDK's key for Gemini."""
SIGNATURE = "thoughtSignature"
"""The key of Gemini's thought signature under ``google`` (as Gemini spells its part field)."""


def _without(options: dict[str, Any], provider: str, key: str) -> Any:
    """Take ``options[provider][key]`` out of ``options`` (dropping an emptied entry)."""
    entry = as_dict(options.get(provider))
    if entry is None or key not in entry:
        return None
    entry = dict(entry)
    value = entry.pop(key)
    if entry:
        options[provider] = entry
    else:
        del options[provider]
    return value


SIGNED = frozenset({"text", "thinking", "tool_use"})
"""The canonical parts Gemini signs (its thought signature read from ``providerOptions.google``)."""


def decode_options(part: dict[str, Any], options: object) -> dict[str, Any]:
    """Fill ``part`` (a canonical part or message) from ``options``; what is left is returned
    for the bag (``{}`` when nothing is)."""
    reasoning = part.get("type") == "thinking"
    rest = dict(as_dict(options) or {})
    cache = as_dict((as_dict(rest.get(ANTHROPIC)) or {}).get("cacheControl"))
    if (
        cache is not None
        and cache.get("type") == "ephemeral"
        and set(cache) <= {"type", "ttl"}
        and isinstance(cache.get("ttl", ""), str)  # a ttl of another type is no marker: kept in the bag
    ):
        _without(rest, ANTHROPIC, "cacheControl")
        part["cache_control"] = dict(cache)
    if reasoning:
        _signed_thinking(part, rest)
    signature = (as_dict(rest.get(GOOGLE)) or {}).get(SIGNATURE)
    if isinstance(signature, str) and part.get("type") in SIGNED:
        _without(rest, GOOGLE, SIGNATURE)
        if reasoning and "provider" not in part:
            part["provider"], part["signature"] = GEMINI, signature
        else:
            attach_signature(part, signature)
    return rest


def _signed_thinking(part: dict[str, Any], rest: dict[str, Any]) -> None:
    entry = as_dict(rest.get(ANTHROPIC)) or {}
    if isinstance(entry.get("redactedData"), str):
        part.update(provider=ANTHROPIC, redacted=True, encrypted=_without(rest, ANTHROPIC, "redactedData"))
    elif isinstance(entry.get("signature"), str):
        part.update(provider=ANTHROPIC, signature=_without(rest, ANTHROPIC, "signature"))


def _put(options: dict[str, Any], provider: str, key: str, value: object) -> None:
    options[provider] = {**(as_dict(options.get(provider)) or {}), key: value}


def encode_options(part: Mapping[str, Any], kept: object, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The ``providerOptions`` for canonical ``part``: ``kept`` (from the bag) with the
    canonical fields written in; ``{}`` when there is nothing to write."""
    reasoning = part.get("type") == "thinking"
    options: dict[str, Any] = dict(as_dict(kept) or {})
    if part.get("cache_control") is not None:
        _put(options, ANTHROPIC, "cacheControl", dict(part["cache_control"]))
    if reasoning:
        _thinking_options(part, options, context, at)
    signature, _ = split_signature(as_dict(part.get("provider_metadata")))
    if signature is not None:
        _put(options, GOOGLE, SIGNATURE, signature)
    return options


def _thinking_options(part: Mapping[str, Any], options: dict[str, Any], context: EncodeContext, at: Steps) -> None:
    provider = part.get("provider")
    if provider == ANTHROPIC and part.get("redacted"):
        _put(options, ANTHROPIC, "redactedData", part.get("encrypted", ""))
        return
    if provider == ANTHROPIC and part.get("signature") is not None:
        _put(options, ANTHROPIC, "signature", part["signature"])
    elif provider == GEMINI and part.get("signature") is not None:
        _put(options, GOOGLE, SIGNATURE, part["signature"])
    elif part.get("signature") is not None:
        context.losses.add((*at, "signature"), "thinking signature", f"the AI SDK keeps no {provider} signature")
    if part.get("encrypted") is not None:
        context.losses.add((*at, "encrypted"), "encrypted reasoning", f"the AI SDK keeps no {provider} payload")


def foreign_metadata(metadata: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """``metadata`` without the ``gemini`` bag's thought signature (written as
    ``providerOptions.google``), so the kit reports only what is left of other formats."""
    return split_signature(metadata)[1]
