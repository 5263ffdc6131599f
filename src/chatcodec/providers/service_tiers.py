"""OpenAI's ``service_tier`` <-> Bedrock Converse's ``serviceTier`` (issue 21 item 5) and
Anthropic's ``service_tier``.

Both name the processing tier a request is served on, and three of their values are the
same tier: OpenAI's ``default``, ``flex`` and ``priority`` (``CompletionCreateParams``
and ``ResponseCreateParams`` ``service_tier``; also ``auto`` and ``scale``) and Bedrock's
``ServiceTier.type`` of the same names (botocore ``ServiceTierType``; also
``reserved``). Canonical has no tier field, so each rides in its provider's bag; an
encoder for the other format takes one of the three shared values from that bag and
writes it in its own spelling, and what has no counterpart stays in the bag and is
reported as another provider's data, as before.

Anthropic's request ``service_tier`` is ``auto`` (priority capacity when available, else
standard) or ``standard_only`` (``MessageCreateParams.service_tier``; "Service tiers",
Anthropic docs). OpenAI's ``auto`` is the same choice (the project's tier, falling back),
and its ``default`` is standard processing: ``auto`` <-> ``auto``, ``default`` <->
``standard_only`` (as litellm maps them), both ways.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict

if TYPE_CHECKING:  # annotations only: the Bedrock reader reads the tiers without pydantic (first use)
    from chatcodec._base import ProviderMetadata

SHARED_TIERS = frozenset({"default", "flex", "priority"})
"""The tiers both formats have."""
OPENAI_PROVIDERS = ("openai-chat", "openai-responses")
BEDROCK = "bedrock-converse"
ANTHROPIC = "anthropic"
ANTHROPIC_TIERS = {"auto": "auto", "default": "standard_only"}
"""OpenAI's tier -> Anthropic's, for the two the formats share."""
OPENAI_TIERS = {anthropic: openai for openai, anthropic in ANTHROPIC_TIERS.items()}
"""Anthropic's tier -> OpenAI's."""


def _take(
    options: ProviderMetadata | None, provider: str, key: str, tier: str | None, shared: Collection[str] = SHARED_TIERS
) -> tuple[str | None, ProviderMetadata | None]:
    if options is None or tier not in shared:
        return None, options
    rest = {name: value for name, value in options[provider].items() if name != key}
    others = {name: value for name, value in options.items() if name != provider}
    return tier, {**others, provider: rest} if rest else others


def from_openai(options: ProviderMetadata | None) -> tuple[dict[str, Any] | None, ProviderMetadata | None]:
    """Bedrock's ``serviceTier`` for an OpenAI bag's shared ``service_tier``, and the
    options without it."""
    for provider in OPENAI_PROVIDERS:
        bag = (options or {}).get(provider) or {}
        value = bag.get("service_tier")
        tier, rest = _take(options, provider, "service_tier", value if isinstance(value, str) else None)
        if tier is not None:
            return {"type": tier}, rest
    return None, options


def from_bedrock(options: ProviderMetadata | None) -> tuple[str | None, ProviderMetadata | None]:
    """OpenAI's ``service_tier`` for a Bedrock bag's shared ``serviceTier``, and the options
    without it."""
    tier = as_dict(((options or {}).get(BEDROCK) or {}).get("serviceTier"))
    value = tier.get("type") if tier is not None and set(tier) == {"type"} else None
    return _take(options, BEDROCK, "serviceTier", value if isinstance(value, str) else None)


def from_anthropic(options: ProviderMetadata | None) -> tuple[str | None, ProviderMetadata | None]:
    """OpenAI's ``service_tier`` for an Anthropic bag's ``service_tier``, and the options
    without it."""
    value = ((options or {}).get(ANTHROPIC) or {}).get("service_tier")
    tier, rest = _take(options, ANTHROPIC, "service_tier", value if isinstance(value, str) else None, OPENAI_TIERS)
    return (None, options) if tier is None else (OPENAI_TIERS[tier], rest)


def for_openai(options: ProviderMetadata | None) -> tuple[str | None, ProviderMetadata | None]:
    """OpenAI's ``service_tier`` from a Bedrock or Anthropic bag, and the options without it."""
    tier, options = from_bedrock(options)
    return (tier, options) if tier is not None else from_anthropic(options)


def to_anthropic(options: ProviderMetadata | None) -> tuple[str | None, ProviderMetadata | None]:
    """Anthropic's ``service_tier`` for an OpenAI bag's ``auto`` or ``default``, and the
    options without it."""
    for provider in OPENAI_PROVIDERS:
        value = ((options or {}).get(provider) or {}).get("service_tier")
        tier, rest = _take(
            options, provider, "service_tier", value if isinstance(value, str) else None, ANTHROPIC_TIERS
        )
        if tier is not None:
            return ANTHROPIC_TIERS[tier], rest
    return None, options
