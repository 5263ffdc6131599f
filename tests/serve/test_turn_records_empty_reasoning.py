"""Stock Qwen3, an answer whose reasoning the model left empty (``<think>\\n\\n</think>\\n\\n``).

The parser leaves the empty reasoning out of the answer; the template writes an empty
``<think>`` block on an answer after the last question only while it is the last message
(``loop.last or reasoning_content``), so once a tool result or a question follows, the answer
renders without the block the model sampled. The next prompt cannot be the sampled ids
extended (the template's own rendering leaves the block out): it is a fresh rendering, and
the break says exactly that (the text left out, the empty reasoning), not the generic "drops
an earlier answer's reasoning", which names reasoning the answer never held.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serve.harness import FakeUpstream, serving_fake
from serve.test_token_upstreams import vllm_generated
from serve.test_turn_records_diverged import _rendered, _serving
from serve.test_turn_records_off_path import SESSION, _body, _lines, _result
from training.qwen3_tokenizer import qwen3_encoding

CALL = json.dumps({"name": "get_weather", "arguments": {"city": "Paris"}}, separators=(",", ":"))
EMPTY = "<think>\n\n</think>\n\n"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _posted(origin: str, body: dict[str, Any]) -> dict[str, Any]:
    reply = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION, timeout=30)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


@pytest.mark.parametrize("follow", ["a tool result", "a new question"])
def test_an_empty_reasoning_dropped_by_the_template_is_a_break_naming_it(
    fake: FakeUpstream, tmp_path: Path, follow: str
) -> None:
    recorded = tmp_path / "turns.jsonl"
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    with _serving(fake, recorded) as origin:
        fake.reply(vllm_generated(_ids(f"{EMPTY}Let me check.\n<tool_call>\n{CALL}\n</tool_call><|im_end|>")))
        answer = _posted(origin, _body(messages))
        assert [block["type"] for block in answer["content"]] == ["text", "tool_use"]  # the empty reasoning left out
        after = _result(answer["content"])
        if follow == "a new question":
            after = {"role": "user", "content": [*after["content"], {"type": "text", "text": "And Rome?"}]}
        history = [*messages, {"role": "assistant", "content": answer["content"]}, after]
        fake.reply(vllm_generated(_ids("It is sunny.<|im_end|>")))
        _posted(origin, _body(history))
        sent: list[int] = fake.last.body["token_ids"]
    assert sent == _rendered(history)  # the template's rendering: the sampled empty block is not in it
    assert EMPTY not in qwen3_encoding().decode(sent)
    second = _lines(recorded)[1]
    assert second["prompt_break"] == (
        "the template renders the earlier answer differently once newer messages follow it ($.messages[1]: "
        "it leaves out '<think>\\n\\n</think>\\n\\n', the answer's reasoning as sampled, empty: the template "
        "writes an empty reasoning block only on the last message)"
    )


def test_an_answer_with_reasoning_at_a_new_question_names_the_reasoning_dropped(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    """The control: reasoning the answer holds, dropped by stock Qwen3 at a new question."""
    recorded = tmp_path / "turns.jsonl"
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    with _serving(fake, recorded) as origin:
        fake.reply(vllm_generated(_ids("<think>\nI know it.\n</think>\n\nSunny.<|im_end|>")))
        answer = _posted(origin, _body(messages))
        history = [*messages, {"role": "assistant", "content": answer["content"]}, {"role": "user", "content": "Rome?"}]
        fake.reply(vllm_generated(_ids("Rainy.<|im_end|>")))
        _posted(origin, _body(history))
    second = _lines(recorded)[1]
    assert second["prompt_break"] == (
        "the template renders the earlier answer differently once newer messages follow it ($.messages[1]: "
        "it leaves out '<think>\\nI know it.\\n</think>\\n\\n', the answer's reasoning: "
        "stock Qwen3 drops an earlier answer's reasoning at a new question)"
    )
