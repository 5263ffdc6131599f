"""What Bedrock Converse accepts today, by model family: Claude's rules (``claude_rules.py``).

Converse has one API version, ``2023-09-30`` (botocore's ``bedrock-runtime``); the
``anthropic-version`` header is not part of it, so Anthropic's ``2026-10-21`` rules do not
apply. The Claude models refuse the same sampling settings, manual thinking budgets,
prefills and forced tool choices here as on the Claude API
(https://github.com/pollinations/pollinations/pull/11319), and no Claude model on Converse
takes a mid-conversation ``role: "system"`` turn (Converse's roles are user and assistant).
Other models on Bedrock (Nova, Llama...) get the permissive rule: nothing is changed.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.providers.claude_rules import (
    ADAPTIVE_ONLY,
    CLAUDE_4_6_UP,
    CLAUDE_4_UP,
    EVERY_CLAUDE,
    HAIKU_5_5_SOURCE,
    NO_SAMPLING,
    OPUS_5_5_SOURCE,
    PAIR_SOURCE,
    SAMPLING_SOURCE,
    SYSTEM_SOURCE,
    TIED_THINKING,
    ThinkingPlace,
    adaptive_for_budget,
    drop_disabled_thinking,
    drop_prefill,
    drop_sampling,
    drop_top_p_beside_temperature,
    fold_system_turns,
    unforced_tool_choice,
)
from chatcodec.providers.target_rules import ProviderRules, RuleCall, TargetRule

VERSION = "2023-09-30"
"""The ``bedrock-runtime`` API version (botocore)."""


def _inference(call: RuleCall) -> dict[str, Any] | None:
    return as_dict(call.body.get("inferenceConfig"))


_SAMPLING = {"temperature": "temperature", "top_p": "topP"}
_THINKING = ThinkingPlace(("additionalModelRequestFields", "thinking"), ("outputConfig", "effort"))


def _temperature_deprecated(call: RuleCall) -> None:
    """Opus 4.7+, Sonnet 5+, Haiku 5.5+, Fable 5+ and Mythos refuse a non-default
    ``temperature`` or ``topP`` on Bedrock too (Converse has no ``top_k``)."""
    config = _inference(call)
    if config is not None:
        drop_sampling(call, config, _SAMPLING, ("inferenceConfig",))


def _temperature_with_top_p(call: RuleCall) -> None:
    """Claude 4+ refuses ``temperature`` and ``topP`` together: ``topP`` goes."""
    config = _inference(call)
    if config is not None:
        drop_top_p_beside_temperature(call, config, ("temperature", "topP"), ("inferenceConfig",))


def _manual_thinking(call: RuleCall) -> None:
    """A manual thinking budget is refused (adaptive thinking only): sent as adaptive
    thinking at the effort the budget maps to (``outputConfig.effort``)."""
    adaptive_for_budget(call, _THINKING)


def _disabled_thinking(call: RuleCall) -> None:
    """Opus 5.5 and Fable 5.1 refuse disabled thinking: not sent."""
    drop_disabled_thinking(call, _THINKING)


def _forced_tool_choice(call: RuleCall) -> None:
    """Opus 5.5 and Fable 5.1 refuse a forced ``toolChoice`` (``any``, ``tool``): sent as ``auto``."""
    unforced_tool_choice(call, ("toolConfig", "toolChoice"), lambda choice: bool(choice.keys() & {"any", "tool"}))


def _prefill(call: RuleCall) -> None:
    """Claude 4.6+ refuses a final assistant turn (prefill): not sent."""
    drop_prefill(call, lambda message: False)


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
            "a non-default `inferenceConfig.temperature` or `topP` not sent",
            f"{SAMPLING_SOURCE} ; {HAIKU_5_5_SOURCE} ; https://github.com/pollinations/pollinations/pull/11319",
            _temperature_deprecated,
            families=(NO_SAMPLING,),
        ),
        TargetRule(
            "temperature_with_top_p",
            "`inferenceConfig.topP` not sent beside `temperature`",
            PAIR_SOURCE,
            _temperature_with_top_p,
            families=(CLAUDE_4_UP,),
        ),
        TargetRule(
            "manual_thinking",
            "`thinking` `enabled` with `budget_tokens` sent as `adaptive`, with `outputConfig.effort` from the budget",
            f"{SAMPLING_SOURCE} ; {HAIKU_5_5_SOURCE}",
            _manual_thinking,
            families=(ADAPTIVE_ONLY,),
        ),
        TargetRule(
            "disabled_thinking",
            '`thinking: {type: "disabled"}` not sent (the model always thinks)',
            OPUS_5_5_SOURCE,
            _disabled_thinking,
            families=(TIED_THINKING,),
        ),
        TargetRule(
            "forced_tool_choice",
            "`toolConfig.toolChoice` `any` or `tool` sent as `auto`",
            OPUS_5_5_SOURCE,
            _forced_tool_choice,
            families=(TIED_THINKING,),
        ),
        TargetRule(
            "prefill",
            "a final assistant turn (prefill) not sent",
            SAMPLING_SOURCE,
            _prefill,
            families=(CLAUDE_4_6_UP,),
        ),
        TargetRule(
            "mid_conversation_system",
            'a `role: "system"` turn moves to the end of the top-level `system`',
            SYSTEM_SOURCE,
            _system_turns,
            families=(EVERY_CLAUDE,),
            looks_for="system turn",
        ),
    ),
)
"""Bedrock Converse's table (:mod:`chatcodec.providers.target_rules`)."""
