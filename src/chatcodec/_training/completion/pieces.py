"""What a parser finds in a completion, before it becomes a canonical message.

A parser reads text and returns pieces in the order the model wrote them; one module
(:mod:`.message`) turns pieces into parts and reports what needs reporting. A parser never
builds a canonical part itself, so the rules every format shares (an id made where the
format has none, an unreadable span kept as an opaque part with a loss) live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Reasoning:
    """Reasoning the model wrote (between ``<think>`` and ``</think>``, harmony's analysis channel)."""

    text: str


@dataclass(frozen=True, slots=True)
class Text:
    """Text the model wrote for the reader."""

    text: str


@dataclass(frozen=True, slots=True)
class Call:
    """A tool call: its name, its arguments as JSON text, and its id when the format writes one."""

    name: str
    arguments: str
    """The arguments as the model wrote them (JSON formats), or as JSON built from the
    format's own values (XML parameter formats, Python call syntax)."""
    id: str | None = None
    """The call id the model wrote (Kimi K2's ``functions.NAME:0``), or None: one is made."""
    unread: str = ""
    """What the model wrote in the call that no canonical field holds (a member of a JSON
    call object beside its name and arguments): reported, by its text, as a loss."""
    respelled: str = ""
    """How the reader changed the spelling of the model's arguments (an object written as a JSON
    string, read as the object): reported as a spelling loss."""
    repeated: str = ""
    """The earlier values of a parameter the model named more than once (the arguments keep the
    last, as vLLM's parsers read them): reported as a loss, by their text."""


@dataclass(frozen=True, slots=True)
class Unparsed:
    """A span the format marks as a call (or a block) that could not be read: kept whole."""

    text: str
    why: str


Piece: TypeAlias = Reasoning | Text | Call | Unparsed
"""One thing a parser found."""
