"""What the Anthropic Messages API accepts today, by API version and model family.

API versions (the ``anthropic-version`` header): ``2023-06-01`` and ``2026-10-21``, the
first new one since 2023, sent by default by every official SDK from Python 2.0.0 on
(``ANTHROPIC_API_VERSION = "2026-10-21"`` in ``anthropic/_constants.py`` of SDK 2.12), so
it is the default here. ``options={"api_version": "2023-06-01"}`` keeps the older rules.
https://platform.claude.com/docs/en/api/versioning ;
https://platform.claude.com/docs/en/api/migration-2026-10-21

A request read from Anthropic that carries what only ``2023-06-01`` accepts (``temperature``
and the rest: a valid body shows the version it was sent with) keeps that version for its
own re-encode (``request.py``), so a same-provider round trip stays exact.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from chatcodec._providers.anthropic.markers import DEFAULT_MAX_TOKENS
from chatcodec._providers.families.claude.model_limits import MODELS_SOURCE, NO_EXTENDED_THINKING, drop_thinking
from chatcodec._providers.families.claude.model_rules import (
    BEFORE_SYSTEM_TURNS,
    HAIKU_5_5_SOURCE,
    NO_SAMPLING,
    PLACEMENT_SOURCE,
    SAMPLING_DEFAULTS,
    SAMPLING_SOURCE,
    SYSTEM_MODELS_SOURCE,
    SYSTEM_SOURCE,
    SYSTEM_TURNS,
    ThinkingPlace,
    adaptive_for_budget,
    cap_effort,
    claude_rule,
    drop_disabled_thinking,
    drop_prefill,
    drop_sampling,
    drop_top_p_beside_temperature,
    ends_in_server_tool_use,
    fold_system_turns,
    place_system_turns,
    unforced_tool_choice,
)
from chatcodec.codec_kit import as_dict, as_list, is_default_sampling, is_dict, range_rule
from chatcodec.contract import ProviderRules, RequiredField, RuleCall, SamplingRange, TargetRule

if TYPE_CHECKING:
    from chatcodec._providers.anthropic.servers.server import Server

_MESSAGES = "https://platform.claude.com/docs/en/api/messages"

OLD = "2023-06-01"
"""The API version of 2023 to 2026."""
NEW = "2026-10-21"
"""The API version official SDKs send since Python 2.0.0 (2026-10-21)."""

_MIGRATION = "https://platform.claude.com/docs/en/api/migration-2026-10-21"
_KEEP_OLD = f'api_version="{OLD}"'


def _sampling_removed(call: RuleCall) -> None:
    """``temperature``, ``top_p`` and ``top_k`` are gone: 400 "Extra inputs are not
    permitted", even ``temperature: 1.0``."""
    body = call.body
    for key in _REMOVED:
        if key not in body:
            continue
        value = body.pop(key)
        default = SAMPLING_DEFAULTS.get(key)
        if default is None or not is_default_sampling(value, default):
            call.report((key,), f"{key} {value!r}", "not sent")


_REMOVED = ("temperature", "top_p", "top_k")


def _assistant_document(call: RuleCall) -> None:
    """A ``document`` block directly in an assistant turn is a 400: it moves to the end
    of the preceding user turn, or is dropped when there is none.

    It runs whenever the body holds a document (a user's, a tool result's: the writer notes
    any), so the turns holding none are passed over by a look each, not a call a block."""
    messages = as_list(call.body.get("messages")) or []
    emptied: list[int] = []
    for index, message in enumerate(messages):
        if not is_dict(message) or message.get("role") != "assistant":
            continue
        fields = message
        blocks = as_list(fields.get("content"))
        if not blocks or not _holds_document(blocks):
            continue
        fields["content"] = [block for block in blocks if not _is_document(block)]
        if not fields["content"]:
            emptied.append(index)  # an empty turn is refused too; the API joins the user turns around it
        documents = [block for block in blocks if _is_document(block)]
        target = _preceding_user(messages, index)
        if target is None:
            call.report(("messages", index), "document in an assistant turn", "dropped: no user turn before it")
            continue
        content = target.get("content")
        target["content"] = [
            *([{"type": "text", "text": content}] if isinstance(content, str) else content or []),
            *documents,
        ]
        call.report(("messages", index), "document in an assistant turn", "moved to the end of the user turn before it")
    if emptied:
        call.body["messages"] = [message for index, message in enumerate(messages) if index not in emptied]


def _holds_document(blocks: list[Any]) -> bool:
    for block in blocks:  # noqa: SIM110 - a loop: a generator's frame and a call a block cost more
        if is_dict(block) and block.get("type") == "document":
            return True
    return False


def _is_document(block: object) -> bool:
    fields = as_dict(block)
    return fields is not None and fields.get("type") == "document"


def _preceding_user(messages: list[Any], index: int) -> dict[str, Any] | None:
    for message in reversed(messages[:index]):
        fields = as_dict(message)
        if fields is not None and fields.get("role") == "user":
            return fields
    return None


def _user_text_citations(call: RuleCall) -> None:
    """A user ``text`` block with non-empty ``citations``, directly or inside a
    ``search_result`` (also one in a ``tool_result``), is a 400: the citations are dropped.
    Blocks are copied, never changed in place: a block kept whole from the request's
    ``provider_metadata`` is the caller's own object."""
    for index, message in enumerate(as_list(call.body.get("messages")) or []):
        fields = as_dict(message)
        if fields is not None and fields.get("role") == "user":
            stripped = _without_citations(call, as_list(fields.get("content")) or [], ("messages", index, "content"))
            if stripped is not None:
                fields["content"] = stripped


def _without_citations(call: RuleCall, blocks: list[Any], at: tuple[str | int, ...]) -> list[Any] | None:
    """``blocks`` without user-text citations, or ``None`` when there were none."""
    changed = list(blocks)
    found = False
    for index, block in enumerate(blocks):
        fields = as_dict(block)
        if fields is None:
            continue
        if fields.get("type") == "text" and fields.get("citations"):
            changed[index] = {key: value for key, value in fields.items() if key != "citations"}
            found = True
            call.report((*at, index, "citations"), "citations on user text", "not sent")
        elif fields.get("type") in ("search_result", "tool_result"):
            inner = _without_citations(call, as_list(fields.get("content")) or [], (*at, index, "content"))
            if inner is not None:
                changed[index] = {**fields, "content": inner}
                found = True
    return changed if found else None


_SAMPLING = {"temperature": "temperature", "top_p": "top_p", "top_k": "top_k"}
_THINKING = ThinkingPlace(("thinking",), ("output_config", "effort"))
_SAMPLING_KEYS = frozenset(_SAMPLING.values())
_THINKING_KEYS = frozenset(_THINKING.thinking[:1])
"""What the sampling and thinking rules act on (:attr:`~chatcodec.contract.TargetRule.reads`)."""


def _temperature_deprecated(call: RuleCall) -> None:
    """Opus 4.7+, Sonnet 5+, Haiku 5.5+, Fable 5+ and Mythos refuse a non-default
    ``temperature``, ``top_p`` or ``top_k``."""
    drop_sampling(call, call.body, _SAMPLING, ())


def _temperature_with_top_p(call: RuleCall) -> None:
    """Claude 4+ refuses ``temperature`` and ``top_p`` together: ``top_p`` goes."""
    drop_top_p_beside_temperature(call, call.body, ("temperature", "top_p"), ())


def _manual_thinking(call: RuleCall) -> None:
    """``thinking: {type: "enabled", budget_tokens}`` is refused (adaptive thinking only):
    sent as adaptive thinking at the effort the budget maps to."""
    adaptive_for_budget(call, _THINKING)


def _no_extended_thinking(call: RuleCall) -> None:
    """Claude 3, 3.5 Haiku and 3.5 Sonnet have no extended thinking: ``thinking`` not sent."""
    drop_thinking(call, _THINKING)


def _effort_up_to_high(call: RuleCall) -> None:
    """Claude 4 to 4.5 take efforts up to ``high``: ``xhigh`` and ``max`` sent as ``high``."""
    cap_effort(call, as_dict(call.body.get("output_config")), ("output_config",))


def _disabled_thinking(call: RuleCall) -> None:
    """Opus 5.5 and Fable 5.1 refuse ``thinking: {type: "disabled"}``: not sent."""
    drop_disabled_thinking(call, _THINKING)


def _forced_tool_choice(call: RuleCall) -> None:
    """Opus 5.5 and Fable 5.1 refuse ``tool_choice`` ``any`` or a named tool: sent as ``auto``."""
    unforced_tool_choice(call, ("tool_choice",), lambda choice: choice.get("type") in ("any", "tool"))


def _prefill(call: RuleCall) -> None:
    """Claude 4.6+ refuses a final assistant turn (prefill): not sent."""
    drop_prefill(call, ends_in_server_tool_use)


def _text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _system_turns(call: RuleCall) -> None:
    """Mid-conversation ``role: "system"`` turns exist only on Opus 4.8+, Sonnet 5.5+, Haiku
    5.5+, Fable 5+ and Mythos 5+ ("role 'system' is not supported on this model"): folded
    into the top-level ``system``."""
    fold_system_turns(call, _text_block)


def _system_placement(call: RuleCall) -> None:
    """Where the model takes system turns, one must follow a user turn (or an assistant
    turn ending in server tool use) and never another system turn: joined or folded."""
    place_system_turns(call, _text_block)


def version_shown(request: dict[str, Any], *, turns: bool = True) -> str | None:
    """``2023-06-01`` when a request body holds what only that version accepts (a sampling
    setting, an assistant ``document``, user-text ``citations``): it was written for it.
    ``turns=False``: the body is known to hold no such block (the one reader's closed
    schema of the common shapes takes none), so its turns are not walked."""
    if any(key in request for key in ("temperature", "top_p", "top_k")):
        return OLD
    if not turns:
        return None
    for message in as_list(request.get("messages")) or []:
        fields = as_dict(message) or {}
        blocks = as_list(fields.get("content")) or []
        if fields.get("role") == "assistant" and any(_is_document(block) for block in blocks):
            return OLD
        if fields.get("role") == "user" and _has_citations(blocks):
            return OLD
    return None


def _has_citations(blocks: list[Any]) -> bool:
    for block in blocks:
        fields = as_dict(block) or {}
        if fields.get("type") == "text" and fields.get("citations"):
            return True
        if fields.get("type") in ("search_result", "tool_result") and _has_citations(
            as_list(fields.get("content")) or []
        ):
            return True
    return False


FILLED_MAX_TOKENS = (
    f"the model's output limit ({DEFAULT_MAX_TOKENS} for a model not in families/claude/model_limits.py)"
)
"""What a request without ``max_tokens`` is sent (``request.py``), as the README row says it."""

RANGE_SOURCE = (
    "https://platform.claude.com/docs/en/api/messages (Required range: temperature and top_p 0 <= x <= 1, top_k x >= 0)"
)
SAMPLING_RANGES = (
    SamplingRange("temperature", 0.0, 1.0, RANGE_SOURCE),
    SamplingRange("top_p", 0.0, 1.0, RANGE_SOURCE),
    SamplingRange("top_k", 0, None, RANGE_SOURCE),
)
"""The Messages API's sampling ranges (OpenAI's and Gemini's temperature go to 2)."""


RULES = ProviderRules(
    provider="anthropic",
    api_versions=(OLD, NEW),
    default_version=NEW,
    version_source="https://platform.claude.com/docs/en/api/versioning",
    rules=(
        TargetRule(
            "sampling_removed",
            "`temperature`, `top_p`, `top_k` not sent (a default value silently)",
            _MIGRATION,
            _sampling_removed,
            versions=frozenset({NEW}),
            option=_KEEP_OLD,
            reads=_SAMPLING_KEYS,
        ),
        TargetRule(
            "assistant_document",
            "a `document` block in an assistant turn moves to the user turn before it (dropped if none)",
            _MIGRATION,
            _assistant_document,
            versions=frozenset({NEW}),
            option=_KEEP_OLD,
            looks_for="document",
        ),
        TargetRule(
            "user_text_citations",
            "`citations` on user `text` (also in `search_result`) not sent",
            _MIGRATION,
            _user_text_citations,
            versions=frozenset({NEW}),
            option=_KEEP_OLD,
            looks_for="citations",
        ),
        TargetRule(
            "temperature_deprecated",
            "a non-default `temperature`, `top_p` or `top_k` not sent",
            f"{SAMPLING_SOURCE} ; {HAIKU_5_5_SOURCE}",
            _temperature_deprecated,
            versions=frozenset({OLD}),
            families=(NO_SAMPLING,),
            reads=_SAMPLING_KEYS,
        ),
        claude_rule(
            "temperature_with_top_p",
            "`top_p` not sent beside `temperature`",
            _temperature_with_top_p,
            versions=frozenset({OLD}),
            reads=frozenset({"temperature", "top_p"}),
        ),
        claude_rule(
            "manual_thinking",
            "`thinking` `enabled` with `budget_tokens` sent as `adaptive`, with the effort the budget maps to",
            _manual_thinking,
            reads=_THINKING_KEYS,
        ),
        TargetRule(
            "no_extended_thinking",
            "`thinking` `enabled` or `adaptive` not sent",
            MODELS_SOURCE,
            _no_extended_thinking,
            families=(NO_EXTENDED_THINKING,),
            reads=_THINKING_KEYS,
        ),
        claude_rule(
            "effort_up_to_high",
            "`output_config.effort` `xhigh` or `max` sent as `high`",
            _effort_up_to_high,
            reads=frozenset({"output_config"}),
        ),
        claude_rule(
            "disabled_thinking",
            '`thinking: {type: "disabled"}` not sent (the model always thinks)',
            _disabled_thinking,
            reads=_THINKING_KEYS,
        ),
        claude_rule(
            "forced_tool_choice",
            "`tool_choice` `any` or a named `tool` sent as `auto`",
            _forced_tool_choice,
            reads=frozenset({"tool_choice"}),
        ),
        claude_rule(
            "prefill", "a final assistant turn (prefill) not sent (one ending in server tool use is kept)", _prefill
        ),
        TargetRule(
            "mid_conversation_system",
            'a `role: "system"` turn after the first turn moves to the end of the top-level `system`',
            f"{SYSTEM_SOURCE} ; {SYSTEM_MODELS_SOURCE}",
            _system_turns,
            families=(BEFORE_SYSTEM_TURNS,),
            looks_for="system turn",
        ),
        TargetRule(
            "system_turn_placement",
            "a system turn not right after a user turn moves to the top-level `system` (after one: joined to it)",
            PLACEMENT_SOURCE,
            _system_placement,
            families=(SYSTEM_TURNS,),
            looks_for="system turn",
        ),
        range_rule(SAMPLING_RANGES),
    ),
    required=(
        RequiredField("model", _MESSAGES),
        RequiredField("max_tokens", _MESSAGES, default=FILLED_MAX_TOKENS),
    ),
)
"""Anthropic's table (:mod:`chatcodec._providers.contract.target_rules`)."""


@cache
def server_rules(server: Server) -> ProviderRules:
    """The table in force for a body written for an Anthropic-compatible server
    (``options={"server": ...}``): the required fields and the sampling ranges (the
    server's own where it documents others), and none of the API-version or Claude-model
    rules. Those are the rules of Anthropic's API and of Claude models; such a server runs
    its own models behind the API's shape and says itself what it takes: DeepSeek
    documents ``anthropic-version`` as ignored and ``temperature`` and ``top_p`` as taken
    (https://api-docs.deepseek.com/guides/anthropic_api), MiniMax lists both as taken
    (https://platform.minimax.io/docs/api-reference/text-anthropic-api), and Kimi and Z.ai,
    publishing no list, serve Kimi and GLM models whose own APIs take both; Ollama lists
    ``temperature``, ``top_p`` and ``top_k`` as supported and ``anthropic-version`` as
    "accepted but not used" (https://docs.ollama.com/api/anthropic-compatibility), as the
    other local servers' request models take them. What a server does not take its record
    leaves out (:mod:`.servers.fitting`). A server running Claude itself (Bedrock's Mantle
    endpoint) keeps the API's table instead (:func:`.servers.fit_written`)."""
    ranges = SAMPLING_RANGES if server.sampling_ranges is None else server.sampling_ranges
    return ProviderRules(
        provider=RULES.provider,
        api_versions=RULES.api_versions,
        default_version=RULES.default_version,
        version_source=RULES.version_source,
        rules=(range_rule(ranges),),
        required=RULES.required,
    )
