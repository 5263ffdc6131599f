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

An answer is read by the same rule, with what compatible servers document beside the SDK's
fields (:func:`documented_nulls`): vLLM answers every call with ``"kv_transfer_params": null``,
``"prompt_logprobs": null``, ``"stop_reason": null``, ``"reasoning": null`` and
``"tool_calls": []`` (``vllm/entrypoints/openai/chat_completion/protocol.py``), OpenAI with
``"logprobs": null`` and ``"service_tier": null``: each says there is none, so it is this format's spelling,
written back here and dropped elsewhere without a report, while a value there (vLLM's
``stop_reason: "</answer>"``) is data another format reports it cannot carry.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase
from functools import cache
from typing import Any

from chatcodec.codec_kit import NULLS_MARKER, as_list, sdk_fields, wire_fields

EMPTY_MARKER = "_empty"
"""Marker: the documented fields of an answer's object that were ``[]``, in their order."""
SPELLED_NULLS = frozenset(
    {
        "refusal",
        "function_call",
        "annotations",
        "audio",
        "name",
        "provider_specific_fields",
        "tool_calls",
        "parsed",
        "reasoning_content",
        "reasoning",
    }
)
"""The message keys whose ``null`` is spelling (the SDK dump's, its ``"tool_calls": null`` on a turn
of text among them, the ``"parsed": null`` of the message its ``parse`` and ``stream`` helpers build
(``ParsedChatCompletionMessage``), a ``null`` name, and litellm's ``Message.model_dump()``'s
``"provider_specific_fields": null``: a null carries nothing, as an answer's reading already holds
it by litellm's extension row), and the reasoning text fields of compatible servers' answers as the
SDK's ``model_dump()`` keeps them: vLLM answers every message with ``"reasoning_content": null`` (newer
servers ``"reasoning": null`` too) and OpenRouter with ``"reasoning": null`` when the model gave none,
which an agent on those servers sends back on every turn (a text there is read as the turn's reasoning)."""
SPELLED_EMPTY = frozenset({"annotations", "tool_calls"})
"""The message keys whose ``[]`` is spelling: OpenAI answers every message with ``"annotations": []``
(no citations), which the SDK's ``model_dump()`` keeps in the history an agent sends back; clients
that always send the list send ``"tool_calls": []`` on a turn of text (no calls, as vLLM answers)."""


def nulls_as_spelling(bag: dict[str, Any], *, answer: bool = False) -> dict[str, Any]:
    """``bag`` (a message's leftovers) with its :data:`SPELLED_NULLS` fields moved into the
    ``_nulls`` marker, in their order; an ``answer``'s message, every field it documents
    (:func:`documented_nulls`)."""
    nulls = [key for key, value in bag.items() if value is None and key in SPELLED_NULLS]
    if nulls:
        for key in nulls:
            del bag[key]
        bag[NULLS_MARKER] = nulls
    if answer:
        return documented_nulls(bag, "ChatCompletionMessage")
    empty = [key for key in SPELLED_EMPTY if bag.get(key, 0) == [] and bag[key].__class__ is list]
    if empty:  # (an answer's are the documented fields', read above)
        for key in empty:
            del bag[key]
        bag[EMPTY_MARKER] = empty
    return bag


def documented_nulls(bag: dict[str, Any], kind: str) -> dict[str, Any]:
    """``bag`` (the leftovers of an answer's object of SDK ``kind``: ``ChatCompletion``,
    ``Choice``, ``ChatCompletionMessage``, ``CompletionUsage``) with each ``null`` field the
    SDK types there or a compatible server documents there (the edge's extension rows)
    added to the ``_nulls`` marker, and each such field holding ``[]`` to the ``_empty``
    marker, in their order; any other ``null`` or ``[]`` stays data."""
    nulls = [key for key, value in bag.items() if value is None]
    empty = [key for key, value in bag.items() if value == []]
    if nulls or empty:  # (the fields asked once a call, and only then)
        sdk = _sdk_documented(kind)
        nulls = [key for key in nulls if key in sdk or key in _server_documented(kind)]
        empty = [key for key in empty if key in sdk or key in _server_documented(kind)]
    for key in (*nulls, *empty):
        del bag[key]
    if nulls:
        bag[NULLS_MARKER] = [*(as_list(bag.get(NULLS_MARKER)) or ()), *nulls]
    if empty:
        bag[EMPTY_MARKER] = empty
    return bag


@cache
def _sdk_documented(kind: str) -> frozenset[str]:
    """The fields the SDK types on ``kind`` (read once a kind, on its first ``null`` or ``[]``)."""
    return sdk_fields(__package__ or "", (kind,))


@cache
def _server_documented(kind: str) -> frozenset[str]:
    """The fields the compatible servers document on ``kind`` (the edge's extension rows), asked
    only for a key the SDK does not type: the edge imports every server, which a process's first
    stream would pay for its chunks' SDK-typed ``null``."""
    from chatcodec._providers.openai_chat.edge import EXTENSIONS  # the edge sits above the readers

    return frozenset(name for row in EXTENSIONS if fnmatchcase(kind, row.kind) for name in row.fields)


def spelled_nulls(bag: Mapping[str, Any]) -> dict[str, Any]:
    """A message's spelled ``null`` keys and its spelled ``[]`` ones (:data:`SPELLED_EMPTY`),
    written before the fields this writer writes (as the SDK dump had them); its other wire
    fields come after (:func:`with_own_fields`)."""
    nulls = as_list(bag.get(NULLS_MARKER)) if bag else None
    empty = as_list(bag.get(EMPTY_MARKER)) if bag else None
    spelled: dict[str, Any] = dict.fromkeys(key for key in nulls if isinstance(key, str)) if nulls else {}
    if empty:
        spelled.update((key, []) for key in empty if isinstance(key, str))
    return spelled


def with_own_fields(wire: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
    """``wire`` followed by its bag's wire fields it does not hold: a key OpenAI Chat does
    not define stays after the ones it does, as a fine-tuning row's ``weight`` follows its
    answer's content (moved first, the row's key order changed)."""
    for key, value in wire_fields(bag).items():
        wire.setdefault(key, value)
    return wire


def message_fields(bag: Mapping[str, Any]) -> dict[str, Any]:
    """The wire fields an object's own bag stands for (a message, or an answer's response,
    choice or usage): its spelled ``null`` keys first (as the SDK dump had them before the
    fields this writer writes) and its spelled ``[]`` keys, then its wire fields."""
    nulls = as_list(bag.get(NULLS_MARKER)) if bag else None
    empty = as_list(bag.get(EMPTY_MARKER)) if bag else None
    if not nulls and not empty:
        return wire_fields(bag)
    spelled: dict[str, Any] = dict.fromkeys(key for key in nulls or () if isinstance(key, str))
    spelled.update((key, []) for key in empty or () if isinstance(key, str))
    return {**spelled, **wire_fields(bag)}
