"""Canonical thinking parts to Anthropic ``thinking`` and ``redacted_thinking`` blocks.

Thinking is replayed only when Claude produced it and signed it (here, or on Bedrock
Converse when the part names a Claude model: one signature scheme,
:func:`~chatcodec._providers.families.claude.wire_rules.claude_signed`), and, to models
that verify only their own (:mod:`chatcodec._providers.families.claude.model_rules`), only
when the same model signed it ("thinking blocks are tied to the model that produced
them": https://platform.claude.com/docs/en/models/opus-5-5/whats-new-opus-5-5). Anything
else would get 400 "Invalid signature": it is dropped, or sent as plain text with the
``unsigned_thinking`` option, a loss either way. A response may show reasoning from any
source; only Anthropic's signature is kept there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chatcodec._providers.anthropic.encode_context import AnthropicContext, Part, own_fields
from chatcodec._providers.anthropic.markers import PROVIDER
from chatcodec._providers.families.claude.wire_rules import claude_signed
from chatcodec.contract import Steps


def encode_thinking(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any] | None:
    provider = part.get("provider")
    if provider not in _CLAUDE and part.keys() <= _TEXT_ONLY and context.for_request:
        # another provider's reasoning text and nothing else (an OpenAI Chat reasoning_content):
        # what the checks below find for it, without them
        return _unverifiable(part.get("text", ""), f"produced by {provider!r}, not Anthropic", context, at)
    if part.get("cache_control") is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control on thinking", "not allowed on thinking blocks", "setting"
        )
    provider, text, signature = part.get("provider"), part.get("text", ""), part.get("signature")
    ours = provider in (PROVIDER, None) or claude_signed(provider, part.get("model"))  # Claude on Bedrock too
    encrypted = part.get("encrypted")
    if part.get("redacted") and ours and encrypted:
        if text or signature:
            context.losses.add(at, "text or signature of redacted thinking", "redacted_thinking carries only data")
        return {**own_fields(part, context, at), "type": "redacted_thinking", "data": encrypted}
    if part.get("redacted"):
        context.losses.add(at, "redacted thinking", "its payload is not Anthropic's")
        return None
    if not context.for_request:
        return _response_thinking(part, ours, context, at)
    signer = part.get("model")
    signed = ours and bool(signature)  # only then is the signer asked of (another provider's reasoning is not)
    if signed and not _signed_by_another_model(signer, context.model):
        _encrypted_loss(part, context, at)
        return {**own_fields(part, context, at), "type": "thinking", "thinking": text, "signature": signature}
    why = "no signature Anthropic can verify" if ours else f"produced by {provider!r}, not Anthropic"
    if signed:  # Opus 5.5 and Fable 5.1 verify only their own (families/claude/model_rules.py)
        why = f"signed by {signer!r}, and {context.model!r} takes only thinking it signed"
    return _unverifiable(text, why, context, at)


_CLAUDE = (PROVIDER, None)
"""The providers whose thinking may be Claude's without a model named (``claude_signed``'s
answer for any other is false when the part names no model)."""
_TEXT_ONLY = frozenset({"type", "text", "provider", "provider_metadata"})
"""A thinking part of these fields alone has no signature, payload, model or cache marker."""


def _unverifiable(text: str, why: str, context: AnthropicContext, at: Steps) -> dict[str, Any] | None:
    """Thinking Anthropic cannot verify (``why``): sent as text with the ``unsigned_thinking``
    option, else dropped; reported either way."""
    if context.unsigned_thinking == "text" and text:
        context.losses.add(at, "thinking part", f"{why}; sent as plain text")
        return {"type": "text", "text": text}
    context.losses.add(at, "thinking part", f"{why}; replaying it would get 400 'Invalid signature'")
    return None


_MODEL_RULES: list[Callable[[str | None, str | None], bool]] = []
"""``model_rules.signed_by_another_model`` once a request's thinking is first written."""


def _signed_by_another_model(signer: str | None, target: str | None) -> bool:
    """The Claude model tables' answer, imported when a request's thinking first asks (a
    stream never loads them), then called from here: an ``import`` statement run for every
    thinking part is paid again for each part."""
    if not _MODEL_RULES:
        from chatcodec._providers.families.claude.model_rules import signed_by_another_model

        _MODEL_RULES.append(signed_by_another_model)
    return _MODEL_RULES[0](signer, target)


def _response_thinking(part: Part, ours: bool, context: AnthropicContext, at: Steps) -> dict[str, Any]:
    """A response may show reasoning from any source; only Anthropic's signature is kept."""
    _encrypted_loss(part, context, at)
    given = part.get("signature")
    signature = given or ""
    if not ours and signature:
        context.losses.add((*at, "signature"), f"{part.get('provider')} signature", "meaningless to Anthropic clients")
        signature = ""
    elif given is None:
        why = "Anthropic thinking blocks require one; none was given, sent ''"
        context.losses.add((*at, "signature"), "thinking signature", why)
    return {
        **own_fields(part, context, at),
        "type": "thinking",
        "thinking": part.get("text", ""),
        "signature": signature,
    }


def _encrypted_loss(part: Part, context: AnthropicContext, at: Steps) -> None:
    if part.get("encrypted") is not None:
        context.losses.add((*at, "encrypted"), "encrypted reasoning", "Anthropic thinking blocks have no such payload")
