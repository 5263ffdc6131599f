"""The key order of an OpenAI citation object, kept when a reading meets another.

OpenAI Chat (``message.annotations[].url_citation``) and Responses
(``output_text.annotations[]``) answers carry url citations that canonical holds as a text's
``citations`` (:class:`~chatcodec.UrlCitation`); each writer gives their keys in the order
OpenAI sends them. A recording re-serialised with sorted keys (a VCR cassette) has another
order: the reader keeps it as a marker, so a same-format round trip gives the same bytes.
"""

from __future__ import annotations

from typing import Any

from chatcodec.codec_kit import as_list

ORDER = "_citation_keys"
"""Marker on a cited text's bag: the order the wire gave each citation object's keys in, when
it is not the order its writer uses (a recording re-serialised with sorted keys), so a
same-format round trip gives the same bytes."""


def keys_order(objects: list[dict[str, Any]], written: tuple[str, ...]) -> list[str] | None:
    """``None`` when every object's keys come in the ``written`` order, their one order when
    it is another, ``[]`` when the objects differ among themselves (no order to keep: the
    reader keeps them whole then)."""
    first = tuple(objects[0])
    if any(tuple(found) != first for found in objects[1:]):
        return []
    return None if first == written else list(first)


def in_order(wire: dict[str, Any], order: object) -> dict[str, Any]:
    """``wire`` with its keys in ``order`` (an :data:`ORDER` marker's list), when one is kept
    and names the same keys; else as it is."""
    keys = as_list(order)
    if keys is None or sorted(map(str, keys)) != sorted(wire):
        return wire
    return {str(key): wire[str(key)] for key in keys}
