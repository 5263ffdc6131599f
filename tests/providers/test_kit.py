"""The kit's encode rules: ``arguments_object``'s fast paths agree with the careful
``json.loads`` reading on any argument text (a re-serialisation that changes the text
is reported); ``tool_name_map`` inverts the tool-name rewrite."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import contract
from chatcodec._losses import LossRecorder
from chatcodec._providers.anthropic.markers import KIT as ANTHROPIC
from chatcodec._providers.bedrock_converse.markers import KIT as BEDROCK
from chatcodec._providers.kit import arguments
from chatcodec._providers.openai_chat.markers import KIT as OPENAI_CHAT
from chatcodec._text_memory import TextMemory

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


def _agrees_with_the_careful_reading(text: str) -> None:
    """The answer for ``text`` is the careful reading's: from the checking scanner
    (``arguments_object`` on a first sight), from the memory of proved texts (an equal
    text seen again, parsed by pydantic-core) and from the count proof the scanner falls
    back to."""
    careful_parsed, careful_exact = _careful(text)
    counted = arguments._counted  # pyright: ignore[reportPrivateUsage]
    first = contract.arguments_object(text)
    for parsed, exact in (first, contract.arguments_object("".join(text)), counted(text)):
        assert exact == careful_exact, text
        assert json.dumps(parsed, allow_nan=True) == json.dumps(careful_parsed, allow_nan=True)


@settings(max_examples=300, deadline=None)
@given(_argument_texts())
def test_fast_paths_agree_with_the_careful_reading(text: str) -> None:
    _agrees_with_the_careful_reading(text)


_RICH_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),  # past a double's 53 bits too
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.sampled_from('a":\\ \n\x01\x7fé\u2028😀'), max_size=5),
)
_NESTED = st.recursive(
    _RICH_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b", "é"]), inner, max_size=3)
    ),
    max_leaves=10,
)
_SPELLINGS: list[dict[str, Any]] = [
    {"separators": (",", ":"), "ensure_ascii": False},
    {"separators": (",", ":"), "ensure_ascii": True},
    {"ensure_ascii": True},
    {"ensure_ascii": False},
    {"indent": 1},
]


@st.composite
def _written_texts(draw: st.DrawFn) -> str:
    """Any JSON value (nested objects and arrays first), as a serialiser writes it, then
    perhaps altered the ways that make a reading inexact: a key repeated inside, a number
    spelled with more digits than a double holds, a constant JSON does not have."""
    value = draw(st.one_of(st.dictionaries(st.sampled_from(["a", "k"]), _NESTED, max_size=3), _NESTED))
    text = json.dumps(value, **draw(st.sampled_from(_SPELLINGS)))
    if draw(st.booleans()) and '{"' in text:  # a repeated key, in the first object of the text
        at = text.index('{"') + 1
        text = text[:at] + draw(st.sampled_from(['"a":1,', '"a": "x", ', '"k":[0.5],'])) + text[at:]
    elif draw(st.booleans()) and "1" in text and not text.startswith('"'):
        text = text.replace("1", draw(st.sampled_from(["1", "1.0000000000000000001", "1e400", "NaN"])), 1)
    return text


@settings(max_examples=500, deadline=None)
@given(_written_texts())
def test_a_native_spelling_proves_exactness_only_when_the_careful_reading_agrees(text: str) -> None:
    """Soundness of the re-serialisation proof: whatever the text (nested values, every
    spelling of Python and pydantic-core, repeated keys inside, long numbers, ``NaN``),
    the answer is the careful reading's."""
    _agrees_with_the_careful_reading(text)


_TRICKY_KEYS = st.sampled_from(["a", "b", "a\\", 'a"', 'a":', ":", ""])
_TRICKY_VALUES = st.recursive(
    st.one_of(
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(alphabet=st.sampled_from('a":\\ \n1.eé'), max_size=6),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_TRICKY_KEYS, inner, max_size=3)),
    max_leaves=10,
)


@st.composite
def _respelled_texts(draw: st.DrawFn) -> str:
    """Nested values whose keys and strings hold quotes, colons and backslashes, written
    then respelled the ways the key-end count must see through: a quote as ``\\u0022``, a
    gap before a colon, a key repeated in a nested object, a number given more digits."""
    value = draw(st.dictionaries(_TRICKY_KEYS, _TRICKY_VALUES, min_size=1, max_size=3))
    text = json.dumps(
        value, ensure_ascii=draw(st.booleans()), separators=draw(st.sampled_from([(",", ":"), (", ", ": ")]))
    )
    if draw(st.booleans()):
        text = text.replace('\\"', "\\u0022", draw(st.integers(0, 2)))
    if draw(st.booleans()):
        text = text.replace('":', '" :', draw(st.integers(0, 2)))
    opening = [index for index, char in enumerate(text) if char == "{" and text[index + 1 : index + 2] == '"']
    if opening and draw(st.booleans()):  # a repeated key in some object, perhaps nested
        at = draw(st.sampled_from(opening)) + 1
        text = text[:at] + draw(st.sampled_from(['"a":1,', '"a\\\\":2,', '"":[3.5],', '"a\\"":0,'])) + text[at:]
    elif draw(st.booleans()) and "5" in text:
        text = text.replace("5", "5.00000000000000000001", 1)
    return text


@settings(max_examples=800, deadline=None)
@given(_respelled_texts())
def test_the_key_end_count_is_never_fooled(text: str) -> None:
    """Soundness of the count proof on texts made to fool it: keys ending in a backslash,
    escaped quotes before colons, quotes spelled ``\\u0022``, gaps, repeats at any depth."""
    _agrees_with_the_careful_reading(text)


def test_nested_arguments_with_code_and_floats_are_proved_without_the_careful_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What agents send (edit lists with code holding ``"key": value``, env maps, floats,
    non-ASCII, ``json.dumps``'s spacing) is proved by the counts alone."""
    texts = [
        '{"path": "a.py", "edits": [{"old": "return {\\"ok\\": 1}", "new": "z\\u00fcrich"}], "timeout": 120.5}',
        '{"command": "ls", "env": {"LANG": "C.UTF-8", "N": "1"}, "ratio": 1.50, "big": 2e3}',
        '{"todos": [{"id": "1", "content": "r\u00e9sum\u00e9", "status": "done", "priority": 2}]}',
    ]

    def refuse(text: str) -> tuple[object, bool]:
        raise AssertionError(f"the careful reading was asked for {text}")

    monkeypatch.setattr(arguments, "_careful_arguments", refuse)
    for text in texts:
        assert contract.arguments_object(text) == (json.loads(text), True)


@pytest.fixture(autouse=True)
def _nothing_proved_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test proves its texts itself: the memory of proved texts starts empty."""
    monkeypatch.setattr(arguments, "_PROVED", TextMemory(1 << 22))


def test_a_proved_text_is_remembered_and_only_parsed_the_next_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent resends its history every turn: the second request's copy of a call is
    not proved again (its verdict is a function of the text), and gets a fresh value."""
    text = '{"path": "a.py", "edits": [{"old": "x: 1", "new": "y: 2"}], "ratio": 1.5}'
    first, exact = contract.arguments_object(text)
    assert exact

    def proved_again(text: str, parsed: object) -> bool:
        pytest.fail(f"proved again: {text}")

    monkeypatch.setattr(arguments, "_proved", proved_again)
    again, exact_again = contract.arguments_object("".join(text))  # an equal text, another object
    assert exact_again
    assert again == first
    assert again is not first


def test_a_first_sight_is_read_and_proved_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text not seen before is read by the checking scanner alone: not parsed by
    pydantic-core, then counted (the passes it replaces), yet remembered as proved."""

    def refused(*given: object) -> object:
        raise AssertionError(f"asked for {given}")

    monkeypatch.setattr(arguments, "_from_json", refused)
    monkeypatch.setattr(arguments, "_proved", refused)
    text = '{"path": "a.py", "edits": [{"old": "x: 1", "new": "y: 2"}], "ratio": 1.5, "n": 12}'
    assert contract.arguments_object(text) == (json.loads(text), True)
    assert text in arguments._PROVED.texts  # pyright: ignore[reportPrivateUsage]


def test_a_text_only_the_scanner_reads_is_answered_the_same_the_next_time() -> None:
    """A lone surrogate escape: JSON Python's scanner reads and pydantic-core refuses. Proved
    on its first sight, it is remembered; the next sight, which parses a remembered text with
    pydantic-core, reads it with the scanner again and gives the same answer."""
    text = '{"a": "\\ud800"}'
    assert contract.arguments_object(text) == ({"a": "\ud800"}, True)
    assert contract.arguments_object("".join(text)) == ({"a": "\ud800"}, True)


def test_a_text_that_is_not_exact_is_never_remembered() -> None:
    text = '{"a": {"b": 1, "b": 2}}'
    assert contract.arguments_object(text) == ({"a": {"b": 2}}, False)
    assert contract.arguments_object(text) == ({"a": {"b": 2}}, False)
    assert text not in arguments._PROVED.texts  # pyright: ignore[reportPrivateUsage]


def test_the_memory_forgets_everything_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arguments, "_PROVED", TextMemory(40))
    texts = ['{"n": 1, "s": "aaaaaaaa"}', '{"n": 2, "s": "bbbbbbbb"}']
    for text in texts:
        assert contract.arguments_object(text)[1]
    proved = arguments._PROVED  # pyright: ignore[reportPrivateUsage]
    assert proved.texts == {texts[1]}
    assert proved.characters == len(texts[1])


def test_nested_values_are_proved_by_their_spelling() -> None:
    assert contract.arguments_object('{"a":{"b":[1,2.5]}}') == ({"a": {"b": [1, 2.5]}}, True)
    assert contract.arguments_object('{"a": {"b": [1, 2.5]}}') == ({"a": {"b": [1, 2.5]}}, True)
    assert contract.arguments_object('{"a":{"b":1,"b":2}}') == ({"a": {"b": 2}}, False)
    assert contract.arguments_object('{"a":[0.1000000000000000055511151231257827]}')[1] is False
    assert contract.arguments_object('{"a":[NaN]}')[1] is False
    assert contract.arguments_object('{"a":[1e400]}')[1] is False
    assert contract.arguments_object('{"a":["\\u00e9"]}') == ({"a": ["é"]}, True)
    assert contract.arguments_object('{"a":{"b":[1.0, -0.0, 123456789012345678901234567890]}}')[1] is True


def test_what_counts_as_a_change() -> None:
    assert contract.arguments_object('{"a": 1, "a": 2}') == ({"a": 2}, False)
    assert contract.arguments_object('{"x": 0.1000000000000000055511151231257827}')[1] is False
    assert contract.arguments_object('{"x": 1.50, "y": 2e3, "s": "\\":"}')[1] is True
    assert contract.arguments_object("not json") == (None, False)


def test_flat_objects_counted_by_colons_still_catch_a_repeated_key() -> None:
    """A flat object is settled by counting colons (strings can only add to the
    count); a colon in a string, or a space before a key's colon, falls back to counting
    key ends, and a repeated key is still a change."""
    assert contract.arguments_object('{"url": "https://example.com", "n": 1}') == (
        {"url": "https://example.com", "n": 1},
        True,
    )
    assert contract.arguments_object('{"a" :1,"a" :2}') == ({"a": 2}, False)
    assert contract.arguments_object('{"a": "x:", "a": "y"}') == ({"a": "y"}, False)
    assert contract.arguments_object('{"a":1,"b":null,"c":true}') == ({"a": 1, "b": None, "c": True}, True)


def test_a_proxy_can_map_rewritten_names_back() -> None:
    long_name = "t" * 70
    request = chatcodec.ChatRequest(
        model="m",
        max_tokens=1,
        tools=[chatcodec.ToolDefinition(name=long_name)],
        messages=[chatcodec.UserMessage(content="q")],
    )
    body = chatcodec.encode_request("anthropic", request, on_loss="ignore")
    assert contract.tool_name_map([long_name, "valid_name"]) == {long_name: body["tools"][0]["name"]}


def _json_containers(children: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Text(str):
    pass


ODD_VALUES: list[object] = [
    'é\u2028\x00"\\',
    "\ud800",
    _Text("sub"),
    1.5,
    -0.0,
    1e300,
    5e-324,
    0.1 + 0.2,
    float("nan"),
    float("inf"),
    float("-inf"),
    10**40,
    -(10**40),
    True,
    None,
    [],
    {},
    (1, "two"),
    {"é": [1.25, {"a": None, "b": [True, False]}], "": "", "3": {"nested": {"deeper": ["x"]}}},
    {3: "int key", 2.5: "float key", True: "bool key", None: "null key"},
]


def test_compact_json_is_json_dumps_with_its_settings() -> None:
    """``compact_json`` reuses one C encoder: the text must stay byte for byte
    what ``json.dumps`` writes with the same settings, odd values included."""
    for value in ODD_VALUES:
        assert contract.compact_json(value) == _dumps(value), value


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(), _json_containers))
def test_compact_json_is_json_dumps_on_any_json_value(value: object) -> None:
    assert contract.compact_json(value) == _dumps(value)


def test_compact_json_raises_as_json_dumps_does() -> None:
    """A cycle, a value JSON has no form for and a too deep value fail as before, and the
    reused encoder still writes the next value (no check state left behind)."""
    cycle: list[object] = []
    cycle.append(cycle)
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    for value, error in ((cycle, ValueError), ({"a": {1, 2}}, TypeError), (deep, RecursionError)):
        with pytest.raises(error) as raised:
            contract.compact_json(value)
        with pytest.raises(error) as expected:
            _dumps(value)
        assert str(raised.value) == str(expected.value)
        assert contract.compact_json({"a": [1]}) == '{"a":[1]}'


def _reported(kit: contract.ProviderKit, metadata: dict[str, Any]) -> list[tuple[str, str, str]]:
    recorder = LossRecorder()
    kit.report_foreign(recorder, metadata, ("messages", 0))
    return [(loss.what, loss.why, loss.kind) for loss in recorder.losses]


def test_a_foreign_bag_is_reported_the_same_from_its_remembered_shape() -> None:
    """``report_foreign`` remembers what a bag of given keys reports: the same
    keys in another order, other values or another reporting kit give the texts anew."""
    bag = {"b": 1, "_cache": "cache_control", "a": 2}
    expected = [
        ("openai-chat data ['a', 'b']", "anthropic has no field for it", "metadata"),
        ('openai-chat spelling _cache="cache_control"', _cache_why("anthropic"), "spelling"),
    ]
    assert _reported(ANTHROPIC, {"openai-chat": bag}) == expected
    assert _reported(ANTHROPIC, {"openai-chat": dict(reversed(bag.items()))}) == expected
    assert _reported(ANTHROPIC, {"openai-chat": {**bag, "_cache": None}}) == expected[:1]
    assert _reported(BEDROCK, {"openai-chat": bag})[0][1] == "bedrock-converse has no field for it"


def _cache_why(reporter: str) -> str:
    return f"{reporter} has no field for it: {OPENAI_CHAT.meaningful_markers['_cache']}"


def test_a_kit_made_later_changes_what_its_bags_report() -> None:
    """A codec from outside chatcodec declares its markers when its kit is made: a bag
    reported before that must not keep the old answer (the name is this test's alone)."""
    assert _reported(ANTHROPIC, {"acme-outside": {"_mode": "x"}}) == []
    contract.ProviderKit("acme-outside", meaningful_markers={"_mode": "the server reads it"})
    why = "anthropic has no field for it: the server reads it"
    found = _reported(ANTHROPIC, {"acme-outside": {"_mode": "x"}})
    assert found == [('acme-outside spelling _mode="x"', why, "spelling")]


def test_a_container_kept_in_a_tool_results_part_is_found() -> None:
    """A bag on a part inside a tool result's content sits deeper in canonical than on the
    wire, as any bag does: the reader must ask for the canonical check there too."""
    from chatcodec._providers.kit.bags import keeps_a_container

    def request(bag: object) -> dict[str, object]:
        inner = {"type": "image", "source": {"type": "url", "url": "u"}, "provider_metadata": {"p": {"k": bag}}}
        result = {"type": "tool_result", "tool_use_id": "c1", "content": [inner]}
        return {"messages": [{"role": "tool", "content": [result]}]}

    assert keeps_a_container(request({"a": 1}))
    assert keeps_a_container(request([{"a": 1}]))
    assert not keeps_a_container(request("scalar"))
    assert not keeps_a_container(request(["a", "b"]))
