"""render over generated conversations and five families (issue 97's fuzzing): no foreign
exception, only chatcodec's, and no text dropped without a loss at its message."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from chatcodec import ChatcodecError, Loss, render
from training.qwen3_tokenizer import qwen3_encoding

FAMILIES = ("qwen3", "qwen3.6", "deepseek-v3", "glm-4.5", "gpt-oss")
HOSTILE = ("", " ", "<think>x</think>", "</think>", "<|im_end|>", '{"a": 1}', "\ud800", "é\u0000\n", "{{ 1/0 }}")


class _Conversations:
    """Conversations from one seed, each text part holding a sentinel naming its place."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def text(self, place: str) -> str:
        return f"{self.random.choice(HOSTILE)} S{place}S {self.random.choice(HOSTILE)}"

    def arguments(self, place: str) -> str:
        shapes = [
            "not json",
            '{"a":' * 300 + "1" + "}" * 300,
            json.dumps({"n": 2**70, "f": 1e308, "s": self.text(place)}),
            json.dumps({"q": self.text(place)}),
        ]
        return self.random.choice(shapes)

    def assistant(self, index: int) -> dict[str, Any]:
        parts: list[dict[str, Any]] = []
        for position in range(self.random.randint(1, 3)):
            place = f"{index}_{position}"
            kind = self.random.choice(["text", "thinking", "tool_use"])
            if kind == "tool_use":
                parts.append({"type": "tool_use", "id": f"c{index}", "name": "f", "arguments": self.arguments(place)})
            else:
                parts.append({"type": kind, "text": self.text(place)})
        return {"role": "assistant", "content": parts}

    def conversation(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        for index in range(self.random.randint(1, 5)):
            role = self.random.choice(["user", "assistant", "tool", "system"])
            if role == "assistant":
                messages.append(self.assistant(index))
            elif role == "tool":
                result = {"type": "tool_result", "tool_use_id": f"c{index - 1}", "content": self.text(f"{index}_0")}
                messages.append({"role": "tool", "content": [result]})
            else:
                messages.append({"role": role, "content": self.text(f"{index}_0")})
        messages.append({"role": "assistant", "content": self.text(f"{len(messages)}_0")})
        return messages


def _unreported(messages: list[dict[str, Any]], text: str, losses: list[Loss]) -> list[str]:
    """The sentinels neither rendered nor covered by a loss at their message."""
    missing: list[str] = []
    for index, message in enumerate(messages):
        for sentinel in _sentinels(json.dumps(message)):
            if sentinel not in text and not any(loss.path.startswith(f"$.messages[{index}]") for loss in losses):
                missing.append(sentinel)
    return missing


def _sentinels(dumped: str) -> list[str]:
    words = dumped.replace('"', " ").replace("\\", " ").split()
    return [word for word in words if word.startswith("S") and word.endswith("S") and "_" in word]


@pytest.mark.parametrize("seed", range(4))
def test_render_raises_only_chatcodec_errors_and_drops_nothing_unreported(seed: int) -> None:
    conversations = _Conversations(seed)
    rendered = 0
    for case in range(30):
        messages = conversations.conversation()
        family = FAMILIES[case % len(FAMILIES)]
        tokenizer = qwen3_encoding() if family.startswith("qwen3") and case % 2 else None
        losses: list[Loss] = []
        try:
            rendering = render(messages, template=family, tokenizer=tokenizer, on_loss="ignore", losses=losses)
        except ChatcodecError:
            continue  # a refusal in chatcodec's words, with its path and rule
        rendered += 1
        assert _unreported(messages, rendering.text, losses) == [], (family, messages)
    assert rendered >= 5  # the generator makes conversations the templates take, not only refusals
