"""What each provider accepts today, as data: API versions, model families, their rules.

The provider APIs change under a converter: Anthropic's API version ``2026-10-21`` (the
default of every official SDK since Python 2.0) refuses ``temperature``; Opus 4.7 refuses
it under ``2023-06-01`` too; Gemini 3 refuses ``thinkingLevel`` beside ``thinkingBudget``;
gpt-5.4 on Chat Completions refuses function tools beside ``reasoning_effort``. The SDK
types cannot say any of this, so each provider keeps a table in its ``rules.py``
(:class:`ProviderRules`): the API versions it knows and the default, the model families
with their constraints, the fields it requires. :func:`apply_target_rules` runs once at the
end of every request encode (``ProviderCodec.encode_request``): each rule in force edits
the encoded body to what the target accepts and records one :class:`~chatcodec.Loss` of
kind ``rule`` naming the rule, the API version or model family, and the option that
changes it. A value equal to the target's default is dropped without a loss.

Options (read from the :class:`~chatcodec._providers.contract.context.EncodeContext` by public
name, as every encoder option is; each provider's ``markers.OPTIONS`` lists them):

``api_version``  the API version the body is for; the provider's
                 :attr:`ProviderRules.default_version` (what its current official SDK
                 sends) when not given (Anthropic's reader marks a body only
                 ``2023-06-01`` takes, and its writer reads the mark back)
``skip_rules``   names of rules not to apply (a proxy that knows its
                 upstream takes what the table says it refuses); ``"*"``: none applies
                 (the storage mode: a file for training or an archive, which no live
                 server reads, keeps what was asked)

The table is a role of the provider's codec (``ProviderCodec(rules=...)``, its
``rules.py``), which puts it in every encode context (:attr:`EncodeContext.rules`): this
module imports no provider.

Models: a family matches a model id by its :attr:`ModelFamily.matches` rule. **A model id
no family of a rule recognizes (another vendor's id, a fine-tune alias, no model at all)
gets the permissive rule: no model-family rule applies to it**, only the API version's.
chatcodec never refuses or edits a request for a model it cannot name.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from chatcodec._errors import ChatcodecError
from chatcodec._losses import LossRecorder, Steps
from chatcodec._narrow import as_dict, as_list
from chatcodec._providers.kit.provider_kit import OUTSIDE_RANGE
from chatcodec._public_label import shown_as

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import EncodeContext
    from chatcodec._providers.contract.sampling_range import SamplingRange


@dataclass(frozen=True, slots=True)
class ModelFamily:
    """Models that share a constraint, told apart by their id."""

    name: str
    """How losses and the docs name it (``Claude Opus 4.7+``)."""
    matches: Callable[[str], bool]
    """Whether a model id (any case, with a platform prefix such as Bedrock's
    ``us.anthropic.``) belongs to the family."""


@dataclass(frozen=True, slots=True)
class RequiredField:
    """A body field the target refuses a request without."""

    key: str
    """The wire key (``model``)."""
    source: str
    """Where the requirement is documented."""
    default: object = None
    """What the encoder sends when neither the request nor the option of the same name
    gives it (a ``default`` loss: Anthropic's ``max_tokens``); ``None``: nothing is made
    up, and the missing field is a ``required`` loss."""


@dataclass(slots=True)
class RuleCall:
    """What a rule's edit gets: the body to change and where to say what changed."""

    provider: str
    """The target's registry name."""
    body: dict[str, Any]
    """The encoded request body, edited in place."""
    model: str | None
    """The request's model id, if known."""
    version: str
    """The API version in force."""
    rule: TargetRule
    """The rule being applied."""
    scope: str
    """``API version 2026-10-21`` or ``model family Claude Opus 4.7+``: why it applies."""
    losses: LossRecorder
    """Where each change is recorded."""
    options: Mapping[str, Any] = field(default_factory=lambda: {})
    """The encode's options by public name (a rule whose data depends on one reads it:
    OpenAI Chat's sampling ranges on the ``server`` it names)."""
    unchecked: frozenset[str] = frozenset()
    """The sampling settings (canonical names, :func:`setting_of`) whose value the request's
    own format does not allow (the ``_outside_range`` marker, ``kit/provider_kit.py``): the
    caller's error, sent as it came, not clamped into this target's range."""

    def report(self, at: Steps, what: str, change: str) -> None:
        """Record one change the rule made, as a ``rule`` loss naming the rule, its
        scope and the option that changes it; ``at`` is a path in the encoded body, which
        is what the rule read."""
        why = f"{change}: rule {self.provider}.{self.rule.name} ({self.scope}; {self.rule.changed_by})"
        self.losses.add(at, what, why, "rule")


@dataclass(frozen=True, slots=True)
class TargetRule:
    """One thing a provider refuses, and what the encoder sends instead."""

    name: str
    """Its name in losses and in ``skip_rules`` (``sampling_removed``)."""
    summary: str
    """What the target refuses and what is sent instead (one line, for the docs)."""
    source: str
    """Where the provider says so (documentation, migration guide or issue links)."""
    edit: Callable[[RuleCall], None]
    """Changes the body to what the target accepts, reporting each change."""
    versions: frozenset[str] | None = None
    """The API versions it applies under; ``None``: all of them."""
    families: tuple[ModelFamily, ...] | None = None
    """The model families it applies to (the first that matches names the scope);
    ``None``: every model, a model no family recognizes included."""
    option: str = ""
    """The option that changes it (``api_version="2023-06-01"``), named in its losses;
    empty: skipping it by name (:attr:`changed_by`)."""
    looks_for: str | None = None
    """What the rule looks for inside the messages (``"document"``, ``"citations"``,
    ``"system turn"``), walking every block to find it; ``None`` for a rule that reads
    top-level fields only. A writer that knows its body holds none of it says so
    (``apply_target_rules(..., holds=...)``), and the rule is not run: on a conversion
    the walks cost as much as the rest of the encode."""
    ranges: tuple[SamplingRange, ...] = ()
    """The documented ranges a ``sampling_range`` rule holds values to (:func:`range_rule`):
    the format's own, which its reader checks a request against (:func:`outside_own_ranges`)."""
    reads: frozenset[str] | None = None
    """The top-level body keys the edit acts on, when it leaves a body holding none of them
    as it is (a sampling rule: most requests set no sampling value); such a body passes by
    the rule with one look in C. ``None``: the edit runs on every body. A second list beside the
    edit's code, so the law ``law_rule_reads`` holds it to the code: it runs the edit on bodies
    without these keys, made by setting what the edit looks up (``testing/_laws/rule_reads_search.py``),
    and fails naming a key the edit acted on that this does not name."""

    @property
    def changed_by(self) -> str:
        """The option named in its losses and the docs: :attr:`option`, else
        ``skip_rules=["<name>"]``, which every rule takes."""
        return self.option or f'skip_rules=["{self.name}"]'

    def scope(self, version: str, model: str | None) -> str | None:
        """Why the rule applies to ``model`` under ``version``, or ``None`` when it does not."""
        if self.versions is not None and version not in self.versions:
            return None
        if self.families is None:
            return f"API version {version}" if self.versions is not None else "every model"
        if model is None:
            return None
        lowered = model.lower()
        family = next((family for family in self.families if family.matches(lowered)), None)
        return None if family is None else f"model family {family.name}"


@dataclass(frozen=True, slots=True)
class ProviderRules:
    """One provider's table: what it accepts today."""

    provider: str
    """The registry name."""
    api_versions: tuple[str, ...]
    """Every API version it knows, oldest first."""
    default_version: str
    """The version its current official SDK sends, used when no ``api_version`` is given."""
    version_source: str
    """Where the versions and the default are documented."""
    rules: tuple[TargetRule, ...] = ()
    """Its rules, applied in this order."""
    required: tuple[RequiredField, ...] = field(default=())
    """Body fields it refuses a request without."""


_NOTHING_UNCHECKED: frozenset[str] = frozenset()
"""What a body written with no canonical request has unchecked."""


def apply_target_rules(
    wire_body: dict[str, Any],
    context: EncodeContext,
    *,
    holds: Collection[str] | None = None,
    request: Mapping[str, Any] | None = None,
) -> str | None:
    """Edit ``wire_body`` (a request body for ``context.provider``) to what the provider
    accepts under the API version and model in force (the context's rules, options and
    model), recording a ``rule`` loss for each change, and report every required field
    that is missing (``required``) unless writing for storage (:data:`EVERY_RULE`).

    ``holds``: what the body may hold of what rules look for (:attr:`TargetRule.looks_for`),
    when the writer knows (a writer that writes no document, citation or system
    turn, so it passes ``()``; a writer that keeps count says so in ``context.holds``); a
    rule looking for something else is skipped. ``None`` (unknown): every rule in force runs.
    ``request``: the canonical request written, whose :func:`unchecked_settings` (the
    :attr:`RuleCall.unchecked`) are looked up only once a rule runs (most requests run none);
    without it, none is unchecked. Returns the API version whose rules were applied (None: none),
    which a caller sending the body says in its version header."""
    table = context.rules
    if table is None:
        return None
    if holds is None:
        holds = context.holds
    options = context.options  # a mapping's ``get``: not ``context.option``, a call for each
    chosen, skipping = (options.get("api_version"), options.get("skip_rules")) if options else (None, None)
    version = table.default_version if chosen is None else _version(table, chosen)  # unset, the usual case: no call
    model = context.model
    if model is None and isinstance(wire_body.get("model"), str):
        model = wire_body["model"]
    skipped = () if skipping is None else _skipped(skipping)
    provider, losses = context.provider, context.losses
    in_force = _in_force(table, version, model)
    rules = in_force.rules
    for position in _positions(in_force, wire_body, holds):  # the body as written: the rules it may need
        rule, scope = rules[position]
        if rule.name in skipped:
            continue
        marked = _NOTHING_UNCHECKED if request is None else unchecked_settings(request)
        call = RuleCall(provider, wire_body, model, version, rule, scope, losses, context.options, marked)
        rule.edit(call)  # one call for every rule of the request, its rule and scope set for each
        for rule, scope in rules[position + 1 :]:  # the body may have changed: each looks at it anew
            if (
                rule.name in skipped
                or (holds is not None and rule.looks_for is not None and rule.looks_for not in holds)
                or (rule.reads is not None and rule.reads.isdisjoint(wire_body))
            ):
                continue
            call.rule, call.scope = rule, scope
            rule.edit(call)
        break
    if isinstance(skipped, _Every):  # storage: a training or archive row goes to no API, which requires them
        return version
    for key in in_force.required:  # most bodies hold every one: no call
        if wire_body.get(key) is None:
            _report_required(table, wire_body, provider, losses)
            break
    return version


def _report_required(table: ProviderRules, wire_body: dict[str, Any], provider: str, losses: LossRecorder) -> None:
    """A ``required`` loss for each field of ``table`` the body lacks."""
    for required in table.required:
        if wire_body.get(required.key) is None:
            why = (
                f"{provider} requires it and the request has none; set it, or the option {required.key!r} "
                "(a training or archive file needs none: skip_rules='*', convert --storage)"
            )
            losses.add((required.key,), required.key, why, "required")


@dataclass(frozen=True, slots=True)
class _InForce:
    """The rules of a table in force for one version and model, each with its scope, in
    order, and which of them a body holding some of their :attr:`TargetRule.reads` keys
    passes to (the rest pass it by), so a request looks at the few that may act on it."""

    table: ProviderRules
    """The table (a module constant), kept so a reused identity is never mistaken for it."""
    rules: tuple[tuple[TargetRule, str], ...]
    reads: frozenset[str]
    """Every key the rules with :attr:`TargetRule.reads` read."""
    looks: frozenset[str]
    """Everything the rules with :attr:`TargetRule.looks_for` look for."""
    required: tuple[str, ...]
    """The keys of the table's :attr:`ProviderRules.required` fields."""
    by_hit: dict[tuple[frozenset[str], frozenset[str] | None], tuple[int, ...]]
    """The keys of :attr:`reads` a body holds, and what of :attr:`looks` the writer says it
    may hold (``None``: not said) -> the positions of the rules it may run: those reading one
    of those keys or every body (no ``reads``), and looking for one of those things or for
    nothing (no ``looks_for``)."""

    def positions(self, hit: tuple[frozenset[str], frozenset[str] | None]) -> tuple[int, ...]:
        """The rules (positions in :attr:`rules`) a body holding ``hit`` may run (:attr:`by_hit`)."""
        keys, looked = hit
        found = tuple(
            position
            for position, (rule, _) in enumerate(self.rules)
            if (rule.reads is None or not rule.reads.isdisjoint(keys))
            and (looked is None or rule.looks_for is None or rule.looks_for in looked)
        )
        if len(self.by_hit) < _MAX_HITS:
            self.by_hit[hit] = found
        return found


def _positions(in_force: _InForce, wire_body: dict[str, Any], holds: Collection[str] | None) -> tuple[int, ...]:
    """The rules of ``in_force`` (positions) a body may run (:attr:`_InForce.by_hit`): a body
    holding none of the keys read, nor the writer anything looked for (most requests), is
    told by two looks in C, with no set made."""
    hit: tuple[frozenset[str], frozenset[str] | None]
    if in_force.reads.isdisjoint(wire_body) and (holds is None or in_force.looks.isdisjoint(holds)):
        hit = _QUIET_UNSAID if holds is None else _QUIET
    else:
        hit = (in_force.reads.intersection(wire_body), None if holds is None else in_force.looks.intersection(holds))
    positions = in_force.by_hit.get(hit)
    return in_force.positions(hit) if positions is None else positions


_NONE: frozenset[str] = frozenset()
_QUIET: tuple[frozenset[str], frozenset[str] | None] = (_NONE, _NONE)
_QUIET_UNSAID: tuple[frozenset[str], frozenset[str] | None] = (_NONE, None)
"""The hits of a body holding nothing the rules read or look for (said by its writer, or not)."""

_IN_FORCE: dict[tuple[int, str, str | None], _InForce] = {}
"""What :func:`_in_force` worked out, by the table's identity, version and model."""
_MAX_IN_FORCE = 1024
"""Models named without end (a dataset of many fine-tunes) do not grow it past this."""
_MAX_HITS = 32
"""Bodies holding ever other sets of read keys do not grow an entry past this (a table's
rules read a handful of keys, so a few sets come up)."""


def _in_force(table: ProviderRules, version: str, model: str | None) -> _InForce:
    """The rules of ``table`` in force for ``model`` under ``version``, each with its
    scope, in order: worked out once per table, version and model (a gateway or a dataset
    converts for a handful), not per request, as matching model families costs a look at
    every family of every rule."""
    key = (id(table), version, model)
    known = _IN_FORCE.get(key)
    if known is not None and known.table is table:
        return known
    in_force: list[tuple[TargetRule, str]] = []
    for rule in table.rules:
        scope = rule.scope(version, model)
        if scope is not None:
            in_force.append((rule, scope))
    reads = frozenset(read for rule, _ in in_force for read in rule.reads or ())
    looks = frozenset(rule.looks_for for rule, _ in in_force if rule.looks_for is not None)
    if len(_IN_FORCE) >= _MAX_IN_FORCE:
        _IN_FORCE.clear()
    required = tuple(field.key for field in table.required)
    made = _IN_FORCE[key] = _InForce(table, tuple(in_force), reads, looks, required, {})
    return made


EVERY_RULE = "*"
"""``skip_rules="*"``: no rule applies, the storage mode (a training or archive file keeps
what was asked; no live server reads it). No required field is reported either: the API
requires ``model`` of a request it is sent, and OpenAI's, Mistral's and Together's
fine-tuning rows name none (the job names the model)."""


class _Every:
    """Holds every rule name."""

    def __contains__(self, name: object) -> bool:
        return True


def _skipped(option: object) -> Container[str]:
    """The ``skip_rules`` option as the names it holds (a list or set of names, or
    :data:`EVERY_RULE`). Unset, the usual case, is answered first, before the
    ``isinstance`` tests of a union below."""
    if option is None:
        return ()
    if option == EVERY_RULE:
        return _Every()
    if isinstance(option, str):  # one name
        return (option,)
    return cast("Container[str]", option) if isinstance(option, list | tuple | set | frozenset) else ()


def _version(table: ProviderRules, chosen: object) -> str:
    if chosen is None:
        return table.default_version
    if chosen not in table.api_versions:
        known = ", ".join(table.api_versions)
        raise ChatcodecError(f"{table.provider} has no API version {chosen!r} (known: {known})")
    return str(chosen)


def is_default_sampling(value: object, default: float) -> bool:
    """Whether a sampling value equals the target's default (``1`` is ``1.0``, ``True`` is not)."""
    return isinstance(value, NUMBERS) and value.__class__ is not bool and value == default


_SETTINGS = {
    "topP": "top_p",
    "topK": "top_k",
    "max_output_tokens": "max_tokens",
    "presencePenalty": "presence_penalty",
    "frequencyPenalty": "frequency_penalty",
}
"""A range's wire key -> the canonical setting it holds, where the two are spelled apart."""


def setting_of(key: str) -> str:
    """The canonical setting a range's wire ``key`` holds (``topP`` -> ``top_p``)."""
    return _SETTINGS.get(key, key)


def outside_own_ranges(table: ProviderRules | None, payload: Mapping[str, Any]) -> list[str]:
    """The canonical settings whose value in ``payload`` (a request of ``table``'s format)
    lies outside that format's own documented range (:data:`OUTSIDE_RANGE`). Every request
    read asks: one that sets none of the ranges' top-level keys (an agent's request usually
    sets no sampling value) is answered by one look in C, and one that sets some looks at
    their ranges alone, not at the whole table."""
    if table is None:
        return []
    known = _RANGES.get(id(table))
    if known is None or known[0] is not table:
        ranges = tuple((item.at[0] if item.at else item.key, item) for rule in table.rules for item in rule.ranges)
        known = _RANGES[id(table)] = (table, frozenset(top for top, _ in ranges), ranges)
    if known[1].isdisjoint(payload):
        return []
    found: list[str] = []
    for top, item in known[2]:
        if top not in payload:
            continue  # nothing under it
        holder: Mapping[str, Any] | None = payload
        for step in item.at:
            holder = as_dict(holder.get(step)) if holder is not None else None
        value = holder.get(item.key) if holder is not None and not item.each else None
        if isinstance(value, NUMBERS) and value.__class__ is not bool and not within_range(item, value):
            found.append(setting_of(item.key))
    return found


_RANGES: dict[int, tuple[ProviderRules, frozenset[str], tuple[tuple[str, SamplingRange], ...]]] = {}
"""A table's identity -> (the table, the top-level body keys its ranges sit under, and each
range beside its key, in the table's order)."""
NUMBERS = (int, float)
"""A sampling value's classes (``int | float`` is a union made at each use); a bool's told apart."""


def within_range(item: SamplingRange, value: float) -> bool:
    """Whether ``value`` lies within ``item``'s documented range."""
    if item.low is not None and value < item.low:
        return False
    return item.high is None or (value < item.high if item.exclusive_high else value <= item.high)


def unchecked_settings(request: Mapping[str, Any]) -> frozenset[str]:
    """The settings any bag of ``request`` marks :data:`OUTSIDE_RANGE` (canonical data)."""
    bags = request.get("provider_options")
    if not bags:
        return _NOTHING_UNCHECKED
    marked: set[str] = set()
    for bag in bags.values():
        held = as_dict(bag)
        settings = held.get(OUTSIDE_RANGE) if held is not None else None
        if settings:  # most bags mark none
            marked.update(setting for setting in as_list(settings) or () if isinstance(setting, str))
    return frozenset(marked) if marked else _NOTHING_UNCHECKED


NEUTRAL_SETTINGS: Mapping[str, float] = {"frequency_penalty": 0, "presence_penalty": 0}
"""Canonical settings whose value here changes nothing: a target without the setting does
the same, so dropping it is no loss."""


def is_neutral_setting(key: str, value: object) -> bool:
    """Whether a canonical setting ``key`` at ``value`` is the neutral one (a penalty of 0)."""
    neutral = NEUTRAL_SETTINGS.get(key)
    return neutral is not None and is_default_sampling(value, neutral)


shown_as("chatcodec.contract", ModelFamily, ProviderRules, RequiredField, RuleCall, TargetRule)
shown_as("chatcodec.codec_kit", is_default_sampling, is_neutral_setting)
