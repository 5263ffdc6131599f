"""The Vercel AI SDK's ``openai.chat()`` itself, run in node, in a thinking + tool loop
through the OpenAI Chat front against Claude: ``generateText`` and ``streamText`` with one
tool (``js/clients/vercel_ai_sdk_loop.mjs``; the ``ai`` and ``@ai-sdk/openai`` packages are
``js/``'s pinned dev dependencies, installed by ``make js``). The SDK keeps no
``thinking_blocks``: the gateway puts the signed thinking back on its second request, so
Claude takes the tool result, and without a store the same loop reaches Claude without it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from serve.harness import FakeUpstream, proxy
from serve.test_clients_drop_thinking import UPSTREAM, _final_as_stream
from serve.test_thinking_tool_loop import FINAL, _check_anthropic, _queue_first

pytestmark = pytest.mark.usefixtures("fresh_fake")

JS = Path(__file__).resolve().parents[2] / "js"
SCRIPT = JS / "clients" / "vercel_ai_sdk_loop.mjs"


def _run_loop(origin: str, *, stream: bool) -> dict[str, Any]:
    if shutil.which("node") is None or not (JS / "node_modules" / "ai").is_dir():
        pytest.skip("node and js/'s packages (ai, @ai-sdk/openai) are not installed: make js")
    mode = "stream" if stream else "plain"
    done = subprocess.run(
        ["node", str(SCRIPT), origin, mode], capture_output=True, text=True, timeout=120, check=False, cwd=JS
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_the_vercel_ai_sdk_loop_gets_its_thinking_back(fake: FakeUpstream, stream: bool) -> None:
    _queue_first(fake, "anthropic", stream=stream)
    _final_as_stream(fake, stream=stream)
    with proxy("openai-chat", "anthropic", fake.base, model_map={"m": UPSTREAM}, store="memory") as origin:
        answer = _run_loop(origin, stream=stream)
    assert answer == {"text": FINAL, "steps": 2}
    assert len(fake.received) == 2
    assert _check_anthropic(fake.received[1].body) is None


@pytest.mark.parametrize(
    "settings", [{}, {"store": "memory", "keep_thinking": False}], ids=["no-store", "store-keeps-no-thinking"]
)
def test_without_kept_thinking_the_vercel_ai_sdk_loop_reaches_claude_without_it(
    fake: FakeUpstream, settings: dict[str, Any]
) -> None:
    _queue_first(fake, "anthropic", stream=False)
    _final_as_stream(fake, stream=False)
    with proxy("openai-chat", "anthropic", fake.base, model_map={"m": UPSTREAM}, **settings) as origin:
        _run_loop(origin, stream=False)
    refusal = _check_anthropic(fake.received[1].body)
    assert refusal is not None
    assert "Expected `thinking` or `redacted_thinking`" in refusal
