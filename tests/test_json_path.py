"""A JSON path's text (``chatcodec._errors.json_path``), which every error and every loss a
caller reads names: the same text whatever its step memories hold."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chatcodec._errors import _INDEX_TEXTS, _KEPT_NAME, _STEP_TEXTS, _STEPS_KEPT, json_path


def _rendered(location: tuple[int | str, ...]) -> str:
    """The path as its rule says, each step rendered anew (the oracle of the remembered texts)."""
    text = "$"
    for step in location:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text += "." + step if step.isidentifier() else f"[{step!r}]"
    return text


def test_each_spelling_of_a_step() -> None:
    assert json_path(()) == "$"
    assert json_path(("messages", 2, "content", 0)) == "$.messages[2].content[0]"
    assert json_path(("properties", "a b", "", "x'y", 'x"y', "é")) == ("$.properties['a b'][''][\"x'y\"]['x\"y'].é")
    assert json_path((-1, 10**30)) == f"$[-1][{10**30}]"


@given(st.lists(st.one_of(st.integers(), st.booleans(), st.text(max_size=8), st.sampled_from(["role", "a b"]))))
def test_the_remembered_texts_are_the_rule_s(steps: list[int | str]) -> None:
    location = tuple(steps)
    assert json_path(location) == _rendered(location)
    assert json_path(location) == _rendered(location)  # the second time from the memories


def test_a_bool_never_finds_its_equal_int_s_text() -> None:
    assert json_path((1, 0)) == "$[1][0]"
    assert json_path((True, False)) == "$[True][False]"
    assert True not in _STEP_TEXTS
    assert 1 in _INDEX_TEXTS


def test_the_memories_are_bounded() -> None:
    long = "k" * (_KEPT_NAME + 1)
    assert json_path((long,)) == "$." + long
    assert long not in _STEP_TEXTS  # a caller's own key of any length is rendered, not kept
    for index in range(3 * _STEPS_KEPT):
        assert json_path(("items", index)) == f"$.items[{index}]"
        assert len(_INDEX_TEXTS) <= _STEPS_KEPT
    for index in range(3 * _STEPS_KEPT):
        assert json_path((f"k{index}",)) == f"$.k{index}"
        assert len(_STEP_TEXTS) <= _STEPS_KEPT
