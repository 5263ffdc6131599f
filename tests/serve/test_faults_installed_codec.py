"""A fault of the gateway's machine, not of its upstream: hostile codec distributions installed
beside chatcodec (issue 77). ``chatcodec serve`` in a fresh process, with three of them on its
path (one ends the process on import, one whose ``edge`` raises, one named like the built-in
``anthropic``), starts, answers ``/health`` and carries a request from the Anthropic SDK to a
fake OpenAI upstream, without a word about any of them: serving built-in formats never reads
the ``chatcodec.codecs`` entry points."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anthropic
import httpx
import pytest

from serve.harness import FakeUpstream

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("fresh_fake")

_HOSTILE = {
    "chatcodec_exits": ("exits", "raise SystemExit(3)\n"),
    "chatcodec_edge": (
        "edgy",
        "class Codec:\n    name = 'edgy'\n    decode_request = None\n"
        "    @property\n    def edge(self):\n        raise RuntimeError('edge exploded')\nCODEC = Codec()\n",
    ),
    "chatcodec_impostor": ("anthropic", "raise RuntimeError('imported')\n"),
}
"""Distribution -> (the entry point's name, its module's source)."""


def _hostile_site(root: Path) -> Path:
    site = root / "site"
    site.mkdir()
    for distribution, (entry, source) in _HOSTILE.items():
        (site / f"{distribution}_codec.py").write_text(source, encoding="utf-8")
        info = site / f"{distribution}-0.1.dist-info"
        info.mkdir()
        metadata = f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n"
        (info / "METADATA").write_text(metadata, encoding="utf-8")
        declared = f"[chatcodec.codecs]\n{entry} = {distribution}_codec:CODEC\n"
        (info / "entry_points.txt").write_text(declared, encoding="utf-8")
    return site


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_serve_starts_and_answers_beside_hostile_installed_codecs(fake: FakeUpstream, tmp_path: Path) -> None:
    site = _hostile_site(tmp_path)
    port = _free_port()
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src"), *sys.path])}
    command = [sys.executable, "-m", "chatcodec", "serve", "--api", "anthropic", "--upstream", "openai-chat"]
    process = subprocess.Popen(
        [*command, "--upstream-url", f"{fake.base}/v1", "--port", str(port)],
        env=environment,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()
        assert banner.startswith(f"chatcodec serve: anthropic API on http://127.0.0.1:{port}"), (
            banner + process.communicate(timeout=30)[1]
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        assert health.status_code == 200
        fake.reply(
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 1,
                "model": "gpt-4o",
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": "Hi there"}, "finish_reason": "stop"}
                ],
                "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
            }
        )
        client = anthropic.Anthropic(base_url=f"http://127.0.0.1:{port}", api_key="sk-caller", max_retries=0)
        message = client.messages.create(model="gpt-4o", max_tokens=16, messages=[{"role": "user", "content": "Hello"}])
        (block,) = message.content
        assert isinstance(block, anthropic.types.TextBlock)
        assert block.text == "Hi there"
        assert fake.last.body["messages"] == [{"role": "user", "content": "Hello"}]
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    for name in ("chatcodec_exits", "chatcodec_edge", "chatcodec_impostor"):
        assert name not in errors  # never read, so never warned about
