"""What the Gemini API accepts today (``v1beta``): one thinking setting, the one the model takes.

``thinkingConfig.thinkingLevel`` (Gemini 3) and ``thinkingBudget`` are mutually
exclusive: both together are a 400 (https://ai.google.dev/gemini-api/docs/gemini-3 ;
https://github.com/Tom-Ryder/AgentRunKit/pull/7). Gemini 2.5 takes budgets, not levels
("thinking levels (Gemini 3 and later models) or thinking budgets (Gemini 2.5 models)":
https://ai.google.dev/gemini-api/docs/thinking). chatcodec writes both for the usual
Claude 4.6+ reasoning (adaptive thinking with an effort), and a level for an effort, so:
on Gemini 3 and on a model it cannot name (the permissive rule: levels are the current
API) the level is kept and a budget beside it goes; on Gemini 2.x and older the level goes,
replaced by the budget of the effort (:mod:`chatcodec._providers.kit.reasoning`) when no
budget is given. A budget of ``-1`` (dynamic, Gemini's default) goes without a report.

Gemini 3.6 Flash, 3.5 Flash-Lite and the releases after them ("What's new in Gemini 3.6
Flash and 3.5 Flash-Lite"; Vertex's Gemini 3.6 Flash page lists the breaking changes;
langchain-google-genai 4.3.5 keeps them in ``_FIXED_SAMPLING_AND_NO_PREFILL_MODELS``):
a request whose last ``contents`` entry has ``"role": "model"`` (a prefill) returns an
error, custom ``temperature``, ``topK`` and ``topP`` values are ignored, and custom
frequency and presence penalties return an error. As for Claude, the prefill is not sent
and a value other than the default is not sent, each reported as a rule loss. Gemini
versions are not monotonic across variants, so the family is named: 3.5 Flash-Lite, 3.5
Flash (deprecated, "automatically routed to gemini-3.6-flash", its model page) and every
3.6+ model.
"""

from __future__ import annotations

import re
from typing import Any

from chatcodec.codec_kit import as_dict, as_list, budget_for_effort, is_default_sampling, range_rule
from chatcodec.contract import ModelFamily, ProviderRules, RuleCall, SamplingRange, TargetRule

VERSION = "v1beta"
"""The Gemini API version chatcodec's wire shapes follow."""

_GEMINI_2 = re.compile(r"gemini-(1|2)[.-]")
_VERSION = re.compile(r"gemini-(\d+)\.(\d+)-([a-z-]+)")
FIXED_SAMPLING_SOURCE = (
    "https://ai.google.dev/gemini-api/docs/generate-content/whats-new-gemini-3.6 ; "
    "https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/3-6-flash ; "
    "https://ai.google.dev/gemini-api/docs/models/gemini-3.5-flash"
)
TEMPERATURE_DEFAULT = 1.0
"""Gemini 3's default ``temperature`` (https://ai.google.dev/gemini-api/docs/gemini-3:
"keep temperature at its default value of 1.0")."""


def _fixed_sampling(model: str) -> bool:
    """Whether ``model`` is Gemini 3.5 Flash-Lite, 3.5 Flash (routed to 3.6 Flash) or any
    Gemini 3.6+ model (a ``models/`` or Vertex ``publishers/google/models/`` prefix and a
    ``-001`` or preview suffix allowed)."""
    found = _VERSION.search(model)
    if found is None:
        return False
    version = (int(found[1]), int(found[2]))
    return version >= (3, 6) or (version == (3, 5) and found[3].startswith("flash"))


FIXED_SAMPLING = ModelFamily("Gemini 3.5 Flash, 3.5 Flash-Lite, 3.6+", _fixed_sampling)
"""Models that refuse a prefill and custom penalties, and ignore the sampling settings."""
_SAMPLING_SPELLINGS = (
    ("generationConfig", ("temperature", "topP", "topK", "frequencyPenalty", "presencePenalty")),
    ("generation_config", ("temperature", "top_p", "top_k", "frequency_penalty", "presence_penalty")),
)
_SAMPLING_DEFAULTS = {
    "temperature": TEMPERATURE_DEFAULT,
    "frequencyPenalty": 0.0,
    "presencePenalty": 0.0,
    "frequency_penalty": 0.0,
    "presence_penalty": 0.0,
}
"""The values that change nothing, dropped without a report (``topP`` and ``topK`` have
per-model defaults, so any value is reported)."""


def _sampling_deprecated(call: RuleCall) -> None:
    """The sampling settings and penalties not sent (either key spelling); a value equal
    to its default goes without a report."""
    for config_key, keys in _SAMPLING_SPELLINGS:
        config = as_dict(call.body.get(config_key))
        if config is None:
            continue
        for key in keys:
            if key not in config:
                continue
            value = config.pop(key)
            default = _SAMPLING_DEFAULTS.get(key)
            if default is None or not is_default_sampling(value, default):
                call.report((config_key, key), f"{key} {value!r}", "not sent: the model takes no custom value")
        if not config:
            del call.body[config_key]


def _prefill(call: RuleCall) -> None:
    """A final ``model`` turn (a prefill) is refused: not sent."""
    contents = as_list(call.body.get("contents"))
    last = as_dict(contents[-1]) if contents else None
    if contents and last is not None and last.get("role") == "model":
        index = len(contents) - 1
        call.body["contents"] = contents[:index]
        call.report(("contents", index), "final model turn (prefill)", "not sent: the model refuses a prefill")


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


RANGE_SOURCE = (
    "https://ai.google.dev/api/generate-content#generationconfig and "
    "https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference#generationconfig "
    "(temperature 0.0-2.0, topP 0.0-1.0)"
)
PENALTY_SOURCE = (
    "https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference#generationconfig "
    '(presencePenalty, frequencyPenalty: "The maximum value for presencePenalty is up to, but not including, 2.0. '
    'Its minimum value is -2.0."; ai.google.dev and google-genai state no range)'
)
SAMPLING_RANGES = (
    SamplingRange("temperature", 0.0, 2.0, RANGE_SOURCE, at=("generationConfig",)),
    SamplingRange("topP", 0.0, 1.0, RANGE_SOURCE, at=("generationConfig",)),
    SamplingRange("presencePenalty", -2.0, 2.0, PENALTY_SOURCE, at=("generationConfig",), exclusive_high=True),
    SamplingRange("frequencyPenalty", -2.0, 2.0, PENALTY_SOURCE, at=("generationConfig",), exclusive_high=True),
)
"""Gemini's documented sampling ranges (``topK`` has none documented: "The maximum number of
tokens to consider when sampling", ai.google.dev; google-genai's ``top_k`` docstring neither)."""

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
        TargetRule(
            "sampling_deprecated",
            "`temperature`, `topP`, `topK` and the penalties not sent (a default value without a report)",
            FIXED_SAMPLING_SOURCE,
            _sampling_deprecated,
            families=(FIXED_SAMPLING,),
        ),
        TargetRule(
            "prefill",
            "a final model turn (prefill) not sent",
            FIXED_SAMPLING_SOURCE,
            _prefill,
            families=(FIXED_SAMPLING,),
        ),
        range_rule(SAMPLING_RANGES),
    ),
)
"""Gemini's table (:mod:`chatcodec._providers.contract.target_rules`)."""
