"""A function tool's bag, answered in one look for the usual shapes (``tools._tool_bag``),
is the general split's (``split_fields``) for every shape of the fields a tool may hold."""

from __future__ import annotations

from itertools import product
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chatcodec._providers.openai_responses.tools import _TOOL_FIELDS, _tool_bag  # pyright: ignore[reportPrivateUsage]
from chatcodec.codec_kit import split_fields

_VALUES: dict[str, list[Any]] = {
    "description": ["Run a command.", None, ""],
    "parameters": [{"type": "object", "properties": {}}, None],
    "strict": [None, True, False],
}


def _shapes() -> list[dict[str, Any]]:
    """Every tool of a name, and each optional field absent or one of its values."""
    shapes: list[dict[str, Any]] = []
    choices = [[(key, value) for value in values] + [None] for key, values in _VALUES.items()]
    for picked in product(*choices):
        tool: dict[str, Any] = {"type": "function", "name": "bash"}
        tool.update(pair for pair in picked if pair is not None)
        shapes.append(tool)
    return shapes


def test_every_shape_of_a_function_tool_gets_the_general_split() -> None:
    shapes = _shapes()
    assert len(shapes) == 4 * 3 * 4
    for tool in shapes:
        assert _tool_bag(tool) == split_fields(tool, _TOOL_FIELDS), tool


@given(
    st.dictionaries(
        st.sampled_from(["type", "name", "description", "parameters", "strict", "x_extra", "_private"]),
        st.none() | st.booleans() | st.text(max_size=3) | st.builds(dict),
    )
)
def test_any_fields_get_the_general_split(tool: dict[str, Any]) -> None:
    assert _tool_bag(tool) == split_fields(tool, _TOOL_FIELDS)
