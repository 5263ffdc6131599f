"""``chatcodec serve``'s start-up line is printed once its socket listens: a script that waits
for the line and connects at once is answered (it was printed seconds before the port took a
connection, the codecs warmed up and the store opened in between), and with ``--port 0`` the
line names the port the system chose."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import anthropic
import httpx
import pytest

from serve.harness import FakeUpstream

pytestmark = pytest.mark.usefixtures("fresh_fake")

ROOT = Path(__file__).resolve().parents[2]
ANSWER = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "m",
    "content": [{"type": "text", "text": "Hello."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 3, "output_tokens": 2},
}


def test_the_startup_line_comes_once_the_port_answers_and_names_the_chosen_port(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *sys.path])}
    command = [sys.executable, "-m", "chatcodec", "serve", "--api", "anthropic", "--upstream", "anthropic"]
    process = subprocess.Popen(
        [*command, "--upstream-url", fake.base, "--port", "0", "--store", f"sqlite:{tmp_path / 'answers.db'}"],
        env=environment,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.match(r"chatcodec serve: anthropic API on http://127\.0\.0\.1:(\d+), \* -> anthropic at ", line)
        assert found is not None, line + process.communicate(timeout=30)[1]
        origin = f"http://127.0.0.1:{found.group(1)}"
        live = httpx.get(f"{origin}/health/live", timeout=10)  # at once, no second try
        fake.reply(ANSWER)
        with anthropic.Anthropic(base_url=origin, api_key="sk-caller", max_retries=0) as claude:
            message = claude.messages.create(model="m", max_tokens=16, messages=[{"role": "user", "content": "Hi"}])
        keys = process.stdout.readline()
    finally:
        process.terminate()
        process.communicate(timeout=30)
    assert found.group(1) != "0"
    assert live.status_code == 200
    assert message.content == [anthropic.types.TextBlock(type="text", text="Hello.", citations=None)]
    assert keys == "chatcodec serve: no --client-key: callers' own keys go upstream\n"
