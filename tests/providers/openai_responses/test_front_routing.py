"""The front routes items and parts in Rust (``OneOf.routes``) where pydantic's adapter
calls the Python ``tag``: both must send every value to the same shape, so the front takes
exactly what the adapter takes, and gives the same copy. Drawn here: items and parts of
every kind, alias and role, a ``type`` or ``role`` of another kind or value, missing, or
``null``, and fields right or wrong for the kind."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chatcodec._errors import ChatcodecError
from chatcodec._providers.openai_responses import wire

_ABSENT = object()
_KINDS = st.sampled_from(
    [
        *wire.ITEM_KINDS,
        *wire.PART_KINDS,
        "custom_tool_call_output",
        "user",
        "web_search_call",
        "",
        "message ",
        "message\n",
    ]
)
_ROLES = st.sampled_from(["user", "assistant", "system", "developer", "tool", "function_call"])
_VALUES = st.one_of(st.none(), st.integers(-1, 1), st.text(max_size=3), st.lists(st.integers(0, 1), max_size=1))


def _part() -> st.SearchStrategy[Any]:
    fields = st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(_KINDS, _VALUES),
            "text": st.one_of(st.text(max_size=3), _VALUES),
            "image_url": _VALUES,
            "refusal": _VALUES,
        },
    )
    return st.one_of(fields, _VALUES)


def _item() -> st.SearchStrategy[Any]:
    fields = st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(_KINDS, _VALUES),
            "role": st.one_of(_ROLES, _VALUES),
            "content": st.one_of(st.text(max_size=3), st.lists(_part(), max_size=2), _VALUES),
            "call_id": st.one_of(st.text(max_size=2), _VALUES),
            "id": st.one_of(st.text(max_size=2), _VALUES),
            "name": st.one_of(st.text(max_size=2), _VALUES),
            "arguments": st.one_of(st.text(max_size=2), _VALUES),
            "input": _VALUES,
            "output": st.one_of(st.text(max_size=2), st.lists(_part(), max_size=1), _VALUES),
            "summary": st.one_of(st.lists(_part(), max_size=1), _VALUES),
        },
    )
    return st.one_of(fields, _VALUES)


@settings(max_examples=400, deadline=None)
@given(items=st.lists(_item(), min_size=1, max_size=3))
def test_the_front_routes_items_and_parts_as_the_adapter_does(items: list[Any]) -> None:
    fronted = wire.ITEMS.front(json.loads(json.dumps(items)))
    try:
        adapted = wire.ITEMS.adapter(json.loads(json.dumps(items)), "items")
    except ChatcodecError:
        assert fronted is None, items
        return
    assert fronted is not None, items
    assert json.dumps(fronted) == json.dumps(adapted)


def test_unknown_kinds_are_kept_and_known_ones_refused_when_wrong() -> None:
    unknown = [{"type": "web_search_call", "id": "ws_1"}, {"type": "user", "role": "user", "content": "x"}]
    assert wire.ITEMS.front(unknown) == unknown
    assert wire.ITEMS.front([{"type": "function_call", "call_id": "a"}]) is None  # not an unknown kind
    assert wire.ITEMS.front([{"role": "tool", "content": "x"}]) is None
    assert wire.ITEMS.front([{"type": "message\n"}]) == [{"type": "message\n"}]  # not "message": unknown
    message = [{"role": "user", "content": [{"type": "input_text", "text": "a"}, {"type": "new_part", "q": [1]}]}]
    assert wire.ITEMS.front(message) == message
    assert wire.ITEMS.front([{"role": "user", "content": [{"type": "input_text"}]}]) is None
