"""Bedrock Converse ``document`` blocks <-> canonical document parts (canonical data, no
model). A body that lacks them (Amazon Nova's InvokeModel body: "Document Support is
limited to only Converse API") keeps the block whole and reports the part
(:attr:`~.body.Body.lacks`, ``parts.py``).

A document's source is ``bytes``, an ``s3Location`` (:mod:`.media`) or ``text``.

A document needs a ``name`` of letters, digits, single spaces, hyphens, parentheses and
square brackets, unique in the request (``DocumentBlock.name``: "The name can only contain
the following characters: Alphanumeric characters, Whitespace characters (no more than one
in a row), Hyphens, Parentheses, Square brackets"): other characters become ``-``,
repeated names get `` (2)``, `` (3)`` ..., and every changed name is reported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.media import Media, decode_source, encode_source, media_format, with_owner
from chatcodec.codec_kit import leftovers, restore_fields
from chatcodec.contract import Steps

DOCUMENT_TYPES = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "html": "text/html",
    "txt": "text/plain",
    "md": "text/markdown",
}
"""botocore ``DocumentFormat`` -> media type."""

_DOCUMENT_FORMATS = {media: name for name, media in DOCUMENT_TYPES.items()}


def decode_document(body: Body, document: Mapping[str, Any]) -> dict[str, Any] | None:
    """A ``DocumentBlock`` as a document part (None: kept whole)."""
    wire_format = document.get("format")
    media_type = DOCUMENT_TYPES.get(wire_format) if isinstance(wire_format, str) else None
    if wire_format is not None and media_type is None:
        return None
    source = document["source"]
    decoded_source: dict[str, Any] | None
    if isinstance(source.get("text"), str) and len(source) == 1:
        decoded_source = {"type": "text", "text": source["text"], "media_type": media_type or "text/plain"}
    else:
        decoded_source = decode_source(source, media_type)
    if decoded_source is None:
        return None
    canonical: dict[str, Any] = {"type": "document", "source": decoded_source}
    bag = with_owner(leftovers(document, ("format", "source", "name")), source)
    if isinstance(document.get("name"), str):
        canonical["filename"] = document["name"]
    else:
        bag["_no_name"] = True
    if wire_format is None:
        bag["_no_format"] = True
    return body.kit.attach(canonical, bag)


# --- encode --------------------------------------------------------------------------------


_NAME_CHARACTER = re.compile(r"[^A-Za-z0-9\s\-()\[\]]")
_SPACES = re.compile(r"\s+")


def document_name(wanted: str, context: BedrockContext) -> str:
    """A name Bedrock accepts (its allowed characters, single spaces, 1-200 long), unique
    among the request's documents."""
    name = _SPACES.sub(" ", _NAME_CHARACTER.sub("-", wanted)).strip()[:190] or "document"
    unique, count = name, 1
    while unique in context.document_names:
        count += 1
        unique = f"{name} ({count})"
    context.document_names.add(unique)
    return unique


def encode_document(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """The ``document`` block for a document part; None when Bedrock cannot take it (a loss)."""
    source = part["source"]
    media = Media(context.body)
    wire_source = encode_source(source, "document", context, at, media.owner_of(part))
    if wire_source is None:
        return None
    bag = media.part_bag(part, context, at)
    document: dict[str, Any] = restore_fields(bag)
    if not bag.get("_no_format"):
        document_format = media_format(
            source.get("media_type") or "text/plain", _DOCUMENT_FORMATS, "document", context, at
        )
        if document_format is None:
            return None
        document["format"] = document_format
    filename, title = part.get("filename"), part.get("title")
    wanted = filename if filename is not None else title
    if title is not None:
        context.losses.add((*at, "title"), "document title", "Bedrock documents have a name, no title")
    if wanted is not None or not bag.get("_no_name"):
        name = document_name(wanted or "document", context)
        if name != filename:
            context.losses.add(
                (*at, "filename"), "document name", f"not one Bedrock accepts or not unique; sent {name!r}"
            )
        document["name"] = name
    document["source"] = wire_source
    return {"document": document}
