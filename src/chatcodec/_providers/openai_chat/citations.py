"""A response message's ``annotations`` <-> the canonical citations of its text.

OpenAI's ``ChatCompletionMessage.annotations`` (openai ``types/chat/chat_completion_message.py``,
``Annotation``): ``{"type": "url_citation", "url_citation": {"end_index", "start_index",
"title", "url"}}``, its indices counting characters of the message's ``content`` string
("the index of the first/last character of the URL citation in the message"). Only a
response message has them (``ChatCompletionAssistantMessageParam`` has no such field), so a
request's history reports them (``Capabilities.citations``).

Read: a message whose ``content`` is a string and whose annotations are all url citations of
exactly those fields gives its one text part their citations; any other list stays whole in
the message's bag. Written: the citations of the text parts a response joins into one string,
each moved by the length of the texts before it (the indices count code points, as a
recorded answer's do), so they point at the same characters; a message written with a list
``content`` (its own ``_content`` marker) has no string to point into, so they are reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.openai.citation_keys import ORDER, in_order, keys_order
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER
from chatcodec.codec_kit import as_dict, as_list

if TYPE_CHECKING:
    from chatcodec.contract import LossRecorder, Steps

_OUTER = ("type", "url_citation")
_FIELDS = frozenset({"end_index", "start_index", "title", "url"})
_WRITTEN = ("end_index", "start_index", "title", "url")
"""The order the writer gives a citation's keys (the SDK's and OpenAI's documented example's)."""


def read_citations(annotations: object) -> tuple[list[dict[str, Any]], list[str] | None] | None:
    """The canonical citations of a response message's (non-empty) ``annotations``, with
    their keys' order when it is not the writer's (:data:`.citation_keys.ORDER`); None when
    any entry is not a url citation of exactly the SDK's fields, or the keys' orders differ
    (the list then stays whole in the message's bag)."""
    entries = as_list(annotations)
    if not entries:
        return None
    citations: list[dict[str, Any]] = []
    inner: list[dict[str, Any]] = []
    for entry in entries:
        outer = as_dict(entry)
        if outer is None or tuple(outer) != _OUTER or outer["type"] != "url_citation":
            return None
        found = as_dict(outer["url_citation"])
        if found is None or found.keys() != _FIELDS:
            return None
        url, title, start, end = found["url"], found["title"], found["start_index"], found["end_index"]
        if not (type(url) is str and type(title) is str and type(start) is int and type(end) is int):
            return None
        citations.append({"type": "url_citation", "url": url, "title": title, "start_index": start, "end_index": end})
        inner.append(found)
    order = keys_order(inner, _WRITTEN)
    return None if order == [] else (citations, order)


def read_message_citations(message: Mapping[str, Any], mapped: list[str]) -> dict[str, Any] | None:
    """What a response message's annotations give its content string's text part (its
    ``citations``, and the keys' order in its bag), ``annotations`` then added to the keys
    ``mapped``; None when they stay in the message's bag."""
    read = read_citations(message.get("annotations"))
    if read is None:
        return None
    mapped.append("annotations")
    cited, order = read
    return (
        {"citations": cited} if order is None else {"citations": cited, "provider_metadata": {PROVIDER: {ORDER: order}}}
    )


def place_annotations(
    fields: dict[str, Any], content: object, bag: Mapping[str, Any], losses: LossRecorder, at: Steps, *, response: bool
) -> None:
    """A response message's ``annotations`` into ``fields`` (its leading wire fields, where
    a read response's annotations stand), from the citations of its text parts, when any
    has some (a request's message has no annotations: reported by ``Capabilities.citations``)."""
    if not response:
        return
    parts = as_list(content)
    annotations = None if parts is None else write_annotations(parts, bag, losses, at)
    if annotations is not None:
        fields["annotations"] = annotations


def write_annotations(
    content: Sequence[Mapping[str, Any]], bag: Mapping[str, Any], losses: LossRecorder, at: Steps, *, start: int = 0
) -> list[dict[str, Any]] | None:
    """The ``annotations`` of a response message whose text parts are joined into its
    ``content`` string (None when no text part has citations); ``start``: the characters of
    the string before the first of them (a stream's text after another)."""
    if not any(part["type"] == "text" and part.get("citations") for part in content):
        return None
    if bag.get("_content") == "list":
        for index, part in enumerate(content):
            if part["type"] == "text" and part.get("citations"):
                why = "OpenAI Chat cites into a string content; this message is written as a list"
                losses.add((*at, "content", index, "citations"), "url citations", why)
        return None
    if bag.get("annotations"):
        losses.add((*at, "provider_metadata"), "annotations", "replaced by the text's citations", "metadata")
    annotations: list[dict[str, Any]] = []
    offset = start
    for part in content:
        if part["type"] != "text":
            continue
        order = KIT.marker(part.get("provider_metadata"), ORDER)
        annotations.extend(
            {
                "type": "url_citation",
                "url_citation": in_order(
                    {
                        "end_index": citation["end_index"] + offset,
                        "start_index": citation["start_index"] + offset,
                        "title": citation["title"],
                        "url": citation["url"],
                    },
                    order,
                ),
            }
            for citation in part.get("citations") or ()
        )
        offset += len(part["text"])
    return annotations


def take_annotations(extras: dict[str, Any], held: list[Any]) -> dict[str, Any] | None:
    """A chunk's extras without its delta's ``annotations`` list, whose entries join ``held``
    (the choice's so far). A server gives them on any delta: on the finish chunk (OpenAI),
    on a chunk of their own, or beside the text they cite; their offsets count in the whole
    content string either way, so the finish reads them all at once (:func:`finish_citations`)
    rather than the text delta they came with keeping them in its bag."""
    delta = as_dict(extras.get("delta"))
    found = None if delta is None else as_list(delta.get("annotations"))
    if delta is None or not found:  # an empty list cites nothing: it stays where it came, as it reads back
        return extras
    held.extend(found)
    rest = {key: value for key, value in delta.items() if key != "annotations"}
    left = {key: value for key, value in extras.items() if key != "delta"}
    return ({**left, "delta": rest} if rest else left) or None


def finish_citations(
    extras: dict[str, Any] | None, open_parts: Sequence[Any], held: Sequence[Any] = ()
) -> tuple[list[dict[str, Any]] | None, dict[str, Any] | None, dict[str, Any] | None]:
    """A stream's url citations, from the ``annotations`` its deltas gave (``held``, in their
    order; :func:`take_annotations`) and its finish chunk's ``delta.annotations`` (where
    OpenAI streams them), for its one text part still open (the content string the body's citations
    point into), with the bag its end event carries (the keys' order, as the body reader
    keeps it), and the chunk's extras without them; the
    extras (with the annotations on their ``delta``) when the annotations are not all url
    citations or no single text is open (they stay in the message's bag then, as a stream
    read before citations kept them)."""
    if held:
        given = as_dict((extras or {}).get("delta")) or {}
        extras = {
            **(extras or {}),
            "delta": {**given, "annotations": [*held, *(as_list(given.get("annotations")) or ())]},
        }
    delta = as_dict((extras or {}).get("delta"))
    texts = [part for part in open_parts if part.kind == "text"]
    read = None if delta is None or len(texts) != 1 else read_citations(delta.get("annotations"))
    if read is None or extras is None or delta is None:
        return None, None, extras
    cited, order = read
    rest = {key: value for key, value in delta.items() if key != "annotations"}
    left = {key: value for key, value in extras.items() if key != "delta"}
    bag = None if order is None else {PROVIDER: {ORDER: order}}
    return cited, bag, ({**left, "delta": rest} if rest else left)
