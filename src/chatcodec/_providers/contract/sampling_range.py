"""The ``sampling_range`` target rule: each documented range of a target's sampling values
(:class:`SamplingRange`, the data ``tools/known_fields.py`` writes into strict reading's tables),
a value outside sent as the nearest bound and reported (:func:`range_rule`, :func:`clamp_to_range`).
Kept apart from the rules engine (:mod:`.target_rules`), which reads a table's ranges (a request's
own format's: ``outside_own_ranges``) and runs its rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict
from chatcodec._providers.contract.target_rules import NUMBERS, TargetRule, setting_of, within_range
from chatcodec._public_label import shown_as

if TYPE_CHECKING:
    from chatcodec._losses import Steps
    from chatcodec._providers.contract.target_rules import RuleCall


def clamp_to_range(
    call: RuleCall,
    holder: dict[str, Any],
    keys: tuple[str, ...],
    at: Steps,
    bounds: tuple[float | None, float | None],
    *,
    exclusive_high: bool = False,
) -> None:
    """Bring each number under ``keys`` of ``holder`` (at ``at`` in the body) into
    ``bounds`` (``None``: unbounded on that side; ``exclusive_high``: the high bound is not
    taken, so the value just below it is sent, to the precision a sampling setting is
    written with), reporting each change: a target refuses a sampling value outside its
    range (a temperature of 1.5 is OpenAI's and Gemini's, a 400 from Claude and Converse)."""
    low, high = bounds
    for key in keys:
        value = holder.get(key)
        if not isinstance(value, NUMBERS) or value.__class__ is bool:
            continue
        if high is not None and (value >= high if exclusive_high else value > high):
            clamped = round(high - EXCLUSIVE_STEP, 2) if exclusive_high else high
        elif low is not None and value < low:
            clamped = low
        else:
            continue
        holder[key] = clamped
        below = "below " if exclusive_high else ""
        if low is not None and high is not None:
            takes = f"{low} to {below}{high}"
        else:
            takes = f"at least {low}" if low is not None else f"{below or 'at most '}{high}"
        call.report((*at, key), f"{key} {value!r}", f"sent as {clamped} (the target takes {takes})")


EXCLUSIVE_STEP = 0.01
"""How far below a bound the target does not take a clamped value is sent (MiniMax's
``temperature`` in (0, 1] is sent as 0.01 for 0, the same step)."""


@dataclass(frozen=True, slots=True)
class SamplingRange:
    """One sampling value's documented range on a target (``temperature`` 0 to 1 on the
    Messages API), with the page that says so: the data :func:`range_rule` reads, and
    ``tools/known_fields.py`` writes into strict reading's tables."""

    key: str
    """The wire key (``temperature``, ``topP``)."""
    low: float | None
    """The least value the target takes; ``None``: no lower bound."""
    high: float | None
    """The greatest value the target takes; ``None``: no upper bound."""
    source: str
    """The documentation that states the range (a URL, then what it says)."""
    at: tuple[str, ...] = ()
    """Where the key sits in the body (``("generationConfig",)``)."""
    exclusive_high: bool = False
    """The high bound itself is refused ("up to, but not including, 2.0")."""
    each: bool = False
    """The key holds an object whose every value is held to the range (``logit_bias``:
    token id to bias), not a number."""

    def shown(self) -> str:
        """The range as the docs table writes it (``0 to 1``, ``at least 0``, ``-2 to below 2``)."""
        below = "below " if self.exclusive_high else ""
        each = "each value " if self.each else ""
        if self.low is not None and self.high is not None:
            return f"{each}{_number(self.low)} to {below}{_number(self.high)}"
        if self.low is not None:
            return f"{each}at least {_number(self.low)}"
        return f"{each}{below or 'at most '}{_number(self.high)}"


def _number(value: float | None) -> str:
    return f"{value:g}"


def range_rule(
    ranges: tuple[SamplingRange, ...],
    *,
    ranges_for: Callable[[RuleCall], tuple[SamplingRange, ...]] | None = None,
    others: str = "",
    reads: frozenset[str] | None = None,
) -> TargetRule:
    """The ``sampling_range`` rule over a target's documented ranges: a value outside is
    sent as the nearest bound, reported (the target answers 400 to it as it is).
    ``ranges_for``: the ranges in force for one body, where they depend on what the
    call names (an OpenAI-compatible server's own); ``others`` says so in the summary;
    ``reads``, the keys those ranges sit under (:attr:`TargetRule.reads`; without
    ``ranges_for``, the tops of ``ranges``)."""
    named = ", ".join(f"`{'.'.join((*item.at, item.key))}` {item.shown()}" for item in ranges)

    def edit(call: RuleCall) -> None:
        """Each documented range clamped where the body holds its setting: the provider
        answers 400 to a value outside it, so the nearest bound is sent and reported; a
        value the request's own format does not allow either is the caller's, sent as it
        came (:attr:`RuleCall.unchecked`)."""
        for item in ranges if ranges_for is None else ranges_for(call):
            if call.unchecked and setting_of(item.key) in call.unchecked:
                continue
            holder: dict[str, Any] | None = call.body
            for step in item.at:
                holder = as_dict(holder.get(step)) if holder is not None else None
            if holder is None or item.key not in holder:  # most requests set none of them
                continue
            if item.each:
                values, at = as_dict(holder[item.key]), (*item.at, item.key)
                if values is not None:
                    clamp_to_range(call, values, tuple(values), at, (item.low, item.high))
            else:
                value = holder[item.key]
                if isinstance(value, NUMBERS) and value.__class__ is not bool and within_range(item, value):
                    continue  # the usual case: nothing to clamp
                bounds = (item.low, item.high)
                clamp_to_range(call, holder, (item.key,), item.at, bounds, exclusive_high=item.exclusive_high)

    sources = " ; ".join(dict.fromkeys(item.source for item in ranges))
    summary = f"a value outside its range ({named}{others}) sent as the nearest bound"
    if ranges_for is None:
        reads = frozenset(item.at[0] if item.at else item.key for item in ranges)
    return TargetRule("sampling_range", summary, sources, edit, ranges=ranges, reads=reads)


shown_as("chatcodec.contract", SamplingRange)
shown_as("chatcodec.codec_kit", range_rule)
