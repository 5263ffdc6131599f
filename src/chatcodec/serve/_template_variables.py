"""The template variables a harness asks for, where chatcodec renders the prompt (a token
upstream: ``vllm-generate``, ``sglang-generate``).

vLLM and SGLang take ``chat_template_kwargs`` on a Chat Completions body and pass them to the
template (``apply_chat_template(..., **chat_template_kwargs)``: ``enable_thinking: false``
turns Qwen3's reasoning off). A harness that sends them to the gateway means the same, so the
gateway renders with them. The fronts' own thinking switches say it in their words: an
Anthropic ``thinking: {"type": "disabled"}``, an OpenAI ``reasoning_effort: "none"`` (read as
the canonical ``reasoning``) is ``enable_thinking: false`` for a template that reads
``enable_thinking`` (Qwen3, GLM-4.5), and an effort is ``reasoning_effort`` for one that reads
that (gpt-oss). A template that reads neither is rendered as it was: nothing is guessed.
``chat_template_kwargs`` named by the harness win over a switch.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec._training.gateway import family_text

KWARGS = "chat_template_kwargs"
"""vLLM's and SGLang's body field (``ChatCompletionRequest.chat_template_kwargs``)."""


def _reads(name: str) -> re.Pattern[str]:
    """A template names ``name`` as a variable of its own (not a message's attribute)."""
    return re.compile(rf"(?<![.\w]){name}\b")


_ENABLE_THINKING = _reads("enable_thinking")
_REASONING_EFFORT = _reads("reasoning_effort")


def template_variables(request: Mapping[str, Any], template: str) -> dict[str, Any] | None:
    """The variables ``template`` (a family's name or Jinja text) is rendered with for
    ``request`` (canonical data), or None; a ``chat_template_kwargs`` that is no object of
    names is a ``ValueError`` naming it (the caller's 400)."""
    variables: dict[str, Any] = {}
    reasoning = as_dict(request.get("reasoning")) or {}
    effort = reasoning.get("effort")
    if reasoning.get("enabled") is not None or effort is not None:
        text = family_text(template)
        if _ENABLE_THINKING.search(text):
            variables["enable_thinking"] = reasoning.get("enabled") is not False and effort != "none"
        if isinstance(effort, str) and effort != "none" and _REASONING_EFFORT.search(text):
            variables["reasoning_effort"] = effort
    for front, options in (as_dict(request.get("provider_options")) or {}).items():
        asked = (as_dict(options) or {}).get(KWARGS)
        if asked is None:
            continue
        named = as_dict(asked)
        if named is None:
            raise ValueError(f"{KWARGS} (the {front} body's) is an object of template variables, not {asked!r:.40}")
        variables.update(named)
    return variables or None
