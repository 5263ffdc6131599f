"""The kit's encode rules: ``arguments_object``'s fast paths agree with the careful
``json.loads`` reading on any argument text (issue 10 item 24: a re-serialisation that
changes the text is reported); ``tool_name_map`` inverts the tool-name rewrite (item 7)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec.providers import kit
from chatcodec.providers.kit import arguments

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.sampled_from('ab":\\ \n1.e'), max_size=6),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b", 'c"']), inner, max_size=3)
    ),
    max_leaves=8,
)
_NUMBER_SPELLINGS = st.sampled_from(
    ["1.50", "2e3", "-0.0", "0.1000000000000000055511151231257827", "1e400", "NaN", "12"]
)


@st.composite
def _argument_texts(draw: st.DrawFn) -> str:
    value = draw(st.dictionaries(st.sampled_from(["a", "b", "k"]), _VALUES, max_size=4))
    spacing = draw(st.sampled_from([(",", ":"), (", ", ": "), (",", " : "), (",\n", ":\t")]))
    text = json.dumps(value, separators=spacing, ensure_ascii=draw(st.booleans()))
    if text != "{}" and draw(st.booleans()):  # a repeated key
        text = text[:-1] + spacing[0] + '"a"' + spacing[1] + draw(st.sampled_from(["1", '"x"', "[]"])) + "}"
    if draw(st.booleans()):  # a number spelled as a model might
        text = text[:-1] + ("" if text == "{}" else spacing[0]) + '"n"' + spacing[1] + draw(_NUMBER_SPELLINGS) + "}"
    return text


def _careful(text: str) -> tuple[Any, bool]:
    return arguments._careful_arguments(text)  # pyright: ignore[reportPrivateUsage]


@settings(max_examples=300, deadline=None)
@given(_argument_texts())
def test_fast_paths_agree_with_the_careful_reading(text: str) -> None:
    parsed, exact = kit.arguments_object(text)
    careful_parsed, careful_exact = _careful(text)
    assert exact == careful_exact, text
    assert json.dumps(parsed, allow_nan=True) == json.dumps(careful_parsed, allow_nan=True)


def test_what_counts_as_a_change() -> None:
    assert kit.arguments_object('{"a": 1, "a": 2}') == ({"a": 2}, False)
    assert kit.arguments_object('{"x": 0.1000000000000000055511151231257827}')[1] is False
    assert kit.arguments_object('{"x": 1.50, "y": 2e3, "s": "\\":"}')[1] is True
    assert kit.arguments_object("not json") == (None, False)


def test_flat_objects_counted_by_colons_still_catch_a_repeated_key() -> None:
    """Issue 25: a flat object is settled by counting colons (strings can only add to the
    count); a colon in a string, or a space before a key's colon, falls back to counting
    key ends, and a repeated key is still a change."""
    assert kit.arguments_object('{"url": "https://example.com", "n": 1}') == (
        {"url": "https://example.com", "n": 1},
        True,
    )
    assert kit.arguments_object('{"a" :1,"a" :2}') == ({"a": 2}, False)
    assert kit.arguments_object('{"a": "x:", "a": "y"}') == ({"a": "y"}, False)
    assert kit.arguments_object('{"a":1,"b":null,"c":true}') == ({"a": 1, "b": None, "c": True}, True)


def test_item_07_a_proxy_can_map_rewritten_names_back() -> None:
    long_name = "t" * 70
    request = chatcodec.ChatRequest(
        model="m",
        max_tokens=1,
        tools=[chatcodec.ToolDefinition(name=long_name)],
        messages=[chatcodec.UserMessage(content="q")],
    )
    body = chatcodec.encode_request("anthropic", request, on_loss="ignore")
    assert kit.tool_name_map([long_name, "valid_name"]) == {long_name: body["tools"][0]["name"]}
