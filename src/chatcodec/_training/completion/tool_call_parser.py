"""What a tool-call parser is: a format's data and the small function that reads it.

vLLM registers one parser per model family under the name users pass its server
(``--tool-call-parser hermes``); chatcodec registers its readers under the same names
(:mod:`.parsers`), each with the source that documents the format, so a user moving from a
server to an offline parse names the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chatcodec._training.completion.pieces import Call, Piece, Text, Unparsed
from chatcodec._training.completion.tool_schemas import ToolSchemas

Read = Callable[[str, ToolSchemas], list[Piece]]
"""A format's reader: the completion's text after its reasoning, and the offered tools'
parameter schemas, to pieces in the order written."""


def numbered_id(index: int) -> str:
    """The id made for the ``index``-th call of a format that writes none: ``call_0``."""
    return f"call_{index}"


@dataclass(frozen=True, slots=True)
class ToolCallParser:
    """One tool-call format, under vLLM's ``--tool-call-parser`` name."""

    name: str
    read: Read
    source: str
    """Where the format is documented (vLLM's parser module and its tests)."""
    reasoning: str | None
    """The reasoning parser this family's models are served with (vLLM's name), used when
    the caller names none; None for a family that writes no reasoning or carries its own
    (harmony's analysis channel)."""
    reads_reasoning: bool = False
    """The format marks reasoning itself (harmony), so no reasoning parser runs first."""
    made_id: Callable[[int], str] = numbered_id
    """The id given to the n-th call when the format writes none (Mistral's API takes only
    nine letters and digits)."""


def marked_blocks(text: str, opener: str, closer: str) -> list[tuple[bool, str]]:
    """``text`` cut at each ``opener ... closer`` block: ``(True, inside)`` for a block,
    ``(False, text)`` for the text between. Text beside a block is trimmed of the whitespace
    templates write around markup; a block left open at the end (a completion cut off) runs to
    the end, for the reader to try."""
    found: list[tuple[bool, str]] = []
    index = 0
    while True:
        start = text.find(opener, index)
        if start < 0:
            found.append((False, text[index:] if index == 0 else text[index:].lstrip()))
            return found
        before = text[index:start]
        found.append((False, before.rstrip() if index == 0 else before.strip()))
        end = text.find(closer, start + len(opener))
        if end < 0:
            found.append((True, text[start + len(opener) :]))
            return found
        found.append((True, text[start + len(opener) : end]))
        index = end + len(closer)


def sectioned_calls(
    text: str, section: tuple[str, str], call: tuple[str, str], read_call: Callable[[str], Piece], what: str
) -> list[Piece]:
    """Calls written inside a section, each in its own markup (DeepSeek's
    ``<|tool▁calls▁begin|>`` around ``<|tool▁call▁begin|>``, Kimi K2's alike): ``read_call``
    reads what one call's markup holds; text beside the section is text, text inside it beside
    the calls is kept unparsed. A section holding no call (a completion cut off after the
    opener, calls written without their own markers) is kept whole, its markers with it: vLLM
    returns such a completion as text, and a render of the message would not write the
    markers again."""
    pieces: list[Piece] = []
    blocks = marked_blocks(text, *section)
    for number, (is_section, span) in enumerate(blocks):
        if not is_section:
            pieces.extend(text_pieces(span))
            continue
        found = [
            read_call(inner) if is_call else Unparsed(inner, f"text inside the {what}, outside any call")
            for is_call, inner in marked_blocks(span, *call)
            if is_call or inner.strip()
        ]
        if any(isinstance(piece, Call) for piece in found):
            pieces.extend(found)
        else:
            closer = section[1] if number < len(blocks) - 1 else ""  # the last block runs to the end, unclosed
            pieces.append(Unparsed(section[0] + span + closer, f"a {what} holding no call"))
    return pieces


def text_pieces(text: str) -> list[Piece]:
    """``text`` as a piece, or none when it is empty."""
    return [Text(text)] if text else []


def stray_pieces(*strays: str) -> list[Piece]:
    """Text the model wrote inside call markup, outside any element the format reads (prose
    between two calls, a line between parameters): kept as text, in the order written (after
    the call it stood in), where servers drop it. Empty texts are none."""
    return [Text(stray) for stray in strays if stray]
