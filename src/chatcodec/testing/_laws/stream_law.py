"""The law every provider's stream decoder keeps, whichever way its builder runs.

``accumulate_stream`` drives the decoder with a :class:`~chatcodec.streams._builder.StreamBuilder`
that builds the response directly; ``decode_stream`` drives it with one that emits canonical
events, which :class:`~chatcodec.StreamAccumulator` (the same builder, fed events) turns
into a response. Both must give the same response (as JSON, key order included) or raise
the same error, for every stream, broken ones included.

The mutations here break a stream for the law; every one works on a deep copy, so a
Hypothesis example never changes what the next one draws from.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec._public_label import shown_as
from chatcodec.codec_kit import is_list
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.mutations import containers

Outcome = str | tuple[type[BaseException], str]
"""A response as JSON, or an error's type and message."""

Path = tuple[str | int, ...]
"""Keys and list positions from a wire event down to one value."""

GONE = object()
"""Stands for a removed key (as the value a field is set to)."""


def outcome(accumulate_with: Callable[[Any], chatcodec.ChatResponse], events: Any) -> Outcome:
    """The response as JSON (key order included), or the error's type and message."""
    try:
        return accumulate_with(events).model_dump_json()
    except Exception as error:  # any error at all must be the same both ways
        return type(error), str(error)


def one_by_one(events: list[Any]) -> Iterator[Any]:
    """The events as a one-pass iterator, as an HTTP client hands them over."""
    yield from events


class StreamLaw:
    """``accumulate_stream`` against ``decode_stream`` + ``StreamAccumulator``, for one provider."""

    def __init__(self, provider: str) -> None:
        self.provider = provider

    def decoded(self, events: Any) -> chatcodec.ChatResponse:
        """The response the canonical events accumulate to."""
        accumulator = chatcodec.StreamAccumulator()
        accumulator.extend(chatcodec.decode_stream(self.provider, events))
        return accumulator.response()

    def accumulated(self, events: Any) -> chatcodec.ChatResponse:
        return chatcodec.accumulate_stream(self.provider, events)

    def assert_same(self, events: Any) -> None:
        assert outcome(self.accumulated, events) == outcome(self.decoded, events)

    def assert_same_one_by_one(self, events: list[Any]) -> None:
        """The same on one-pass iterators (a list of dicts is read as it is)."""
        accumulated = outcome(self.accumulated, one_by_one(events))
        assert accumulated == outcome(self.decoded, one_by_one(events))


@dataclass(frozen=True)
class StreamCases:
    """One provider's hand-written streams and mutation vocabulary for the stream law.

    Every stream is built afresh by a function, so a test may change what it gets.
    """

    plain: Callable[[], list[JsonObject]]
    """A stream with thinking, text and tool calls whose input streams, as the provider sends it."""
    plain_parts: Sequence[str]
    """The part types ``plain()`` accumulates to, in order."""
    text_fragment: str
    """A text delta of ``plain()``: its JSON string loses its closing quote to make bad JSON."""
    to_sse: Callable[[list[JsonObject]], str]
    """SSE text as the provider sends it (written here, not by the codec)."""
    broken: Callable[[], dict[str, list[Any]]]
    """Streams the decoder must refuse (or read), by name."""
    rules: Callable[[], dict[str, list[JsonObject]]]
    """Streams that exercise one rule of the decoder each, by name."""
    field_paths: Callable[[], dict[int, list[Path]]]
    """Where in ``plain()`` each field of each event kind is, to be set to anything."""
    odd_values: Sequence[object]
    """What a field of ``plain()`` is set to (``GONE`` removes it)."""
    mutation_keys: Sequence[str]
    """Keys a random mutation adds to a wire object."""
    mutation_values: Sequence[object]
    """Values a random mutation writes (over a value, as a new key's value, as a whole event)."""


def changed(events: list[JsonObject], position: int, path: Path, value: object) -> list[Any]:
    """A deep copy of ``events`` with the value at ``path`` in event ``position`` set to
    ``value``, or removed for :data:`GONE`."""
    changed_events = copy.deepcopy(events)
    parent: Any = changed_events[position]
    for step in path[:-1]:
        parent = parent[step]
    if value is not GONE:
        parent[path[-1]] = copy.deepcopy(value)
    elif is_list(parent):
        items: list[Any] = parent
        del items[int(path[-1])]
    else:
        parent.pop(path[-1], None)
    return changed_events


@st.composite
def broken_streams(draw: st.DrawFn, events: list[JsonObject], cases: StreamCases) -> list[Any]:
    """``events`` (deep-copied first) with one to three things changed: a value retyped,
    a key removed or added, an event repeated, dropped, swapped with the next or replaced
    by junk."""
    broken: list[Any] = copy.deepcopy(events)
    values = st.sampled_from(list(cases.mutation_values))
    for _ in range(draw(st.integers(1, 3))):
        if not broken:
            break
        position = draw(st.integers(0, len(broken) - 1))
        change = draw(st.sampled_from(["set", "delete", "add", "repeat", "drop", "swap", "junk"]))
        if change == "repeat":
            broken.insert(position, copy.deepcopy(broken[position]))
        elif change == "drop":
            del broken[position]
        elif change == "swap" and position + 1 < len(broken):
            broken[position], broken[position + 1] = broken[position + 1], broken[position]
        elif change == "junk":
            broken[position] = copy.deepcopy(draw(values))
        elif found := [node for _, node in containers(broken[position])]:
            _change(draw, draw(st.sampled_from(found)), change, values, cases)
    return broken


def _change(
    draw: st.DrawFn,
    container: dict[str, Any] | list[Any],
    change: str,
    values: st.SearchStrategy[object],
    cases: StreamCases,
) -> None:
    # The drawn value is copied: the vocabulary's lists and dicts are shared by every example.
    if isinstance(container, dict):
        if change == "add" or not container:
            container[draw(st.sampled_from(list(cases.mutation_keys)))] = copy.deepcopy(draw(values))
        elif change == "delete":
            del container[draw(st.sampled_from(sorted(container)))]
        else:
            container[draw(st.sampled_from(sorted(container)))] = copy.deepcopy(draw(values))
    elif container:
        position = draw(st.integers(0, len(container) - 1))
        if change == "delete":
            del container[position]
        else:
            container[position] = copy.deepcopy(draw(values))


def data_lines(events: list[JsonObject], *, named: bool) -> str:
    """SSE text: ``data: <compact json>`` per event, under an ``event: <type>`` line if
    ``named`` (the framing of a provider whose events are named)."""
    text = ""
    for event in events:
        data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        text += f"event: {event.get('type', 'message')}\ndata: {data}\n\n" if named else f"data: {data}\n\n"
    return text


shown_as("chatcodec.testing", StreamCases)
