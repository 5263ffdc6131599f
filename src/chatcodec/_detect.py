"""Telling wire formats apart, for the command line.

The decoders are tolerant readers, so a body in the wrong format often "decodes": an
OpenAI decoder given an Anthropic request drops its top-level ``system`` with only a
loss line. The CLI therefore looks for *markers*: things a body can hold in some formats
and not in others (a top-level ``system`` is Anthropic's, a ``role: "system"`` message is
never Anthropic's, a string ``finish_reason`` is OpenAI's). A body whose markers all
exclude a format is clearly not in it; the formats every marker allows are what it
looks like. A body with no marker (a bare list of messages, a request with only user
turns) is any format, and is read as given.

Which format can hold which mark is each provider's fact, read from its wire description
(``Edge.detection``, :class:`~chatcodec._providers.contract.detection.Detection`: every
top-level key its SDK kinds, wire shapes and documented extensions hold, its roles, its
other marks); canonical's is its data's fields, :data:`CANONICAL_ROLES` and
:data:`CANONICAL_HOLDS`. A mark every format holds tells none apart and is no marker, so
registering a format described this way changes no verdict on another format's
recordings (``tests/test_detection_laws.py``). This module finds the marks in a body; a
mark no known format holds is not a marker. The
marks (``<...>`` a value found in the body):

==============================  ==========================================================
``object:<value>``              a top-level ``object`` string
``response-type:<value>``       a top-level ``type`` beside ``role: "assistant"``
``error-type:<value>``          a top-level ``type`` beside an ``error`` object
``finish_reason:string``        a string (or object: ``finish_reason:object``) in ``choices``
``key:<name>``                  a top-level key
``output:list``                 ``object: "response"`` or an ``output`` list
``output:object``               an ``output`` object
``input:<type>``                an entry of an ``input`` list, by its ``type`` (``input:untyped``
                                without one): Responses' items, Interactions' steps and contents
                                (a format holding ``input`` whose description names no entry
                                holds every such mark)
``tool:function``               the first tool holding ``function`` (then ``input_schema``,
                                ``parameters``, ``functionDeclarations`` in that order)
``tool:server``                 the first tool's ``type`` ends in a date (``web_search_20250305``)
``role:<role>``                 a message's ``role``
``message:model-or-parts``      a message with ``role: "model"`` or ``parts``
``message:tool_calls``          a message holding ``tool_calls``
``message:result-parts``        a ``tool`` message whose results are parts (no ``tool_call_id``)
``part:untyped``                a content entry with no ``type`` (and no ``role``/``content``)
``part:<type>``                 a content part of that ``type``
``block:<type>``                a content block of that ``type`` (``thinking`` only with a
                                ``thinking`` field)
``block:tool_use+input``        a ``tool_use`` block with ``input`` (without: ``block:tool_use``)
``block:<type>+source``         an ``image``/``document`` with a ``source`` object (``+media_type``
                                when the source holds one)
==============================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from chatcodec._errors import ProviderLookupError
from chatcodec._narrow import as_dict, as_list, is_dict
from chatcodec._providers.contract.detection import Held
from chatcodec._registry import CANONICAL, generation, get_edge, providers_in_use

__all__ = [
    "CANONICAL",
    "CANONICAL_HOLDS",
    "CANONICAL_ROLES",
    "CANONICAL_SHORTHANDS",
    "Marker",
    "detect",
    "fitting",
    "known_formats",
    "markers",
    "mismatch",
    "other_format",
]

CANONICAL_ROLES = ("system", "developer", "user", "assistant", "tool")
"""The roles of a canonical message (:mod:`chatcodec.messages`)."""

CANONICAL_SHORTHANDS = ("system", "message", "finish_reason")
"""Top-level keys canonical reads beyond its data's fields: a request's ``system``
(:func:`chatcodec.request.with_system_shorthand`), a response's single ``message`` and
its ``finish_reason`` (:func:`chatcodec.response.with_single_message_shorthand`)."""

CANONICAL_HOLDS = (
    "finish_reason:object",
    "tool:function",  # the dialect reads it too
    "tool:input_schema",
    "tool:parameters",
    "message:result-parts",
    "part:image_url",
    "part:input_audio",
    "part:file",
    "block:redacted_thinking",
    "block:server_tool_use",
    "block:web_search_tool_result",
    "block:search_result",
    "block:thinking",
    "block:tool_use",
    "block:tool_result",
    "block:image+source",
    "block:document+source",
    "block:image+source+media_type",  # a base64 or file source names its media type
    "block:document+source+media_type",
)
"""The marks a canonical body can hold beyond its keys and roles (chatcodec's own format,
so its fact lives here); its keys are the fields of its request and response data."""


@dataclass(frozen=True, slots=True)
class Marker:
    """Something found in a body, and the formats that can hold it."""

    found: str
    """What and where, for messages (``"a top-level 'system'"``)."""
    formats: frozenset[str]
    """The formats a body holding it can be in."""


@dataclass(frozen=True, slots=True)
class _Table:
    """Who holds which mark, for the formats detection knows right now."""

    known: tuple[str, ...]
    """The formats, in the order preferred when several fit: the registry's, canonical last."""
    holders: dict[str, frozenset[str]]
    """Mark -> the formats holding it (a mark nobody holds, or every format holds, is absent)."""
    keys: dict[str, int]
    """The top-level keys that tell formats apart -> their place in the order the formats
    describe them (a body's are reported in that order, whatever order it holds them in)."""
    fields: dict[str, frozenset[str]]
    """Format -> every top-level key it holds (those all formats hold too)."""
    against: dict[str, _Against] = field(default_factory=lambda: {})
    """Format -> the marks it cannot hold, made when a row is first checked against it
    (:func:`_against`): one entry per format checked, rebuilt with the table."""


_last: list[tuple[int, _Table]] = []
"""The registry's generation the table was built at, and the table."""


def _table() -> _Table:
    """The table for the edges registered now (built again when a codec is registered)."""
    if _last and _last[0][0] == generation():
        return _last[0][1]
    holding: list[tuple[str, Held]] = []
    for name in providers_in_use():
        try:
            edge = get_edge(name)
        except ProviderLookupError:  # a codec without an edge: a format detection does not know
            continue
        if edge.detection is not None:
            extensions = (*edge.extensions, *(row for rows in edge.server_extensions.values() for row in rows))
            holding.append((name, edge.detection.held(extensions)))
    table = _built([*holding, (CANONICAL, _canonical())])
    _last[:] = [(generation(), table)]
    return table


def _canonical() -> Held:
    from chatcodec._model.canonical_types import ChatRequestData, ChatResponseData

    keys = dict.fromkeys((*ChatRequestData.__annotations__, *ChatResponseData.__annotations__, *CANONICAL_SHORTHANDS))
    return Held(tuple(keys), CANONICAL_ROLES, frozenset(CANONICAL_HOLDS))


def _built(holding: list[tuple[str, Held]]) -> _Table:
    """Mark -> holders from each format's marks: a format without a roles list holds every
    role, one holding ``input`` with no entry described every ``input:`` mark, and a mark
    every format holds tells none apart, so it is no marker."""
    holders: dict[str, set[str]] = {}
    for name, held in holding:
        for mark in (*(f"key:{key}" for key in held.keys), *held.shapes):
            holders.setdefault(mark, set()).add(name)
        for role in held.roles or ():
            holders.setdefault(f"role:{role}", set()).add(name)
    for name, held in holding:
        undescribed: tuple[str, ...] = ("role:",) if held.roles is None else ()
        if "input" in held.keys and not any(mark.startswith("input:") for mark in held.shapes):
            undescribed += ("input:",)
        if not undescribed:
            continue
        for mark, names in holders.items():
            if mark.startswith(undescribed):
                names.add(name)
    every = len(holding)
    kept = {mark: frozenset(names) for mark, names in holders.items() if len(names) < every}
    keys = dict.fromkeys(key for _, held in holding for key in held.keys if f"key:{key}" in kept)
    fields = {name: frozenset(held.keys) for name, held in holding}
    return _Table(tuple(name for name, _ in holding), kept, {key: place for place, key in enumerate(keys)}, fields)


def known_formats() -> tuple[str, ...]:
    """The formats detection knows, in the order preferred when several fit."""
    return _table().known


def markers(data: object) -> list[Marker]:
    """The markers in a request or response body (empty for anything else)."""
    return _markers(data, _table())


def _markers(data: object, table: _Table) -> list[Marker]:
    fields = as_dict(data)
    if fields is None:
        return []
    holders = table.holders
    found = [Marker(text, holders[mark]) for mark, text in _top_level(fields, table.keys) if mark in holders]
    for mark, said, value, index in _in_messages(fields, holders):
        if mark in holders:
            found.append(Marker(said.format(value, index), holders[mark]))
    return found


def _holds_against(source: str, data: object, table: _Table) -> bool:
    """Whether ``data`` holds a marker ``source`` cannot hold: the marks alone, no words
    written (a row of the command line is checked this way, and is nearly always its format),
    each looked up in what ``source`` cannot hold (:class:`_Against`), made once a table."""
    fields = as_dict(data)
    if fields is None:
        return False
    against = table.against.get(source) or _against(source, table)
    for key in against.keys.intersection(fields):
        if key != "prompt" or not isinstance(fields[key], str):  # as :func:`_top_level` passes a prompt column
            return True
    if not _SHAPE_KEYS.isdisjoint(fields) and any(mark in against.marks for mark, _ in _shape_marks(fields)):
        return True
    return _messages_against(_messages(fields), against, table.holders)


@dataclass(frozen=True, slots=True)
class _Against:
    """The marks one format cannot hold, in the forms a row is searched with: the same
    verdicts as looking each mark found up in :attr:`_Table.holders`, without a mark's text
    made for a role, a key or a part whose type settles it."""

    marks: frozenset[str]
    """Every mark the format cannot hold."""
    keys: frozenset[str]
    """The top-level keys whose ``key:`` mark it cannot hold."""
    roles: frozenset[str]
    """The roles whose ``role:`` mark it cannot hold."""
    model_or_parts: bool
    """Whether it cannot hold ``message:model-or-parts``."""
    tool_calls: bool
    """Whether it cannot hold ``message:tool_calls``."""
    result_parts: bool
    """Whether it cannot hold ``message:result-parts``."""
    part_types: frozenset[str]
    """The content types some part of which holds a mark against it (a part of any other
    type holds none, whatever else it holds): found by :func:`_in_part` itself on every
    variant of a part it tells apart."""


def _against(source: str, table: _Table) -> _Against:
    """What ``source`` cannot hold, read from ``table`` and kept in it."""
    marks = frozenset(mark for mark, holding in table.holders.items() if source not in holding)
    kinds = {mark.partition(":")[2].partition("+")[0] for mark in table.holders if mark.startswith(("part:", "block:"))}
    made = _Against(
        marks,
        frozenset(mark[4:] for mark in marks if mark.startswith("key:")),
        frozenset(mark[5:] for mark in marks if mark.startswith("role:")),
        "message:model-or-parts" in marks,
        "message:tool_calls" in marks,
        "message:result-parts" in marks,
        frozenset(kind for kind in kinds if _part_variants_against(kind, table.holders, marks)),
    )
    table.against[source] = made
    return made


_INPUTS: tuple[dict[str, Any], ...] = ({}, {"input": {}})
_SOURCES: tuple[dict[str, Any], ...] = ({}, {"source": {}}, {"source": {"media_type": "image/png"}})
_THINKING: tuple[dict[str, Any], ...] = ({}, {"thinking": ""})
_PART_VARIANTS: tuple[dict[str, Any], ...] = tuple(
    {**given, **source, **thinking} for given in _INPUTS for source in _SOURCES for thinking in _THINKING
)
"""A part of each combination of what :func:`_in_part` reads of a part with a type besides
the type (``input``, a ``source`` object with or without ``media_type``, ``thinking``): a
field it comes to read goes here too (``tests/test_detection_marks_alone.py`` fails without)."""


def _part_variants_against(kind: str, holders: Mapping[str, object], marks: frozenset[str]) -> bool:
    """Whether some part of type ``kind`` holds a mark in ``marks``."""
    found: list[_FoundInMessage] = []
    for variant in _PART_VARIANTS:
        _in_part({"type": kind, **variant}, 0, holders, found)
    return any(mark in marks for mark, _, _, _ in found)


def _messages_against(messages: list[Any], against: _Against, holders: Mapping[str, object]) -> bool:
    """Whether a message holds a mark its format cannot hold (:func:`_in_message`'s marks).
    (``x.__class__ is dict`` leaves ``x`` typed ``Any`` for the checkers; an object of a dict's
    subclass is read by :func:`_in_message` itself.)"""
    roles, model_or_parts, tool_calls = against.roles, against.model_or_parts, against.tool_calls
    for message in messages:
        if message.__class__ is not dict:
            if is_dict(message) and _found_against(message, against, holders):
                return True
            continue
        role = message.get("role")
        if roles and isinstance(role, str) and role in roles:
            return True
        if model_or_parts and (role == "model" or "parts" in message):
            return True
        if tool_calls and "tool_calls" in message:
            return True
        if isinstance(message.get("content"), list) and _content_against(message, against, holders):
            return True
    return False


def _content_against(message: dict[str, Any], against: _Against, holders: Mapping[str, object]) -> bool:
    """Whether a message's content list holds a mark its format cannot hold: a part whose type
    no mark against it names is passed by its type alone (:attr:`_Against.part_types`), any
    other read by :func:`_in_part`."""
    if against.result_parts and message.get("role") == "tool" and "tool_call_id" not in message:
        return True
    marked = against.part_types
    for part in message["content"]:
        if part.__class__ is dict:
            kind = part.get("type")
            if isinstance(kind, str) and kind not in marked:
                continue
        elif not is_dict(part):
            continue
        found: list[_FoundInMessage] = []
        _in_part(part, 0, holders, found)
        if any(mark in against.marks for mark, _, _, _ in found):
            return True
    return False


def _found_against(message: dict[str, Any], against: _Against, holders: Mapping[str, object]) -> bool:
    """Whether :func:`_in_message` finds a mark in ``message`` its format cannot hold."""
    found: list[_FoundInMessage] = []
    _in_message(message, 0, holders, found)
    return any(mark in against.marks for mark, _, _, _ in found)


_Found = tuple[str, str]
"""A top-level mark and what was found."""
_FoundInMessage = tuple[str, str, object, int]
"""A mark in a message, and what was found in words to be written when asked: the words
(a ``str.format`` text of the value found and the message's number), the value, the number."""


def _top_level(fields: dict[str, Any], keys: dict[str, int]) -> Iterator[_Found]:
    yield from _leading_marks(fields)
    for key in sorted((key for key in fields if key in keys), key=keys.__getitem__):  # a body has few keys
        if key == "prompt" and isinstance(fields[key], str):
            continue  # a dataset's prompt column (UltraChat's, TRL's), not Responses' prompt template object
        yield f"key:{key}", f"a top-level {key!r}"
    yield from _trailing_marks(fields)


_SHAPE_KEYS = frozenset(("object", "type", "choices", "tools", "output", "input"))
"""The top-level keys :func:`_shape_marks` reads a mark from: a body holding none of them has none."""


def _shape_marks(fields: dict[str, Any]) -> Iterator[_Found]:
    """The top-level marks other than its keys (:func:`_top_level`'s, in another order)."""
    yield from _leading_marks(fields)
    yield from _trailing_marks(fields)


def _leading_marks(fields: dict[str, Any]) -> Iterator[_Found]:
    kind, role = fields.get("object"), fields.get("type")
    if isinstance(kind, str):
        yield f"object:{kind}", f"'object': {kind!r}"
    if isinstance(role, str) and fields.get("role") == "assistant":
        yield f"response-type:{role}", f"a response of 'type': {role!r}"
    if isinstance(role, str) and isinstance(fields.get("error"), dict):
        yield f"error-type:{role}", f"an error of 'type': {role!r}"
    for choice in map(as_dict, as_list(fields.get("choices")) or ()):
        reason = None if choice is None else choice.get("finish_reason")
        if isinstance(reason, str):
            yield "finish_reason:string", "a string 'finish_reason' in 'choices'"
        elif isinstance(reason, dict):
            yield "finish_reason:object", "a 'finish_reason' object in 'choices'"


def _trailing_marks(fields: dict[str, Any]) -> Iterator[_Found]:
    yield from _in_tools(fields.get("tools"))
    if fields.get("object") == "response" or isinstance(fields.get("output"), list):
        yield "output:list", "'object': 'response' or an 'output' list"
    if isinstance(fields.get("output"), dict):
        yield "output:object", "an 'output' object"
    yield from _in_input(fields.get("input"))


def _in_input(entries: object) -> Iterator[_Found]:
    for index, entry in enumerate(map(as_dict, as_list(entries) or ())):
        if entry is None:
            continue
        kind = entry.get("type")
        if isinstance(kind, str):
            yield f"input:{kind}", f"an 'input' entry of 'type' {kind!r} (entry {index})"
        elif kind is None:
            yield "input:untyped", f"an 'input' entry with no 'type' (entry {index})"


def _in_tools(tools: object) -> Iterator[_Found]:
    for tool in map(as_dict, as_list(tools) or ()):
        if tool is None:
            continue
        if "function" in tool:
            yield "tool:function", "a tool with 'function'"
            return
        if "input_schema" in tool:
            yield "tool:input_schema", "a tool with 'input_schema'"
            return
        if "parameters" in tool:
            yield "tool:parameters", "a tool with top-level 'parameters'"
            return
        if "functionDeclarations" in tool or "function_declarations" in tool:
            yield "tool:functionDeclarations", "a tool with 'functionDeclarations'"
            return
        kind = tool.get("type")
        if isinstance(kind, str) and kind[-8:].isdigit():  # server tools: ``web_search_20250305``
            yield "tool:server", f"a {kind!r} server tool"
            return


def _in_messages(fields: dict[str, Any], holders: Mapping[str, object]) -> list[_FoundInMessage]:
    """The marks of every message (and a response's choices' messages), in order: one list
    appended to by plain calls (a chain of generators cost a frame switch per mark)."""
    found: list[_FoundInMessage] = []
    for index, message in enumerate(map(as_dict, _messages(fields))):
        if message is not None:
            _in_message(message, index, holders, found)
    return found


def _messages(fields: dict[str, Any]) -> list[Any]:
    """A body's messages and a response's choices' messages, in order."""
    messages = as_list(fields.get("messages")) or []
    if "choices" not in fields:
        return messages
    for choice in map(as_dict, as_list(fields.get("choices")) or ()):
        if choice is not None and isinstance(choice.get("message"), dict):
            messages = [*messages, choice["message"]]
    return messages


def _in_message(
    message: dict[str, Any], index: int, holders: Mapping[str, object], found: list[_FoundInMessage]
) -> None:
    role = message.get("role")
    if isinstance(role, str):
        found.append((f"role:{role}", "a {0!r} role (message {1})", role, index))
    if role == "model" or "parts" in message:
        found.append(("message:model-or-parts", "a 'model' role or 'parts' (message {1})", None, index))
    if "tool_calls" in message:
        found.append(("message:tool_calls", "'tool_calls' (message {1})", None, index))
    if role == "tool" and isinstance(message.get("content"), list) and "tool_call_id" not in message:
        found.append(("message:result-parts", "tool results as parts (message {1})", None, index))
    for part in map(as_dict, as_list(message.get("content")) or ()):
        if part is not None:
            _in_part(part, index, holders, found)


def _in_part(part: dict[str, Any], index: int, holders: Mapping[str, object], found: list[_FoundInMessage]) -> None:
    kind = part.get("type")
    if kind is None and part and not part.keys() & {"role", "content"}:
        found.append(("part:untyped", "a content block with no 'type' (message {1})", None, index))
    if not isinstance(kind, str):
        return
    mark = f"part:{kind}"
    if mark in holders:
        found.append((mark, "a {0!r} part (message {1})", kind, index))
    elif kind == "tool_use":
        mark = "block:tool_use" + ("+input" if "input" in part else "")
        found.append((mark, "a 'tool_use' block (message {1})", kind, index))
    elif kind in ("image", "document") and isinstance(part.get("source"), dict):
        mark = f"block:{kind}+source" + ("+media_type" if "media_type" in part["source"] else "")
        found.append((mark, "an {0!r} block with a 'source' (message {1})", kind, index))
    elif kind != "thinking" or "thinking" in part:
        found.append((f"block:{kind}", "a {0!r} block (message {1})", kind, index))


def fitting(found: list[Marker], known: tuple[str, ...] | None = None) -> list[str]:
    """The known formats every marker allows, in :func:`known_formats` order."""
    return [name for name in known or known_formats() if all(name in marker.formats for marker in found)]


def mismatch(source: str, data: object) -> str | None:
    """Why ``data`` is clearly not in the ``source`` format, naming what it looks like;
    ``None`` when nothing says so (formats detection does not know pass unchecked)."""
    table = _table()
    against = _other_format(source, data, table)
    if against is None:
        return _holding_nothing(source, data, table)
    found, candidate = against
    if candidate is None:
        return (
            f"this is not {source} input: it has {found}, and no format chatcodec reads fits it; convert its rows "
            "to one first (a conversation per row, such as {messages: [{role, content}]}): `chatcodec convert "
            "--help` lists the formats and training dialects"
        )
    return f"this is not {source} input: it has {found}; it looks like {candidate} (give that as --from)"


def _holding_nothing(source: str, data: object, table: _Table) -> str | None:
    """Why ``data`` is not in ``source``: it holds keys, and not one of them is a field of
    ``source`` (an OpenAI Evals item ``{item, sample}`` given as a Responses request read as
    an empty conversation, a false success)."""
    fields = as_dict(data)
    held = table.fields.get(source)
    if not fields or held is None or not held.isdisjoint(fields):
        return None
    listed = ", ".join(repr(key) for key in list(fields)[:4])
    return f"this is not {source} input: none of its fields ({listed}) is one {source} has (give its format as --from)"


def other_format(source: str, data: object) -> tuple[str, str | None] | None:
    """What says ``data`` is not in the ``source`` format (the first marker against it, in
    words) and the format every marker fits (``None``: none fits); ``None`` when nothing
    says so (formats detection does not know pass unchecked)."""
    return _other_format(source, data, _table())


def _other_format(source: str, data: object, table: _Table) -> tuple[str, str | None] | None:
    """:func:`other_format` on ``table``, which :func:`mismatch` reads once for both its checks."""
    if source not in table.known:
        return None
    if not _holds_against(source, data, table):
        return None
    found = _markers(data, table)
    against = [marker for marker in found if source not in marker.formats]
    if not against:
        return None
    candidates = [name for name in fitting(found, table.known) if name != source]
    return against[0].found, candidates[0] if candidates else None


def detect(data: object) -> str | None:
    """The format ``data`` is in, when its markers say so; ``None`` when nothing does or
    they fit no one format (then the accepted dialects may still read it)."""
    table = _table()
    found = _markers(data, table)
    if not found:
        return None
    formats = fitting(found, table.known)
    return formats[0] if formats else None
