"""Reasoning blocks (``reasoningContent``) <-> canonical thinking parts, and when a
signature may be replayed, for both Bedrock block bodies (a body that serves no Claude,
Nova's, reads no signature or ``redactedContent`` and writes none: its
:attr:`~.body.Body.claude`).

Claude on Bedrock and the direct Anthropic API sign thinking with one scheme: Anthropic's
extended-thinking documentation says signatures are compatible across its platforms
(Claude API, Bedrock, Vertex AI), and histories moved between the two fail only when a
codec drops or rewrites the signature. So the decoder records ``provider =
"bedrock-converse"`` and, when the request names it (``modelId``), the model; this
encoder replays a thinking part signed by ``anthropic`` only when the target
``modelId`` is a Claude model, and the Anthropic encoder replays one signed by
``bedrock-converse`` only when its ``model`` is a Claude model
(:func:`chatcodec._providers.families.claude.wire_rules.claude_signed`). Where the model is unknown (a Converse
response carries none), the part is dropped and reported rather than risking a 400.

Bedrock's own reasoning without a signature (DeepSeek-R1, gpt-oss) goes back as it came:
those models verify nothing. Unsigned thinking of unknown origin (no ``provider``) goes
as ``reasoningContent`` only to a model known not to be Claude: Claude requires a
signature on every replayed reasoning block ("messages.1.content.0.reasoningContent:
signature is required" on Bedrock; Anthropic's extended-thinking docs), so for a Claude
``modelId`` or an unknown one it is handled as foreign reasoning (dropped, or sent as
text by the option), and reported. Reasoning of another provider is dropped (or sent as text by
the ``unsigned_thinking`` option) and reported, never sent as Bedrock's; a redacted
payload that is not base64 (Bedrock's ``redactedContent`` is a blob) is reported too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec._providers.families.aws.blobs import is_base64
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.claude.model_rules import signed_by_another_model
from chatcodec._providers.families.claude.wire_rules import (
    ANTHROPIC_API,
    CLAUDE_SIGNERS,
    claude_signed,
    is_claude_model,
)
from chatcodec.codec_kit import leftovers, restore_fields
from chatcodec.contract import Steps

SENT_AS_TEXT = "; sent as plain text"
"""The end of the loss text for unverifiable thinking sent as text (``unsigned_thinking="text"``)."""
DROPPED = "; replaying it would be rejected"
"""The end of the loss text for unverifiable thinking dropped."""


def unverifiable_why(provider: str | None) -> str:
    """Why thinking from ``provider`` does not go as reasoning: the target cannot verify it."""
    origin = "of unknown origin and unsigned" if provider is None else f"produced by {provider!r}"
    return f"{origin}; the target model cannot verify it"


def decode_reasoning(body: Body, reasoning: Mapping[str, Any], model: str | None) -> dict[str, Any] | None:
    """A ``reasoningContent`` block as a thinking part (None when canonical cannot hold it:
    a body that serves no Claude keeps signed or redacted reasoning whole)."""
    if len(reasoning) != 1:
        return None
    canonical: dict[str, Any] = {"type": "thinking", "provider": body.kit.name}
    if model is not None:
        canonical["model"] = model
    if not body.claude and ("redactedContent" in reasoning or "signature" in (reasoning.get("reasoningText") or ())):
        return None
    if "redactedContent" in reasoning:
        return {**canonical, "text": "", "encrypted": reasoning["redactedContent"], "redacted": True}
    text = as_dict(reasoning.get("reasoningText"))
    if text is None:
        return None
    canonical["text"] = text["text"]
    if "signature" in text:
        canonical["signature"] = text["signature"]
    return body.kit.attach(canonical, leftovers(text, ("text", "signature")))


def accepts_signed_thinking(part: Mapping[str, Any], context: BedrockContext) -> bool:
    """Whether Bedrock can verify ``part``'s reasoning (a thinking part's data): its own (or
    of unknown origin), or Anthropic's when the target ``modelId`` is a Claude model (same
    signature scheme)."""
    provider = part.get("provider")
    if provider is None or provider == context.body.kit.name:
        return True
    return context.body.claude and claude_signed(provider, part.get("model")) and is_claude_model(context.model)


def encode_thinking(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """The ``reasoningContent`` block for a thinking part (canonical data), or None when the
    target cannot take it (a loss)."""
    provider = part.get("provider")
    body = context.body
    if (
        provider is not None
        and provider != body.kit.name
        and provider not in CLAUDE_SIGNERS
        and context.for_request
        and part.get("encrypted") is None
    ):
        return _unverifiable(part, context, at)  # another provider's (OpenAI, Gemini): no Bedrock model verifies it
    ours = accepts_signed_thinking(part, context)
    text, signature, encrypted = part.get("text", ""), part.get("signature"), part.get("encrypted")
    if part.get("redacted") and encrypted:
        if not ours or not body.claude or not is_base64(encrypted):
            context.losses.add(at, "redacted thinking", "its payload is not one this Bedrock model can read")
            return None
        if text or signature:
            context.losses.add(at, "text or signature of redacted thinking", "redactedContent carries only the payload")
        return {"reasoningContent": {"redactedContent": encrypted}}
    if encrypted is not None:
        context.losses.add((*at, "encrypted"), "encrypted reasoning", "Bedrock reasoning text has no such payload")
    if not context.for_request:
        unsigned = not signature and encrypted is None  # a signed one's dropped signature is reported already
        if provider is not None and provider != body.kit.name and unsigned and not ours:  # it reads back as ours
            # (a part no provider produced, a parsed completion's, has no producer to lose: no loss)
            why = f"sent as Bedrock reasoning text; reads back as {body.kit.name}'s"
            context.losses.add(at, f"thinking part from {provider}", why, "metadata")
        return _reasoning(part, ours, context, at)
    unverifiable = provider in (ANTHROPIC_API, None) and not signature
    if provider is None and not (body.claude and (context.model is None or is_claude_model(context.model))):
        unverifiable = False  # a model that is not Claude verifies nothing
    if ours and not unverifiable and not signed_by_another_model(part.get("model"), context.model):
        return _reasoning(
            part, ours, context, at
        )  # Opus 5.5, Fable 5.1: only their own (families/claude/model_rules.py)
    return _unverifiable(part, context, at)


def _unverifiable(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """Thinking the target cannot verify: sent as text by the ``unsigned_thinking`` option,
    else dropped; reported either way."""
    provider, text = part.get("provider"), part.get("text", "")
    if context.unsigned_thinking == "text" and text:
        context.losses.add(at, "thinking part", unverifiable_why(provider) + SENT_AS_TEXT)
        return {"text": text}
    why = _DROPPED_WHY.get(provider)
    if why is None:
        why = _DROPPED_WHY[provider] = unverifiable_why(provider) + DROPPED
    context.losses.add(at, "thinking part", why)
    return None


_DROPPED_WHY: dict[str | None, str] = {}
"""The loss text for dropped thinking, by provider (a session from another provider sends
thinking in every assistant turn)."""


def _reasoning(part: Mapping[str, Any], ours: bool, context: BedrockContext, at: Steps) -> dict[str, Any]:
    metadata = part.get("provider_metadata")
    kit = context.body.kit
    text: dict[str, Any] = restore_fields(kit.claim(context.losses, metadata, at)) if metadata else {}
    text["text"] = part.get("text", "")
    signature = part.get("signature")
    if signature is not None and ours and context.body.claude:
        text["signature"] = signature
    elif signature is not None:  # an empty one too: it reads back as none
        context.losses.add((*at, "signature"), f"{part.get('provider')} signature", "meaningless to this Bedrock model")
    return {"reasoningContent": {"reasoningText": text}}
