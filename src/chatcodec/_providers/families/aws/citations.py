"""A non-streamed ``citationsContent`` block <-> a canonical text part.

botocore's ``CitationsContentBlock`` is the answer's text with its citations:
``content`` (a list of ``CitationGeneratedContent`` unions, each ``{"text": ...}``) and
``citations`` (``Citation`` objects). A stream gives the same answer as ``text`` deltas
and ``citation`` deltas, which the stream decoder reads as one text part with the
citations in its bag; the non-streamed block is read the same way, so its text reaches
every other format (as Anthropic's cited text does) and the citations stay in the bag
(reported by another provider's encoder). The bag's ``_citations_content`` marker says
the text came as this block, so it is written back as one; ``_pieces`` keeps the text
split as it came when it came in more than one piece.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec._providers.families.aws.body import Body
from chatcodec.codec_kit import leftovers, restore_fields

CITATIONS_CONTENT = "_citations_content"
"""Marker: the text part was a ``citationsContent`` block."""
PIECES = "_pieces"
"""Marker: the generated text pieces, when there were other than one."""


def decode_citations(body: Body, block: Mapping[str, Any]) -> dict[str, Any] | None:
    """A text part for a ``citationsContent`` block whose content is all text; None when
    any of it is not (the block is then kept opaque)."""
    content = as_list(block.get("content", []))
    if content is None:
        return None
    pieces: list[str] = []
    for item in content:
        text = _text_of(item)
        if text is None:
            return None
        pieces.append(text)
    bag = leftovers(block, ("content",))
    bag[CITATIONS_CONTENT] = True
    if len(pieces) != 1:
        bag[PIECES] = pieces
    return body.kit.attach({"type": "text", "text": "".join(pieces)}, bag)


def _text_of(item: object) -> str | None:
    fields = as_dict(item)
    text = fields.get("text") if fields is not None and len(fields) == 1 else None
    return text if isinstance(text, str) else None


def encode_citations(text: str, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The ``citationsContent`` block a decoded one (or a streamed text with ``citation``
    deltas) stands for; None when the part has no citations (a plain ``text`` block is
    written)."""
    if not bag.get(CITATIONS_CONTENT) and not isinstance(bag.get("citations"), list):
        return None
    pieces = [str(piece) for piece in as_list(bag.get(PIECES)) or ()]
    content = [{"text": piece} for piece in pieces] if pieces and "".join(pieces) == text else [{"text": text}]
    return {"citationsContent": {**restore_fields(bag), "content": content}}
