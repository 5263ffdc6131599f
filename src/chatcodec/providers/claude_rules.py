"""Claude's model-family rules, served alike by Anthropic and by Bedrock Converse.

Both platforms run the same models, which refuse the same sampling settings whatever the
wire: Opus 4.7+, Sonnet 5 and Fable 5 refuse a non-default ``temperature`` ("`temperature`
is deprecated for this model"); Claude 4.5+ refuses ``temperature`` and ``top_p``
together, even at their defaults; mid-conversation ``role: "system"`` turns exist only on
Opus 4.8+ on the Claude API (not Bedrock or Vertex). The families are told by the model id:
``claude-opus-4-7``, ``claude-sonnet-4-5-20250929``, Bedrock's
``us.anthropic.claude-opus-4-7-v1:0``. Older ids (``claude-3-7-sonnet-...``) name no family
here, as they predate every rule.

Sources: https://platform.claude.com/docs/en/about-claude/models/migration-guide ;
https://github.com/BerriAI/litellm/issues/26444 (temperature, Anthropic);
https://github.com/pollinations/pollinations/pull/11319 (the same error on Bedrock);
https://github.com/browseros-ai/BrowserOS/issues/208 (temperature with top_p);
https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages .
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.providers.target_rules import ModelFamily, RuleCall, is_default

_MODEL_ID = re.compile(r"claude-(opus|sonnet|haiku|fable)-(\d{1,2})(?:[-.](\d{1,2}))?(?![0-9])")

TEMPERATURE_DEFAULT = 1.0
"""Claude's default ``temperature`` (the Messages API reference)."""
TOP_P_DEFAULT = 1.0
"""A ``top_p`` of 1 samples from every token: the same as sending none."""


@lru_cache(maxsize=256)
def claude_version(model: str) -> tuple[str, tuple[int, int]] | None:
    """``("opus", (4, 7))`` for ``claude-opus-4-7...``; ``None`` for any other id.

    Cached: every family rule asks it of the request's model on every request (a regex
    each time was about half of applying the target rules to a converted body), and a
    process talks to a handful of models."""
    found = _MODEL_ID.search(model.lower())
    if found is None:
        return None
    return found[1], (int(found[2]), int(found[3] or 0))


def _family(name: str, test: Callable[[str, tuple[int, int]], bool]) -> ModelFamily:
    def matches(model: str) -> bool:
        parsed = claude_version(model)
        return parsed is not None and test(*parsed)

    return ModelFamily(name, matches)


NO_TEMPERATURE = _family(
    "Claude Opus 4.7+, Sonnet 5+, Fable 5+",
    lambda name, version: (name == "opus" and version >= (4, 7)) or (name in ("sonnet", "fable") and version >= (5, 0)),
)
"""Models that refuse any non-default ``temperature``."""

CLAUDE_4_5_UP = _family("Claude 4.5+", lambda name, version: version >= (4, 5))
"""Models that refuse ``temperature`` and ``top_p`` together."""

BEFORE_OPUS_4_8 = _family("Claude before Opus 4.8", lambda name, version: not (name == "opus" and version >= (4, 8)))
"""Claude models without mid-conversation system turns on the Claude API."""

EVERY_CLAUDE = _family("every Claude model", lambda name, version: True)
"""Every recognized Claude model (Bedrock serves none with mid-conversation system turns)."""

SAMPLING_SOURCE = "https://platform.claude.com/docs/en/about-claude/models/migration-guide"
PAIR_SOURCE = "https://github.com/browseros-ai/BrowserOS/issues/208"
SYSTEM_SOURCE = "https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages"


def drop_temperature(call: RuleCall, holder: dict[str, Any], key: str, at: tuple[str, ...]) -> None:
    """Drop ``holder[key]`` (the temperature); a default value goes without a report."""
    if key not in holder:
        return
    value = holder.pop(key)
    if not is_default(value, TEMPERATURE_DEFAULT):
        call.report((*at, key), f"temperature {value!r}", "not sent")


def drop_top_p_beside_temperature(
    call: RuleCall, holder: dict[str, Any], keys: tuple[str, str], at: tuple[str, ...]
) -> None:
    """With both ``temperature`` and ``top_p`` in ``holder``, keep the temperature."""
    temperature, top_p = keys
    if temperature in holder and top_p in holder:
        value = holder.pop(top_p)
        if not is_default(value, TOP_P_DEFAULT):
            call.report((*at, top_p), f"top_p {value!r}", "not sent beside temperature")


def fold_system_turns(call: RuleCall, text_block: Callable[[str], dict[str, Any]]) -> None:
    """Move every ``role: "system"`` turn of ``messages`` to the end of the top-level
    ``system`` (a string system becomes its ``text_block``), reporting each."""
    messages = as_list(call.body.get("messages"))
    if messages is None:
        return
    kept: list[Any] = []
    folded: list[Any] = []
    for index, message in enumerate(messages):
        fields = as_dict(message)
        if fields is None or fields.get("role") != "system":
            kept.append(message)
            continue
        content = fields.get("content")
        folded.extend([text_block(content)] if isinstance(content, str) else content or [])
        call.report(("messages", index), "mid-conversation system message", "moved to the end of the top-level system")
    if folded:
        call.body["messages"] = kept
        system = call.body.get("system")
        call.body["system"] = [*([text_block(system)] if isinstance(system, str) else system or []), *folded]
