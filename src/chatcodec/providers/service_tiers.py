"""OpenAI's ``service_tier`` <-> Bedrock Converse's ``serviceTier`` (issue 21 item 5).

Both name the processing tier a request is served on, and three of their values are the
same tier: OpenAI's ``default``, ``flex`` and ``priority`` (``CompletionCreateParams``
and ``ResponseCreateParams`` ``service_tier``; also ``auto`` and ``scale``) and Bedrock's
``ServiceTier.type`` of the same names (botocore ``ServiceTierType``; also
``reserved``). Canonical has no tier field, so each rides in its provider's bag; an
encoder for the other format takes one of the three shared values from that bag and
writes it in its own spelling, and what has no counterpart stays in the bag and is
reported as another provider's data, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict

if TYPE_CHECKING:  # annotations only: the Bedrock reader reads the tiers without pydantic (first use)
    from chatcodec._base import ProviderMetadata

SHARED_TIERS = frozenset({"default", "flex", "priority"})
"""The tiers both formats have."""
OPENAI_PROVIDERS = ("openai-chat", "openai-responses")
BEDROCK = "bedrock-converse"


def _take(
    options: ProviderMetadata | None, provider: str, key: str, tier: str | None
) -> tuple[str | None, ProviderMetadata | None]:
    if options is None or tier not in SHARED_TIERS:
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
