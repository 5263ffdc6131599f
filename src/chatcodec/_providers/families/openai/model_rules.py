"""OpenAI's model-family rules, served alike by Chat Completions and Responses.

The GPT-5 models reason, and a reasoning model takes no sampling settings: GPT-5.x takes
``temperature`` and ``top_p`` (and ``logprobs``) only with reasoning effort ``none``
(OpenAI's latest-model guide, as cited in https://github.com/vercel/ai/issues/10940 ;
https://github.com/langgenius/dify-official-plugins/issues/2820); anything else is a 400.
Effort ``none`` exists from gpt-5.1 on, which also sends it by default; the gpt-5 models
before it (``gpt-5``, ``gpt-5-mini``, ``gpt-5-nano``, ``gpt-5-codex``) default to
``medium`` and take ``minimal`` at the lowest (Azure's ``ReasoningEffort`` doc, a mirror of
OpenAI's enum doc; the table in
https://community.openai.com/t/request-for-compatibility-matrix-reasoning-effort-sampling-parameters-across-gpt-5-series/1371738).

The families are told by the model id: ``gpt-5``, ``gpt-5-mini``, ``gpt-5.2-codex``,
``openai/gpt-5.1`` (a gateway's prefix), ``gpt-6.1-sol``. The ``-chat`` snapshots
(``gpt-5-chat-latest``) are chat models without reasoning effort: no rule here applies to
them.

**gpt-6.** The GPT-6 family (``gpt-6``, ``gpt-6-astra``, ``gpt-6.1-sol``...) is a
reasoning family published after these rules, and not every member takes effort ``none``
(openai 3.54 docstrings). chatcodec gives a ``gpt-6*`` id GPT-5.1's rules: sampling
settings only beside effort ``none`` (the effort it then sends when none is given),
because a dropped ``temperature`` is reported while a sent one is a 400; an effort ``none``
it is given is passed on as given (chatcodec does not know which members refuse it); the
Chat Completions rule on function tools (``rules.py`` of ``openai_chat``, seen on gpt-5.2
to 5.6) does not apply.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from chatcodec._providers.contract.target_rules import ModelFamily, RuleCall, is_default_sampling

_MODEL_ID = re.compile(r"gpt-(\d{1,2})(?:\.(\d{1,2}))?(?![0-9])")

SAMPLING_DEFAULTS: Mapping[str, float] = {"temperature": 1.0, "top_p": 1.0}
"""The sampling values that change nothing (``logprobs: false`` is checked apart)."""


@lru_cache(maxsize=256)
def gpt_version(model: str) -> tuple[int, int] | None:
    """``(5, 2)`` for ``gpt-5.2-codex``, ``(5, 0)`` for ``gpt-5-mini``; ``None`` for another
    id or a ``-chat`` snapshot (looked up for every request: kept)."""
    lowered = model.lower()
    found = _MODEL_ID.search(lowered)
    if found is None or "-chat" in lowered:
        return None
    return int(found[1]), int(found[2] or 0)


def _family(name: str, low: tuple[int, int], high: tuple[int, int]) -> ModelFamily:
    def matches(model: str) -> bool:
        version = gpt_version(model)
        return version is not None and low <= version <= high

    return ModelFamily(name, matches)


GPT_5_UP = _family("GPT-5 and later (gpt-6 included)", (5, 0), (99, 99))
"""Reasoning models: sampling settings only beside effort ``none``."""
GPT_5_BEFORE_5_1 = _family("gpt-5 before 5.1", (5, 0), (5, 0))
"""Models without effort ``none`` (``minimal`` is their lowest)."""

SAMPLING_SOURCE = (
    "https://github.com/vercel/ai/issues/10940 ; https://github.com/langgenius/dify-official-plugins/issues/2820"
)
EFFORT_SOURCE = "https://community.openai.com/t/request-for-compatibility-matrix-reasoning-effort-sampling-parameters-across-gpt-5-series/1371738"


def default_effort(model: str | None) -> str:
    """The effort a GPT-5 model uses when none is sent: ``medium`` before gpt-5.1,
    ``none`` from it on (gpt-6 included, module docstring)."""
    version = gpt_version(model) if model is not None else None
    return "medium" if version == (5, 0) else "none"


def drop_sampling_beside_reasoning(
    call: RuleCall, effort: object, keys: Mapping[str, str], holder: dict[str, Any] | None = None
) -> None:
    """Unless the effort in force (sent, else the model's default) is ``none``, drop the
    sampling settings ``keys`` names (canonical name -> its key in ``holder``, the body by
    default); a default value goes without a report."""
    in_force = effort if isinstance(effort, str) else default_effort(call.model)
    if in_force == "none":
        return
    target = call.body if holder is None else holder
    for name, key in keys.items():
        if key not in target:
            continue
        value = target.pop(key)
        default = SAMPLING_DEFAULTS.get(name)
        silent = value is False if default is None else is_default_sampling(value, default)
        if not silent:
            call.report(
                (key,), f"{name} {value!r}", f"not sent: the model takes it only at effort 'none', not {in_force!r}"
            )


def minimal_for_none(call: RuleCall, holder: dict[str, Any] | None, key: str, at: tuple[str, ...]) -> None:
    """Effort ``none`` (thinking disabled, from another format) on a model without it: sent
    as ``minimal``, its lowest."""
    if holder is not None and holder.get(key) == "none":
        holder[key] = "minimal"
        call.report((*at, key), "reasoning effort 'none'", "sent as 'minimal': the model has no effort 'none'")
