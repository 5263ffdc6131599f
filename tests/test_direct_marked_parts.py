"""A system or user message of text parts with a cache marker on some, into Responses (issue 107):
the first message of a shape (its parts' fields, their markers, which texts are empty) is read and
written by the reader's ``decode_parts`` and the writer's ``encode_parts`` and tried with its texts
changed; later messages of that shape, in the request and the next, are those parts with their
own texts in their places and the same losses. Each body is written as the canonical path writes
it: the output, the losses and the warnings."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any, Literal

import pytest

import chatcodec
from chatcodec._direct import openai_chat_to_openai_responses
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder

_TARGET = "openai-responses"
_EPHEMERAL = {"type": "ephemeral"}


def _outcome(body: dict[str, Any], on_loss: Literal["ignore", "warn"]) -> str:
    losses: list[Any] = []
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        output = chatcodec.convert_request(
            copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss=on_loss, losses=losses
        )
    said = [(warning.category.__name__, str(warning.message)) for warning in shown]
    return json.dumps([output, [repr(loss) for loss in losses], said], default=repr)


def _equal_to_canonical(body: dict[str, Any]) -> None:
    convert = direct_path("openai-chat", _TARGET)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(_TARGET)) is not None  # taken
    on_losses: tuple[Literal["ignore", "warn"], ...] = ("ignore", "warn")
    for on_loss in on_losses:
        direct = _outcome(body, on_loss)
        with canonical_only():
            assert direct == _outcome(body, on_loss), on_loss


def _marked(text: str, marker: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "text", "text": text, "cache_control": _EPHEMERAL if marker is None else marker}


def _body(system: list[dict[str, Any]], *users: list[dict[str, Any]]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": "Go."}]
    for step, user in enumerate(users):
        messages.append({"role": "assistant", "content": f"Step {step}."})
        messages.append({"role": "user", "content": user})
    return {"model": "gpt-5.1", "messages": messages, "max_completion_tokens": 1000}


_PLAIN = {"type": "text", "text": "Today's task is next."}
_CASES: dict[str, dict[str, Any]] = {
    "a marked prompt, then plain": _body([_marked("You fix bugs."), _PLAIN]),
    "user messages of the prompt's shape": _body(
        [_marked("You fix bugs."), _PLAIN], [_marked("Look."), _PLAIN], [_marked("Again."), _PLAIN]
    ),
    "the marker last, then first": _body([_PLAIN, _marked("a")], [_marked("b"), _PLAIN], [_PLAIN, _marked("c")]),
    "fields in another order": _body(
        [_marked("a")], [{"cache_control": _EPHEMERAL, "text": "b", "type": "text"}], [_marked("c")]
    ),
}


@pytest.mark.parametrize("case", sorted(_CASES))
def test_marked_parts_equal_to_canonical(case: str) -> None:
    _equal_to_canonical(_CASES[case])


def test_a_shape_of_marked_parts_is_written_from_its_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    # the parts of the first message of each shape read once; later ones, in this request and
    # the next, not at all; the memory keeps none of the caller's texts
    items: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_openai_responses, "_TEXT_ITEMS", items)
    read: list[str] = []
    reading = openai_chat_to_openai_responses.decode_parts

    def counted(content: Any, **options: Any) -> Any:
        read.append(content[0]["text"])
        return reading(content, **options)

    monkeypatch.setattr(openai_chat_to_openai_responses, "decode_parts", counted)
    body = _body([_marked("You fix bugs."), _PLAIN], [_marked("Look."), _PLAIN], [_marked("Now.")])
    convert = direct_path("openai-chat", _TARGET)
    assert convert is not None
    for _ in range(2):
        recorder = LossRecorder()
        assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec(_TARGET)) is not None
        spelled = [loss.path for loss in recorder.losses if loss.kind == "spelling"]  # each marker's, at its part
        assert spelled == ["$.messages[0].content[0]", "$.messages[3].content[0]", "$.messages[5].content[0]"]
        _equal_to_canonical(body)
    assert read == ["You fix bugs.", "Now."]
    assert len(items) == 2
    kept = b"".join(text for text, _ in items.values())
    assert b"fix bugs" not in kept
    assert b"Look" not in kept


def test_the_proved_parts_are_the_callers_to_change() -> None:
    body = _body([_marked("You fix bugs."), _PLAIN])
    first = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss="ignore")
    second = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss="ignore")
    assert second == first
    second["input"][0]["content"][0]["prompt_cache_breakpoint"]["mode"] = "changed"
    again = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss="ignore")
    assert again == first


def test_other_parts_have_no_shape() -> None:
    shape = getattr(openai_chat_to_openai_responses, "_texts_shape")  # noqa: B009 - the module's own key
    assert shape([_PLAIN]) is None  # plain parts: no call a part to save
    assert shape([_marked("a"), {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]) is None
    assert shape([_marked("a", {"type": "ephemeral", "ttl": 3600})]) is None  # a marker value beyond a text
    assert shape([_marked("a")]) == shape([_marked("b")]) != shape([_marked("")])


def test_a_writer_that_changes_the_texts_gets_no_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    # a writer whose parts are not the texts as given fails the trial: each message is read and written
    items: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_openai_responses, "_TEXT_ITEMS", items)
    writer = openai_chat_to_openai_responses.encode_parts

    def shouting(parts: list[Any], *rest: Any) -> list[dict[str, Any]]:
        return [{**part, "text": part["text"].upper()} for part in writer(parts, *rest)]

    monkeypatch.setattr(openai_chat_to_openai_responses, "encode_parts", shouting)
    convert = direct_path("openai-chat", _TARGET)
    assert convert is not None
    body = _body([_marked("You fix bugs.")], [_marked("Look.")], [_marked("Now.")])
    written = convert(body, LossRecorder(), chatcodec.get_codec(_TARGET))
    assert written is not None
    texts = [item["content"][0]["text"] for item in written["input"] if isinstance(item.get("content"), list)]
    assert texts == ["YOU FIX BUGS.", "LOOK.", "NOW."]
    assert list(items.values()) == [None]
