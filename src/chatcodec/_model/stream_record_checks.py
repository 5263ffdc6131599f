"""The checks a stream event model made, without the model: what
:class:`~chatcodec.streams._builder.StreamBuilder` runs on a record before it hands it on.

A model validated every event (a negative index, a count that is not an int, a NaN in a
bag were refused where the decoder made the event); a record (:mod:`.stream_records`)
checks nothing. :func:`checked` keeps the models' strictness at the cost of a few class
checks per event: a record whose fields are plain, as nearly every decoded event's are, is
kept as it is; any other goes through its model, which refuses with its own error or reads
the value as it always did (``3.0`` as ``3``). This module imports no pydantic.
"""

from __future__ import annotations

from math import isfinite
from typing import TYPE_CHECKING, Any, cast

from chatcodec._model.stream_records import AnyStreamRecord, event_of, is_record, record_of
from chatcodec._public_label import shown_as

if TYPE_CHECKING:
    from chatcodec._model.stream_events import AnyStreamEvent

__all__ = ["checked", "checked_record", "plain_json", "plain_metadata", "plain_usage"]

_DEEPEST = 64
"""Nesting a plain value may have; anything deeper is left to the model (pydantic-core's
own depth limit decides, with its own error)."""


def plain_json(value: object, depth: int = 0) -> bool:
    """Whether ``value`` is JSON the models' ``JsonValue`` takes as it is: ``None``, a
    ``bool``, ``int``, ``str``, a finite ``float``, a list of those or a dict with ``str`` keys."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is float:
        return isfinite(cast("float", value))
    if depth > _DEEPEST:
        return False
    if kind is dict:
        mapping = cast("dict[object, object]", value)
        return all(type(key) is str and plain_json(item, depth + 1) for key, item in mapping.items())
    if kind is list:
        return all(plain_json(item, depth + 1) for item in cast("list[object]", value))
    return False


def plain_metadata(bag: object) -> bool:
    """Whether ``bag`` is a ``provider_metadata`` the models keep as it is: ``None``, or a
    dict of ``str`` to dicts of ``str`` to plain JSON."""
    if bag is None:
        return True
    if type(bag) is not dict:
        return False
    for key, values in cast("dict[object, object]", bag).items():
        if type(key) is not str or type(values) is not dict or not plain_json(cast("object", values)):
            return False
    return True


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _text(value: object) -> bool:
    return type(value) is str


def _optional_text(value: object) -> bool:
    return value is None or type(value) is str


def _optional_int(value: object) -> bool:
    return value is None or type(value) is int


def _none(value: object) -> bool:
    return value is None


def _empty(value: object) -> bool:
    return value is None or value == []


def _kind(value: object) -> bool:
    return value in {"function", "custom"}


_REASONS = frozenset(("stop", "length", "tool_calls", "content_filter", "refusal", "pause", "error", "other"))
_USAGE_ORDER = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")
_USAGE_KEYS = frozenset((*_USAGE_ORDER, "provider_metadata"))


def _finish_reason(value: object) -> bool:
    if type(value) is not dict:
        return False
    reason = cast("dict[str, object]", value)
    if not reason.keys() <= {"unified", "raw"} or reason.get("unified") not in _REASONS:
        return False
    return "raw" not in reason or _text(reason["raw"])  # a ``None`` raw is left out by the model's dump


def plain_usage(value: object) -> dict[str, Any] | None:
    """Canonical usage as ``Usage``'s dump gives it, when the model would keep every value as
    it is (counts that are non-negative ``int`` s or ``None``, a plain ``provider_metadata``
    bag): the counts in the model's field order with no ``None``, then the bag; ``None``
    for anything the model must read (a ``3.0``, a negative count, an unknown key), so a
    stream's usage needs no model unless it is one of those."""
    if type(value) is not dict:
        return None
    usage = cast("dict[str, object]", value)
    bag = usage.get("provider_metadata")
    if not usage.keys() <= _USAGE_KEYS or not plain_metadata(bag):
        return None
    if not all(count is None or _count(count) for key, count in usage.items() if key != "provider_metadata"):
        return None
    plain: dict[str, Any] = {key: usage[key] for key in _USAGE_ORDER if usage.get(key) is not None}
    if bag is not None:
        plain["provider_metadata"] = bag
    return plain


def _usage(value: object) -> bool:
    """Plain usage exactly as dumped (no ``None``, the model's order)."""
    plain = plain_usage(value)
    return plain is not None and list(plain.items()) == list(cast("dict[str, object]", value).items())


_CHECKS: dict[str, tuple[tuple[str, Any], ...]] = {
    "response_start": (("id", _optional_text), ("model", _optional_text), ("created", _optional_int)),
    "text_start": (("index", _count), ("choice", _count)),
    "text_delta": (("index", _count), ("choice", _count), ("delta", _text), ("logprobs", _none)),
    "text_end": (("index", _count), ("choice", _count), ("citations", _empty)),
    "refusal_delta": (("index", _count), ("choice", _count), ("delta", _text)),
    "thinking_start": (("index", _count), ("choice", _count), ("provider", _optional_text), ("model", _optional_text)),
    "thinking_delta": (("index", _count), ("choice", _count), ("delta", _text)),
    "thinking_signature_delta": (("index", _count), ("choice", _count), ("delta", _text)),
    "thinking_end": (("index", _count), ("choice", _count), ("encrypted", _optional_text)),
    "tool_call_start": (("index", _count), ("choice", _count), ("id", _text), ("name", _text), ("kind", _kind)),
    "tool_call_delta": (("index", _count), ("choice", _count), ("delta", _text)),
    "tool_call_end": (("index", _count), ("choice", _count)),
    "part": (("part", _none),),  # a part is always checked by its model (parts that arrive whole are rare)
    "usage": (("usage", _usage),),
    "finish": (
        ("choice", _count),
        ("finish_reason", _finish_reason),
        ("logprobs", _none),
        ("choice_metadata", plain_metadata),
    ),
    "choice_metadata": (("choice", _count), ("choice_metadata", plain_metadata), ("message_metadata", plain_metadata)),
    "error": (("message", _text), ("error_type", _optional_text), ("body", plain_json)),
}
"""Per kind, what makes each field a value its model keeps as it is (``provider_metadata``
is checked for every kind); a value that is not (a ``3.0`` index, a usage with a bag,
token log probabilities, citations, a whole part) goes to the model."""


def checked(record: AnyStreamRecord) -> AnyStreamRecord:
    """``record`` when every field is plain (:data:`_CHECKS`); otherwise the record of its
    model, validated from ``record``'s data: the model refuses what it refused before
    (with its own error), and what it reads differently (``3.0`` as ``3``, a nested bag)
    is what the record then holds."""
    if plain_metadata(record.provider_metadata) and all(
        check(getattr(record, name)) for name, check in _CHECKS[record.type]
    ):
        return record
    return record_of(event_of(record))


def checked_record(event: AnyStreamRecord | AnyStreamEvent) -> AnyStreamRecord:
    """A decoder's event as a record: a record :func:`checked`, a model (a contract version 1
    decoder's, validated when it was made) as its record."""
    return checked(cast("AnyStreamRecord", event)) if is_record(event) else record_of(event)


shown_as("chatcodec.codec_kit", plain_usage)
