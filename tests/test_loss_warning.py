"""One ``LossWarning`` per conversion, made only when a filter would let it through (issue 92).

The default policy used to warn once per loss, each rendering its path and text, which cost
1.3x the ``ignore`` policy on sessions that report losses. A conversion now gives
``warnings.warn`` one warning listing every loss, and none at all (no path rendered, no text
built) when the warning filters would drop it unseen. These tests hold that the shortcut
never changes what the warnings machinery would have done: ``-W error`` still raises,
``simplefilter("always")`` still shows, a filter by message or module still decides.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss, LossWarning
from chatcodec._losses import LossRecorder, loss_warnings_ignored

_BODY: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "thinking aloud", "reasoning_content": "first"},
        {"role": "user", "content": "again"},
    ],
    "frequency_penalty": 0.5,
    "max_tokens": 10,
}
"""An OpenAI Chat body whose Anthropic request drops two things: the replayed reasoning and
the frequency penalty."""


def _convert() -> dict[str, Any]:
    return chatcodec.convert_request(_BODY, source="openai-chat", target="anthropic")


def _expected() -> list[Loss]:
    losses: list[Loss] = []
    chatcodec.convert_request(_BODY, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert len(losses) >= 2
    return losses


def test_one_warning_lists_every_loss_of_the_conversion() -> None:
    expected = _expected()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _convert()
    (warning,) = caught
    assert isinstance(warning.message, LossWarning)
    assert warning.message.losses == expected
    assert warning.message.loss == expected[0]
    lines = str(warning.message).splitlines()
    assert lines[0] == f"{len(expected)} thing(s) cannot be carried by the target format:"
    assert lines[1:] == [f"  {loss.path}: {loss.what} ({loss.why})" for loss in expected]


def test_error_filter_raises_the_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(LossWarning) as raised:
            _convert()
    assert raised.value.losses == _expected()


def test_a_filter_ignoring_the_category_drops_it_unrendered() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=LossWarning)
        assert loss_warnings_ignored()
        _convert()
    assert caught == []


def test_a_filter_for_another_category_leaves_the_warning_shown() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        assert not loss_warnings_ignored()
        _convert()
    assert [type(warning.message) for warning in caught] == [LossWarning]


@pytest.mark.parametrize(
    ("message", "module", "shown"),
    [
        ("nothing says this", "", True),
        (r"\d+ thing\(s\) cannot", "", False),
        ("", "no_such_module", True),
        ("", __name__, False),
    ],
)
def test_a_filter_by_message_or_module_is_decided_by_warnings_itself(message: str, module: str, shown: bool) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", message, LossWarning, module)
        assert not loss_warnings_ignored()  # the text or the caller decides: warn is asked
        _convert()
    assert len(caught) == int(shown)


def test_the_default_action_decides_when_no_filter_covers_the_category(monkeypatch: pytest.MonkeyPatch) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        monkeypatch.setattr(warnings, "defaultaction", "ignore")
        assert loss_warnings_ignored()
        _convert()
        monkeypatch.setattr(warnings, "defaultaction", "always")
        assert not loss_warnings_ignored()
        _convert()
    assert [type(warning.message) for warning in caught] == [LossWarning]


def test_an_ignored_warning_still_fills_the_list_and_an_error_still_raises() -> None:
    recorder = LossRecorder()
    recorder.add(("messages", 0), "cache_control", "no caching", "setting")
    recorder.add(("messages", 1), "thinking part", "unsigned")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        sink: list[Loss] = []
        recorder.settle("warn", sink)
        with pytest.raises(chatcodec.LossError, match=r"messages\[1\]"):
            recorder.settle({"content": "error", "*": "warn"})
    assert caught == []
    assert [loss.path for loss in sink] == ["$.messages[0]", "$.messages[1]"]


def test_a_policy_by_kind_warns_once_for_the_kinds_it_warns_about() -> None:
    recorder = LossRecorder()
    recorder.add(("messages", 0), "cache_control", "no caching", "setting")
    recorder.add(("messages", 1), "thinking part", "unsigned")
    recorder.add(("messages", 2), "id", "no ids", "metadata")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        recorder.settle({"metadata": "ignore", "*": "warn"})
    (warning,) = caught
    assert isinstance(warning.message, LossWarning)
    assert [loss.what for loss in warning.message.losses] == ["cache_control", "thinking part"]


def test_a_warning_names_at_least_one_loss() -> None:
    loss = Loss("$.temperature", "temperature", "deterministic")
    assert LossWarning(loss).losses == [loss]
    assert str(LossWarning(loss)) == "1 thing(s) cannot be carried by the target format:\n  " + str(loss)
    with pytest.raises(ValueError, match="at least one loss"):
        LossWarning([])


def test_losses_at_one_place_render_it_once_and_each_source_names_its_own() -> None:
    # a part's losses (its bag, then the part: the Responses writer's two for a replayed
    # reasoning) name one place, traced and rendered once; the same steps under another
    # source (a target rule's, in the body it read) are that source's
    traced: list[tuple[int | str, ...]] = []

    def source(path: tuple[int | str, ...]) -> tuple[int | str, ...]:
        traced.append(path)
        return ("input", *path[1:])

    recorder = LossRecorder()
    recorder.trace(source)
    recorder.add(("messages", 2, "content", 0), "bag", "why", "metadata")
    recorder.add(("messages", 2, "content", 0), "part", "why")
    recorder.add(("messages", 3), "turn", "why")
    recorder.trace(None)
    recorder.add(("messages", 3), "rule", "why", "rule")
    recorder.add("$.given", "text", "why")
    assert [str(loss) for loss in recorder.losses] == [
        "$.input[2].content[0]: bag (why)",
        "$.input[2].content[0]: part (why)",
        "$.input[3]: turn (why)",
        "$.messages[3]: rule (why)",
        "$.given: text (why)",
    ]
    assert traced == [("messages", 2, "content", 0), ("messages", 3)]
    assert [loss.kind for loss in recorder.losses] == ["metadata", "content", "content", "rule", "content"]


def test_the_decision_follows_every_change_of_the_filters(monkeypatch: pytest.MonkeyPatch) -> None:
    # the last decision is kept for the same list holding the same filters: an entry added,
    # replaced or removed in place, a list swapped and the default action each decide anew
    with warnings.catch_warnings():
        warnings.resetwarnings()
        monkeypatch.setattr(warnings, "defaultaction", "default")
        assert not loss_warnings_ignored()
        assert not loss_warnings_ignored()
        warnings.filterwarnings("ignore", category=LossWarning)  # in place, at the front
        assert loss_warnings_ignored()
        warnings.filters[0] = ("always", None, LossWarning, None, 0)  # replaced in place
        assert not loss_warnings_ignored()
        del warnings.filters[0]
        monkeypatch.setattr(warnings, "defaultaction", "ignore")
        assert loss_warnings_ignored()
        with warnings.catch_warnings():  # a list of its own, then the first one back
            warnings.simplefilter("error")
            assert not loss_warnings_ignored()
        assert loss_warnings_ignored()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _convert()
        assert [type(warning.message) for warning in caught] == [LossWarning]
