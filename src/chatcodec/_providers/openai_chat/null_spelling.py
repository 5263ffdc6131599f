"""The ``null`` message fields of an OpenAI SDK dump, kept as spelling.

``ChatCompletionMessage.model_dump()`` (what an agent built on the openai SDK appends to its
history) writes ``"refusal": null``, ``"function_call": null``, ``"annotations": null`` and
``"audio": null`` on every assistant message, and frameworks built on pydantic add
``"name": null`` to any message. Each is a field OpenAI documents, and ``null`` there means
"none" in every format: the reader keeps the keys in the :data:`~chatcodec._providers.kit.bags.NULLS_MARKER`
marker (in the order they came), so this writer gives them back as they were and another
provider drops them without a report, as the kit does for every documented ``null``
(:mod:`chatcodec._providers.kit.null_fields`). A ``null`` under any other key is data the caller
sent: it stays a wire field of the bag, written back here and reported elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import NULLS_MARKER, as_list, wire_fields

SPELLED_NULLS = frozenset({"refusal", "function_call", "annotations", "audio", "name"})
"""The message keys whose ``null`` is spelling (the SDK dump's, and a ``null`` name)."""


def nulls_as_spelling(bag: dict[str, Any]) -> dict[str, Any]:
    """``bag`` (a message's leftovers) with its :data:`SPELLED_NULLS` fields moved into the
    ``_nulls`` marker, in their order."""
    nulls = [key for key, value in bag.items() if value is None and key in SPELLED_NULLS]
    if nulls:
        for key in nulls:
            del bag[key]
        bag[NULLS_MARKER] = nulls
    return bag


def spelled_nulls(bag: Mapping[str, Any]) -> dict[str, Any]:
    """A message's spelled ``null`` keys, written before the fields this writer writes (as
    the SDK dump had them); its other wire fields come after (:func:`with_own_fields`)."""
    nulls = as_list(bag.get(NULLS_MARKER)) if bag else None
    return dict.fromkeys(key for key in nulls if isinstance(key, str)) if nulls else {}


def with_own_fields(wire: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
    """``wire`` followed by its bag's wire fields it does not hold: a key OpenAI Chat does
    not define stays after the ones it does, as a fine-tuning row's ``weight`` follows its
    answer's content (moved first, the row's key order changed)."""
    for key, value in wire_fields(bag).items():
        wire.setdefault(key, value)
    return wire


def message_fields(bag: Mapping[str, Any]) -> dict[str, Any]:
    """The wire fields a message's own bag stands for: its spelled ``null`` keys first (as
    the SDK dump had them before the fields this writer writes), then its wire fields."""
    nulls = as_list(bag.get(NULLS_MARKER)) if bag else None
    if not nulls:
        return wire_fields(bag)
    return {**dict.fromkeys(key for key in nulls if isinstance(key, str)), **wire_fields(bag)}
