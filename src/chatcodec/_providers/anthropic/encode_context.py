"""What an Anthropic encode carries beyond the shared context (:class:`AnthropicContext`:
how unsigned thinking is sent, tool names for results, the cache breakpoints written so
far), and the two things every written block does with a part: restore the wire fields its
own bag kept, and put its cache marker on it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from chatcodec._providers.anthropic.markers import KIT
from chatcodec._providers.families.claude.wire_rules import UnsignedThinking
from chatcodec.codec_kit import encode_cache_control, restore_fields
from chatcodec.contract import EncodeContext, Steps

Part = Mapping[str, Any]
"""A canonical content part as data (what ``model_dump()`` gives; a key holding its
default may be absent)."""


def _no_ids() -> set[str]:
    """An empty set of ids, typed (a generic alias called would cost every context its ``__orig_class__``)."""
    return set()


@dataclass
class Breakpoint:
    """A ``cache_control`` written into the output, in prompt order."""

    block: dict[str, Any]
    at: Steps


@dataclass(slots=True, kw_only=True)
class AnthropicContext(EncodeContext):
    """An Anthropic encode's state beyond the shared context: how unsigned thinking is
    sent, tool names for results, and the cache breakpoints written so far."""

    unsigned_thinking: UnsignedThinking = "drop"
    """The ``unsigned_thinking`` option, checked (anything but ``"text"`` is ``"drop"``)."""
    tool_names: Callable[[], dict[str, str]] = dict
    """Tool names by call id, asked for only when a result names its tool (rare)."""
    breakpoints: list[Breakpoint] = field(default_factory=lambda: [])
    signed: dict[str, str] = field(default_factory=lambda: {})
    """The ids written so far with a Gemini signature in them, by call id (``tool_ids.py``)."""
    call_ids: set[str] = field(default_factory=_no_ids)
    """The ``tool_use`` ids written so far: Anthropic refuses a body holding one twice."""
    renamed: dict[str, str] = field(default_factory=lambda: {})
    """The id a call was sent with in place of one an earlier call had, by call id, for the
    results that follow it (``parts.unique_call_id``)."""

    def holding(self, *what: str) -> None:
        """Note that the body may hold ``what`` a target rule looks for (``rules.py``:
        ``document``, ``citations``, ``system turn``), so the rule runs."""
        if self.holds is not None:
            self.holds.update(what)

    def cache(self, block: dict[str, Any], cache_control: Mapping[str, Any] | None, at: Steps) -> dict[str, Any]:
        """Put ``cache_control`` on ``block`` and remember the breakpoint (responses have none)."""
        if cache_control is not None and not self.for_request:
            self.losses.add(
                (*at, "cache_control"), "cache_control", "Anthropic responses carry no cache markers", "setting"
            )
        elif cache_control is not None:
            block["cache_control"] = encode_cache_control(cache_control)
        if "cache_control" in block:
            self.breakpoints.append(Breakpoint(block, at))
        return block


def own_fields(part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any]:
    """The wire fields the part's own bag keeps (written first, as they were read); the
    part's ``provider_metadata`` claimed, another provider's bag reported."""
    metadata = part.get("provider_metadata")
    if metadata is None:  # the common case
        return {}
    return restored_fields(KIT.claim(context.losses, metadata, at), context)


def restored_fields(bag: dict[str, Any], context: AnthropicContext) -> dict[str, Any]:
    """The wire fields of an own bag, which may keep ``citations`` (a text's, read back)."""
    if bag:
        context.holding("citations")
    return restore_fields(bag)


def cached(block: dict[str, Any], part: Part, context: AnthropicContext, at: Steps) -> dict[str, Any]:
    """``block`` with the part's cache marker (one its bag restored counts too)."""
    cache_control = part.get("cache_control")
    if cache_control is None and "cache_control" not in block:  # the common case
        return block
    return context.cache(block, cache_control, at)
