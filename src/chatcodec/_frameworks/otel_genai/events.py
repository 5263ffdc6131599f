"""A model call recorded as events, read as the span attributes the rest of the format reads.

Two event shapes record a call's messages instead of ``gen_ai.input.messages`` on its span:

- the older one, an event a message (``gen_ai.system.message``, ``gen_ai.user.message``,
  ``gen_ai.assistant.message``, ``gen_ai.tool.message``) and one an answer (``gen_ai.choice``),
  each body the message in the provider's spelling (:mod:`.event_bodies`): what the
  instrumentations emit by default, as log records (OTLP ``resourceLogs``) or span events;
- the newer single ``gen_ai.client.inference.operation.details`` event, whose attributes are the
  span's own (``gen_ai.input.messages``, ``gen_ai.output.messages``, ``gen_ai.system_instructions``,
  the request and usage attributes) in structured form: read as they are.

A row holding events is ``{"events": [...], <the span's attributes>...}``; an event is
``{"name" | "event_name" | "eventName", "body"?, "attributes"?}`` (the ``event.name`` attribute
names it too, as the OpenTelemetry SDK's event API wrote it), or the OpenTelemetry SDK's own
object: a ``ReadableLogRecord`` (``InMemoryLogExporter.get_finished_logs()``), a ``LogRecord``,
or a span's ``Event`` (``ReadableSpan.events``), of which the name, body and attributes are read
(its timing and ids are the trace's, not the conversation's). A span event has no body: its
``gen_ai.event.content`` attribute (JSON text) is the body when it has one, its other attributes
otherwise. The SDK hands structured attribute values back as tuples: read as lists.

The message events become the input messages, the choices the output messages, in their
``index`` order. An attribute every message event shares (``gen_ai.system``) is the call's; one
that differs stays on its message, as does an event's own field. An event of any other name is
left in ``events`` (the row's bag keeps it). Read, not written: this format writes the span
attributes the conventions now define.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from chatcodec import ValidationError
from chatcodec._frameworks.otel_genai.event_bodies import choice_message, event_message
from chatcodec._frameworks.otel_genai.markers import INPUT, OUTPUT, SYSTEM
from chatcodec.codec_kit import Problem, as_dict, as_list, problems_error, read_json_text

EVENTS = "events"
"""The row key holding a call's events."""

ROLES = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}
"""Each message event and the role it records."""

CHOICE = "gen_ai.choice"
DETAILS = "gen_ai.client.inference.operation.details"
NAMES = frozenset({*ROLES, CHOICE, DETAILS})
"""The events this format reads."""

_NAME_ATTRIBUTE = "event.name"
_SPAN_EVENT_BODY = "gen_ai.event.content"
_EVENT_FIELDS = ("name", "event_name", "eventName", "body", "attributes")


def has_events(payload: Mapping[str, Any]) -> bool:
    """Whether a row records its call as events this format reads."""
    return any(_name(plain_event(event)) in NAMES for event in as_list(payload.get(EVENTS)) or ())


Location = tuple[int | str, ...]

Places = dict[Location, tuple[Location, bool]]
"""Where the caller's events hold what :func:`read_events` moved: a place in the row read (an
attribute, a message of its lists, a message's attributes) and the place in the caller's
``events`` it came from, with whether a path further inside reads the same there (an attribute
taken as it is) or not (a body read from the provider's spelling: its event's body is named)."""


def read_events(payload: dict[str, Any]) -> tuple[dict[str, Any], Places]:
    """``payload`` with the messages its events record as the span's message attributes (its
    events read and taken out), and where each came from (a refusal names the caller's event,
    not the attribute it became: :func:`placed`); ``payload`` itself when it has no events to
    read, or already holds the message attributes."""
    places: Places = {}
    listed = as_list(payload.get(EVENTS))
    if listed is None or INPUT in payload or OUTPUT in payload or SYSTEM in payload:
        return payload, places
    events = [plain_event(event) for event in listed]
    row = {key: value for key, value in payload.items() if key != EVENTS}
    inputs: list[tuple[dict[str, Any], dict[str, Any], int]] = []
    choices: list[tuple[int, dict[str, Any], dict[str, Any], int]] = []
    others: list[Any] = []
    for position, event in enumerate(events):
        name = _name(event)
        attributes = {key: value for key, value in (as_dict(event.get("attributes")) or {}).items()}
        attributes.pop(_NAME_ATTRIBUTE, None)
        if name == DETAILS and not any(key in row and row[key] != value for key, value in attributes.items()):
            row.update(attributes)  # the call's own attributes (one that contradicts the row's: left in events)
            places.update({(key,): ((EVENTS, position, "attributes", key), True) for key in attributes})
            continue
        if name not in ROLES and name != CHOICE:
            others.append(event)
            continue
        index, message, body_place = _message(event, name, attributes, position)
        if name == CHOICE:
            choices.append((position if index is None else index, message, attributes, position))
        else:
            inputs.append((message, attributes, position))
        places[(EVENTS, position)] = (body_place, False)
    shared = _shared([attributes for _, attributes, _ in inputs] + [attributes for _, _, attributes, _ in choices])
    shared = {key: value for key, value in shared.items() if row.get(key, value) == value}
    row.update(shared)
    first = min([position for *_, position in inputs] + [position for *_, position in choices], default=0)
    places.update({(key,): ((EVENTS, first, "attributes", key), True) for key in shared})
    answers = [(message, attributes, at) for _, message, attributes, at in sorted(choices, key=_index)]
    for key, messages in ((INPUT, inputs), (OUTPUT, answers)):
        if messages:
            row[key] = [_with(message, attributes, shared) for message, attributes, _ in messages]
            _place_messages(places, key, [position for *_, position in messages])
    if others:
        row[EVENTS] = others
    return row, places


def read_placed(payload: dict[str, Any], read: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """``read`` of ``payload``'s row (:func:`read_events`), its refusal at the place in the
    caller's events a value it names came from (:func:`relocated`)."""
    row, places = read_events(payload)
    if not places:
        return read(row)
    try:
        return read(row)
    except ValidationError as error:
        raise relocated(error, places) from None


def relocated(error: ValidationError, places: Places) -> ValidationError:
    """``error`` (found in the row :func:`read_events` made) with each problem at the place in
    the caller's events it came from."""
    problems = [
        Problem(placed(tuple(detail["loc"]), places), detail["type"], detail["msg"], detail["input"])
        for detail in error.errors(include_url=False)
    ]
    return problems_error(error.title, problems)


def _message(
    event: dict[str, Any], name: str, attributes: dict[str, Any], position: int
) -> tuple[int | None, dict[str, Any], Location]:
    """A message event's (or a choice's) message, a choice's index, and where its body is."""
    body_place: Location = (EVENTS, position, "body")
    if "body" in event:
        body = event["body"]
    else:
        body_place = (EVENTS, position, "attributes", *((_SPAN_EVENT_BODY,) * (_SPAN_EVENT_BODY in attributes)))
        body = _span_event_body(attributes)
    index, message = choice_message(body) if name == CHOICE else (None, event_message(body, ROLES[name]))
    own = {key: value for key, value in event.items() if key not in _EVENT_FIELDS}
    if own:
        message["event"] = own
    return index, message, body_place


def _place_messages(places: Places, key: str, positions: list[int]) -> None:
    """Each message of the row's list ``key`` placed at its event (its body, read from another
    spelling; its attributes and own fields as the event holds them)."""
    for index, position in enumerate(positions):
        places[(key, index)] = places.pop((EVENTS, position))
        places[(key, index, "attributes")] = ((EVENTS, position, "attributes"), True)
        places[(key, index, "event")] = ((EVENTS, position), True)


def placed(location: Location, places: Places) -> Location:
    """``location`` in the row :func:`read_events` made, as the place in the caller's events it
    came from (the longest place known that starts it); itself when it came from no event."""
    for end in range(len(location), 0, -1):
        found = places.get(location[:end])
        if found is not None:
            origin, same_inside = found
            return (*origin, *location[end:]) if same_inside else origin
    return location


def plain_event(event: object) -> dict[str, Any]:
    """An event as a plain dict: the SDK's log record or span event by its name, body and
    attributes; tuples (the SDK's sequences) as lists."""
    fields = as_dict(event)
    if fields is not None:
        return cast("dict[str, Any]", plain(fields))
    record: object = getattr(event, "log_record", event)  # a ReadableLogRecord holds its LogRecord
    plain_fields: dict[str, Any] = {}
    name: object = getattr(record, "event_name", None) or getattr(record, "name", None)
    if isinstance(name, str):
        plain_fields["name"] = name
    if hasattr(record, "body"):
        body: object = getattr(record, "body")  # noqa: B009 (an attribute of an object of no known type)
        plain_fields["body"] = plain(body)
    attributes: object = getattr(record, "attributes", None)
    if isinstance(attributes, Mapping):
        plain_fields["attributes"] = plain(cast("Mapping[str, object]", attributes))
    return plain_fields


def plain(value: object) -> object:
    """A value with every mapping a dict and every tuple a list, all the way down."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in cast("Mapping[str, object]", value).items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in cast("list[object] | tuple[object, ...]", value)]
    return value


def _name(event: Mapping[str, Any]) -> str | None:
    for key in ("name", "event_name", "eventName"):
        if isinstance(event.get(key), str) and event[key]:
            return str(event[key])
    named = (as_dict(event.get("attributes")) or {}).get(_NAME_ATTRIBUTE)
    return named if isinstance(named, str) else None


def _span_event_body(attributes: dict[str, Any]) -> object:
    """A span event's body: its ``gen_ai.event.content`` (JSON text) when it has one, else its
    attributes (taken out of ``attributes`` either way, as they are the body)."""
    if isinstance(attributes.get(_SPAN_EVENT_BODY), str):
        text = attributes.pop(_SPAN_EVENT_BODY)
        try:
            return read_json_text(text)
        except ValueError:
            return text
    body = {key: _json_value(value) for key, value in attributes.items() if not key.startswith("gen_ai.")}
    for key in body:
        attributes.pop(key)
    return body


def _json_value(value: object) -> object:
    """A span event attribute holding JSON text of an object or list, as that value."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return read_json_text(value)
        except ValueError:
            return value
    return value


def _shared(attributes: list[dict[str, Any]]) -> dict[str, Any]:
    """The attributes every message event has, with one value."""
    if not attributes:
        return {}
    first, *rest = attributes
    return {key: value for key, value in first.items() if all(key in other and other[key] == value for other in rest)}


def _with(message: dict[str, Any], attributes: dict[str, Any], shared: Mapping[str, Any]) -> dict[str, Any]:
    own = {key: value for key, value in attributes.items() if key not in shared}
    if own:
        message["attributes"] = own
    return message


def _index(choice: tuple[int, dict[str, Any], dict[str, Any], int]) -> int:
    return choice[0]
