"""What Bedrock Converse accepts today, by model family: Claude's rules (``families/claude/model_rules.py``).

Converse has one API version, ``2023-09-30`` (botocore's ``bedrock-runtime``); the
``anthropic-version`` header is not part of it, so Anthropic's ``2026-10-21`` rules do not
apply. The Claude models refuse the same sampling settings, manual thinking budgets,
prefills and forced tool choices here as on the Claude API
(https://github.com/pollinations/pollinations/pull/11319), and no Claude model on Converse
takes a mid-conversation ``role: "system"`` turn (Converse's roles are user and assistant).
Amazon Nova's models get their model facts (``families/aws/nova_models.py``: Micro reads
text only, one video and Nova 2 Lite's image counts, 25 MB of media in the request, five
documents, ``reasoningConfig`` on Nova 2 only), the same rules Nova's InvokeModel body
applies (``families/aws/nova_rules.py``), with documents, which only Converse carries.
Other models on Bedrock (Llama...) get the permissive rule: nothing is changed,
but for prompt caching: only Claude and Amazon Nova models take ``cachePoint`` blocks, and
a model of another vendor (Llama, DeepSeek R1, Mistral, Nemotron...) refuses a request
holding one ("You invoked an unsupported model or your request did not allow prompt
caching": litellm#39210; the Bedrock prompt-caching guide lists the supported models), so
they are not sent to such a model, each reported.
"""

from __future__ import annotations

import re
from typing import Any

from chatcodec._providers.families.aws.nova_models import NO_REASONING, SCHEMA_V1_SOURCE, THINKING_SOURCE
from chatcodec._providers.families.aws.nova_reasoning import drop_claude_reasoning
from chatcodec._providers.families.aws.nova_rules import drop_reasoning_config, media_rules
from chatcodec._providers.families.claude.model_limits import MODELS_SOURCE, NO_EXTENDED_THINKING, drop_thinking
from chatcodec._providers.families.claude.model_rules import (
    EVERY_CLAUDE,
    HAIKU_5_5_SOURCE,
    NO_SAMPLING,
    SAMPLING_SOURCE,
    SYSTEM_SOURCE,
    ThinkingPlace,
    adaptive_for_budget,
    cap_effort,
    claude_rule,
    drop_disabled_thinking,
    drop_prefill,
    drop_sampling,
    drop_top_p_beside_temperature,
    fold_system_turns,
    unforced_tool_choice,
)
from chatcodec.codec_kit import as_dict, as_list, range_rule
from chatcodec.contract import ModelFamily, ProviderRules, RuleCall, SamplingRange, TargetRule

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


def _no_extended_thinking(call: RuleCall) -> None:
    """Claude 3, 3.5 Haiku and 3.5 Sonnet have no extended thinking: ``thinking`` not sent."""
    drop_thinking(call, _THINKING)


def _disabled_thinking(call: RuleCall) -> None:
    """Opus 5.5 and Fable 5.1 refuse disabled thinking: not sent."""
    drop_disabled_thinking(call, _THINKING)


def _forced_tool_choice(call: RuleCall) -> None:
    """Opus 5.5 and Fable 5.1 refuse a forced ``toolChoice`` (``any``, ``tool``): sent as ``auto``."""
    unforced_tool_choice(call, ("toolConfig", "toolChoice"), lambda choice: bool(choice.keys() & {"any", "tool"}))


def _prefill(call: RuleCall) -> None:
    """Claude 4.6+ refuses a final assistant turn (prefill): not sent."""
    drop_prefill(call, lambda message: False)


_VENDOR = re.compile(r"^(?:[a-z]{2,4}\.)?([a-z0-9-]+)\.")
_UNCACHED_VENDORS = frozenset(
    {"meta", "deepseek", "mistral", "cohere", "ai21", "nvidia", "qwen", "openai", "writer", "google", "minimax"}
    | {"moonshot", "moonshotai", "twelvelabs", "stability"}
)
"""Bedrock model vendors (the id's first dotted word after a cross-region prefix such as
``us.``) none of whose models take prompt caching; ``amazon`` is told by model (Nova
takes it, Titan does not)."""
CACHING_SOURCE = (
    "https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html ; "
    "https://github.com/BerriAI/litellm/issues/39210"
)


def _uncached(model: str) -> bool:
    """Whether a Bedrock model id names a model without prompt caching; an id this cannot
    read (an inference profile ARN, a custom model) is not one (the permissive rule)."""
    found = _VENDOR.match(model)
    if found is None:
        return False
    vendor = found[1]
    return vendor in _UNCACHED_VENDORS or (vendor == "amazon" and ".titan" in model)


NO_PROMPT_CACHING = ModelFamily("models without prompt caching (Llama, DeepSeek, Mistral, Titan...)", _uncached)


def _cache_points(call: RuleCall) -> None:
    """A model without prompt caching refuses ``cachePoint`` blocks: none is sent (from
    ``system``, each message's ``content`` and ``toolConfig.tools``)."""
    places: list[tuple[tuple[str | int, ...], object]] = [(("system",), call.body.get("system"))]
    for index, message in enumerate(as_list(call.body.get("messages")) or ()):
        held = as_dict(message)
        if held is not None:
            places.append((("messages", index, "content"), held.get("content")))
    tool_config = as_dict(call.body.get("toolConfig"))
    if tool_config is not None:
        places.append((("toolConfig", "tools"), tool_config.get("tools")))
    for at, value in places:
        blocks = as_list(value)
        if not blocks or not any(isinstance(block, dict) and "cachePoint" in block for block in blocks):
            continue
        kept: list[Any] = []
        for position, block in enumerate(blocks):
            if isinstance(block, dict) and "cachePoint" in block:
                call.report((*at, position), "cachePoint", "not sent: the model has no prompt caching")
            else:
                kept.append(block)
        _put(call.body, at, kept)


def _put(body: dict[str, Any], at: tuple[str | int, ...], blocks: list[Any]) -> None:
    """Replace the list at ``at`` (two or three steps from the body) with ``blocks``."""
    holder: Any = body
    for step in at[:-1]:
        holder = holder[step]
    holder[at[-1]] = blocks


RANGE_SOURCE = (
    "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InferenceConfiguration.html "
    "(temperature, topP: minimum 0, maximum 1)"
)


SAMPLING_RANGES = (
    SamplingRange("temperature", 0.0, 1.0, RANGE_SOURCE, at=("inferenceConfig",)),
    SamplingRange("topP", 0.0, 1.0, RANGE_SOURCE, at=("inferenceConfig",)),
)
"""Converse's sampling ranges, the same for every model (OpenAI's and Gemini's temperature go to 2)."""


def _effort_up_to_high(call: RuleCall) -> None:
    """Claude 4 to 4.5 take efforts up to ``high``: ``xhigh`` and ``max`` sent as ``high``."""
    cap_effort(call, as_dict(call.body.get("outputConfig")), ("outputConfig",))


def _nova_reasoning_config(call: RuleCall) -> None:
    """A Nova model without extended thinking takes no ``reasoningConfig`` (Converse carries
    Nova's in ``additionalModelRequestFields``, or in an ``inferenceConfig`` object there):
    not sent, as Nova's own body does (``families/aws/nova_rules.py``); nor Claude's
    spellings of reasoning (``thinking``, ``outputConfig.effort``)."""
    drop_claude_reasoning(call)
    fields = as_dict(call.body.get("additionalModelRequestFields"))
    inner = as_dict(fields.get("inferenceConfig")) if fields is not None else None
    at = ("additionalModelRequestFields",)
    held = fields is not None and "reasoningConfig" in fields
    drop_reasoning_config(call, ((fields, at), (inner, (*at, "inferenceConfig"))))
    if held and not fields:  # it held nothing else
        del call.body["additionalModelRequestFields"]


DOCUMENT_TEXT_SOURCE = (
    "https://github.com/BerriAI/litellm/pull/36499 ; https://github.com/maximhq/bifrost/pull/5817 "
    '(Converse answers 400 "A text block must be included when using documents. Add a text block and retry '
    'your request.", as to Claude Code reading a PDF; litellm and bifrost add a placeholder text block)'
)
DOCUMENT_TEXT = "."
"""The text sent beside the documents of a user turn with none: the least text Converse
takes (it refuses a blank text block too: "text content blocks must contain non-whitespace
text"), so the model reads nothing that was not asked."""


def _document_text(call: RuleCall) -> None:
    """A user turn holding a document and no text gets one text block, after its blocks
    (before a trailing ``cachePoint``, which marks the end of what is cached)."""
    for index, message in enumerate(as_list(call.body.get("messages")) or ()):
        fields = as_dict(message)
        if fields is None or fields.get("role") != "user":
            continue
        blocks = as_list(fields.get("content"))
        if not blocks or not any(isinstance(block, dict) and "document" in block for block in blocks):
            continue
        if any(_has_text(block) for block in blocks):
            continue
        end = len(blocks)
        while end and isinstance(blocks[end - 1], dict) and "cachePoint" in blocks[end - 1]:
            end -= 1
        fields["content"] = [*blocks[:end], {"text": DOCUMENT_TEXT}, *blocks[end:]]
        why = f"added {DOCUMENT_TEXT!r}: Converse refuses a message holding documents and no text"
        call.report(("messages", index, "content", end), "text block", why)


def _has_text(block: object) -> bool:
    fields = as_dict(block)
    text = fields.get("text") if fields is not None else None
    return isinstance(text, str) and bool(text.strip())


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
        claude_rule(
            "temperature_with_top_p", "`inferenceConfig.topP` not sent beside `temperature`", _temperature_with_top_p
        ),
        claude_rule(
            "manual_thinking",
            "`thinking` `enabled` with `budget_tokens` sent as `adaptive`, with `outputConfig.effort` from the budget",
            _manual_thinking,
        ),
        TargetRule(
            "no_extended_thinking",
            "`additionalModelRequestFields.thinking` `enabled` or `adaptive` not sent",
            MODELS_SOURCE,
            _no_extended_thinking,
            families=(NO_EXTENDED_THINKING,),
        ),
        claude_rule("effort_up_to_high", "`outputConfig.effort` `xhigh` or `max` sent as `high`", _effort_up_to_high),
        claude_rule(
            "disabled_thinking", '`thinking: {type: "disabled"}` not sent (the model always thinks)', _disabled_thinking
        ),
        claude_rule(
            "forced_tool_choice", "`toolConfig.toolChoice` `any` or `tool` sent as `auto`", _forced_tool_choice
        ),
        claude_rule("prefill", "a final assistant turn (prefill) not sent", _prefill),
        TargetRule(
            "mid_conversation_system",
            'a `role: "system"` turn moves to the end of the top-level `system`',
            SYSTEM_SOURCE,
            _system_turns,
            families=(EVERY_CLAUDE,),
            looks_for="system turn",
        ),
        TargetRule(
            "cache_points",
            "`cachePoint` blocks not sent",
            CACHING_SOURCE,
            _cache_points,
            families=(NO_PROMPT_CACHING,),
        ),
        *media_rules(documents=True),
        TargetRule(
            "document_text",
            f"a user turn holding a document and no text is sent a text block `{DOCUMENT_TEXT}`",
            DOCUMENT_TEXT_SOURCE,
            _document_text,
            looks_for="document",
        ),
        TargetRule(
            "reasoning_config",
            "`additionalModelRequestFields.reasoningConfig` (or `thinking`, or `outputConfig.effort`) not sent",
            f"{THINKING_SOURCE} ; {SCHEMA_V1_SOURCE}",
            _nova_reasoning_config,
            families=(NO_REASONING,),
        ),
        range_rule(SAMPLING_RANGES),
    ),
)
"""Bedrock Converse's table (:mod:`chatcodec._providers.contract.target_rules`)."""
