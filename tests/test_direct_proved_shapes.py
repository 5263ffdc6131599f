"""What the OpenAI Chat direct paths ask once a request and then repeat (issue 107): a tool
result with the tool's name written as the name's report by the writer's kit (asked once a
name) and the result without it (``NamedResults``, no general reading), a turn of
OpenRouter's reasoning details written to Responses as its parts (``_general_items``, proved
per shape). Each body mixes results and turns that repeat a proved shape with ones that
differ from it (another content, an image, a cache marker, an empty text, a call without its
index, a long call id, a tool name Responses renames), and each is written as the canonical
path writes it: the output, the losses (kind, place, text, order) and the warnings; the
later ones are counted to skip the general reading."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any, Literal

import pytest

import chatcodec
from chatcodec import contract
from chatcodec._direct import openai_chat_source, openai_chat_to_anthropic, openai_chat_to_openai_responses
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder

_IMAGE = (
    "data:image/png;base64,"
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def _outcome(body: dict[str, Any], target: str, on_loss: Literal["ignore", "warn"]) -> str:
    losses: list[Any] = []
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        try:
            output = chatcodec.convert_request(
                copy.deepcopy(body), source="openai-chat", target=target, on_loss=on_loss, losses=losses
            )
        except Exception as error:  # an error is part of the outcome, whatever its type
            return f"ERR {type(error).__name__}: {error}"
    said = [(warning.category.__name__, str(warning.message)) for warning in shown]
    return json.dumps([output, [repr(loss) for loss in losses], said], default=repr)


def _equal_to_canonical(body: dict[str, Any], target: str) -> None:
    convert = direct_path("openai-chat", target)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None  # taken
    on_losses: tuple[Literal["ignore", "warn"], ...] = ("ignore", "warn")
    for on_loss in on_losses:
        direct = _outcome(body, target, on_loss)
        with canonical_only():
            canonical = _outcome(body, target, on_loss)
        assert direct == canonical, on_loss


def _call(call_id: str, name: str, index: int | None = None) -> dict[str, Any]:
    call: dict[str, Any] = {"id": call_id, "type": "function", "function": {"name": name, "arguments": '{"a": 1}'}}
    if index is not None:
        call["index"] = index
    return call


def _named_body(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One assistant turn calling each result's tool, then the results, then the user."""
    calls = [_call(f"call_{position}", result["name"]) for position, result in enumerate(results)]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You fix bugs."},
        {"role": "user", "content": "Look."},
        {"role": "assistant", "content": None, "tool_calls": calls},
    ]
    messages += [
        {"role": "tool", "tool_call_id": f"call_{position}", **result} for position, result in enumerate(results)
    ]
    messages.append({"role": "user", "content": "Go on."})
    return {"model": "claude-sonnet-4-5", "max_tokens": 1000, "messages": messages}


_NAMED_RESULTS: dict[str, list[dict[str, Any]]] = {
    "one name, texts and parts": [
        {"name": "bash", "content": [{"type": "text", "text": "ok"}]},
        {"name": "bash", "content": "done"},
        {"name": "bash", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
    ],
    "two names interleaved": [
        {"name": "bash", "content": [{"type": "text", "text": "ok"}]},
        {"name": "edit", "content": [{"type": "text", "text": "edited"}]},
        {"name": "bash", "content": [{"type": "text", "text": "again"}]},
        {"name": "edit", "content": "plain"},
    ],
    "a later result with an image": [
        {"name": "browser", "content": [{"type": "text", "text": "page"}]},
        {
            "name": "browser",
            "content": [{"type": "text", "text": "shot"}, {"type": "image_url", "image_url": {"url": _IMAGE}}],
        },
        {"name": "browser", "content": [{"type": "text", "text": "page again"}]},
    ],
    "a later result with a cache marker": [
        {"name": "bash", "content": [{"type": "text", "text": "ok"}]},
        {"name": "bash", "content": [{"type": "text", "text": "marked"}], "cache_control": {"type": "ephemeral"}},
        {"name": "bash", "content": [{"type": "text", "text": "marked part", "cache_control": {"type": "ephemeral"}}]},
    ],
    "names the report's text holds": [
        {"name": "data", "content": [{"type": "text", "text": "one"}]},
        {"name": "bash", "content": [{"type": "text", "text": "two"}]},
        {"name": "name", "content": "three"},
        {"name": "a", "content": [{"type": "text", "text": "four"}]},
        {"name": "data", "content": "five"},
    ],
    "many names, one report": [
        {"name": f"tool_{position}", "content": [{"type": "text", "text": f"out {position}"}]} for position in range(6)
    ],
    "an image first": [
        {"name": "browser", "content": [{"type": "image_url", "image_url": {"url": _IMAGE}}]},
        {"name": "browser", "content": [{"type": "text", "text": "page"}]},
        {"name": "browser", "content": "text"},
    ],
}


@pytest.mark.parametrize("target", ["anthropic", "openai-responses"])
@pytest.mark.parametrize("case", sorted(_NAMED_RESULTS))
def test_named_results_equal_to_canonical(case: str, target: str) -> None:
    _equal_to_canonical(_named_body(_NAMED_RESULTS[case]), target)


def test_a_named_result_skips_the_general_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    # five results of one tool and two of another: no general reading, the name's report asked
    # of the writer's kit once a process (its texts hold neither name) and repeated
    monkeypatch.setattr(openai_chat_source, "_SHARED_REPORTS", {})
    read: list[str] = []
    general = getattr(openai_chat_to_anthropic, "_result_block")  # noqa: B009 - the module's own, counted

    def counted(message: dict[str, Any], *rest: Any) -> dict[str, Any]:
        read.append(message["name"])
        return general(message, *rest)

    monkeypatch.setattr(openai_chat_to_anthropic, "_result_block", counted)
    bags: list[dict[str, Any]] = []
    fields = openai_chat_source.result_fields  # the reader's bag of a result, asked for a report

    def counted_fields(message: dict[str, Any]) -> dict[str, Any]:
        bags.append(fields(message))
        return bags[-1]

    monkeypatch.setattr(openai_chat_source, "result_fields", counted_fields)
    results = [{"name": name, "content": [{"type": "text", "text": f"out {name}"}]} for name in ["bash"] * 5]
    results += [{"name": "edit", "content": "x"}, {"name": "edit", "content": "y"}]
    body = _named_body(results)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    written = convert(copy.deepcopy(body), recorder, chatcodec.get_codec("anthropic"))
    assert written is not None
    assert read == []
    assert bags == [{"name": "bash"}]
    named = [loss.path for loss in recorder.losses if "['name']" in loss.what]
    assert named == [f"$.messages[{position}]" for position in range(3, 10)]  # every name reported, in order
    again = LossRecorder()
    assert convert(copy.deepcopy(body), again, chatcodec.get_codec("anthropic")) is not None
    assert bags == [{"name": "bash"}]  # the next request repeats the report: not asked again
    assert [loss.path for loss in again.losses if "['name']" in loss.what] == named
    _equal_to_canonical(body, "anthropic")


def test_a_named_result_with_an_image_is_written_by_its_parts_without_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # a result with an image is written by the part rules (feature-steps' _result_parts), without
    # its name (reported by the writer's kit before it): no result is read generally
    read: list[str | None] = []
    general = getattr(openai_chat_to_anthropic, "_result_block")  # noqa: B009 - the module's own, counted

    def counted(message: dict[str, Any], *rest: Any) -> dict[str, Any]:
        read.append(message.get("name"))
        return general(message, *rest)

    monkeypatch.setattr(openai_chat_to_anthropic, "_result_block", counted)
    image = [{"type": "text", "text": "shot"}, {"type": "image_url", "image_url": {"url": _IMAGE}}]
    results = [{"name": "browser", "content": image}, *({"name": "bash", "content": "ok"} for _ in range(3))]
    body = _named_body(results)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec("anthropic")) is not None
    assert read == []  # the image's result too, by its parts, without its name
    named = [loss.path for loss in recorder.losses if "['name']" in loss.what]
    assert named == [f"$.messages[{position}]" for position in range(3, 7)]
    _equal_to_canonical(body, "anthropic")
    _equal_to_canonical(_named_body([*results, {"name": "browser", "content": "page"}]), "anthropic")


def _turn(step: int, **fields: Any) -> dict[str, Any]:
    """An assistant turn as OpenRouter answers it (its reasoning details signed), ``fields`` over it."""
    text = f"I look at step {step}."
    detail = {"type": "reasoning.text", "text": text, "signature": f"sig{step}", "format": "anthropic-claude-v1"}
    turn: dict[str, Any] = {
        "role": "assistant",
        "content": "",
        "refusal": None,
        "reasoning": text,
        "reasoning_details": [{**detail, "index": 0}],
        "tool_calls": [_call(f"toolu_{step}", "bash", 0)],
    }
    turn.update(fields)
    return {key: value for key, value in turn.items() if value is not _GONE}


_GONE = object()
"""A field :func:`_turn` leaves out."""


def _reasoned_body(turns: list[dict[str, Any]]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You fix bugs."},
        {"role": "user", "content": "Go."},
    ]
    for turn in turns:
        messages.append(turn)
        messages += [{"role": "tool", "tool_call_id": call["id"], "content": "ok"} for call in turn["tool_calls"]]
    messages.append({"role": "user", "content": "Go on."})
    return {"model": "anthropic/claude-sonnet-4.5", "messages": messages, "max_tokens": 1000}


_LONG_ID = "toolu_" + "x" * 70
_REASONED_TURNS: dict[str, list[dict[str, Any]]] = {
    "one shape": [_turn(step) for step in range(4)],
    "texts and empty texts": [_turn(0), _turn(1, content="Done."), _turn(2), _turn(3, content="More.")],
    "a call without its index later": [_turn(0), _turn(1, tool_calls=[_call("toolu_1", "bash")]), _turn(2)],
    "mixed indexes": [
        _turn(0),
        _turn(1, tool_calls=[_call("toolu_1a", "bash", 0), _call("toolu_1b", "bash")]),
        _turn(2, tool_calls=[_call("toolu_2a", "bash", 0), _call("toolu_2b", "edit", 1)]),
    ],
    "no refusal field later": [_turn(0), _turn(1, refusal=_GONE), _turn(2)],
    "reasoning not a copy": [_turn(0), _turn(1, reasoning="Another thought."), _turn(2, reasoning=_GONE)],
    "a long call id later": [_turn(0), _turn(1, tool_calls=[_call(_LONG_ID, "bash", 0)]), _turn(2)],
    "a tool name Responses renames": [_turn(0), _turn(1, tool_calls=[_call("toolu_1", "my.tool", 0)]), _turn(2)],
    "two details": [
        _turn(0),
        _turn(
            1,
            reasoning=_GONE,
            reasoning_details=[
                {"type": "reasoning.text", "text": "a", "signature": "s", "format": "anthropic-claude-v1", "index": 0},
                {"type": "reasoning.encrypted", "data": "opaque", "format": "anthropic-claude-v1", "index": 1},
            ],
        ),
        _turn(2),
    ],
}


@pytest.mark.parametrize("target", ["anthropic", "openai-responses"])
@pytest.mark.parametrize("case", sorted(_REASONED_TURNS))
def test_reasoned_turns_equal_to_canonical(case: str, target: str) -> None:
    _equal_to_canonical(_reasoned_body(_REASONED_TURNS[case]), target)


def test_a_proved_shape_skips_the_general_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    # six turns of one shape (an empty text, an indexed call) and one of another: read twice,
    # then not at all in the next request (the verdicts are the process's)
    monkeypatch.setattr(openai_chat_to_openai_responses, "_PROVED", {})
    read: list[int] = []
    general = openai_chat_to_openai_responses.decode_assistant

    def counted(message: dict[str, Any], **options: Any) -> dict[str, Any]:
        read.append(len(message["tool_calls"]))
        return general(message, **options)

    monkeypatch.setattr(openai_chat_to_openai_responses, "decode_assistant", counted)
    turns = [_turn(step) for step in range(6)]
    turns.insert(3, _turn(9, refusal=_GONE))
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    recorder = LossRecorder()
    assert convert(_reasoned_body(turns), recorder, chatcodec.get_codec("openai-responses")) is not None
    assert len(read) == 2
    dropped = [loss.path for loss in recorder.losses if loss.what == "reasoning from anthropic"]
    assert len(dropped) == 7  # each turn's reasoning reported, proved or not
    again = LossRecorder()
    assert convert(_reasoned_body(turns[::-1]), again, chatcodec.get_codec("openai-responses")) is not None
    assert len(read) == 2
    assert [loss.what for loss in again.losses].count("reasoning from anthropic") == 7


def test_the_proved_shapes_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    full: dict[Any, Any] = {(str(number),): [] for number in range(256)}  # the bound, _MAX_PROVED
    monkeypatch.setattr(openai_chat_to_openai_responses, "_PROVED", full)
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    assert convert(_reasoned_body([_turn(0)]), LossRecorder(), chatcodec.get_codec("openai-responses")) is not None
    assert len(full) == 1  # forgotten whole, then the request's one shape


def test_the_proved_shapes_are_forgotten_when_a_kit_is_made() -> None:
    """A kit made later (an outside codec's, a test's) declares markers that change what a
    writer reports of a bag: the verdicts on turns' shapes, and their stand-ins, are forgotten
    with the kits' other plans (the name is this test's alone)."""
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    assert convert(_reasoned_body([_turn(0), _turn(1)]), LossRecorder(), chatcodec.get_codec("openai-responses"))
    proved = getattr(openai_chat_to_openai_responses, "_PROVED")  # noqa: B009 - the module's own memory
    stand_ins = getattr(openai_chat_to_openai_responses, "_STAND_INS")  # noqa: B009
    assert proved or stand_ins
    contract.ProviderKit("acme-proved-shapes", meaningful_markers={"_mode": "the server reads it"})
    assert (proved, stand_ins) == ({}, {})


def test_losses_below_a_place_repeat_there() -> None:
    recorder = LossRecorder()
    recorder.add(("model",), "model", "why")
    count = recorder.count()
    recorder.add(("messages", 1, "content", 0), "data", "none", "metadata")
    recorder.add(("messages", 1, "content", 0, "name"), "name", "none")
    found = recorder.below(count, ("messages", 1, "content", 0))
    assert found == [((), "data", "none", "metadata"), (("name",), "name", "none", "content")]
    assert found is not None
    assert recorder.below(count, ("messages", 1, "content", 1)) is None  # one is not below it
    recorder.repeat(found, ("messages", 4, "content", 2))
    recorder.take_back(count + 2)  # the two below the first place stay, the repeated ones go
    assert [loss.path for loss in recorder.losses] == [
        "$.model",
        "$.messages[1].content[0]",
        "$.messages[1].content[0].name",
    ]
    assert recorder.below(0, ("model",)) is None  # rendered since


def test_a_reasoning_shape_stands_in_for_later_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    # the reasoning fields of the first turn of a shape read (twice: its parts, its trial's
    # copy), later turns of it not at all, in this request and the next; another shape read
    stand_ins: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_openai_responses, "_STAND_INS", stand_ins)
    read: list[str] = []
    reading = openai_chat_to_openai_responses.decode_reasoning

    def counted(message: Any) -> Any:
        read.append(message["reasoning"])
        return reading(message)

    monkeypatch.setattr(openai_chat_to_openai_responses, "decode_reasoning", counted)
    turns = [_turn(step) for step in range(5)]
    turns.insert(2, _turn(9, reasoning="Not the details' text."))
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    for body in (_reasoned_body(turns), _reasoned_body(turns[::-1])):
        recorder = LossRecorder()
        assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec("openai-responses")) is not None
        assert [loss.what for loss in recorder.losses].count("reasoning from anthropic") == 6
        _equal_to_canonical(body, "openai-responses")
    assert read == ["I look at step 0.", "Not the details' text."]
    kept = list(stand_ins.values())
    assert len(kept) == 2
    parts = [part for stand_ins in kept for part in stand_ins or ()]
    assert {part["text"] for part in parts} == {"\x00"}  # none of the caller's texts kept
    assert {part["signature"] for part in parts if "signature" in part} == {"\x00"}


def test_a_writer_that_writes_the_reasoning_gets_no_stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    # a writer writing the thinking texts (as one replaying them would) fails the trial: each
    # turn's own parts are read and written
    from chatcodec._direct.openai_chat_assistant_turns import general_shape

    stand_ins: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_openai_responses, "_STAND_INS", stand_ins)
    monkeypatch.setattr(openai_chat_to_openai_responses, "_PROVED", {general_shape(_turn(0)): []})  # as its parts
    writer = openai_chat_to_openai_responses.request_turn

    def replaying(parts: list[Any], *rest: Any) -> list[dict[str, Any]]:
        texts = [part["text"] for part in parts if part["type"] == "thinking"]
        return [{"type": "reasoning", "summary": texts}, *writer(parts, *rest)]

    monkeypatch.setattr(openai_chat_to_openai_responses, "request_turn", replaying)
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    written = convert(
        _reasoned_body([_turn(step) for step in range(3)]), LossRecorder(), chatcodec.get_codec("openai-responses")
    )
    assert written is not None
    summaries = [item["summary"] for item in written["input"] if item.get("type") == "reasoning"]
    assert summaries == [[f"I look at step {step}."] for step in range(3)]
    assert list(stand_ins.values()) == [None]


@pytest.mark.parametrize(
    "change",
    [
        {"reasoning": "Another thought."},
        {"reasoning": ""},
        {"reasoning": _GONE},
        {
            "reasoning_details": [
                {"type": "reasoning.text", "text": "x", "signature": "", "format": "anthropic-claude-v1", "index": 0}
            ]
        },
        {
            "reasoning_details": [
                {"type": "reasoning.text", "text": "x", "signature": "s", "format": "openai-responses-v1", "index": 0}
            ]
        },
        {
            "reasoning_details": [
                {"type": "reasoning.summary", "summary": "x", "format": "anthropic-claude-v1", "index": 0}
            ]
        },
        {
            "reasoning_details": [
                {"type": "reasoning.text", "text": "x", "signature": "s", "format": "anthropic-claude-v1", "index": 1}
            ]
        },
        {
            "reasoning_details": [
                {"text": "x", "type": "reasoning.text", "signature": "s", "format": "anthropic-claude-v1", "index": 0}
            ]
        },
    ],
)
def test_a_reasoning_shape_changes_with_what_the_parts_hold(change: dict[str, Any]) -> None:
    from chatcodec._providers.openai_chat.reasoning import reasoning_shape, whole_shape

    first, later = _turn(0), _turn(1)
    assert reasoning_shape(first) == reasoning_shape(later)  # the texts and signatures alone differ
    changed = _turn(1, **change)
    shape = reasoning_shape(changed)
    assert shape is not None
    assert shape != reasoning_shape(first)
    assert whole_shape(shape)
    _equal_to_canonical(_reasoned_body([first, changed, later]), "openai-responses")


def test_a_reasoning_shape_of_other_fields_is_not_whole() -> None:
    from chatcodec._providers.openai_chat.reasoning import reasoning_shape, whole_shape

    detail = {"type": "reasoning.text", "text": "x", "format": "anthropic-claude-v1", "extra": "y"}
    shape = reasoning_shape({"role": "assistant", "content": "", "reasoning_details": [detail]})
    assert shape is not None
    assert not whole_shape(shape)
    assert reasoning_shape({"role": "assistant", "content": "", "reasoning_content": "x"}) is None


def test_a_name_the_report_holds_is_asked_for_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first report names its bag's key ("openai-chat data ['name']"): a tool named "data" or
    # "name" is in its text, so that report is that name's alone and each other name is asked
    bags: list[dict[str, Any]] = []
    fields = openai_chat_source.result_fields

    def counted_fields(message: dict[str, Any]) -> dict[str, Any]:
        bags.append(fields(message))
        return bags[-1]

    monkeypatch.setattr(openai_chat_source, "result_fields", counted_fields)
    monkeypatch.setattr(openai_chat_source, "_SHARED_REPORTS", {})  # (an earlier test's request shared one)
    results = [{"name": name, "content": "ok"} for name in ("data", "name", "data", "bash", "edit", "name")]
    body = _named_body(results)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec("anthropic")) is not None
    assert bags == [{"name": "data"}, {"name": "name"}, {"name": "bash"}]  # then shared by "edit"
    named = [loss.path for loss in recorder.losses if "['name']" in loss.what]
    assert named == [f"$.messages[{position}]" for position in range(3, 9)]
    _equal_to_canonical(body, "anthropic")
    _equal_to_canonical(body, "openai-responses")


@pytest.mark.parametrize("indexed", [False, True])
def test_named_turns_into_responses_report_each_name(monkeypatch: pytest.MonkeyPatch, *, indexed: bool) -> None:
    # a multi-agent client's named turns: a plain turn but for its name is the pass's, the writer's
    # report of the name first, with calls of the SDK's index too (a pure marker the writer drops):
    # no general reading
    monkeypatch.setattr(openai_chat_to_openai_responses, "_PROVED", {})
    read: list[int] = []
    general = openai_chat_to_openai_responses.decode_assistant

    def counted(message: dict[str, Any], **options: Any) -> dict[str, Any]:
        read.append(1)
        return general(message, **options)

    monkeypatch.setattr(openai_chat_to_openai_responses, "decode_assistant", counted)
    index = {"index": 0} if indexed else {}
    turns = [
        {
            "role": "assistant",
            "name": ("coder", "reviewer")[step % 2],
            "content": f"Step {step}.",
            "tool_calls": [
                {"id": f"call_{step}", "type": "function", "function": {"name": "bash", "arguments": "{}"}, **index}
            ],
        }
        for step in range(5)
    ]
    body = _reasoned_body(turns)
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    recorder = LossRecorder()
    assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec("openai-responses")) is not None
    assert read == []
    assert [loss.what for loss in recorder.losses].count("participant name") == 5
    _equal_to_canonical(body, "openai-responses")
