"""The Anthropic front of a token upstream (``--upstream vllm-generate``) answering reasoning
its own model sampled: no signature ever existed, so none is lost.

Anthropic's ``thinking`` block requires a ``signature``. A conversion of unsigned reasoning to
an Anthropic response reports one ("none was given, sent ''"): its reader may replay the block
to Anthropic, which verifies it. The gateway's answer goes to a harness that sends it back to
the gateway, which renders the reasoning's text with the template and verifies nothing: the
front writes ``""`` (its edge's ``own_reasoning_signature``) and reports nothing, and the
rendering of the block sent back with ``""`` reports nothing either (an empty signature holds
nothing a template could drop). A noise loss on every turn with reasoning would hide the real
ones in ``chatcodec-losses`` and the request log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec._registry import get_edge
from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, serving_config, serving_fake
from serve.test_token_upstreams import vllm_generated
from training.qwen3_tokenizer import qwen3_encoding

SESSION = {"x-chatcodec-session": "episode-signature"}
THOUGHT = "<think>\nThe user wants a greeting.\n</think>\n\nHello!<|im_end|>"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _serving(fake: FakeUpstream, tmp_path: Path) -> Any:
    fake.replies.clear()
    config = ServeConfig(
        api="anthropic",
        upstream="vllm-generate",
        upstream_url=fake.base,
        template="qwen3-training",  # the earlier reasoning rendered at a new question (stock Qwen3 drops it, a loss)
        record=str(tmp_path / "turns.jsonl"),
        allow_anonymous=True,
    )
    return serving_config(config, tokenizer=qwen3_encoding())


def _body(messages: list[Any], *, stream: bool = False) -> dict[str, Any]:
    return {"model": "qwen3", "max_tokens": 100, "messages": messages, "stream": stream}


def _streamed_blocks(text: str) -> list[dict[str, Any]]:
    """The content blocks a streamed answer opens, with their deltas' signatures."""
    blocks: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.startswith("data: "):
            continue
        event = json.loads(line.removeprefix("data: "))
        if event["type"] == "content_block_start":
            blocks.append(dict(event["content_block"]))
        elif event["type"] == "content_block_delta" and event["delta"]["type"] == "signature_delta":
            blocks[-1]["signature"] += event["delta"]["signature"]
    return blocks


def test_the_gateway_s_own_reasoning_is_written_unsigned_without_a_loss(fake: FakeUpstream, tmp_path: Path) -> None:
    messages: list[Any] = [{"role": "user", "content": "Say hello."}]
    with _serving(fake, tmp_path) as origin:
        fake.reply(vllm_generated(_ids(THOUGHT)))
        first = httpx.post(f"{origin}/v1/messages", json=_body(messages), headers=SESSION, timeout=30)
        assert first.status_code == 200, first.text
        content = first.json()["content"]
        assert content[0] == {"type": "thinking", "thinking": "The user wants a greeting.", "signature": ""}
        assert "chatcodec-losses" not in first.headers  # nothing was signed, so nothing is lost
        # the harness sends the block back with its empty signature: the template renders the
        # reasoning's text, and an empty signature is nothing a rendering drops
        history = [*messages, {"role": "assistant", "content": content}, {"role": "user", "content": "Again."}]
        fake.reply(vllm_generated(_ids(THOUGHT)))
        second = httpx.post(f"{origin}/v1/messages", json=_body(history), headers=SESSION, timeout=30)
        assert second.status_code == 200, second.text
        assert "chatcodec-losses" not in second.headers
        fake.reply(vllm_generated(_ids(THOUGHT)))
        streamed = httpx.post(f"{origin}/v1/messages", json=_body(history, stream=True), headers=SESSION, timeout=30)
        assert streamed.status_code == 200, streamed.text
    thinking, text = _streamed_blocks(streamed.text)  # the replayed stream writes the same block
    assert thinking == {"type": "thinking", "thinking": "", "signature": ""}
    assert text["type"] == "text"


def test_a_conversion_of_unsigned_reasoning_to_anthropic_still_reports_it() -> None:
    """Outside the gateway nothing says where the block goes next: ``parse_completion``'s answer
    written as an Anthropic response is a loss naming the signature."""
    message = chatcodec.parse_completion(_ids(THOUGHT), template="qwen3", tokenizer=qwen3_encoding())
    response = {
        "id": "answer-1",
        "model": "qwen3",
        "created": 0,
        "choices": [
            {
                "index": 0,
                "message": message.model_dump(mode="json", exclude_none=True),
                "finish_reason": {"unified": "stop", "raw": "stop"},
            }
        ],
        "usage": {"input_tokens": 3, "output_tokens": 9},
    }
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_response(
        response, source="canonical", target="anthropic", on_loss="ignore", losses=losses
    )
    assert written["content"][0]["signature"] == ""
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.choices[0].message.content[0].signature", "thinking signature")
    ]


def test_a_signature_held_is_still_a_loss_in_a_rendering() -> None:
    """Only an empty signature is nothing: Claude's real one is dropped by a template, and said."""
    conversation = [
        {"role": "user", "content": "Say hello."},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "A greeting.", "signature": "EqQB"},
                {"type": "text", "text": "Hello!"},
            ],
        },
        {"role": "user", "content": "Again."},
    ]
    losses: list[chatcodec.Loss] = []
    chatcodec.render(
        {"model": "m", "max_tokens": 9, "messages": conversation},
        source="anthropic",
        template="qwen3-training",
        on_loss="ignore",
        losses=losses,
    )
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].content[0]", "thinking signature")]
    losses.clear()
    conversation[1]["content"][0]["signature"] = ""
    chatcodec.render(
        {"model": "m", "max_tokens": 9, "messages": conversation},
        source="anthropic",
        template="qwen3-training",
        on_loss="ignore",
        losses=losses,
    )
    assert losses == []


def test_the_anthropic_edge_says_what_it_writes_on_reasoning_no_one_signed() -> None:
    front = get_edge("anthropic").front
    assert front is not None
    assert front.own_reasoning_signature == ""
    chat = get_edge("openai-chat").front
    assert chat is not None
    assert chat.own_reasoning_signature is None  # its reasoning_content carries no signature field
