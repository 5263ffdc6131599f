"""The content parts the OpenAI Chat direct paths' admission walk
(:func:`chatcodec._direct.openai_chat_source.admitted`) takes, proved as this folder's closed front
(:mod:`.common_shapes`) checks them (exact types, required keys, no key outside them): text parts,
images and documents (OpenAI's ``file`` part), a gateway's cache marker on any of them.

Here, beside the front it stands in for, since it is the source side of every pair from OpenAI Chat
(not one pair's); each function is asked once a message or a part, cold on a process's first
requests, so each is written as a few plain look-ups (``__class__`` tests, no helper call where
the check is one line). Each is asked inside the walk, where a key missing from an object proved
a ``dict`` is the ``KeyError`` of its subscript (a required key: the body is not admitted), so
a key the front requires is read by subscript, not by ``get``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_chat.common_shapes import IMAGE_DETAILS
from chatcodec.codec_kit import closed_schema

accepted_long_text = closed_schema.accepted_long_text
"""The front's rule for a long non-empty text (its one home: the kit's closed schema), bound once."""


def text_parts(content: Any) -> bool:
    """A text, or a list of text parts (none blank), each with a gateway's cache marker or
    without (:func:`ephemeral`): what a system prompt or a tool result sent as parts holds."""
    if content.__class__ is str:
        return True
    if content.__class__ is not list or not content:
        return False
    for part in content:  # the checks inline (blank, marked_or_bare's bare case): a call each cost more
        if part.__class__ is not dict or (kind := part["type"]) != "text" or kind.__class__ is not str:
            return False
        text = part["text"]
        if text.__class__ is not str or not text or text.isspace() or (len(part) != 2 and not marked_or_bare(part)):
            return False
    return True


def marked_or_bare(part: Mapping[str, Any]) -> bool:
    """A part of its type and its value alone (a text part's text, an image's ``image_url``),
    or with a gateway's cache marker beside them (:func:`ephemeral`)."""
    size = len(part)
    return size == 2 or (size == 3 and ephemeral(part["cache_control"]))


def ephemeral(marker: Any) -> bool:
    """The cache marker OpenRouter and litellm document (``{"type": "ephemeral"}``, with a
    ``ttl`` text or without), which the reader reads as a breakpoint (``cache_control.take``);
    any other shape (another type, more fields) is left to the canonical path."""
    if marker.__class__ is not dict or (kind := marker["type"]) != "ephemeral" or kind.__class__ is not str:
        return False
    return len(marker) == 1 or (len(marker) == 2 and marker["ttl"].__class__ is str)


def user_content(content: Any) -> bool:
    """Text, or a list of text parts, image parts and document parts (each of the front's
    closed shape: :func:`image`, :func:`file`), none blank, a gateway's cache marker on
    any of them or not (:func:`marked_or_bare`)."""
    if content.__class__ is not list or not content:  # (parts asked first: a tool result's, which is never a text here)
        return content.__class__ is str and content != "" and not content.isspace()
    for part in content:
        if part.__class__ is not dict:
            return False
        kind = part["type"]
        if kind == "text":  # the checks inline (blank, marked_or_bare's bare case): a call each cost more
            text = part["text"]
            if text.__class__ is not str or not text or text.isspace() or (len(part) != 2 and not marked_or_bare(part)):
                return False
        elif kind == "image_url":
            if (
                kind.__class__ is not str
                or (len(part) != 2 and not marked_or_bare(part))
                or not image(part["image_url"])
            ):
                return False
        elif kind != "file" or kind.__class__ is not str or not marked_or_bare(part) or not file(part["file"]):
            return False
    return True


_FILE_FIELDS = frozenset({"file_data", "file_id", "filename"})
"""The fields of a document part's ``file`` object the front takes."""


def file(given: Any) -> bool:
    """A document part's ``file`` object as the front takes it, with its data (a text) or its
    Files-API id (:func:`accepted_long_text`, the
    front's non-empty rule) and a file name (a text) or none; one of neither (the reader
    keeps it as it came) is the canonical path's."""
    if given.__class__ is not dict or not _FILE_FIELDS.issuperset(given):
        return False
    if "file_data" in given:
        if given["file_data"].__class__ is not str or ("file_id" in given and not _file_id(given["file_id"])):
            return False
    elif "file_id" not in given or not _file_id(given["file_id"]):
        return False
    return "filename" not in given or given["filename"].__class__ is str


def _file_id(file_id: Any) -> bool:
    return file_id.__class__ is str and accepted_long_text(file_id)


def image(given: Any) -> bool:
    """An image part's ``image_url`` object as the front takes it: a URL text (not empty, no
    lone surrogate: :func:`accepted_long_text`), a known ``detail``; or the URL text itself, as
    litellm's clients send it (``"image_url": "https://..."``), which the reader reads as the same
    image with a pure spelling marker (``_image_url``) its own writer alone reads."""
    if given.__class__ is not dict:
        return given.__class__ is str and accepted_long_text(given)
    url = given["url"]
    if url.__class__ is not str or not accepted_long_text(url):
        return False
    size = len(given)
    if size == 1:
        return True
    detail = given["detail"]
    return size == 2 and detail.__class__ is str and detail in IMAGE_DETAILS


def plain_texts(content: list[Any]) -> bool:
    """Text parts of a type and a text alone, none blank: an assistant turn's text as the SDK's
    ``ChatCompletionAssistantMessageParam`` allows it (the walk's ``dialect_turn``)."""
    if not content:
        return False
    for part in content:
        if (
            part.__class__ is not dict
            or len(part) != 2
            or (kind := part["type"]) != "text"
            or kind.__class__ is not str
        ):
            return False
        text = part["text"]
        if text.__class__ is not str or not text or text.isspace():
            return False
    return True


def dialect_user(message: Mapping[str, Any]) -> bool:
    """A user message beyond the closed front's shapes, as clients send it: the participant's
    ``name`` (AutoGen, the OpenAI SDK's ``name`` on a user turn), audio parts (OpenAI's
    ``input_audio``: :func:`audio`) beside the parts :func:`user_content` takes, a gateway's
    cache marker on the message (:func:`ephemeral`) or not. The reader reads it by its
    ``decode_plain``; a pair's pass writes it by the writer's own rule for a user message."""
    size = len(message)
    if "cache_control" in message:
        if not ephemeral(message["cache_control"]):
            return False
        size -= 1
    if "name" in message:
        name = message["name"]
        if name is not None and name.__class__ is not str:
            return False
        size -= 1
    if size != 2:  # its role and content
        return False
    content = message["content"]
    if content.__class__ is not list or not content:
        return user_content(content)
    for part in content:  # noqa: SIM110 - a loop: a generator's frame cost more (each part alone: user_content's list of one)
        if not (audio(part) or user_content([part])):
            return False
    return True


def audio(part: Any) -> bool:
    """An audio part as the wire takes it (OpenAI's ``input_audio``: its base64 data and format, texts)."""
    if part.__class__ is not dict or len(part) != 2 or part["type"] != "input_audio":
        return False
    given = part["input_audio"]
    return (
        given.__class__ is dict
        and len(given) == 2
        and given["data"].__class__ is str
        and given["format"].__class__ is str
        and part["type"].__class__ is str
    )
