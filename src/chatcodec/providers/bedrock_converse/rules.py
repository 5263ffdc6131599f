"""What Bedrock Converse accepts today, by model family: Claude's rules (``claude_rules.py``).

Converse has one API version, ``2023-09-30`` (botocore's ``bedrock-runtime``); the
``anthropic-version`` header is not part of it, so Anthropic's ``2026-10-21`` rules do not
apply. The Claude models refuse the same sampling settings here as on the Claude API
(https://github.com/pollinations/pollinations/pull/11319), and no Claude model on Bedrock
takes a mid-conversation ``role: "system"`` turn (only Opus 4.8+ on the Claude API does).
Other models on Bedrock (Nova, Llama...) get the permissive rule: nothing is changed.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.providers.claude_rules import (
    CLAUDE_4_5_UP,
    EVERY_CLAUDE,
    NO_TEMPERATURE,
    PAIR_SOURCE,
    SAMPLING_SOURCE,
    SYSTEM_SOURCE,
    drop_temperature,
    drop_top_p_beside_temperature,
    fold_system_turns,
)
from chatcodec.providers.target_rules import ProviderRules, RuleCall, TargetRule

VERSION = "2023-09-30"
"""The ``bedrock-runtime`` API version (botocore)."""


def _inference(call: RuleCall) -> dict[str, Any] | None:
    return as_dict(call.body.get("inferenceConfig"))


def _temperature_deprecated(call: RuleCall) -> None:
    """Opus 4.7+, Sonnet 5 and Fable 5 refuse a non-default ``temperature`` on Bedrock too."""
    config = _inference(call)
    if config is not None:
        drop_temperature(call, config, "temperature", ("inferenceConfig",))


def _temperature_with_top_p(call: RuleCall) -> None:
    """Claude 4.5+ refuses ``temperature`` and ``topP`` together: ``topP`` goes."""
    config = _inference(call)
    if config is not None:
        drop_top_p_beside_temperature(call, config, ("temperature", "topP"), ("inferenceConfig",))


def _system_turns(call: RuleCall) -> None:
    """Claude on Bedrock has no mid-conversation system turns: folded into ``system``."""
    fold_system_turns(call, lambda text: {"text": text})


RULES = ProviderRules(
    provider="bedrock-converse",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source="https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html",
    rules=(
        TargetRule(
            "temperature_deprecated",
            "a non-default `inferenceConfig.temperature` not sent",
            SAMPLING_SOURCE + " ; https://github.com/pollinations/pollinations/pull/11319",
            _temperature_deprecated,
            families=(NO_TEMPERATURE,),
            option='skip_rules=["temperature_deprecated"]',
        ),
        TargetRule(
            "temperature_with_top_p",
            "`inferenceConfig.topP` not sent beside `temperature`",
            PAIR_SOURCE,
            _temperature_with_top_p,
            families=(CLAUDE_4_5_UP,),
            option='skip_rules=["temperature_with_top_p"]',
        ),
        TargetRule(
            "mid_conversation_system",
            'a `role: "system"` turn moves to the end of the top-level `system`',
            SYSTEM_SOURCE,
            _system_turns,
            families=(EVERY_CLAUDE,),
            option='skip_rules=["mid_conversation_system"]',
            looks_for="system turn",
        ),
    ),
)
"""Bedrock Converse's table (:mod:`chatcodec.providers.target_rules`)."""
