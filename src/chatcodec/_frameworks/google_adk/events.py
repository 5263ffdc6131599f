"""A Google ADK session's events <-> canonical messages.

An event with content is the messages its ``Content`` gives as a Gemini turn (:mod:`.content`):
a user's text a user message, a model's turn one assistant message, function responses
(which ADK stores as a ``user`` content authored by the agent) tool results. The event's other
fields ride in the bag of the first message it gave, and an event without content (a state
change, an agent transfer) in the bag of the message after it (or the last one), whole, so a
session read and written again is the same session. Written, each Gemini turn is one event:
its fields from that bag, else an author of its own (the message's ``name``, else ``user`` for
a user's turn and :data:`~.markers.AGENT` for an agent's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.google_adk.content import TAG, read_contents, taken_tag, write_contents
from chatcodec._frameworks.google_adk.markers import AFTER, AGENT, BEFORE, KIT, NO_ROLE, PROVIDER, SNAKE, USER
from chatcodec._frameworks.google_adk.spelling import is_snake, snake_cased, without_nulls
from chatcodec.codec_kit import as_dict, as_list, restore_fields, split_fields
from chatcodec.contract import DecodeContext, EncodeContext


def decode_messages(wire: Sequence[Mapping[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """A session's events as canonical message dicts."""
    del context  # the contents are read as one list, by the gemini codec
    contents: list[dict[str, Any]] = []
    places: list[int] = []
    before: list[list[dict[str, Any]]] = []
    waiting: list[dict[str, Any]] = []
    for index, event in enumerate(wire):
        content = as_dict(event.get("content"))
        if content is None:
            waiting.append(dict(event))
            continue
        tagged = {**without_nulls(content), TAG: len(contents)}
        if "role" not in content:
            tagged["role"] = "user" if event.get("author") == USER else "model"
        contents.append(tagged)
        places.append(index)
        before.append(waiting)
        waiting = []
    messages: list[dict[str, Any]] = []
    for message in read_contents(contents, places) if contents else []:
        tag = taken_tag(message)
        if tag is not None:
            event = wire[places[tag]]
            bag = _event_bag(event, before[tag])
            read_author(message, event.get("author"), bag)
            _keep(message, bag)
        messages.append(message)
    if waiting:
        if not messages:  # a session of events without content: one empty user message holds them
            messages.append({"role": "user", "content": []})
        _keep(messages[-1], {**KIT.own(messages[-1].get("provider_metadata")), AFTER: waiting})
    return messages


def _event_bag(event: Mapping[str, Any], before: list[dict[str, Any]]) -> dict[str, Any]:
    """What an event holds besides its content, with the markers of its spelling: a ``null``
    field (``session.model_dump(mode="json")`` writes every unset one: ``error_code``,
    ``usage_metadata``...) is the kit's ``_nulls`` spelling, written back here and no loss
    elsewhere, as it says nothing."""
    bag = split_fields(event, ("content",))
    content = as_dict(event.get("content")) or {}
    if is_snake(event):
        bag[SNAKE] = True
    if "role" not in content:
        bag[NO_ROLE] = True
    if before:
        bag[BEFORE] = before
    return bag


def read_author(message: dict[str, Any], author: object, bag: dict[str, Any]) -> None:
    """An author is the ``name`` of the user or assistant message it wrote (kept in the bag
    on a tool's results, whose messages have no name), and nothing when it is who speaks
    (``user``, or :data:`~.markers.AGENT` for an agent): the author the writer gives."""
    if author == default_author(message["role"]):
        del bag["author"]
    elif isinstance(author, str) and message["role"] in ("user", "assistant"):
        message["name"] = author
        del bag["author"]


def _keep(message: dict[str, Any], bag: dict[str, Any]) -> None:
    if bag:
        message["provider_metadata"] = {**(as_dict(message.get("provider_metadata")) or {}), PROVIDER: bag}


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as a session's events."""
    written = messages[start:]
    kept = [KIT.own(message.get("provider_metadata")) for message in written]
    contents = write_contents(written, start, context)
    events: list[dict[str, Any]] = []
    for number, (first, content) in enumerate(contents):
        last = contents[number + 1][0] if number + 1 < len(contents) else len(written)
        covered = range(first, max(last, first + 1))
        events.extend(entry for at in covered for entry in _kept_events(kept[at], BEFORE))
        events.append(_event(written[first], kept[first], content))
        _report_names(written, covered, start, context)
        events.extend(entry for at in covered for entry in _kept_events(kept[at], AFTER))
    return events


_ONE_AUTHOR = "an ADK event has one author, its first message's (a tool's results have the agent's)"


def _report_names(written: Sequence[Mapping[str, Any]], covered: range, start: int, context: EncodeContext) -> None:
    """Report the ``name`` of each message in one event that is not its author."""
    for at in covered:
        message = written[at]
        if message.get("name") is not None and (at != covered.start or message["role"] == "tool"):
            context.losses.add(("messages", start + at, "name"), "participant name", _ONE_AUTHOR)


def _kept_events(bag: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for entry in as_list(bag.get(key)) or ():
        event = as_dict(entry)
        if event is not None:
            found.append(dict(event))
    return found


def _event(message: Mapping[str, Any], bag: Mapping[str, Any], content: dict[str, Any]) -> dict[str, Any]:
    """One event: the fields kept in ``bag`` around ``content``, or a new author."""
    if bag.get(NO_ROLE):
        content.pop("role", None)
    fields = restore_fields({key: value for key, value in bag.items() if key not in (BEFORE, AFTER)})
    event: dict[str, Any] = {"content": snake_cased(content) if bag.get(SNAKE) else content}
    event.update(fields)
    if "author" not in event:
        name = message.get("name") if message["role"] != "tool" else None
        event["author"] = name if isinstance(name, str) else default_author(message["role"])
    return event


def default_author(role: str) -> str:
    """The author of an event whose message names none: who speaks (a tool's results are
    the agent's, as ADK authors them)."""
    return AGENT if role in ("assistant", "tool") else USER
