"""Shared by the schema agreement tests: valid documents per schema kind, one-step mutations
of them, and the verdicts of the models and of the schema (Python ``jsonschema``, and the
Rust ``jsonschema`` crate through its PyPI binding ``jsonschema-rs``).

The models and the JSON Schema must accept exactly the same documents; the
mutations are the mistakes people make by hand: a missing or unknown key, a wrong tag,
a value of another JSON type (``"yes"`` for a bool, ``"0.5"`` for a number, ``null``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema
import jsonschema_rs
import pydantic
from hypothesis import strategies as st

import chatcodec
from chatcodec import testing

KINDS: tuple[chatcodec.SchemaKind, ...] = chatcodec.SCHEMA_KINDS

_REQUEST_ADAPTER = pydantic.TypeAdapter(chatcodec.ChatRequest)
_RESPONSE_ADAPTER = pydantic.TypeAdapter(chatcodec.ChatResponse)


def model_accepts(kind: chatcodec.SchemaKind, document: object) -> bool:
    """Whether the canonical models validate ``document`` as the ``kind`` type."""
    validators: dict[str, Callable[[object], object]] = {
        "messages": chatcodec.MESSAGES_ADAPTER.validate_python,
        "request": _REQUEST_ADAPTER.validate_python,
        "response": _RESPONSE_ADAPTER.validate_python,
        "stream-event": chatcodec.STREAM_EVENT_ADAPTER.validate_python,
    }
    try:
        validators[kind](document)
    except pydantic.ValidationError:
        return False
    return True


@cache
def _schema_validator(kind: chatcodec.SchemaKind) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(chatcodec.json_schema(kind))


def schema_accepts(kind: chatcodec.SchemaKind, document: object) -> bool:
    """Whether the exported JSON Schema of ``kind`` accepts ``document`` (Python ``jsonschema``)."""
    return bool(_schema_validator(kind).is_valid(document))


@cache
def _rust_validator(kind: chatcodec.SchemaKind) -> Any:
    return jsonschema_rs.validator_for(chatcodec.json_schema(kind))


def rust_schema_accepts(kind: chatcodec.SchemaKind, document: object) -> bool:
    """Whether the Rust ``jsonschema`` crate (through ``jsonschema-rs``) accepts ``document``."""
    return bool(_rust_validator(kind).is_valid(document))


def schema_errors(kind: chatcodec.SchemaKind, document: object) -> list[jsonschema.ValidationError]:
    """Every error Python ``jsonschema`` reports for ``document``."""
    return list(_schema_validator(kind).iter_errors(document))


def canonical_objects(kind: chatcodec.SchemaKind) -> st.SearchStrategy[Any]:
    """Canonical objects of ``kind`` from :mod:`chatcodec.testing`."""
    strategies: dict[str, st.SearchStrategy[Any]] = {
        "messages": testing.conversations(),
        "request": testing.chat_requests(),
        "response": testing.chat_responses(),
        "stream-event": testing.stream_events(),
    }
    return strategies[kind]


def dump(kind: chatcodec.SchemaKind, value: Any, mode: str = "json") -> Any:
    """``model_dump`` of one canonical object (or a list of messages), as users call it."""
    if kind == "messages":
        return [message.model_dump(mode=mode) for message in value]
    return value.model_dump(mode=mode)


_REPLACEMENTS: list[object] = ["yes", "0.5", "", "video", 0.5, 3, 3.0, -1, 0, True, False, None, {}, [], ["x"]]
"""Values a mutation puts in place of another: wrong JSON types, coercible strings, integral
floats (``3.0`` is an integer to JSON Schema), out-of-range numbers, empty containers."""


@dataclass(frozen=True)
class _Location:
    container: dict[str, Any] | list[Any]
    key: str | int

    def drop(self) -> None:
        if isinstance(self.container, dict):
            del self.container[str(self.key)]
        else:
            del self.container[int(self.key)]

    def replace(self, value: object) -> None:
        if isinstance(self.container, dict):
            self.container[str(self.key)] = value
        else:
            self.container[int(self.key)] = value


def _locations(node: object, found: list[_Location]) -> list[_Location]:
    if isinstance(node, dict):
        for key in node:
            found.append(_Location(node, key))
            _locations(node[key], found)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found.append(_Location(node, index))
            _locations(item, found)
    return found


def _objects(node: object, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            _objects(value, found)
    elif isinstance(node, list):
        for item in node:
            _objects(item, found)
    return found


@st.composite
def mutated(draw: st.DrawFn, document: object) -> tuple[str, object]:
    """``document`` with one mistake in it, and a word naming the mistake."""
    mutant = copy.deepcopy(document)
    locations = _locations(mutant, [])
    kinds = ["add key"] + (["drop", "replace", "retag"] if locations else [])
    mistake = draw(st.sampled_from(kinds))
    if mistake == "add key":
        target = draw(st.sampled_from(_objects(mutant, []) or [None]))
        if target is None:
            return "replace root", draw(st.sampled_from(_REPLACEMENTS))
        target[draw(st.sampled_from(["colour", "input", "tool_calls", "reasoning_content"]))] = "red"
        return mistake, mutant
    location = draw(st.sampled_from(locations))
    if mistake == "drop":
        location.drop()
    elif mistake == "retag":
        tagged = [node for node in _objects(mutant, []) if "type" in node or "role" in node]
        if not tagged:
            return "replace root", draw(st.sampled_from(_REPLACEMENTS))
        node = draw(st.sampled_from(tagged))
        tag = "type" if "type" in node else "role"
        node[tag] = draw(st.sampled_from(["video", "tool_use", "tool_result", "assistant", "text", 1, None]))
    else:
        location.replace(draw(st.sampled_from(_REPLACEMENTS)))
    return mistake, mutant


def duplicate_choice_indexes(kind: chatcodec.SchemaKind, document: object) -> bool:
    """The one rule JSON Schema cannot state: a response's choice indexes are unique.

    (No keyword compares a property across array items.) The schema says so in the
    description of ``choices``; the models enforce it.
    """
    if kind != "response" or not isinstance(document, dict):
        return False
    choices = document.get("choices")
    if not isinstance(choices, list):
        return False
    indexes = [_as_number(choice.get("index", 0)) for choice in choices if isinstance(choice, dict)]
    return len(set(indexes)) != len(indexes)


def _as_number(value: object) -> str:
    """``value`` spelled so that ``0`` and ``0.0`` (one JSON number) compare equal."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(value)
