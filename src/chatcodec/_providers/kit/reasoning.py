"""The one table between a reasoning effort and a thinking budget, for every format.

Formats say how hard to think in one of two ways: an effort word (OpenAI
``reasoning_effort``, Anthropic ``output_config.effort``, Gemini 3 ``thinkingLevel``) or a
token budget (Anthropic ``thinking.budget_tokens`` before adaptive thinking, Gemini 2.5
``thinkingBudget``). Crossing from one to the other needs numbers nobody publishes for
every provider, so chatcodec chooses them here, once, and every writer reads this table
(the docs print it: :func:`budget_table`). Each crossing is reported as a ``setting``
loss naming what was sent.

Effort to budget (:data:`EFFORT_BUDGETS`): ``low``, ``medium`` and ``high`` are the budgets
Google documents for its OpenAI-compatible endpoint's ``reasoning_effort`` on Gemini 2.5
(1,024, 8,192, 24,576: https://ai.google.dev/gemini-api/docs/openai#thinking);
``minimal`` is Anthropic's smallest budget (1,024: https://platform.claude.com/docs/en/build-with-claude/extended-thinking);
``xhigh`` and ``max`` double upward from Gemini 2.5 Pro's largest budget (32,768). A
writer caps the budget where its target caps it (Anthropic: below ``max_tokens``).

Budget to effort (:func:`effort_for_budget`): ``0`` is ``none``; under 4,096 ``low`` (as
litellm sends for small budgets; ``minimal`` is never chosen: gpt-5.1 and later do not take
it); under 16,384 ``medium``; anything larger ``high`` (never ``xhigh``: the models before
gpt-5.1-codex-max refuse it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatcodec._losses import LossRecorder

EFFORT_BUDGETS: Mapping[str, int] = {
    "minimal": 1024,
    "low": 1024,
    "medium": 8192,
    "high": 24576,
    "xhigh": 32768,
    "max": 65536,
}
"""The thinking budget written for each effort (module docstring)."""

EFFORT_BOUNDS: tuple[tuple[int, str], ...] = ((1, "none"), (4096, "low"), (16384, "medium"))
"""A budget below the first number of a row reads as its effort; any larger one as ``high``."""

LARGEST_EFFORT = "high"
"""The effort a budget at or above the last bound reads as."""

SMALLEST_BUDGET = 1024
"""Anthropic's smallest ``budget_tokens`` (the Messages API reference)."""


def budget_for_effort(effort: str) -> int:
    """The thinking budget for an effort word (``none``: 0)."""
    return EFFORT_BUDGETS.get(effort, 0)


def effort_for_budget(budget: int) -> str:
    """The effort word for a thinking budget (module docstring)."""
    for bound, effort in EFFORT_BOUNDS:
        if budget < bound:
            return effort
    return LARGEST_EFFORT


def thinking_on(reasoning: Mapping[str, Any]) -> bool:
    """Whether canonical ``reasoning`` turns thinking on explicitly: a switch (``enabled``),
    adaptive thinking, or a budget above zero. An effort alone does not: Anthropic takes an
    effort without thinking (it then spends fewer tokens on the answer)."""
    if reasoning.get("enabled") is False:
        return False
    budget = reasoning.get("budget_tokens")
    return bool(reasoning.get("enabled") or reasoning.get("adaptive") or (budget is not None and budget > 0))


ADAPTIVE_EFFORT = "high"
"""The effort adaptive thinking without one runs at (Claude's default effort:
https://platform.claude.com/docs/en/build-with-claude/effort)."""
SWITCHED_ON_EFFORT = "medium"
"""The effort written for reasoning switched on with nothing else (OpenAI's default for
the reasoning models that have one)."""


def reasoning_for_effort(effort: str) -> dict[str, Any]:
    """Canonical reasoning for an OpenAI effort: reasoning switched on at that effort
    (``none`` is the effort alone, which writers send as thinking disabled). An OpenAI
    effort means the model reasons, so it reaches Claude as thinking, where an effort alone
    would only tune the answer."""
    return {"effort": effort} if effort == "none" else {"effort": effort, "enabled": True}


def effort_word(reasoning: Mapping[str, Any], losses: LossRecorder, wire: str) -> str | None:
    """The one effort word a format with efforts only (OpenAI Chat and Responses) writes
    for canonical ``reasoning``: the effort; ``none`` for thinking disabled; a budget's
    effort by the table; ``high`` for adaptive thinking (Claude's default effort). Each
    crossing is a ``setting`` loss naming what was sent."""
    at = ("reasoning",)
    effort: str | None = reasoning.get("effort")
    enabled, budget, adaptive = reasoning.get("enabled"), reasoning.get("budget_tokens"), reasoning.get("adaptive")
    if adaptive is False:
        losses.add((*at, "adaptive"), "adaptive=False", f"{wire} has no such switch", "setting")
    if enabled is False or (budget == 0 and enabled is None and not adaptive):
        if effort not in (None, "none"):
            losses.add(
                (*at, "effort"), f"effort {effort!r} beside thinking disabled", "sent as effort 'none'", "setting"
            )
        return "none"
    if effort is not None:
        if budget is not None:
            losses.add((*at, "budget_tokens"), f"thinking budget {budget}", f"{wire} takes the effort only", "setting")
        elif not (enabled or adaptive) and effort != "none":
            why = f"{wire}'s effort turns reasoning on too (it reads back as thinking switched on)"
            losses.add((*at, "effort"), f"effort {effort!r} without thinking", why, "setting")
        return effort
    if budget is not None:
        effort = effort_for_budget(budget)
        losses.add((*at, "budget_tokens"), f"thinking budget {budget}", f"sent as effort {effort!r}", "setting")
        return effort
    if adaptive or enabled:
        effort = ADAPTIVE_EFFORT if adaptive else SWITCHED_ON_EFFORT
        what = "adaptive thinking" if adaptive else "reasoning switched on"
        losses.add((*at, "adaptive" if adaptive else "enabled"), what, f"sent as effort {effort!r}", "setting")
        return effort
    return None


def budget_table() -> str:
    """The docs' table of efforts and budgets (generated, so it cannot drift)."""
    lines = ["| effort | budget written | a budget reads as this effort when |", "| --- | --- | --- |"]
    lower = 0
    reads: dict[str, str] = {}
    for bound, effort in EFFORT_BOUNDS:
        reads[effort] = "0" if bound == 1 else f"{lower:,} to {bound - 1:,}"
        lower = bound
    reads[LARGEST_EFFORT] = f"{lower:,} or more"
    lines.append("| `none` | 0 (thinking off) | 0 |")
    for effort, budget in EFFORT_BUDGETS.items():
        lines.append(f"| `{effort}` | {budget:,} | {reads.get(effort, 'never')} |")
    return "\n".join(lines)
