"""A candidate's ``groundingMetadata`` <-> the canonical url citations of its text parts.

Grounding with Google Search answers with ``groundingMetadata`` on the candidate
(google-genai ``types.GroundingMetadata``): ``groundingChunks[]`` the sources
(``web: {uri, title}``), ``groundingSupports[]`` the claims, each a ``segment`` of the
answer (``Segment``: ``partIndex``, "the index of a Part object within its parent Content";
``startIndex``/``endIndex``, "measured in bytes", "offset from the start of the Part",
inclusive/exclusive; ``text``, the segment's text) with the ``groundingChunkIndices`` of the
sources backing it. So each (support, chunk index) pair is one canonical
:class:`~chatcodec.UrlCitation` on the text part at ``partIndex``: the chunk's ``uri`` and
``title``, the segment's span converted from UTF-8 bytes to characters (code points, the
unit OpenAI's ``start_index``/``end_index`` count). The recorded answer
``tests/fixtures/gemini/response/google_search_grounding.json`` bears the byte unit out: its
segments after a ``°`` match the text's bytes, not its characters.

Read only when exact: every support holds a segment over a text part, on character
boundaries, whose ``text`` is that span, and every chunk it names is a ``web`` source of
exactly ``uri`` and ``title``; and :func:`write_grounding` gives the supports (and the
chunk list, unless it stays in the bag) back equal. Otherwise the metadata stays whole in
the candidate's bag, as before. What has no canonical place stays in the bag:
``webSearchQueries``, ``searchEntryPoint``, ``retrievalMetadata``...; the chunk list when it
is not the one the citations give (unreferenced or reordered sources); a support's other
fields (``confidenceScores``) as ``groundingSupports``, a list of what each support has
beside its segment and chunk indices. Written: the supports from the text parts' citations
in order (consecutive citations of one span are one support), the chunks from the bag's
list, a source not in it appended. A stream gives the metadata on its last chunks (the
Vercel AI SDK gathers it over the chunks, vercel/ai#13123); its segments are taken to count
the whole answer's parts and each part's whole text, as a body's do (no recorded grounded
stream is at hand to show otherwise): the stream writer holds each text's citations for its
candidate's finish chunk, the reader reads them for the text still open at the end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import as_dict, as_list, is_dict, is_list
from chatcodec.contract import LossRecorder, Steps

METADATA = "groundingMetadata"
KEYS = "_grounding_keys"
"""Marker on a candidate's bag: how its read ``groundingMetadata`` ordered its keys, when not
as the writer does (``"sorted"``: every object's keys sorted, as a recording re-serialised
with sorted keys has them; a list: its own keys' order), so the round trip gives the same bytes."""
CITED = "_cited_grounding"
"""Marker on a candidate's bag: its ``groundingMetadata`` was read into its texts' citations,
and the bag keeps only what has no canonical place (else a kept one is the wire's, whole)."""
_CHUNKS, _SUPPORTS = "groundingChunks", "groundingSupports"
_SUPPORT_MAPPED = ("segment", "groundingChunkIndices")
_SEGMENT_KEYS = frozenset({"partIndex", "startIndex", "endIndex", "text"})


def _web_source(chunk: object) -> tuple[str, str] | None:
    """The ``(uri, title)`` of a chunk that is a web source of exactly those two fields."""
    found = as_dict(chunk)
    web = None if found is None or found.keys() != {"web"} else as_dict(found["web"])
    if web is None or web.keys() != {"uri", "title"}:
        return None
    uri, title = web["uri"], web["title"]
    return (uri, title) if type(uri) is str and type(title) is str else None


def _characters(text: str, offset: object) -> int | None:
    """The character index of byte ``offset`` of ``text``'s UTF-8, None when it is no
    character boundary within it."""
    if type(offset) is not int or offset < 0:
        return None
    encoded = text.encode("utf-8", "surrogatepass")
    if offset > len(encoded):
        return None
    try:
        return len(encoded[:offset].decode("utf-8", "surrogatepass"))
    except UnicodeDecodeError:
        return None


def _bytes(text: str, characters: int) -> int:
    """The UTF-8 byte offset of character index ``characters`` of ``text``."""
    return len(text[:characters].encode("utf-8", "surrogatepass"))


def _read_support(
    support: object, chunks: list[Any], parts: Sequence[Mapping[str, Any]]
) -> tuple[int, list[dict[str, Any]], dict[str, Any]] | None:
    """A support's text part index, its citations and its other fields; None when it does
    not map exactly."""
    found = as_dict(support)
    segment = None if found is None else as_dict(found.get("segment"))
    indices = None if found is None else as_list(found.get("groundingChunkIndices"))
    if found is None or segment is None or not indices or not segment.keys() <= _SEGMENT_KEYS:
        return None
    position = segment.get("partIndex", 0)
    if type(position) is not int or not 0 <= position < len(parts) or parts[position].get("type") != "text":
        return None
    text: str = parts[position]["text"]
    start, end = _characters(text, segment.get("startIndex", 0)), _characters(text, segment.get("endIndex", 0))
    if start is None or end is None or segment.get("text") != text[start:end]:
        return None
    citations: list[dict[str, Any]] = []
    for index in indices:
        source = _web_source(chunks[index]) if type(index) is int and 0 <= index < len(chunks) else None
        if source is None:
            return None
        citations.append(
            {"type": "url_citation", "url": source[0], "title": source[1], "start_index": start, "end_index": end}
        )
    return position, citations, {key: value for key, value in found.items() if key not in _SUPPORT_MAPPED}


def read_grounding(bag: dict[str, Any], parts: list[dict[str, Any]]) -> None:
    """Give ``parts`` (a candidate's canonical parts, one per wire part) the citations of
    the ``groundingMetadata`` in the candidate's ``bag``, leaving there what has no
    canonical place; both untouched unless the writer gives the metadata back equal."""
    metadata = as_dict(bag.get(METADATA))
    supports = None if metadata is None else as_list(metadata.get(_SUPPORTS))
    chunks = None if metadata is None else as_list(metadata.get(_CHUNKS))
    if metadata is None or not supports or chunks is None:
        return
    cited: dict[int, list[dict[str, Any]]] = {}
    rests: list[dict[str, Any]] = []
    for support in supports:
        read = _read_support(support, chunks, parts)
        if read is None:
            return
        position, citations, rest = read
        cited.setdefault(position, []).extend(citations)
        rests.append(rest)
    kept = {key: value for key, value in metadata.items() if key != _SUPPORTS}
    if any(rests):
        kept[_SUPPORTS] = rests
    candidate = [{**part, "citations": cited[number]} if number in cited else part for number, part in enumerate(parts)]
    positions = list(range(len(parts)))
    if write_grounding(candidate, positions, kept, None, ()) != metadata:
        return
    without_chunks = {key: value for key, value in kept.items() if key != _CHUNKS}
    if write_grounding(candidate, positions, without_chunks, None, ()) == metadata:
        kept = without_chunks  # the list the citations give: nothing to keep
    parts[:] = candidate
    bag[METADATA] = kept
    bag[CITED] = True
    order = _key_order(write_grounding(candidate, positions, kept, None, ()), metadata)
    if order is not None:
        bag[KEYS] = order


def _sorted(value: object) -> object:
    """``value`` with every object's keys sorted."""
    if is_dict(value):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if is_list(value):
        return [_sorted(item) for item in value]
    return value


def _ordered(written: Mapping[str, Any] | None, order: object) -> dict[str, Any] | None:
    """``written`` with its keys in a :data:`KEYS` marker's order."""
    if written is None or order is None:
        return None if written is None else dict(written)
    if order == "sorted":
        return {key: _sorted(written[key]) for key in sorted(written)}
    keys = [key for key in as_list(order) or () if isinstance(key, str) and key in written]
    return {**{key: written[key] for key in keys}, **written}


def _key_order(written: dict[str, Any] | None, metadata: dict[str, Any]) -> str | list[str] | None:
    """The :data:`KEYS` marker that gives ``metadata``'s bytes from ``written`` (equal to it),
    None when none is needed (or none gives them: the round trip is then equal, in another order)."""
    same = json.dumps(metadata)
    if written is None or json.dumps(written) == same:
        return None
    for order in ("sorted", list(metadata)):
        if json.dumps(_ordered(written, order)) == same:
            return order
    return None


def place_grounding(
    wire: dict[str, Any],
    bag: Mapping[str, Any],
    parts: Sequence[Mapping[str, Any]],
    positions: Sequence[int | None],
    *,
    losses: LossRecorder,
    at: Steps,
    places: Sequence[Steps] | None = None,
) -> None:
    """A written candidate's ``groundingMetadata`` (``wire``'s, from its ``bag``), for its
    message's canonical ``parts``: the citations' supports over what a read kept, or the
    candidate's whole metadata as it came when it was not read into citations (replaced,
    and reported, when the texts have citations all the same)."""
    kept = as_dict(wire.get(METADATA))
    if kept is not None and CITED not in bag:
        if not any(part.get("type") == "text" and part.get("citations") for part in parts):
            return
        why = "replaced by the texts' citations"
        losses.add((*at, "provider_metadata"), "groundingMetadata", why, "metadata")
        kept = None
    grounding = _ordered(write_grounding(parts, positions, kept, losses, at, places=places), bag.get(KEYS))
    if grounding is not None:
        wire[METADATA] = grounding


def _kept_sources(chunks: list[Any]) -> dict[tuple[str, str], int]:
    """Each web source of a kept chunk list, at its first index."""
    sources: dict[tuple[str, str], int] = {}
    for index, chunk in enumerate(chunks):
        source = _web_source(chunk)
        if source is not None:
            sources.setdefault(source, index)
    return sources


def _supports(
    parts: Sequence[Mapping[str, Any]],
    positions: Sequence[int | None],
    chunks: list[Any],
    losses: LossRecorder | None,
    places: Sequence[Steps],
) -> list[dict[str, Any]]:
    """The supports of the text parts' citations, in order, a citation of one span as the
    one before it joining its support; a source not in ``chunks`` appended to it."""
    sources = _kept_sources(chunks)
    supports: list[dict[str, Any]] = []
    spans: list[tuple[int, int, int]] = []
    for number, part in enumerate(parts):
        position = positions[number]
        citations = part.get("citations") if part.get("type") == "text" else None
        if not citations or position is None:  # a part not written has its own loss
            continue
        text: str = part["text"]
        for place, citation in enumerate(citations):
            start, end = citation["start_index"], citation["end_index"]
            if not 0 <= start <= end <= len(text):
                if losses is not None:
                    why = "its span is not within the text, and Gemini's segment must be"
                    losses.add((*places[number], place), "url citation", why)
                continue
            source = (citation["url"], citation["title"])
            index = sources.get(source)
            if index is None:
                index = sources[source] = len(chunks)
                chunks.append({"web": {"uri": source[0], "title": source[1]}})
            if spans and spans[-1] == (position, start, end):
                supports[-1]["groundingChunkIndices"].append(index)
                continue
            spans.append((position, start, end))
            supports.append({"segment": _segment(text, position, start, end), "groundingChunkIndices": [index]})
    return supports


def write_grounding(
    parts: Sequence[Mapping[str, Any]],
    positions: Sequence[int | None],
    kept: Mapping[str, Any] | None,
    losses: LossRecorder | None,
    at: Steps,
    *,
    places: Sequence[Steps] | None = None,
) -> dict[str, Any] | None:
    """A candidate's ``groundingMetadata`` for its message's canonical ``parts``
    (``positions``: each part's index among the parts written, None for one not written;
    ``at`` the choice's place), over what the bag ``kept`` of it (None: nothing kept); None
    when neither gives any. ``places``: where each part's citations are, for a loss (a
    stream's events; by default the message's content at ``at``)."""
    if places is None:
        places = [(*at, "message", "content", number, "citations") for number in range(len(parts))]
    held = kept is not None
    kept = kept or {}
    chunks: list[Any] = list(as_list(kept.get(_CHUNKS)) or ())
    supports = _supports(parts, positions, chunks, losses, places)
    metadata = {key: value for key, value in kept.items() if key not in (_CHUNKS, _SUPPORTS)}
    rests = as_list(kept.get(_SUPPORTS))
    if rests is not None and len(rests) != len(supports):
        if losses is not None:
            why = "they were kept for other citations than the texts now have"
            losses.add((*at, "provider_metadata"), "groundingSupports fields (confidenceScores...)", why, "metadata")
        rests = None
    if not supports:
        return {_CHUNKS: chunks, **metadata} if _CHUNKS in kept else metadata if held else None
    for support, rest in zip(supports, rests or (), strict=False):
        support.update(as_dict(rest) or {})
    return {_CHUNKS: chunks, _SUPPORTS: supports, **metadata}


def _segment(text: str, position: int, start: int, end: int) -> dict[str, Any]:
    """A support's segment, as Gemini writes one (proto JSON: a zero index left out)."""
    segment: dict[str, Any] = {}
    if position:
        segment["partIndex"] = position
    first = _bytes(text, start)
    if first:
        segment["startIndex"] = first
    segment["endIndex"] = _bytes(text, end)
    segment["text"] = text[start:end]
    return segment
