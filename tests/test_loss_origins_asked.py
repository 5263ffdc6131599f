"""A conversion's losses are named at their place in the input (issue 63) by the origins of
the messages they name alone (issue 81): a user's default ``on_loss="warn"`` reports a loss
for each replayed reasoning of an agent's history, and building every message's origin to
name a few of them cost more than the rest of the report. A built-in folder's
``origins_by_index`` notes where each message starts and builds one message's origin when a
loss names it; an outside codec's ``message_origins`` list is read as before."""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from pathlib import Path
from typing import Any, cast

import pytest

import chatcodec
from chatcodec import Loss, LossWarning, convert_request
from chatcodec._direct.table import canonical_only
from chatcodec._losses import Steps
from chatcodec._providers.kit.origins import Origins
from chatcodec.codec_kit import Origin
from chatcodec.contract import ProviderCodec

ROOT = Path(__file__).resolve().parents[1]


def _chat_history(steps: int) -> dict[str, Any]:
    """An OpenAI Chat agent history: each step an assistant turn of two calls (every third
    with ``reasoning_content``, replayed as unsigned thinking into Anthropic: a loss) and
    its two results."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "go"}]
    for step in range(steps):
        calls = [
            {"id": f"c{step}{n}", "type": "function", "function": {"name": "look", "arguments": '{"at": 1}'}}
            for n in range(2)
        ]
        turn: dict[str, Any] = {"role": "assistant", "content": "looking", "tool_calls": calls}
        if step % 3 == 0:
            turn["reasoning_content"] = f"thought {step}"
        messages += [turn, *({"role": "tool", "tool_call_id": call["id"], "content": "seen"} for call in calls)]
    return {"model": "gpt-4.1", "messages": messages}


def _anthropic_history(steps: int) -> dict[str, Any]:
    """The same as a Claude agent sends it: signed thinking on every third turn (a loss into
    OpenAI Chat), each result in the next user turn."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for step in range(steps):
        blocks: list[dict[str, Any]] = [{"type": "text", "text": "looking"}]
        if step % 3 == 0:
            blocks.insert(0, {"type": "thinking", "thinking": f"thought {step}", "signature": "c2ln"})
        blocks.append({"type": "tool_use", "id": f"t{step}", "name": "look", "input": {"at": 1}})
        messages += [
            {"role": "assistant", "content": blocks},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{step}", "content": "seen"}]},
        ]
    return {"model": "claude-sonnet-4-5", "max_tokens": 100, "system": "Be brief.", "messages": messages}


def _responses_history(steps: int) -> dict[str, Any]:
    """The same as Responses items: a reasoning item on every third turn (a loss into
    Anthropic), each call and its output."""
    items: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for step in range(steps):
        if step % 3 == 0:
            items.append({"type": "reasoning", "id": f"rs_{step}", "summary": [{"type": "summary_text", "text": "t"}]})
        items += [
            {"type": "function_call", "call_id": f"c{step}", "name": "look", "arguments": '{"at": 1}'},
            {"type": "function_call_output", "call_id": f"c{step}", "output": "seen"},
        ]
    return {"model": "gpt-5", "instructions": "Be brief.", "input": items}


CASES = [
    ("openai-chat", "anthropic", _chat_history, "chatcodec._providers.openai_chat.origins"),
    ("anthropic", "openai-chat", _anthropic_history, "chatcodec._providers.anthropic.origins"),
    ("openai-responses", "anthropic", _responses_history, "chatcodec._providers.openai_responses.origins"),
]


def _losses(payload: dict[str, Any], source: str, target: str) -> list[Loss]:
    losses: list[Loss] = []
    with pytest.warns(LossWarning):  # the default policy: every loss rendered and warned about
        convert_request(payload, source=source, target=target, losses=losses)
    return losses


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], list[int]]:
    """The canonical indexes whose origin a folder's ``origins_by_index`` was asked for."""
    seen: dict[str, list[int]] = {}

    def watch(module_name: str) -> list[int]:
        module = import_module(module_name)
        found = seen.setdefault(module_name, [])

        def counted(count: int, origin: Callable[[int], Origin]) -> tuple[int, Any]:
            def one(index: int) -> Origin:
                found.append(index)
                return origin(index)

            return count, one

        by_index = module.origins_by_index

        def watched(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> tuple[int, Any]:
            return counted(*by_index(payload, messages))

        monkeypatch.setattr(module, "origins_by_index", watched)
        return found

    return watch


@pytest.mark.parametrize(("source", "target", "history", "module"), CASES)
def test_only_the_messages_a_loss_names_have_their_origin_built(
    source: str,
    target: str,
    history: Callable[[int], dict[str, Any]],
    module: str,
    asked: Callable[[str], list[int]],
) -> None:
    # the canonical path's origins (a direct path from OpenAI Chat builds none: below)
    payload = history(12)
    built = asked(module)
    with canonical_only():
        losses = [loss for loss in _losses(payload, source, target) if "thinking" in loss.what]
    assert len(losses) == 4  # steps 0, 3, 6, 9
    assert len(built) == len(set(built)) == 4  # each named message's origin once, no other
    count, _ = import_module(module).origins_by_index(payload, [])
    assert count > 4 * 4


@pytest.mark.parametrize(("source", "target", "history", "module"), CASES)
def test_the_origins_built_when_asked_are_every_origin_listed(
    source: str, target: str, history: Callable[[int], dict[str, Any]], module: str
) -> None:
    # the folder's message_origins (what an outside caller reads) is every index's origin,
    # and a loss is named alike through either
    del target
    payload = history(7)
    canonical = chatcodec.decode_request(source, payload).model_dump(mode="json", exclude_none=True)["messages"]
    count, origin = import_module(module).origins_by_index(payload, canonical)
    listed = chatcodec.get_codec(source)
    assert isinstance(listed, ProviderCodec)
    assert listed.message_origins(payload, canonical) == [origin(index) for index in range(count)]
    assert count == len(canonical)


def test_a_direct_path_names_its_losses_without_an_origin_or_a_canonical_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an admitted OpenAI Chat body's losses are placed from where its admission found each
    # message starts and each turn's own fields (issue 92): no origin is built, no canonical
    # message read, and the places are the canonical path's
    from chatcodec._providers.openai_chat import origins

    payload = _chat_history(7)
    with canonical_only():
        canonical = [loss.path for loss in _losses(payload, "openai-chat", "anthropic") if "thinking" in loss.what]

    def refused(*_: object) -> Any:
        raise AssertionError("an origin built")

    monkeypatch.setattr(origins, "origins_at_starts", refused)
    monkeypatch.setattr(origins, "origins_by_index", refused)
    monkeypatch.setattr(origins, "assistant_origin", refused)
    direct = [loss.path for loss in _losses(payload, "openai-chat", "anthropic") if "thinking" in loss.what]
    assert direct == canonical == [f"$.messages[{index}].reasoning_content" for index in (2, 11, 20)]


def _canonical_places(
    payload: dict[str, Any], starts: list[int], validated: list[dict[str, Any]], *, closed: bool = True
) -> tuple[Origins, Sequence[Mapping[str, Any]]]:
    """The canonical path's origins of an admitted body, and its canonical messages: each named
    message read by the reader from the closed copy, placed by
    :func:`~chatcodec._providers.openai_chat.origins.assistant_origin`."""
    from chatcodec._direct.canonical_messages import CanonicalMessages
    from chatcodec._providers.kit.origins import OriginsByIndex
    from chatcodec._providers.openai_chat import origins
    from chatcodec._providers.openai_chat.messages import decode_messages

    messages = CanonicalMessages(validated, starts, "openai-chat", decode_messages, closed=closed)
    return Origins(lambda: OriginsByIndex(*origins.origins_at_starts(payload, messages, starts)), messages), messages


def _admitted_cases() -> list[tuple[str, dict[str, Any]]]:
    from chatcodec._direct.openai_chat_source import admit

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    differential = importlib.util.spec_from_file_location("differential", ROOT / "tools" / "differential.py")
    assert differential is not None
    assert differential.loader is not None
    module = importlib.util.module_from_spec(differential)
    differential.loader.exec_module(module)
    cases = [(name, body) for name, source, body in module._requests() if source == "openai-chat"]
    cases += [(f"history{steps}", _chat_history(steps)) for steps in (1, 4)]
    return [(name, body) for name, body in cases if admit(copy.deepcopy(body)) is not None]


@pytest.mark.parametrize(("name", "payload"), _admitted_cases())
def test_a_direct_paths_places_are_the_canonical_paths(name: str, payload: dict[str, Any]) -> None:
    # every place a loss could name in an admitted body (each message, its content, each part
    # and one past its last, a step inside a part, a field beside the content), by the direct
    # path's origins and by the canonical path's, which read the message first
    from chatcodec._direct.openai_chat_source import admit, admitted_origins
    from chatcodec._providers.openai_chat.common_shapes import COMMON_MESSAGES
    from chatcodec._providers.openai_chat.wire_validators import messages_adapter

    admission = admit(copy.deepcopy(payload))
    assert admission is not None, name
    given, starts, general = admission
    front = COMMON_MESSAGES.validate({"messages": given})  # the closed front's copy, as the reader reads it
    validated: list[dict[str, Any]] = (  # (a client's dialect beyond it: the full wire shapes' copy)
        [dict(message) for message in messages_adapter().validate_python(given)] if front is None else front["messages"]
    )
    direct = admitted_origins(payload, starts, general).place
    canonical, messages = _canonical_places(payload, starts, validated, closed=front is not None)
    assert direct(("model",)) == canonical(("model",)) == ("model",)
    for index in range(-1, len(starts) + 1):
        content: object = messages[index]["content"] if 0 <= index < len(starts) else None
        parts = len(cast("list[object]", content)) if isinstance(content, list) else 1  # a string: one text
        paths: list[Steps] = [("messages", index), ("messages", index, "content"), ("messages", index, "name")]
        for position in range(-1, parts + 2):
            paths += [("messages", index, "content", position), ("messages", index, "content", position, "text")]
        for path in paths:
            assert direct(path) == canonical(path), (name, path)


class _ListedCodec(ProviderCodec):
    """An outside codec over OpenAI Chat's folder whose ``message_origins`` is its own."""

    calls: list[int] = []  # noqa: RUF012 - what each call was given, read by the test

    def message_origins(self, payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
        type(self).calls.append(len(messages))
        return super().message_origins(payload, messages)


def test_an_outside_codec_whose_origins_are_a_list_names_losses_as_a_built_in() -> None:
    name = "chat-listed"
    chatcodec.register_codec(name, lambda: _ListedCodec.from_package("chatcodec._providers.openai_chat", name=name))
    try:
        payload = _chat_history(7)
        outside = [loss.path for loss in _losses(payload, name, "anthropic") if "thinking" in loss.what]
    finally:
        chatcodec.unregister_codec(name)
    built_in = [loss.path for loss in _losses(payload, "openai-chat", "anthropic") if "thinking" in loss.what]
    assert outside == built_in == [f"$.messages[{index}].reasoning_content" for index in (2, 11, 20)]
    assert _ListedCodec.calls == [len(chatcodec.decode_request("openai-chat", payload).messages)]


def test_a_message_whose_origin_cannot_be_built_is_named_as_the_canonical_list_numbers_it() -> None:
    from chatcodec._providers.kit.origins import Origins, OriginsByIndex

    def refused(index: int) -> Origin:
        raise KeyError(index)  # what reading an input the reader refused may raise

    origins = Origins(lambda: OriginsByIndex(2, refused), [{}, {}])
    assert origins(("messages", 1, "content", 0)) == ("messages", 1, "content", 0)
    miscounted = Origins(lambda: OriginsByIndex(3, lambda index: Origin(("input", index))), [{}, {}])
    assert miscounted(("messages", 1)) == ("messages", 1)
    counted = Origins(lambda: OriginsByIndex(2, lambda index: Origin(("input", index))), [{}, {}])
    assert counted(("messages", 1, "content", 0)) == ("input", 1, "content", 0)


def test_the_default_policy_warns_once_listing_each_loss_in_order_at_the_callers_line() -> None:
    import linecache
    import warnings

    payload = _chat_history(7)
    collected: list[Loss] = []
    convert_request(payload, source="openai-chat", target="anthropic", on_loss="ignore", losses=collected)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        convert_request(payload, source="openai-chat", target="anthropic")  # the line warned at
    (warned,) = [warning.message for warning in caught if isinstance(warning.message, LossWarning)]
    assert warned.losses == collected
    assert len(collected) > 3
    assert str(warned).splitlines() == [
        f"{len(collected)} thing(s) cannot be carried by the target format:",
        *(f"  {loss}" for loss in collected),
    ]
    ((filename, line),) = {(warning.filename, warning.lineno) for warning in caught}
    assert filename == __file__
    assert linecache.getline(filename, line).strip().endswith("# the line warned at")


def test_losses_whose_warning_is_filtered_out_are_not_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the default policy a filter that drops the warning leaves every path unrendered
    (no place traced); a list given still receives them all."""
    import warnings

    from chatcodec._providers.openai_chat.origins import AdmittedOrigins

    payload = _chat_history(7)
    built: list[Steps] = []
    place = AdmittedOrigins.place

    def traced(self: AdmittedOrigins, path: Steps) -> Steps:
        built.append(path)
        return place(self, path)

    monkeypatch.setattr(AdmittedOrigins, "place", traced)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        convert_request(payload, source="openai-chat", target="anthropic")
    assert caught == []
    assert built == []
    collected: list[Loss] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        convert_request(payload, source="openai-chat", target="anthropic", losses=collected)
    assert caught == []
    assert [loss.path for loss in collected if "thinking" in loss.what] == [
        f"$.messages[{index}].reasoning_content" for index in (2, 11, 20)
    ]
    assert [path for path in built if path[0] == "messages"] == [
        ("messages", index, "content", 0) for index in (2, 8, 14)
    ]
