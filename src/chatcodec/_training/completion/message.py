"""Pieces to a canonical assistant message, with every made id and unread span reported.

The losses' paths are in the message returned (``$.content[2]``): that is where the made id
or the kept span is.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from chatcodec._losses import LossRecorder
from chatcodec._model.content import AssistantContentPart, OpaquePart, TextPart, ThinkingPart, ToolUsePart
from chatcodec._model.messages import AssistantMessage
from chatcodec._training.completion.pieces import Call, Piece, Reasoning, Text, Unparsed

OPAQUE_PROVIDER = "completion"
"""The ``provider`` of the opaque part that keeps a span no parser read: the raw completion
format, which no codec writes."""


def assistant_message(
    pieces: list[Piece],
    parser: str,
    made_id: Callable[[int], str],
    recorder: LossRecorder,
    *,
    first_call: int = 0,
    held: Collection[str] = (),
) -> AssistantMessage:
    """The message of ``pieces`` in order; empty text and reasoning left out. The ids made
    are numbered from ``first_call``, skipping any id in ``held``, so an episode's turns
    parsed one by one keep distinct ids."""
    parts: list[AssistantContentPart] = []
    calls = first_call
    for piece in pieces:
        index = len(parts)
        if isinstance(piece, Reasoning):
            if piece.text:
                parts.append(ThinkingPart(text=piece.text))
        elif isinstance(piece, Text):
            if piece.text:
                parts.append(TextPart(text=piece.text))
        elif isinstance(piece, Call):
            call_id = piece.id
            if call_id is None:
                while made_id(calls) in held:
                    calls += 1
                call_id = made_id(calls)
                recorder.add(
                    ("content", index, "id"),
                    "tool call id",
                    f"the {parser} format writes no call id: {call_id!r} was made",
                    "metadata",
                )
            parts.append(ToolUsePart(id=call_id, name=piece.name, arguments=piece.arguments))
            if piece.unread:
                recorder.add(
                    ("content", index),
                    "call object text",
                    f"no field of a tool call holds what the model wrote beside its name and arguments: {piece.unread}",
                )
            if piece.repeated:
                recorder.add(
                    ("content", index, "arguments"),
                    "tool call arguments",
                    "the model named a parameter more than once; the arguments keep its last value and "
                    f"drop the earlier: {piece.repeated}",
                )
            if piece.respelled:
                recorder.add(("content", index, "arguments"), "tool call arguments", piece.respelled, "spelling")
            calls += 1
        else:
            parts.append(_kept(piece, parser))
            recorder.add(("content", index), "unparsed completion text", f"{piece.why}: kept as an opaque part")
    return AssistantMessage(content=parts)


def _kept(piece: Unparsed, parser: str) -> OpaquePart:
    return OpaquePart(provider=OPAQUE_PROVIDER, data={"parser": parser, "text": piece.text, "why": piece.why})
