"""Bedrock Converse ``image`` and ``document`` blocks and their sources <-> canonical media
parts (canonical data, no model).

A source is ``bytes`` (base64 text in the JSON form), an ``s3Location`` (a canonical URL
``s3://...``; its ``bucketOwner``, the account that owns a bucket of another account, in
the part's bag as ``_bucket_owner``) or, for a document, ``text``. Bedrock fetches no ``http(s)`` URL and has no
file ids (ValidationException; botocore ``ImageSource`` / ``DocumentSource`` have no such
member), so such a source is a loss and the part is not sent; base64 that is not standard
(a botocore blob) is one too.

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

from chatcodec._narrow import as_dict
from chatcodec._providers.bedrock_converse.context import BedrockContext
from chatcodec._providers.bedrock_converse.markers import BUCKET_OWNER, KIT
from chatcodec._providers.families.aws.blobs import is_base64
from chatcodec._providers.families.aws.blocks import IMAGE_TYPES
from chatcodec._providers.kit import Steps, leftovers, restore_fields

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

_IMAGE_FORMATS = {media: name for name, media in IMAGE_TYPES.items()} | {"image/jpg": "jpeg"}
_DOCUMENT_FORMATS = {media: name for name, media in DOCUMENT_TYPES.items()}

URL_WHY = "Bedrock takes media only as bytes or an S3 location; it fetches no URL, so it was not sent"
"""Why media by an ``http(s)`` URL is not sent (a loss)."""


def part_bag(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    """Bedrock's own bag on a part being written (another provider's reported as lost)."""
    metadata = part.get("provider_metadata")
    return KIT.claim(context.losses, metadata, at) if metadata else {}


# --- decode --------------------------------------------------------------------------------


def bucket_owner(source: Mapping[str, Any]) -> str | None:
    """The ``bucketOwner`` of an ``s3Location`` source, for the part's bag."""
    location = as_dict(source.get("s3Location"))
    owner = location.get("bucketOwner") if location is not None else None
    return owner if isinstance(owner, str) else None


def owner_of(part: Mapping[str, Any]) -> object:
    """The bucket owner a part's own bag keeps (None when it keeps none)."""
    metadata = part.get("provider_metadata")
    return KIT.marker(metadata, BUCKET_OWNER) if metadata else None


def with_owner(bag: dict[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    """``bag`` with the source's bucket owner, when it has one."""
    owner = bucket_owner(source)
    if owner is not None:
        bag[BUCKET_OWNER] = owner
    return bag


def decode_source(source: Mapping[str, Any], media_type: str | None) -> dict[str, Any] | None:
    """The canonical source for a ``bytes`` or ``s3Location`` source (None: canonical has no
    source for it, and the block is kept whole); a ``bucketOwner`` is the caller's to keep
    (:func:`with_owner`)."""
    if len(source) != 1:
        return None
    data = source.get("bytes")
    if isinstance(data, str) and media_type is not None:
        return {"type": "base64", "media_type": media_type, "data": data}
    location: Any = source.get("s3Location")
    if location.__class__ is dict and location.keys() <= {"uri", "bucketOwner"} and _url(location.get("uri", "")):
        if not isinstance(location.get("bucketOwner", ""), str):
            return None
        url: dict[str, Any] = {"type": "url", "url": location["uri"]}
        if media_type is not None:
            url["media_type"] = media_type
        return url
    return None


def _url(uri: str) -> bool:
    """Whether canonical holds ``uri`` as a URL: not empty, and no lone surrogate (valid
    JSON, not Unicode); a source with another one is kept whole, in its block."""
    if uri.isascii():
        return bool(uri)
    try:
        uri.encode()
    except UnicodeEncodeError:
        return False
    return True


def decode_image(image: Mapping[str, Any]) -> dict[str, Any] | None:
    """An ``ImageBlock`` as an image part (None: kept whole)."""
    media_type = IMAGE_TYPES.get(image["format"])
    source = decode_source(image["source"], media_type)
    if media_type is None or source is None:
        return None
    part = {"type": "image", "source": source}
    if len(image) == 2 and bucket_owner(image["source"]) is None:
        return part
    return KIT.attach(part, with_owner(leftovers(image, ("format", "source")), image["source"]))


def decode_document(document: Mapping[str, Any]) -> dict[str, Any] | None:
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
    return KIT.attach(canonical, bag)


# --- encode --------------------------------------------------------------------------------


def encode_source(
    source: Mapping[str, Any], what: str, context: BedrockContext, at: Steps, owner: object = None
) -> dict[str, Any] | None:
    """The wire source for a canonical one (an S3 location with the bucket ``owner`` the
    part's bag keeps, :func:`owner_of`); None when Bedrock cannot take it (a loss)."""
    kind = source["type"]
    if kind == "base64":
        if is_base64(source["data"]):
            return {"bytes": source["data"]}
        context.losses.add((*at, "source", "data"), f"{what} data", "not standard base64 (Bedrock bytes)")
    elif kind == "url":
        if source["url"].startswith("s3://"):
            if isinstance(owner, str):
                return {"s3Location": {"uri": source["url"], "bucketOwner": owner}}
            return {"s3Location": {"uri": source["url"]}}
        context.losses.add((*at, "source"), f"{what} by URL", URL_WHY)
    elif kind == "file":
        context.losses.add((*at, "source"), f"{what} by file id", "Bedrock has no file ids; not sent")
    else:
        return {"text": source["text"]}
    return None


def _format(
    media_type: str | None, formats: Mapping[str, str], what: str, context: BedrockContext, at: Steps
) -> str | None:
    found = formats.get((media_type or "").lower())
    if found is None:
        context.losses.add((*at, "source", "media_type"), f"{what} of type {media_type!r}", "Bedrock does not take it")
    return found


def encode_image(part: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any] | None:
    """The ``image`` block for an image part; None when Bedrock cannot take it (a loss)."""
    detail = part.get("detail")
    if detail is not None and detail != "auto":
        context.losses.add((*at, "detail"), f"image detail {detail!r}", "Bedrock has no resolution hint")
    source = part["source"]
    wire_source = encode_source(source, "image", context, at, owner_of(part))
    if wire_source is None:
        return None
    image_format = _format(source.get("media_type"), _IMAGE_FORMATS, "image", context, at)
    if image_format is None:
        return None
    bag = part_bag(part, context, at)
    image = restore_fields(bag) if bag else {}
    image["format"] = image_format
    image["source"] = wire_source
    return {"image": image}


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
    wire_source = encode_source(source, "document", context, at, owner_of(part))
    if wire_source is None:
        return None
    bag = part_bag(part, context, at)
    document: dict[str, Any] = restore_fields(bag)
    if not bag.get("_no_format"):
        document_format = _format(source.get("media_type") or "text/plain", _DOCUMENT_FORMATS, "document", context, at)
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
