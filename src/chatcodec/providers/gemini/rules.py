"""What the Gemini API accepts today (``v1beta``): one thinking setting, the one the model takes.

``thinkingConfig.thinkingLevel`` (Gemini 3) and ``thinkingBudget`` are mutually
exclusive: both together are a 400 (https://ai.google.dev/gemini-api/docs/gemini-3 ;
https://github.com/Tom-Ryder/AgentRunKit/pull/7). Gemini 2.5 takes budgets, not levels
("thinking levels (Gemini 3 and later models) or thinking budgets (Gemini 2.5 models)":
https://ai.google.dev/gemini-api/docs/thinking). chatcodec writes both for the usual
Claude 4.6+ reasoning (adaptive thinking with an effort), and a level for an effort, so:
on Gemini 3 and on a model it cannot name (the permissive rule: levels are the current
API) the level is kept and a budget beside it goes; on Gemini 2.x and older the level goes,
replaced by the budget of the effort (:mod:`chatcodec.providers.kit.reasoning`) when no
budget is given. A budget of ``-1`` (dynamic, Gemini's default) goes without a report.
"""

from __future__ import annotations

import re
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec.providers.kit.reasoning import budget_for_effort
from chatcodec.providers.target_rules import ProviderRules, RuleCall, TargetRule

VERSION = "v1beta"
"""The Gemini API version chatcodec's wire shapes follow."""

_GEMINI_2 = re.compile(r"gemini-(1|2)[.-]")
_SPELLINGS = (
    ("generationConfig", "thinkingConfig", "thinkingLevel", "thinkingBudget"),
    ("generation_config", "thinking_config", "thinking_level", "thinking_budget"),
)


def _level_or_budget(call: RuleCall) -> None:
    """Keep the one of ``thinkingLevel`` and ``thinkingBudget`` the model takes (either key
    spelling): the budget on Gemini 2 (from the level's effort when none is given)."""
    for config_key, thinking_key, level_key, budget_key in _SPELLINGS:
        config = as_dict(call.body.get(config_key))
        thinking = as_dict(config.get(thinking_key)) if config is not None else None
        if thinking is None or level_key not in thinking:
            continue
        at = (config_key, thinking_key)
        if call.model is not None and _GEMINI_2.search(call.model.lower()):
            level = thinking.pop(level_key)
            if budget_key in thinking:
                call.report((*at, level_key), f"thinkingLevel {level!r}", "not sent beside thinkingBudget (Gemini 2)")
                continue
            thinking[budget_key] = written = budget_for_effort(str(level).lower())
            call.report((*at, level_key), f"thinkingLevel {level!r}", f"sent as thinkingBudget {written} (Gemini 2)")
            continue
        if budget_key not in thinking:
            continue
        budget: Any = thinking.pop(budget_key)
        if budget != -1:
            call.report((*at, budget_key), f"thinkingBudget {budget!r}", "not sent beside thinkingLevel")


RULES = ProviderRules(
    provider="gemini",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source="https://ai.google.dev/gemini-api/docs/api-versions",
    rules=(
        TargetRule(
            "thinking_level_or_budget",
            "`thinkingBudget` not sent beside `thinkingLevel`; on Gemini 2 the level is sent as its effort's budget",
            "https://ai.google.dev/gemini-api/docs/gemini-3 ; https://ai.google.dev/gemini-api/docs/thinking",
            _level_or_budget,
        ),
    ),
)
"""Gemini's table (:mod:`chatcodec.providers.target_rules`)."""
