"""The chatcodec-renders mode (``--upstream vllm-generate --template qwen3 --record PATH``)
when a harness leaves the happy path: call ids across a session, an answer sent back edited,
its reasoning dropped, an argument changed, a turn cut at ``max_tokens``, a compaction, a
retry. Behind the gateway a local fake answers as vLLM's ``/inference/v1/generate`` does,
with real Qwen3 ids (:mod:`serve.test_token_upstreams`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec._training.record_deltas import Rebuilder
from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, serving_config, serving_fake
from serve.test_token_upstreams import vllm_generated
from training.qwen3_tokenizer import qwen3_encoding

SESSION = {"x-chatcodec-session": "episode-105"}
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"city": {"type": "string"}}}
CITIES = ("Paris", "Rome", "Oslo")


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _call(city: str, before: str = "") -> str:
    """A Qwen3 completion calling ``get_weather`` for ``city`` (compact JSON, as models write it)."""
    call = json.dumps({"name": "get_weather", "arguments": {"city": city}}, separators=(",", ":"))
    return f"<think>\nI look {city} up.\n</think>\n\n{before}<tool_call>\n{call}\n</tool_call><|im_end|>"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    return tmp_path / "turns.jsonl"


def _serving(api: str, fake: FakeUpstream, recorded: Path) -> Any:
    fake.replies.clear()
    fake.received.clear()
    config = ServeConfig(
        api=api,
        upstream="vllm-generate",
        upstream_url=fake.base,
        template="qwen3",
        record=str(recorded),
        allow_anonymous=True,
    )
    return serving_config(config, tokenizer=qwen3_encoding())


def _lines(recorded: Path) -> list[dict[str, Any]]:
    """The record's lines whole (a line that extends an earlier one rebuilt, as its readers rebuild it)."""
    rebuilder = Rebuilder()
    return [
        rebuilder.rebuilt(json.loads(line), f"line {number}")
        for number, line in enumerate(recorded.read_text().splitlines(), start=1)
    ]


def _posted(origin: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    reply = httpx.post(f"{origin}{path}", json=body, headers=SESSION, timeout=30)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


def _anthropic_session(origin: str) -> list[str]:
    """Three turns, each answered with a call, through the Anthropic front: the call ids."""
    tools = [{"name": "get_weather", "input_schema": SCHEMA}]
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris, Rome and Oslo?"}]
    ids: list[str] = []
    for _ in CITIES:
        answer = _posted(
            origin, "/v1/messages", {"model": "qwen3", "max_tokens": 100, "messages": messages, "tools": tools}
        )
        (call,) = [block for block in answer["content"] if block["type"] == "tool_use"]
        ids.append(call["id"])
        messages.append({"role": "assistant", "content": answer["content"]})
        messages.append(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "sunny"}]}
        )
    return ids


def _chat_session(origin: str) -> list[str]:
    """The same three turns through the Chat Completions front."""
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMA}}]
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris, Rome and Oslo?"}]
    ids: list[str] = []
    for _ in CITIES:
        body = {"model": "qwen3", "max_tokens": 100, "messages": messages, "tools": tools}
        message = _posted(origin, "/v1/chat/completions", body)["choices"][0]["message"]
        (call,) = message["tool_calls"]
        ids.append(call["id"])
        messages.append(message)
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": "sunny"})
    return ids


def _responses_session(origin: str) -> list[str]:
    """The same three turns through the Responses front (the items sent back whole, nothing stored)."""
    tools = [{"type": "function", "name": "get_weather", "parameters": SCHEMA}]
    items: list[Any] = [{"role": "user", "content": "Weather in Paris, Rome and Oslo?"}]
    ids: list[str] = []
    for _ in CITIES:
        body = {"model": "qwen3", "max_output_tokens": 100, "input": items, "tools": tools, "store": False}
        output = _posted(origin, "/v1/responses", body)["output"]
        (call,) = [item for item in output if item["type"] == "function_call"]
        ids.append(call["call_id"])
        items.extend(output)
        items.append({"type": "function_call_output", "call_id": call["call_id"], "output": "sunny"})
    return ids


@pytest.mark.parametrize(
    ("api", "session"),
    [("anthropic", _anthropic_session), ("openai-chat", _chat_session), ("openai-responses", _responses_session)],
)
def test_a_three_turn_tool_session_holds_three_distinct_call_ids(
    fake: FakeUpstream, recorded: Path, api: str, session: Any
) -> None:
    with _serving(api, fake, recorded) as origin:
        for city in CITIES:
            fake.reply(vllm_generated(_ids(_call(city))))
        ids = session(origin)
    assert len(set(ids)) == 3, ids  # each turn parsed alone used to make call_0 every time
    lines = _lines(recorded)
    assert [line.get("prompt_break") for line in lines] == [None, None, None]  # each turn extended the last
    held = [
        part["id"]
        for message in lines[-1]["messages"]
        for part in (message["content"] if isinstance(message["content"], list) else [])
        if part.get("type") == "tool_use"
    ]
    assert held == ids[:2]  # the record holds the ids the harness was answered with
    turns = chatcodec.read_records(recorded)["episode-105"]
    (sample,) = chatcodec.trainer_samples(turns)  # one episode, one sample
    assert sample["prompt_ids"] == turns[0].prompt_ids


def test_a_made_id_skips_an_id_the_harness_already_holds(fake: FakeUpstream, recorded: Path) -> None:
    """A harness's own id ``call_1`` (one call made before): the made id continues past it."""
    history: list[Any] = [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Lyon"}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "rain"}]},
    ]
    with _serving("anthropic", fake, recorded) as origin:
        fake.reply(vllm_generated(_ids(_call("Nice"))))
        answer = _posted(origin, "/v1/messages", {"model": "qwen3", "max_tokens": 100, "messages": history})
    (call,) = [block for block in answer["content"] if block["type"] == "tool_use"]
    assert call["id"] == "call_2"


def _first_turn(origin: str, completion: str, finish: str, fake: FakeUpstream) -> tuple[list[Any], dict[str, Any]]:
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    fake.reply(vllm_generated(_ids(completion), finish))
    answer = _posted(origin, "/v1/messages", _body(messages))
    return messages, answer


def _body(messages: list[Any]) -> dict[str, Any]:
    return {
        "model": "qwen3",
        "max_tokens": 100,
        "messages": messages,
        "tools": [{"name": "get_weather", "input_schema": SCHEMA}],
    }


def _rendered(messages: list[Any]) -> list[int]:
    """The body's prompt as the library renders it (the prompt a break records)."""
    rendering = chatcodec.render(
        _body(messages),
        source="anthropic",
        template="qwen3",
        tokenizer=qwen3_encoding(),
        add_generation_prompt=True,
        on_loss="ignore",
    )
    assert rendering.token_ids is not None
    return list(rendering.token_ids)


def _second_turn(origin: str, fake: FakeUpstream, messages: list[Any]) -> list[int]:
    fake.reply(vllm_generated(_ids("It is sunny.<|im_end|>")))
    _posted(origin, "/v1/messages", _body(messages))
    sent: list[int] = fake.last.body["token_ids"]
    return sent


def _result(content: list[Any]) -> dict[str, Any]:
    (call,) = [block for block in content if block["type"] == "tool_use"]
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "sunny"}]}


EDITS = {
    "an argument changed": (
        lambda content: [
            {**block, "input": {"city": "London"}} if block["type"] == "tool_use" else block for block in content
        ],
        "the arguments of 'get_weather' changed ($.messages[1].content[2].arguments)",
    ),
    "the reasoning dropped": (
        lambda content: [block for block in content if block["type"] != "thinking"],
        "its reasoning dropped ($.messages[1])",
    ),
    "the reasoning changed": (
        lambda content: [
            {**block, "thinking": "Something else."} if block["type"] == "thinking" else block for block in content
        ],
        "its reasoning changed ($.messages[1].content[0])",
    ),
    "the text edited": (
        lambda content: [{**block, "text": "Checking now."} if block["type"] == "text" else block for block in content],
        "its text changed ($.messages[1].content[1])",
    ),
    "the call dropped": (
        lambda content: [block for block in content if block["type"] != "tool_use"],
        "its calls changed (1 sampled, 0 sent back)",
    ),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_an_answer_sent_back_edited_breaks_the_extension_naming_what_and_where(
    fake: FakeUpstream, recorded: Path, edit: str
) -> None:
    change, said = EDITS[edit]
    with _serving("anthropic", fake, recorded) as origin:
        messages, answer = _first_turn(origin, _call("Paris", "Let me check.\n"), "stop", fake)
        content = change(answer["content"])
        follow = {"role": "user", "content": "Thanks."} if edit == "the call dropped" else _result(answer["content"])
        history = [*messages, {"role": "assistant", "content": content}, follow]
        sent = _second_turn(origin, fake, history)
    assert sent == _rendered(history)  # what the harness sent, rendered fresh: never the sampled ids under it
    first, second = _lines(recorded)
    assert second["prompt_break"].startswith("the answer sent back at $.messages[1] is not the one sampled: ")
    assert said in second["prompt_break"]
    samples = chatcodec.trainer_samples(chatcodec.read_records(recorded)["episode-105"], on_loss="ignore")
    assert [sample["prompt_ids"] for sample in samples] == [first["prompt_ids"], sent]  # never merged across it


def test_the_answer_sent_back_as_sampled_extends_with_the_sampled_ids(fake: FakeUpstream, recorded: Path) -> None:
    """The control of the edits: the model's compact JSON and its text come back unchanged."""
    with _serving("anthropic", fake, recorded) as origin:
        completion = _call("Paris", "Let me check.\n")
        messages, answer = _first_turn(origin, completion, "stop", fake)
        history = [*messages, {"role": "assistant", "content": answer["content"]}, _result(answer["content"])]
        sent = _second_turn(origin, fake, history)
    first, second = _lines(recorded)
    assert "prompt_break" not in second
    assert sent[: len(first["prompt_ids"]) + len(first["completion_ids"])] == first["prompt_ids"] + _ids(completion)
    assert sent != _rendered(history)  # the sampled spelling kept, not the template's


def test_a_turn_cut_at_max_tokens_is_never_extended_as_if_closed(fake: FakeUpstream, recorded: Path) -> None:
    """renderers' ``bridge_to_next_turn`` refuses to bridge a turn that did not close; slime
    re-renders such a history: the gateway renders fresh and says why."""
    with _serving("anthropic", fake, recorded) as origin:
        messages, answer = _first_turn(origin, "Hello, I was", "length", fake)
        assert answer["stop_reason"] == "max_tokens"
        history = [
            *messages,
            {"role": "assistant", "content": answer["content"]},
            {"role": "user", "content": "Go on."},
        ]
        sent = _second_turn(origin, fake, history)
    assert sent == _rendered(history)
    text = qwen3_encoding().decode(sent)
    assert "Hello, I was<|im_end|>" in text  # the template closes the cut answer; no '...I was\n<|im_start|>user'
    first, second = _lines(recorded)
    assert "cut at max_tokens" in second["prompt_break"]
    assert (
        sent[: len(first["prompt_ids"]) + len(first["completion_ids"])] == first["prompt_ids"] + first["completion_ids"]
    )
    samples = chatcodec.trainer_samples(chatcodec.read_records(recorded)["episode-105"], on_loss="ignore")
    assert len(samples) == 2  # the ids line up, yet the break keeps the cut turn out of the next one's sample


def test_a_compaction_of_earlier_turns_breaks_and_names_the_message(fake: FakeUpstream, recorded: Path) -> None:
    with _serving("anthropic", fake, recorded) as origin:
        messages, answer = _first_turn(origin, _call("Paris"), "stop", fake)
        history = [*messages, {"role": "assistant", "content": answer["content"]}, _result(answer["content"])]
        _second_turn(origin, fake, history)
        compacted = [
            {"role": "user", "content": "Summary: Paris is sunny."},
            {"role": "assistant", "content": "Noted."},
            {"role": "user", "content": "And Rome?"},
        ]
        sent = _second_turn(origin, fake, compacted)
    assert sent == _rendered(compacted)
    third = _lines(recorded)[2]
    assert third["prompt_break"].startswith("$.messages[0] differs from what the last turn saw")


def test_a_retry_reuses_the_prompt_ids_of_the_turn_it_repeats_and_names_it(fake: FakeUpstream, recorded: Path) -> None:
    """A retry after an error (or best-of-n): the sampled reasoning of the turn before stays
    in the prompt (a fresh render under stock Qwen3 would keep it too here, but re-encoded),
    and the two siblings are two samples."""
    with _serving("anthropic", fake, recorded) as origin:
        messages, answer = _first_turn(origin, _call("Paris"), "stop", fake)
        history = [*messages, {"role": "assistant", "content": answer["content"]}, _result(answer["content"])]
        sent = _second_turn(origin, fake, history)
        fake.reply(vllm_generated(_ids("Sunny, it says.<|im_end|>")))
        _posted(origin, "/v1/messages", _body(history))
        retried: list[int] = fake.last.body["token_ids"]
    assert retried == sent != _rendered(history)  # the sampled call's spelling, not a fresh render
    _, second, third = _lines(recorded)
    assert third["parent_turn"] == second["request_id"]
    assert "prompt_break" not in third
    assert "parent_turn" not in second
    samples = chatcodec.trainer_samples(chatcodec.read_records(recorded)["episode-105"], on_loss="ignore")
    assert len(samples) == 2  # one per branch: the first two turns merged, the sibling alone
    assert samples[1]["prompt_ids"] == retried
    assert samples[0]["response_ids"][-len(second["completion_ids"]) :] == second["completion_ids"]


def test_a_branch_continued_from_an_earlier_turn_extends_that_turn(fake: FakeUpstream, recorded: Path) -> None:
    """Two siblings of turn 2, then turn 3 continuing the first sibling: it extends that one."""
    with _serving("anthropic", fake, recorded) as origin:
        messages, answer = _first_turn(origin, _call("Paris"), "stop", fake)
        history = [*messages, {"role": "assistant", "content": answer["content"]}, _result(answer["content"])]
        fake.reply(vllm_generated(_ids(_call("Rome"))))
        kept = _posted(origin, "/v1/messages", _body(history))
        _second_turn(origin, fake, history)  # a sibling, which is not continued
        longer = [*history, {"role": "assistant", "content": kept["content"]}, _result(kept["content"])]
        _second_turn(origin, fake, longer)
    lines = _lines(recorded)
    assert lines[3]["parent_turn"] == lines[1]["request_id"]
    assert "prompt_break" not in lines[3]
    assert lines[3]["prompt_ids"][: len(lines[1]["prompt_ids"])] == lines[1]["prompt_ids"]


def test_a_break_names_the_place_in_the_harness_s_wire(fake: FakeUpstream, recorded: Path) -> None:
    """Anthropic's top-level ``system`` is canonical message 0: the break names the wire's
    ``$.messages[1]``, where the harness holds the answer, not the canonical ``messages[2]``."""
    with _serving("anthropic", fake, recorded) as origin:
        messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
        fake.reply(vllm_generated(_ids(_call("Paris"))))
        answer = _posted(origin, "/v1/messages", {**_body(messages), "system": "Be brief."})
        edited = [
            {**block, "input": {"city": "Lyon"}} if block["type"] == "tool_use" else block
            for block in answer["content"]
        ]
        history = [*messages, {"role": "assistant", "content": edited}, _result(answer["content"])]
        fake.reply(vllm_generated(_ids("It is sunny.<|im_end|>")))
        _posted(origin, "/v1/messages", {**_body(history), "system": "Be brief."})
    second = _lines(recorded)[1]
    assert second["prompt_break"].startswith("the answer sent back at $.messages[1] is not the one sampled")
    assert "($.messages[1].content[1].arguments)" in second["prompt_break"]  # the field as chatcodec names it


def test_a_chat_client_dropping_reasoning_content_is_named_as_the_cause(fake: FakeUpstream, recorded: Path) -> None:
    """The issue's case: an OpenAI Chat client sends the answer back without ``reasoning_content``;
    under stock Qwen3 the break used to blame the template."""
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMA}}]
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    with _serving("openai-chat", fake, recorded) as origin:
        fake.reply(vllm_generated(_ids(_call("Paris"))))
        body = {"model": "qwen3", "max_tokens": 100, "messages": messages, "tools": tools}
        message = _posted(origin, "/v1/chat/completions", body)["choices"][0]["message"]
        assert message["reasoning_content"]  # the front answered the reasoning; the client leaves it out
        sent_back = {key: value for key, value in message.items() if key != "reasoning_content"}
        (call,) = message["tool_calls"]
        history = [*messages, sent_back, {"role": "tool", "tool_call_id": call["id"], "content": "sunny"}]
        fake.reply(vllm_generated(_ids("It is sunny.<|im_end|>")))
        _posted(origin, "/v1/chat/completions", {**body, "messages": history})
    second = _lines(recorded)[1]
    assert second["prompt_break"] == (
        "the answer sent back at $.messages[1] is not the one sampled: its reasoning dropped ($.messages[1]); "
        "sampled at turn 0"
    )
