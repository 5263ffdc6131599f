"""Claude's model-family rules, served alike by Anthropic and by Bedrock Converse.

Both platforms run the same models, which refuse the same requests whatever the wire. The
families are told by the model id: ``claude-opus-4-7``, ``claude-sonnet-4-5-20250929``,
Bedrock's ``us.anthropic.claude-opus-4-7-v1:0``, ``claude-mythos-preview`` (read as version 5.-1:
it behaves as Mythos 5 and comes before it). Older ids (``claude-3-7-sonnet-...``) name no family here, as they
predate every rule. What each family refuses (Anthropic's model-migration guide, in
``anthropics/skills`` and at platform.claude.com, unless named otherwise):

- a non-default ``temperature``, ``top_p`` or ``top_k``: Opus 4.7+, Sonnet 5+, Haiku 5.5+,
  Fable 5+ and Mythos ("`temperature` is deprecated for this model"; Haiku 5.5's
  "what's new" page);
- ``temperature`` and ``top_p`` together, even at their defaults: every Claude 4+ model
  ("Passing both will error on every Claude 4+ model");
- a manual thinking budget (``{type: "enabled", budget_tokens}``): the same models as the
  sampling settings (adaptive thinking only);
- ``thinking: {type: "disabled"}`` and a forced ``tool_choice``: Opus 5.5 and Fable 5.1,
  which also verify only thinking they signed themselves (what's new in Opus 5.5);
- a final assistant turn (a prefill): Opus 4.6, Sonnet 4.6 and every later model;
- mid-conversation ``role: "system"`` turns: taken only by Opus 4.8+, Sonnet 5.5+, Haiku
  5.5+, Fable 5+ and Mythos 5+ on the Claude API (not Sonnet 5, whose page says to use the
  top-level ``system``; not Bedrock Converse, whose roles are user and assistant), and
  there only right after a user turn (or an assistant turn ending in server tool use),
  never two in a row (Bedrock's Claude guide states the placement).

Sources: https://platform.claude.com/docs/en/about-claude/models/migration-guide ;
https://github.com/anthropics/skills (claude-api skill, models and migration);
https://platform.claude.com/docs/en/models/haiku-5-5/whats-new-haiku-5-5 ;
https://platform.claude.com/docs/en/models/opus-5-5/whats-new-opus-5-5 ;
https://github.com/BerriAI/litellm/issues/26444 (temperature, Anthropic);
https://github.com/pollinations/pollinations/pull/11319 (the same error on Bedrock);
https://github.com/open-webui/functions/issues/9 (temperature with top_p on Opus 4.1);
https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages ;
https://platform.claude.com/docs/ja/build-with-claude/mid-conversation-system-messages.md (the models since
Opus 4.8, Sonnet 5 excluded); https://github.com/anthropics/claude-code/releases/tag/v2.1.201 ;
https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-mid-conversation-system.html .
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from typing import Any

from chatcodec._narrow import DICT_GET, as_dict, as_list, is_dict
from chatcodec._providers.contract.target_rules import ModelFamily, RuleCall, TargetRule, is_default_sampling
from chatcodec._providers.kit.reasoning import effort_for_budget

_MODEL_ID = re.compile(r"claude-(opus|sonnet|haiku|fable|mythos)-(\d{1,2}|preview)(?:[-.](\d{1,2}))?(?![0-9])")

TEMPERATURE_DEFAULT = 1.0
"""Claude's default ``temperature`` (the Messages API reference)."""
TOP_P_DEFAULT = 1.0
"""A ``top_p`` of 1 samples from every token: the same as sending none."""
SAMPLING_DEFAULTS: Mapping[str, float] = {"temperature": TEMPERATURE_DEFAULT, "top_p": TOP_P_DEFAULT}
"""The sampling settings with a value that changes nothing (``top_k`` has none)."""


@lru_cache(maxsize=256)
def claude_version(model: str) -> tuple[str, tuple[int, int]] | None:
    """``("opus", (4, 7))`` for ``claude-opus-4-7...``; ``None`` for any other id.
    ``claude-mythos-preview`` is ``("mythos", (5, -1))``: it behaves as Mythos 5 and came
    before it (it takes no mid-conversation system turns).

    Cached: every family rule asks it of the request's model on every request (a regex
    each time was about half of applying the target rules to a converted body), and a
    process talks to a handful of models."""
    found = _MODEL_ID.search(model.lower())
    if found is None:
        return None
    if found[2] == "preview":
        return found[1], (5, -1)
    return found[1], (int(found[2]), int(found[3] or 0))


def _family(name: str, test: Callable[[str, tuple[int, int]], bool]) -> ModelFamily:
    def matches(model: str) -> bool:
        parsed = claude_version(model)
        return parsed is not None and test(*parsed)

    return ModelFamily(name, matches)


_FIRST_ADAPTIVE_ONLY = {"opus": (4, 7), "sonnet": (5, 0), "haiku": (5, 5), "fable": (5, 0), "mythos": (0, 0)}
_FIRST_SYSTEM_TURNS = {"opus": (4, 8), "sonnet": (5, 5), "haiku": (5, 5), "fable": (5, 0), "mythos": (5, 0)}
_FIRST_TIED_THINKING = {"opus": (5, 5), "fable": (5, 1)}


def _from(first: Mapping[str, tuple[int, int]]) -> Callable[[str, tuple[int, int]], bool]:
    """A test: the model is at or after the first version of its name in ``first``."""

    def test(name: str, version: tuple[int, int]) -> bool:
        return name in first and version >= first[name]

    return test


NO_SAMPLING = _family("Claude Opus 4.7+, Sonnet 5+, Haiku 5.5+, Fable 5+, Mythos", _from(_FIRST_ADAPTIVE_ONLY))
"""Models that refuse a non-default ``temperature``, ``top_p`` or ``top_k``, and a manual
thinking budget (adaptive thinking only)."""
ADAPTIVE_ONLY = NO_SAMPLING
"""Models that refuse ``{type: "enabled", budget_tokens}`` (the same models)."""

CLAUDE_4_UP = _family("Claude 4+", lambda name, version: version >= (4, 0))
"""Models that refuse ``temperature`` and ``top_p`` together."""

CLAUDE_4_6_UP = _family("Claude 4.6+", lambda name, version: version >= (4, 6))
"""Models that refuse a final assistant turn (prefill), and that take adaptive thinking."""

TIED_THINKING = _family("Claude Opus 5.5+, Fable 5.1+", _from(_FIRST_TIED_THINKING))
"""Models that refuse disabled thinking and a forced tool choice, and verify only the
thinking they signed themselves."""

_TAKES_SYSTEM_TURNS = _from(_FIRST_SYSTEM_TURNS)
BEFORE_SYSTEM_TURNS = _family(
    "Claude before Opus 4.8, Sonnet 5.5, Haiku 5.5, Fable 5, Mythos 5",
    lambda name, version: not _TAKES_SYSTEM_TURNS(name, version),
)
"""Claude models without mid-conversation system turns on the Claude API."""
SYSTEM_TURNS = _family("Claude Opus 4.8+, Sonnet 5.5+, Haiku 5.5+, Fable 5+, Mythos 5+", _TAKES_SYSTEM_TURNS)
"""Claude models taking mid-conversation system turns on the Claude API."""

EFFORT_UP_TO_HIGH = _family("Claude 4 to 4.5", lambda name, version: (4, 0) <= version < (4, 6))
"""Models whose ``effort`` stops at ``high`` (Opus 4.5: "max ... Opus 4.6 only", the
effort page; Bedrock's own error "output_config.effort: Input should be 'low', 'medium'
or 'high'", coder/coder#25356)."""
EFFORT_SOURCE = (
    "https://platform.claude.com/docs/en/build-with-claude/effort ; https://github.com/coder/coder/issues/25356"
)

EVERY_CLAUDE = _family("every Claude model", lambda name, version: True)
"""Every recognized Claude model (Bedrock serves none with mid-conversation system turns)."""


_OLD_CLAUDE_ID = re.compile(r"claude-(\d|instant)")
"""The ids of Claude 3 and before (``claude-3-7-sonnet-...``, ``claude-2.1``,
``claude-instant-1``): none takes adaptive thinking."""


def takes_adaptive_thinking(model: str | None) -> bool:
    """Whether ``model`` takes adaptive thinking: a Claude 4.6+ model, or a Claude-style id
    no family names (``claude-next``, ``anthropic/claude-opus-latest``), which gets today's
    rules, as an unknown ``gpt-6*`` gets GPT-5.1's (a Claude released after this table
    takes adaptive thinking and an effort). Any other id gets a budget, which every
    thinking Claude before 4.6 and the Anthropic-compatible servers take."""
    if model is None:
        return False
    if CLAUDE_4_6_UP.matches(model):
        return True
    lowered = model.lower()
    return "claude" in lowered and claude_version(model) is None and _OLD_CLAUDE_ID.search(lowered) is None


def signs_its_own_thinking(model: str | None) -> bool:
    """Whether ``model`` verifies only thinking it signed itself (Opus 5.5, Fable 5.1)."""
    return model is not None and TIED_THINKING.matches(model)


def signed_by_another_model(signer: str | None, target: str | None) -> bool:
    """Whether thinking signed by ``signer`` goes to a ``target`` model that verifies only
    its own (Opus 5.5, Fable 5.1): a known signer that is another model (another Claude
    version, or an id this cannot name). A signer not known is given the benefit of the
    doubt, as before these models."""
    if signer is None or not signs_its_own_thinking(target):
        return False
    return target is None or claude_version(signer) != claude_version(target)


SAMPLING_SOURCE = "https://platform.claude.com/docs/en/about-claude/models/migration-guide"
HAIKU_5_5_SOURCE = "https://platform.claude.com/docs/en/models/haiku-5-5/whats-new-haiku-5-5"
OPUS_5_5_SOURCE = "https://platform.claude.com/docs/en/models/opus-5-5/whats-new-opus-5-5"
PAIR_SOURCE = SAMPLING_SOURCE + " ; https://github.com/open-webui/functions/issues/9"
SYSTEM_SOURCE = "https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages"
SYSTEM_MODELS_SOURCE = "https://platform.claude.com/docs/ja/build-with-claude/mid-conversation-system-messages.md"
"""The models taking system turns beyond Opus 4.8 (the translated pages list them; the
English page still says Opus 4.8 only; @langchain/anthropic 1.5.13 adds Sonnet 5, which
Anthropic's page excludes)."""
PLACEMENT_SOURCE = "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-mid-conversation-system.html"


_RULE_FACTS: dict[str, tuple[str, tuple[ModelFamily, ...]]] = {
    "temperature_with_top_p": (PAIR_SOURCE, (CLAUDE_4_UP,)),
    "manual_thinking": (f"{SAMPLING_SOURCE} ; {HAIKU_5_5_SOURCE}", (ADAPTIVE_ONLY,)),
    "effort_up_to_high": (EFFORT_SOURCE, (EFFORT_UP_TO_HIGH,)),
    "disabled_thinking": (OPUS_5_5_SOURCE, (TIED_THINKING,)),
    "forced_tool_choice": (OPUS_5_5_SOURCE, (TIED_THINKING,)),
    "prefill": (SAMPLING_SOURCE, (CLAUDE_4_6_UP,)),
}
"""Each Claude rule both wires apply alike: its source and the families it binds."""


def claude_rule(name: str, summary: str, edit: Callable[[RuleCall], None], **scope: Any) -> TargetRule:
    """The target rule ``name`` of :data:`_RULE_FACTS` (its source and families, the same on
    every wire), with the wire's own ``summary`` (the fields it names) and ``edit``;
    ``scope``: the wire's other :class:`TargetRule` fields (Anthropic's ``versions``)."""
    source, families = _RULE_FACTS[name]
    return TargetRule(name, summary, source, edit, families=families, **scope)


def drop_sampling(call: RuleCall, holder: dict[str, Any], keys: Mapping[str, str], at: tuple[str, ...]) -> None:
    """Drop the sampling settings ``keys`` names (canonical name -> its key in ``holder``);
    a default value goes without a report."""
    for name, key in keys.items():
        if key not in holder:
            continue
        value = holder.pop(key)
        default = SAMPLING_DEFAULTS.get(name)
        if default is None or not is_default_sampling(value, default):
            call.report((*at, key), f"{name} {value!r}", "not sent")


def drop_top_p_beside_temperature(
    call: RuleCall, holder: dict[str, Any], keys: tuple[str, str], at: tuple[str, ...]
) -> None:
    """With both ``temperature`` and ``top_p`` in ``holder``, keep the temperature."""
    temperature, top_p = keys
    if temperature in holder and top_p in holder:
        value = holder.pop(top_p)
        if not is_default_sampling(value, TOP_P_DEFAULT):
            call.report((*at, top_p), f"top_p {value!r}", "not sent beside temperature")


def _blocks(content: object, text_block: Callable[[str], dict[str, Any]]) -> list[Any]:
    """A turn's content as blocks (a string is one text block)."""
    return [text_block(content)] if isinstance(content, str) else list(as_list(content) or [])


def _to_top_level(call: RuleCall, folded: list[Any], text_block: Callable[[str], dict[str, Any]]) -> None:
    """Append ``folded`` blocks to the top-level ``system``."""
    if folded:
        system = call.body.get("system")
        call.body["system"] = [*_blocks(system, text_block), *folded]


def fold_system_turns(call: RuleCall, text_block: Callable[[str], dict[str, Any]]) -> None:
    """Move every ``role: "system"`` turn of ``messages`` to the end of the top-level
    ``system`` (a string system becomes its ``text_block``), reporting each: the
    :func:`place_system_turns` of a model that takes none."""
    place_system_turns(call, text_block, takes_turns=False)


def ends_in_server_tool_use(message: dict[str, Any]) -> bool:
    """Whether an assistant turn ends in a server tool's call or result (a turn the API
    resumes after ``pause_turn``; a system turn may follow it)."""
    blocks = as_list(message.get("content")) or []
    last = as_dict(blocks[-1]) if blocks else None
    kind = last.get("type") if last is not None else None
    return isinstance(kind, str) and (kind.endswith("server_tool_use") or kind.endswith("_tool_result"))


def place_system_turns(
    call: RuleCall, text_block: Callable[[str], dict[str, Any]], *, takes_turns: bool = True
) -> None:
    """Keep a mid-conversation system turn where the model takes one (right after a user
    turn, or an assistant turn ending in server tool use); join it to a system turn just
    before it; move any other (every one, for a model that ``takes_turns`` not) to the end
    of the top-level ``system``; each reported."""
    messages = as_list(call.body.get("messages"))
    if messages is None:
        return
    try:  # the roles looked up in C (a body's turns are objects)
        roles = list(map(DICT_GET, messages, repeat("role")))
    except TypeError:  # a turn that is no object: no system turn
        roles = [message.get("role") if is_dict(message) else None for message in messages]
    kept: list[Any] = []
    folded: list[Any] = []
    start = 0
    for _ in range(roles.count("system")):  # (most requests: none, no turn asked in Python)
        index = roles.index("system", start)
        kept += messages[start:index]  # the turns between, kept as they are
        start = index + 1
        message = messages[index]
        content = _blocks(message.get("content"), text_block)
        if not takes_turns:
            folded.extend(content)
            call.report(
                ("messages", index), "mid-conversation system message", "moved to the end of the top-level system"
            )
        elif not _placed(call, kept, message, index, content=content, text_block=text_block):
            folded.extend(content)
    if start:  # (a system turn met: the body's turns are the kept ones)
        kept += messages[start:]
        call.body["messages"] = kept
    _to_top_level(call, folded, text_block)


def _placed(
    call: RuleCall,
    kept: list[Any],
    message: Any,
    index: int,
    *,
    content: list[Any],
    text_block: Callable[[str], dict[str, Any]],
) -> bool:
    """Whether the system turn ``message`` stays in ``kept`` (joined to a system turn
    before it, or after a turn a system turn may follow); reports a join or a move."""
    previous = as_dict(kept[-1]) if kept else None
    role = previous.get("role") if previous is not None else None
    if previous is not None and role == "system":
        kept[-1] = {**previous, "content": [*_blocks(previous.get("content"), text_block), *content]}
        call.report(("messages", index), "system turn right after a system turn", "joined to the one before it")
        return True
    if previous is not None and (role == "user" or (role == "assistant" and ends_in_server_tool_use(previous))):
        kept.append(message)
        return True
    where = "after an assistant turn" if role == "assistant" else "before any turn"
    call.report(("messages", index), f"system turn {where}", "moved to the end of the top-level system")
    return False


@dataclass(frozen=True, slots=True)
class ThinkingPlace:
    """Where one wire keeps Claude's thinking object and its effort."""

    thinking: tuple[str, ...]
    """The path of the ``thinking`` object (Bedrock: inside ``additionalModelRequestFields``)."""
    effort: tuple[str, ...]
    """The path of the effort (``output_config.effort``, Bedrock ``outputConfig.effort``)."""


def _holder(body: dict[str, Any], path: tuple[str, ...], *, make: bool = False) -> dict[str, Any] | None:
    """The object holding the last key of ``path`` (made on the way when ``make``)."""
    holder: dict[str, Any] | None = body
    for key in path[:-1]:
        inner = as_dict(holder.get(key)) if holder is not None else None
        if inner is None and make and holder is not None:
            inner = holder[key] = {}
        holder = inner
    return holder


def adaptive_for_budget(call: RuleCall, place: ThinkingPlace) -> None:
    """A manual thinking budget becomes adaptive thinking with the effort the budget maps to
    (:mod:`chatcodec._providers.kit.reasoning`), unless an effort is already given."""
    holder = _holder(call.body, place.thinking)
    thinking = as_dict(holder.get(place.thinking[-1])) if holder is not None else None
    if holder is None or thinking is None or thinking.get("type") != "enabled":
        return
    budget = thinking.get("budget_tokens")
    rest = {key: value for key, value in thinking.items() if key not in ("type", "budget_tokens")}
    holder[place.thinking[-1]] = {"type": "adaptive", **rest}
    effort_holder = _holder(call.body, place.effort, make=True)
    change = "sent as adaptive thinking"
    if effort_holder is not None and place.effort[-1] not in effort_holder and isinstance(budget, int):
        effort_holder[place.effort[-1]] = effort = effort_for_budget(budget)
        change += f" at effort {effort!r}"
    call.report(place.thinking, f"thinking budget {budget!r}", change)


def drop_disabled_thinking(call: RuleCall, place: ThinkingPlace) -> None:
    """``thinking: {type: "disabled"}`` is refused: not sent (the model thinks adaptively)."""
    holder = _holder(call.body, place.thinking)
    thinking = as_dict(holder.get(place.thinking[-1])) if holder is not None else None
    if holder is not None and thinking is not None and thinking.get("type") == "disabled":
        del holder[place.thinking[-1]]
        call.report(place.thinking, "disabled thinking", "not sent: the model always thinks")


def unforced_tool_choice(call: RuleCall, at: tuple[str, ...], forced: Callable[[dict[str, Any]], bool]) -> None:
    """A forced tool choice (``forced`` says which) is refused: sent as ``auto``, keeping the
    choice's other fields (Anthropic's ``disable_parallel_tool_use``)."""
    holder = _holder(call.body, at)
    choice = as_dict(holder.get(at[-1])) if holder is not None else None
    if holder is None or choice is None or not forced(choice):
        return
    holder[at[-1]] = auto = {key: value for key, value in choice.items() if key not in ("type", "name", "any", "tool")}
    if "type" in choice:
        auto["type"] = "auto"
    else:
        auto["auto"] = {}
    call.report(at, "forced tool choice", "sent as auto: the model refuses a forced tool choice")


def drop_prefill(call: RuleCall, continues: Callable[[dict[str, Any]], bool]) -> None:
    """A final assistant turn (a prefill) is refused: not sent, unless ``continues`` says it
    is a turn the API resumes (one ending in server tool use, after ``pause_turn``)."""
    messages = as_list(call.body.get("messages"))
    last = as_dict(messages[-1]) if messages else None
    if messages and last is not None and last.get("role") == "assistant" and not continues(last):
        index = len(messages) - 1
        call.body["messages"] = messages[:index]
        call.report(("messages", index), "final assistant turn (prefill)", "not sent: the model refuses a prefill")


def cap_effort(call: RuleCall, holder: dict[str, Any] | None, at: tuple[str, ...]) -> None:
    """An ``effort`` above ``high`` (``xhigh``, ``max``) in ``holder`` sent as ``high``, the
    highest the model takes, reported."""
    if holder is None or holder.get("effort") not in ("xhigh", "max"):
        return
    value = holder["effort"]
    holder["effort"] = "high"
    call.report((*at, "effort"), f"effort {value!r}", "sent as 'high' (the model takes low, medium and high)")
