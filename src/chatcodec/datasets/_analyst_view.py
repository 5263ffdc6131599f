"""An analyst's view of canonical conversations: one flat row per exchange, message and part.

The columnar form (:mod:`chatcodec.datasets._layout`) holds a conversation exactly, which
makes it deep: every part is a struct with the fields of every part type. The questions
asked of a dataset are flat ("which exchanges used tool X", "how many turns", "is there
thinking", "tokens per model"), so this view answers them in three tables that join on
``exchange`` (and on the dataset's own id columns, given as ``columns``):

``exchanges``  one row per exchange: its request and response as canonical JSON text, the
               model, message and user-turn counts, the tools offered and used, whether
               thinking is present, the finish reason and the token usage
``messages``   one row per message, ``side`` ``request`` or ``response``: its role, its
               text, its part and tool-call counts; a response's messages are its choices,
               one row each (``n > 1``), with the ``choice`` index and its ``finish_reason``
``parts``      one row per content part: its type, text, tool name, call id, arguments,
               and ``is_error`` on a tool result (which calls failed); a tool result's
               ``tool_name`` is the name of the call it answers (most formats' results
               name none), so an error rate per tool is one ``GROUP BY``

``input_tokens`` is the canonical usage's: the whole prompt, cache reads and writes
included (OpenAI's meaning). Anthropic and Bedrock report cache reads and writes beside
their ``input_tokens``; their codecs add them in, so the column is comparable across
providers and ``cache_read_tokens`` is a part of it, never an addition to it. Each
column's description (the Arrow field's ``description`` metadata) says so.

It is a view, not a storage form: it is written beside the columnar form (which stays the
exact one), from the same canonical data. Queries over it are in the docs ("An analyst's
view") and checked in ``tests/columnar/test_analyst_view.py`` with DuckDB and Polars.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from chatcodec._narrow import as_dict, as_list, is_dict, is_list
from chatcodec._public_label import shown_as
from chatcodec.datasets._arrow import Table, pa

ANALYST_TABLES = ("exchanges", "messages", "parts")
"""The tables of the view, in the order they are listed."""

_INPUT_TOKENS = (
    "prompt tokens, cache reads and writes included (OpenAI's meaning; Anthropic's and Bedrock's "
    "input_tokens leave them out, their codecs add them in)"
)
_TOOL_NAME = "the tool called (tool_use), or the tool of the call a tool_result answers"

_EXCHANGE_FIELDS: tuple[tuple[Any, ...], ...] = (
    ("exchange", pa.int64()),
    ("model", pa.string()),
    ("messages", pa.int64()),
    ("turns", pa.int64()),
    ("tools_offered", pa.list_(pa.string())),
    ("tools_used", pa.list_(pa.string())),
    ("has_thinking", pa.bool_()),
    ("response_model", pa.string()),
    ("finish_reason", pa.string()),
    ("choices", pa.int64()),
    ("input_tokens", pa.int64(), _INPUT_TOKENS),
    ("output_tokens", pa.int64()),
    ("cache_read_tokens", pa.int64(), "prompt tokens served from the cache: a part of input_tokens"),
    ("reasoning_tokens", pa.int64()),
    ("request", pa.string()),
    ("response", pa.string()),
)
_MESSAGE_FIELDS: tuple[tuple[Any, ...], ...] = (
    ("exchange", pa.int64()),
    ("side", pa.string()),
    ("message", pa.int64()),
    ("role", pa.string()),
    ("text", pa.string()),
    ("parts", pa.int64()),
    ("tool_calls", pa.int64()),
    ("choice", pa.int64()),
    ("finish_reason", pa.string()),
)
_PART_FIELDS: tuple[tuple[Any, ...], ...] = (
    ("exchange", pa.int64()),
    ("side", pa.string()),
    ("message", pa.int64()),
    ("part", pa.int64()),
    ("role", pa.string()),
    ("type", pa.string()),
    ("text", pa.string()),
    ("tool_name", pa.string(), _TOOL_NAME),
    ("tool_use_id", pa.string()),
    ("arguments", pa.string()),
    ("is_error", pa.bool_()),
)

COLUMN_NAMES = frozenset(column[0] for fields in (_EXCHANGE_FIELDS, _MESSAGE_FIELDS, _PART_FIELDS) for column in fields)
"""Every column of the view's tables (a dataset column given beside them needs another name)."""


@dataclass(slots=True)
class _Rows:
    """The view's rows as they are built, one list of dicts per table."""

    exchanges: list[dict[str, Any]] = field(default_factory=lambda: [])
    messages: list[dict[str, Any]] = field(default_factory=lambda: [])
    parts: list[dict[str, Any]] = field(default_factory=lambda: [])


def analyst_tables(
    requests: Iterable[Mapping[str, Any] | None],
    responses: Iterable[Mapping[str, Any] | None] | None = None,
    columns: Mapping[str, Sequence[Any]] | None = None,
    first_exchange: int = 0,
) -> dict[str, Table]:
    """The view of canonical requests and their responses (paired by position; either may
    be ``None`` or shorter), as ``{"exchanges", "messages", "parts"}`` Arrow tables.
    ``columns``: the dataset's own columns (an id, a split), one value per exchange, added
    to every table so they join and filter on them; ``first_exchange``: the number of the
    first exchange (a file written in parts numbers on)."""
    rows = _Rows()
    for index, (request, response) in enumerate(zip_longest(requests, responses or ()), start=first_exchange):
        _add_exchange(rows, index, request, response)
    extra = dict(columns or {})
    tables = {
        "exchanges": _table(rows.exchanges, _EXCHANGE_FIELDS),
        "messages": _table(rows.messages, _MESSAGE_FIELDS),
        "parts": _table(rows.parts, _PART_FIELDS),
    }
    for name, values in extra.items():
        column = pa.array(list(values))
        for title, table in tables.items():
            positions = pa.array([number - first_exchange for number in table.column("exchange").to_pylist()])
            picked = column.take(positions) if title != "exchanges" else column
            tables[title] = table.add_column(1, name, picked)
    return tables


def _table(rows: list[dict[str, Any]], fields: tuple[tuple[Any, ...], ...]) -> Table:
    """The rows as a table; a field given a third item has it as its ``description``."""
    schema = pa.schema([pa.field(column[0], column[1], metadata=_description(column[2:])) for column in fields])
    return pa.Table.from_pylist(rows, schema=schema)


def _description(given: tuple[Any, ...]) -> dict[str, str] | None:
    return {"description": str(given[0])} if given else None


def _add_exchange(
    rows: _Rows, index: int, request: Mapping[str, Any] | None, response: Mapping[str, Any] | None
) -> None:
    asked = list(_messages(request, "request"))
    answered = list(_messages(response, "response"))
    used: list[str] = []
    thinking = False
    calls: dict[str, str] = {}  # call id -> tool name, for the results that answer them
    for side, number, message in (*asked, *answered):
        called, thought = _add_message(rows, index, (side, number, message), response, calls)
        used += called
        thinking = thinking or thought
    rows.exchanges.append(
        {
            "exchange": index,
            "model": (request or {}).get("model"),
            "messages": len(asked),
            "turns": sum(1 for _, _, message in asked if message.get("role") == "user"),
            "tools_offered": [_tool_name(tool) for tool in as_list((request or {}).get("tools")) or []],
            "tools_used": list(dict.fromkeys(used)),
            "has_thinking": thinking,
            **_answer_fields(response),
            "request": None if request is None else _json(request),
            "response": None if response is None else _json(response),
        }
    )


def _add_message(
    rows: _Rows,
    index: int,
    placed: tuple[str, int, Mapping[str, Any]],
    response: Mapping[str, Any] | None,
    calls: dict[str, str],
) -> tuple[list[str], bool]:
    """One message's row and its parts' rows (``placed``: its side and number); the names
    of the tools it calls, and whether it holds thinking. ``calls``: the exchange's calls
    so far by id, which this message's calls join and its results are named from."""
    side, number, message = placed
    parts = list(_parts(message))
    used: list[str] = []
    thinking = False
    for part_number, part in enumerate(parts):
        kind = part.get("type")
        thinking = thinking or kind == "thinking"
        if kind == "tool_use":
            used.append(str(part.get("name")))
            if isinstance(part.get("id"), str) and isinstance(part.get("name"), str):
                calls[part["id"]] = part["name"]
        row = _part_row(index, side, number, part_number, message=message, part=part)
        if kind == "tool_result" and row["tool_name"] is None:
            row["tool_name"] = calls.get(str(part.get("tool_use_id")))
        rows.parts.append(row)
    texts = [str(part["text"]) for part in parts if part.get("type") == "text" and "text" in part]
    rows.messages.append(
        {
            "exchange": index,
            "side": side,
            "message": number,
            "role": message.get("role"),
            "text": "\n".join(texts) if texts else None,
            "parts": len(parts),
            "tool_calls": len(used),
            **_choice_fields(response if side == "response" else None, number),
        }
    )
    return used, thinking


def _answer_fields(response: Mapping[str, Any] | None) -> dict[str, Any]:
    """The exchange row's fields read from its response: model, first finish, choices, usage."""
    answer: Mapping[str, Any] = response or {}
    usage = as_dict(answer.get("usage")) or {}
    choices = as_list(answer.get("choices")) or []
    first = as_dict((choices or [None])[0]) or {}
    reason = as_dict(first.get("finish_reason")) or {}
    return {
        "response_model": answer.get("model"),
        "finish_reason": reason.get("unified"),
        "choices": len(choices) if response is not None else None,
        "input_tokens": usage.get("input_tokens"),
        "output_tokens": usage.get("output_tokens"),
        "cache_read_tokens": usage.get("cache_read_tokens"),
        "reasoning_tokens": usage.get("reasoning_tokens"),
    }


def _messages(data: Mapping[str, Any] | None, side: str) -> Iterator[tuple[str, int, Mapping[str, Any]]]:
    """The messages of a request, or the answers of a response (one per choice), numbered from 0."""
    if data is None:
        return
    found: list[Mapping[str, Any]]
    if side == "request":
        found = [message for message in map(as_dict, as_list(data.get("messages")) or []) if message is not None]
    else:
        found = [message for _, message in _choices(data)]
    yield from ((side, number, message) for number, message in enumerate(found))


def _choices(response: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """(choice, message) of each choice of a response that holds a message."""
    choices = [choice for choice in map(as_dict, as_list(response.get("choices")) or []) if choice is not None]
    return [(choice, message) for choice in choices if (message := as_dict(choice.get("message"))) is not None]


def _choice_fields(response: Mapping[str, Any] | None, number: int) -> dict[str, Any]:
    """A response message's ``choice`` index and ``finish_reason`` (the unified one)."""
    if response is None:
        return {"choice": None, "finish_reason": None}
    choice, _ = _choices(response)[number]
    index = choice.get("index")
    reason = as_dict(choice.get("finish_reason")) or {}
    return {"choice": index if isinstance(index, int) else number, "finish_reason": reason.get("unified")}


def _parts(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [part for part in content if is_dict(part)] if is_list(content) else []


def _part_row(
    index: int, side: str, number: int, part_number: int, *, message: Mapping[str, Any], part: Mapping[str, Any]
) -> dict[str, Any]:
    kind = part.get("type")
    text = part.get("text")
    if kind == "tool_result":
        content = part.get("content")
        text = content if isinstance(content, str) else None
    return {
        "exchange": index,
        "side": side,
        "message": number,
        "part": part_number,
        "role": message.get("role"),
        "type": kind,
        "text": text if isinstance(text, str) else None,
        "tool_name": part.get("name") if kind in ("tool_use", "tool_result") else None,
        "tool_use_id": part.get("id") if kind == "tool_use" else part.get("tool_use_id"),
        "arguments": part.get("arguments") if kind == "tool_use" else None,
        "is_error": bool(part.get("is_error", False)) if kind == "tool_result" else None,
    }


def _tool_name(tool: object) -> str | None:
    return str(tool["name"]) if is_dict(tool) and "name" in tool else None


def _json(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


shown_as("chatcodec.datasets", analyst_tables)
