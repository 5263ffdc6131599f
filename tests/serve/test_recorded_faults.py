"""Issue 105's writer faults, held out: ``chatcodec serve --record`` writes only lines
:func:`chatcodec.read_records` reads. An inference server answering ids that are no ids
(missing, ``null``, floats, negative, 2**64, past the tokenizer's vocabulary) or fewer
logprobs than ids never gets a ``complete`` line: the turn is an ``error`` line saying what
was wrong, or, where only the logprobs are unreadable, a complete line with ``null`` logprobs.

Where chatcodec renders (``--upstream vllm-generate``) the answer is parsed from those ids, so
an id it cannot decode is the caller's 502 in its own API's error shape, never a 500. Where
the server renders (``--option server=vllm``) the answer is the server's own text: it is
delivered, and only the record says the ids were unreadable.

The fakes answer in vLLM's shapes (``GenerateResponse`` of
``vllm/entrypoints/serve/disagg/protocol.py``, ``ChatCompletionResponse`` with
``return_token_ids``) with real Qwen3 ids; each fault is one field of such an answer changed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, proxy, serving_config, serving_fake
from serve.test_token_upstreams import vllm_generated
from serve.test_turn_records import vllm_answer, vllm_stream
from training.qwen3_tokenizer import qwen3_encoding, qwen3_prompt_ids

SESSION = {"x-chatcodec-session": "faults-1"}
QUESTION: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
ANTHROPIC_BODY = {"model": "qwen3", "max_tokens": 50, "messages": QUESTION}
CHAT_BODY = {"model": "qwen3", "max_tokens": 50, "messages": QUESTION}
TEXT = "It is sunny.<|im_end|>"
THREE = "Yes.<|im_end|>"
"""Three ids: ``Yes``, ``.``, ``<|im_end|>``."""
VOCABULARY = 151_669
"""Qwen3's tokenizer: 151,643 merges and 26 special tokens (``qwen3_tokenizer``)."""

ABSENT = object()
BAD_IDS: dict[str, tuple[object, str]] = {
    "missing": (ABSENT, "absent"),
    "null": (None, "null"),
    "floats": ([2132.0, 374.0], "[2132.0, 374.0]"),
    "negative": ([-1, 2132], "[0]: a token id is from 0 to 2**63-1 (a trainer's int64), not -1"),
    "2**64": ([2**64, 2132], "[0]: a token id is from 0 to 2**63-1 (a trainer's int64), not 18446744073709551616"),
    "past the vocabulary": ([VOCABULARY, 2132], f"[0]: {VOCABULARY} is past the tokenizer's vocabulary of 151,669 ids"),
}
"""Each fault: the ``token_ids`` the server answers, and what the gateway says of them."""
RENDERED_SAYS = {
    "missing": "choices[0].token_ids is absent: the sampled token ids are a list of integers",
    "null": "choices[0].token_ids: token ids are a list of integers, not null",
    "floats": "choices[0].token_ids[0]: a token id is an integer, not 2132.0",
    **{fault: "choices[0].token_ids" + BAD_IDS[fault][1] for fault in ("negative", "2**64", "past the vocabulary")},
}
"""What the gateway that renders says of each (the one id rule, at the item that breaks it)."""
KNOWN_WITHOUT_A_TOKENIZER = [fault for fault in BAD_IDS if fault != "past the vocabulary"]
"""Where the server renders, the gateway holds no tokenizer: the vocabulary is the server's to know."""


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _with_token_ids(answer: dict[str, Any], ids: object) -> dict[str, Any]:
    changed = copy.deepcopy(answer)
    if ids is ABSENT:
        del changed["choices"][0]["token_ids"]
    else:
        changed["choices"][0]["token_ids"] = ids
    return changed


def _one_logprob(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with the first of its logprobs only (3 ids, 1 logprob)."""
    changed = copy.deepcopy(answer)
    content = changed["choices"][0]["logprobs"]["content"]
    changed["choices"][0]["logprobs"]["content"] = content[:1]
    return changed


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _read_whole(path: Path) -> tuple[dict[str, list[chatcodec.SampledTurn]], list[chatcodec.Loss]]:
    """The file read by ``read_records`` (a refused line would raise), and its losses."""
    losses: list[chatcodec.Loss] = []
    return chatcodec.read_records(path, on_loss="ignore", losses=losses), losses


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture
def generate(fake: FakeUpstream, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A gateway that renders with Qwen3 and calls vLLM's token endpoint, the anthropic front."""
    fake.replies.clear()
    recorded = tmp_path / "turns.jsonl"
    config = ServeConfig(
        api="anthropic",
        upstream="vllm-generate",
        upstream_url=fake.base,
        template="qwen3",
        record=str(recorded),
        allow_anonymous=True,
    )
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        yield origin, recorded


@pytest.fixture
def server_renders(fake: FakeUpstream, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A gateway in front of vLLM's chat completions, asked for its ids, the anthropic front."""
    fake.replies.clear()
    recorded = tmp_path / "turns.jsonl"
    settings: dict[str, Any] = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **settings) as origin:
        yield origin, recorded


@pytest.mark.parametrize("fault", BAD_IDS)
def test_chatcodec_renders_an_answer_of_no_ids_is_a_502_and_an_error_line(
    fake: FakeUpstream, generate: tuple[str, Path], fault: str
) -> None:
    origin, recorded = generate
    fake.reply(_with_token_ids(vllm_generated(_ids(TEXT)), BAD_IDS[fault][0]))
    answer = httpx.post(f"{origin}/v1/messages", json=ANTHROPIC_BODY, headers=SESSION)
    assert answer.status_code == 502
    body = answer.json()
    assert (body["type"], body["error"]["type"]) == ("error", "api_error")  # the Anthropic shape
    message = body["error"]["message"]
    assert message == f"the vllm-generate upstream's answer cannot be read: {RENDERED_SAYS[fault]}"
    (line,) = _lines(recorded)
    assert (line["status"], line["error"]) == ("error", message)
    assert line["prompt_ids"] == fake.last.body["token_ids"]
    episodes, losses = _read_whole(recorded)
    assert episodes == {}
    assert [loss.what for loss in losses] == ["error turn 0 of 'faults-1'"]


def test_chatcodec_renders_an_id_past_the_vocabulary_is_a_502_in_the_chat_front_s_shape(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    fake.replies.clear()
    recorded = tmp_path / "turns.jsonl"
    config = ServeConfig(
        api="openai-chat",
        upstream="sglang-generate",
        upstream_url=fake.base,
        template="qwen3",
        record=str(recorded),
        allow_anonymous=True,
    )
    meta = {"id": "s1", "finish_reason": {"type": "stop"}, "output_token_logprobs": [[-0.5, 999_999, None]]}
    fake.reply({"text": "", "output_ids": [999_999], "meta_info": meta})
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=CHAT_BODY, headers=SESSION)
    assert answer.status_code == 502
    error = answer.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}  # OpenAI's shape
    assert error["message"] == (
        "the sglang-generate upstream's answer cannot be read: output_ids[0]: "
        "999999 is past the tokenizer's vocabulary of 151,669 ids"
    )
    (line,) = _lines(recorded)
    assert (line["status"], line["completion_ids"]) == ("error", [999_999])
    assert _read_whole(recorded)[0] == {}


def test_chatcodec_renders_three_ids_and_one_logprob_record_the_ids_and_null_logprobs(
    fake: FakeUpstream, generate: tuple[str, Path]
) -> None:
    origin, recorded = generate
    completion = _ids(THREE)
    assert len(completion) == 3
    fake.reply(_one_logprob(vllm_generated(completion)))
    answer = httpx.post(f"{origin}/v1/messages", json=ANTHROPIC_BODY, headers=SESSION)
    assert answer.status_code == 200
    assert answer.json()["content"] == [{"type": "text", "text": "Yes."}]
    (line,) = _lines(recorded)
    assert (line["status"], line["completion_ids"], line["logprobs"]) == ("complete", completion, None)
    episodes, losses = _read_whole(recorded)
    (turn,) = episodes["faults-1"]
    assert (turn.completion_ids, turn.logprobs, losses) == (completion, None, [])


def test_chatcodec_renders_an_empty_completion_is_answered_and_recorded_as_an_error(
    fake: FakeUpstream, generate: tuple[str, Path]
) -> None:
    origin, recorded = generate
    fake.reply(vllm_generated([]))
    answer = httpx.post(f"{origin}/v1/messages", json=ANTHROPIC_BODY, headers=SESSION)
    assert answer.status_code == 200
    (line,) = _lines(recorded)
    assert (line["status"], line["error"]) == ("error", "the vllm-generate upstream's answer carried no completion ids")


@pytest.mark.parametrize("fault", KNOWN_WITHOUT_A_TOKENIZER)
def test_server_renders_an_answer_of_no_ids_is_delivered_and_recorded_as_an_error(
    fake: FakeUpstream, server_renders: tuple[str, Path], fault: str
) -> None:
    origin, recorded = server_renders
    ids, said = BAD_IDS[fault]
    prompt, completion = qwen3_prompt_ids(QUESTION, []), _ids(TEXT)
    fake.reply(_with_token_ids(vllm_answer(prompt, completion, {"content": "It is sunny."}, "stop"), ids))
    answer = httpx.post(f"{origin}/v1/messages", json=ANTHROPIC_BODY, headers=SESSION)
    assert answer.status_code == 200  # the server's own text: the caller gets it
    assert answer.json()["content"] == [{"type": "text", "text": "It is sunny."}]
    assert "token_ids" not in answer.text
    (line,) = _lines(recorded)
    assert line["status"] == "error"
    if fault in {"missing", "null"}:
        assert line["error"] == "the openai-chat upstream's answer carried no completion ids"
    elif fault == "floats":
        assert line["error"] == (
            "the openai-chat upstream's answer held no token ids where they belong: choices[0].token_ids is " + said
        )
    else:
        assert line["error"] == "the openai-chat upstream's answer's completion_ids" + said
    episodes, losses = _read_whole(recorded)
    assert episodes == {}
    assert [loss.what for loss in losses] == ["error turn 0 of 'faults-1'"]


def test_server_renders_unreadable_prompt_ids_are_an_error_line(
    fake: FakeUpstream, server_renders: tuple[str, Path]
) -> None:
    origin, recorded = server_renders
    prompt, completion = qwen3_prompt_ids(QUESTION, []), _ids(TEXT)
    answer = vllm_answer(prompt, completion, {"content": "It is sunny."}, "stop")
    answer["prompt_token_ids"] = ["151644", *prompt]
    fake.reply(answer)
    assert httpx.post(f"{origin}/v1/messages", json=ANTHROPIC_BODY, headers=SESSION).status_code == 200
    (line,) = _lines(recorded)
    assert line["status"] == "error"
    assert line["error"].startswith(
        'the openai-chat upstream\'s answer held no token ids where they belong: prompt_token_ids is ["151644"'
    )
    assert _read_whole(recorded)[0] == {}


def test_server_renders_three_ids_and_one_logprob_record_the_ids_and_null_logprobs(
    fake: FakeUpstream, server_renders: tuple[str, Path]
) -> None:
    origin, recorded = server_renders
    prompt, completion = qwen3_prompt_ids(QUESTION, []), _ids(THREE)
    assert len(completion) == 3
    fake.reply(_one_logprob(vllm_answer(prompt, completion, {"content": "Yes."}, "stop")))
    assert httpx.post(f"{origin}/v1/messages", json=ANTHROPIC_BODY, headers=SESSION).status_code == 200
    (line,) = _lines(recorded)
    assert (line["status"], line["logprobs"]) == ("complete", None)
    (turn,) = _read_whole(recorded)[0]["faults-1"]
    assert (turn.prompt_ids, turn.completion_ids, turn.logprobs) == (prompt, completion, None)


def test_server_renders_an_infinite_logprob_is_recorded_as_null_logprobs(
    fake: FakeUpstream, server_renders: tuple[str, Path]
) -> None:
    """Python's ``json`` writes ``-Infinity``, which JSON cannot hold: a writer that kept it
    would write ``null`` in its place, and the reader refuse the whole file there."""
    origin, recorded = server_renders
    prompt, completion = qwen3_prompt_ids(QUESTION, []), _ids(TEXT)
    answer = vllm_answer(prompt, completion, {"content": "It is sunny."}, "stop")
    answer["choices"][0]["logprobs"]["content"][1]["logprob"] = float("-inf")
    assert b"-Infinity" in json.dumps(answer).encode()
    fake.reply(json.dumps(answer).encode())
    reply = httpx.post(f"{origin}/v1/messages", json=ANTHROPIC_BODY, headers=SESSION)
    assert reply.status_code == 200  # an upstream's answer is read as it came (Infinity allowed)
    (line,) = _lines(recorded)
    assert (line["status"], line["logprobs"]) == ("complete", None)
    (turn,) = _read_whole(recorded)[0]["faults-1"]
    assert (turn.completion_ids, turn.logprobs) == (completion, None)


def test_server_renders_a_stream_chunk_of_float_ids_makes_the_turn_an_error(
    fake: FakeUpstream, server_renders: tuple[str, Path]
) -> None:
    origin, recorded = server_renders
    prompt, completion = qwen3_prompt_ids(QUESTION, []), _ids(TEXT)
    stream = vllm_stream(prompt, completion, "It is sunny.", "stop").decode()
    first_ids = json.dumps(completion[: len(completion) // 2])
    floats = json.dumps([float(token) for token in completion[: len(completion) // 2]])
    assert stream.count(f'"token_ids": {first_ids}') == 1
    fake.reply(
        stream.replace(f'"token_ids": {first_ids}', f'"token_ids": {floats}').encode(), content_type="text/event-stream"
    )
    with httpx.stream(
        "POST", f"{origin}/v1/messages", json={**ANTHROPIC_BODY, "stream": True}, headers=SESSION
    ) as reply:
        text = "".join(reply.iter_text())
    assert "message_stop" in text
    (line,) = _lines(recorded)
    assert line["status"] == "error"
    assert "choices[0].token_ids is [" in line["error"]
    assert _read_whole(recorded)[0] == {}


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("completion_ids", [-1], "completion_ids[0]"),
        ("completion_ids", [2**64], "completion_ids[0]"),
        ("prompt_ids", [1, 2.0], "prompt_ids[1]"),
        ("completion_ids", [True], "completion_ids[0]"),
    ],
)
def test_the_reader_refuses_a_complete_line_of_no_ids_by_the_writer_s_rule(
    tmp_path: Path, field: str, value: list[Any], where: str
) -> None:
    line: dict[str, Any] = {
        "record": 1,
        "session": "s",
        "turn": 0,
        "status": "complete",
        "messages": [],
        "prompt_ids": [1],
        "completion_ids": [2],
        "logprobs": None,
        field: value,
    }
    path = tmp_path / "turns.jsonl"
    path.write_text(json.dumps(line) + "\n")
    losses: list[chatcodec.Loss] = []
    assert chatcodec.read_records(path, on_loss="ignore", losses=losses) == {"s": []}  # the line is a loss, not a turn
    (loss,) = losses
    assert loss.path == f"line 1.{where}"
    assert "a complete turn's ids are token ids" in loss.why


def test_the_reader_refuses_an_infinite_logprob(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    line: dict[str, Any] = {"record": 1, "session": "s", "turn": 0, "status": "complete", "messages": []}
    path.write_text(json.dumps({**line, "prompt_ids": [1], "completion_ids": [2], "logprobs": [float("-inf")]}) + "\n")
    losses: list[chatcodec.Loss] = []
    assert chatcodec.read_records(path, on_loss="ignore", losses=losses) == {"s": []}
    (loss,) = losses
    assert loss.path == "line 1.logprobs"
    assert "logprobs[0] is -inf" in loss.why


def test_parse_completion_names_an_id_its_tokenizer_does_not_know() -> None:
    """The library's own reading of ids: a clear error at the id, never tiktoken's KeyError or OverflowError."""
    for ids, rule in (
        ([2132, VOCABULARY], "past the tokenizer's vocabulary"),
        ([-3], "from 0 to 2**63-1"),
        ([2**64], "from 0 to 2**63-1"),
    ):
        with pytest.raises(chatcodec.PayloadError, match=r"at \$\.completion\[\d\]") as raised:
            chatcodec.parse_completion(ids, template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")
        assert rule in str(raised.value)


@pytest.mark.parametrize(
    ("api", "path", "body"),
    [
        ("openai-responses", "/v1/responses", {"model": "qwen3", "input": QUESTION}),
        ("openai-chat", "/v1/chat/completions", {**CHAT_BODY, "stream": True}),
        ("anthropic", "/v1/messages", {**ANTHROPIC_BODY, "stream": True}),
    ],
)
def test_chatcodec_renders_a_negative_id_is_a_502_in_each_front_s_shape_streamed_or_not(
    fake: FakeUpstream, tmp_path: Path, api: str, path: str, body: dict[str, Any]
) -> None:
    """The completion is parsed whole before a word is answered, so a streamed call gets the
    same 502 as a plain one, before its stream begins."""
    fake.replies.clear()
    recorded = tmp_path / "turns.jsonl"
    config = ServeConfig(
        api=api,
        upstream="vllm-generate",
        upstream_url=fake.base,
        template="qwen3",
        record=str(recorded),
        allow_anonymous=True,
    )
    fake.reply(vllm_generated([-1, *_ids(TEXT)]))
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        answer = httpx.post(f"{origin}{path}", json=body, headers=SESSION)
    assert answer.status_code == 502
    assert answer.headers["content-type"] == "application/json"
    error = answer.json()["error"]
    if api == "anthropic":
        assert error["type"] == "api_error"
    else:
        assert set(error) == {"message", "type", "param", "code"}
    said = "choices[0].token_ids[0]: a token id is from 0 to 2**63-1 (a trainer's int64), not -1"
    assert error["message"] == f"the vllm-generate upstream's answer cannot be read: {said}"
    (line,) = _lines(recorded)
    assert line["status"] == "error"
    assert _read_whole(recorded)[0] == {}
