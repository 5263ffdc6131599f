"""The shape of a provider's conversation, for the structural rules strict mode checks.

Each provider folder's ``structure.py`` fills one :class:`Structure`: where its request
holds the conversation and its token limits, how a tool call or result and a turn are
spelled, the provider's own wording for the requests it refuses (an orphan tool result,
an empty conversation), and the turn order it requires of a conversation converted to it.
:mod:`chatcodec._strict.rules` reads it through the codec (``ProviderCodec.structure``),
so a codec registered under another name brings its rules with it, and no reader keeps
a table by provider name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from chatcodec._public_label import shown_as

Location = tuple[int | str, ...]
"""A JSON path into the request, as keys and indexes."""

Speaker = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, slots=True)
class ToolStep:
    """A tool call or result found in a wire conversation."""

    kind: Literal["call", "result"]
    tool_id: str
    turn: int
    location: Location


@dataclass(frozen=True, slots=True)
class Turn:
    """One entry of a wire conversation in the terms of the turn-order rules, whatever
    format it came in: who speaks (``tool``: an entry of tool results alone, as OpenAI's
    ``role: "tool"`` message), whether it holds tool calls or results, and its place
    (its ``role`` field where it has one)."""

    speaker: Speaker
    location: Location
    calls: bool = False
    results: bool = False


@dataclass(frozen=True, slots=True)
class TurnProblem:
    """A turn the target refuses, with the rule and the target's wording."""

    turn: Turn
    rule: str
    message: str


TurnOrder = Callable[[Sequence[Turn]], Iterator[TurnProblem]]
"""A target's turn-order rule over the turns of a conversation about to be written for it."""


@dataclass(frozen=True, slots=True)
class Structure:
    """Where a provider's request holds what the structural rules read, and its wording."""

    conversation_key: str
    """The request field holding the conversation (``messages``, ``input``, ``contents``)."""
    token_limits: tuple[Location, ...]
    """Where the request may hold a token limit."""
    tool_steps: Callable[[Mapping[str, Any], int, Location], Iterator[ToolStep]]
    """The tool calls and results of one conversation entry (its index, its place)."""
    turn: Callable[[Mapping[str, Any], Location], Turn | None]
    """One conversation entry as a :class:`Turn` (None: an entry that is no turn)."""
    orphan_result: str
    """The provider's 400 for a tool result with no call before it (``{id}``: the id)."""
    empty_conversation: str = ""
    """The provider's 400 for an empty conversation (``""``: a generic message)."""
    duplicate_result: str = "the tool call {id} already has a result"
    """The provider's 400 for a call answered twice."""
    repeated_results: bool = False
    """Whether one call may be answered more than once (Gemini answers a name, not an id)."""
    result_in_next_turn: bool = False
    """Whether a result must be in the turn right after its call's (Anthropic)."""
    token_limit: str = "`{name}` must be at least 1, got {value}"
    """The provider's 400 for a token limit under 1 (``{name}``, ``{value}``)."""
    turn_order: tuple[TurnOrder, ...] = ()
    """The turn order this provider requires of a conversation converted to it."""
    stream_events_outside_sdk: frozenset[str] = frozenset()
    """Stream event types the provider documents that its SDK's event union leaves out."""


def spoken_turns(turns: Sequence[Turn]) -> list[Turn]:
    """The turns of the conversation proper (a system turn goes elsewhere in every target)."""
    return [turn for turn in turns if turn.speaker != "system"]


def user_first(message: str) -> TurnOrder:
    """The rule "the first turn after the system prompt is the user's", with ``message``
    the target's wording (a turn of tool results alone is left to the orphan rule)."""

    def check(turns: Sequence[Turn]) -> Iterator[TurnProblem]:
        conversation = spoken_turns(turns)
        if conversation and conversation[0].speaker == "assistant":
            yield TurnProblem(conversation[0], "first_turn", message)

    return check


def role_at(entry: Mapping[str, Any], where: Location) -> Location:
    """The place of an entry's ``role`` field, or of the entry when it has none."""
    return (*where, "role") if "role" in entry else where


shown_as("chatcodec.contract", Structure, ToolStep, Turn, TurnProblem)
shown_as("chatcodec.codec_kit", role_at, spoken_turns)
