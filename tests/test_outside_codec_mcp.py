"""The outside codec of ``examples/mcp-sampling-codec``, used from its installed wheel.

``make test`` builds the distribution as a wheel and installs it into ``build/examples/site``
(the Makefile's ``$(VENV)/.installed-examples``); each test here runs a fresh process with that
site on its path, so the codec is found only by its ``chatcodec.codecs`` entry point (no
``register_codec`` call) and its law facts only by its ``chatcodec.laws`` one. The request and
result bodies are the MCP specification's own examples (2025-11-25, client/sampling),
shipped in the wheel's ``fixtures/`` with their provenance.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "build" / "examples" / "site"
PACKAGE = ROOT / "examples" / "mcp-sampling-codec" / "src" / "chatcodec_mcp_sampling"
FIXTURES = PACKAGE / "fixtures"
PUBLIC = ("chatcodec", "chatcodec.contract", "chatcodec.codec_kit", "chatcodec.options", "chatcodec.testing")
"""What the codec may import of chatcodec: the public modules only."""


def _run(*arguments: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    if not (SITE / "chatcodec_mcp_sampling").is_dir():
        pytest.fail("the example's wheel is not installed: run `make .venv/.installed-examples` (make test does)")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SITE), str(ROOT / "src")])}
    return subprocess.run(
        [sys.executable, *arguments],
        input=stdin,
        env=environment,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_check_codec_runs_at_least_100_laws_from_the_installed_wheel() -> None:
    result = _run("-m", "chatcodec", "check-codec", "mcp-sampling", timeout=900)
    last = result.stdout.strip().splitlines()[-1]
    found = re.fullmatch(r"laws: (\d+) passed, (\d+) failed", last)
    assert found is not None, result.stdout + result.stderr
    assert found.group(2) == "0", result.stdout
    assert int(found.group(1)) >= 100
    assert result.returncode == 0


def test_the_laws_read_the_codec_from_the_wheel_and_its_stated_facts() -> None:
    code = (
        "import chatcodec, chatcodec.testing as t\n"
        "cases = t.codec_law_cases('mcp-sampling')\n"
        "print(chatcodec.get_codec('mcp-sampling').decode_request.__module__)\n"
        "print(sum('recorded_request_round_trips_exactly' in case.id for case in cases))\n"
        "import chatcodec_mcp_sampling; print(chatcodec_mcp_sampling.__file__)\n"
    )
    result = _run("-c", code)
    assert result.returncode == 0, result.stderr
    _, recorded, where = result.stdout.splitlines()
    assert int(recorded) == len(list((FIXTURES / "request").iterdir()))  # its own fixtures, stated by entry point
    assert Path(where).is_relative_to(SITE)  # the installed wheel, not the source tree


def test_convert_from_mcp_sampling_to_anthropic_in_a_fresh_process() -> None:
    body = (FIXTURES / "request" / "spec_basic_text.json").read_text(encoding="utf-8")
    result = _run("-m", "chatcodec", "convert", "-", "--from", "mcp-sampling", "--to", "anthropic", stdin=body)
    assert result.returncode == 0, result.stderr
    converted = json.loads(result.stdout)
    assert converted["system"] == "You are a helpful assistant."
    assert converted["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]}
    ]
    assert converted["max_tokens"] == 100
    assert converted["model"] == "claude-3-sonnet"  # the spec's model hint
    assert "modelPreferences" in result.stderr  # the priorities have no Anthropic field: reported


def test_a_call_shaped_block_inside_a_tool_result_is_kept_whole() -> None:
    """A tool result's content holds ``ContentBlock``s (2025-11-25 schema): a ``tool_use``
    block there is no call, kept whole as the other blocks are, and written back as it came
    (found by random draws of the refusal law: it was read as a call and failed on its
    missing ``id`` with a KeyError)."""
    body = json.loads((FIXTURES / "request" / "spec_tool_results.json").read_text(encoding="utf-8"))
    results = [block for message in body["messages"] for block in _blocks(message) if block["type"] == "tool_result"]
    results[0]["content"][0] = {"type": "tool_use", "text": "Weather in Paris"}
    code = (
        "import json, sys, chatcodec\n"
        "body = json.loads(sys.stdin.read())\n"
        "chatcodec.decode_request('mcp-sampling', body)\n"
        "back = chatcodec.convert_request(body, source='mcp-sampling', target='mcp-sampling')\n"
        "print(json.dumps(back == body))\n"
    )
    result = _run("-c", code, stdin=json.dumps(body))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "true"


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content: Any = message["content"]
    return cast("list[dict[str, Any]]", content) if isinstance(content, list) else [content]


def test_an_anthropic_answer_becomes_a_create_message_result() -> None:
    """The spec's tool-use result, from the same answer written by Anthropic."""
    answer = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-3-sonnet-20240307",
        "content": [
            {"type": "tool_use", "id": "call_abc123", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "call_def456", "name": "get_weather", "input": {"city": "London"}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 0, "output_tokens": 0},
    }
    result = _run(
        "-m", "chatcodec", "convert", "-", "--from", "anthropic", "--to", "mcp-sampling", "--kind", "response",
        stdin=json.dumps(answer),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    expected = json.loads((FIXTURES / "response" / "spec_tool_use.json").read_text(encoding="utf-8"))
    assert json.loads(result.stdout) == expected
    assert "response id (MCP sampling results have no id)" in result.stderr  # reported


def test_the_codec_imports_only_public_chatcodec_modules() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] == "chatcodec":
                    assert name in PUBLIC, f"{path.name} imports {name}"


_EVERY_BUILT_IN_RECORDING = """
import json, pathlib, warnings
import chatcodec
from chatcodec_mcp_sampling.laws import check_request, check_response

warnings.simplefilter("ignore")  # each conversion reports what MCP sampling cannot carry
failed, converted = [], 0
for provider in chatcodec.registered_providers():
    for kind, convert, check in (
        ("request", chatcodec.convert_request, check_request),
        ("response", chatcodec.convert_response, check_response),
    ):
        for path in sorted(pathlib.Path("tests/fixtures", provider, kind).glob("*.json")):
            if path.name.startswith("error_"):
                continue
            try:
                check(convert(json.loads(path.read_text()), source=provider, target="mcp-sampling", on_loss="ignore"))
            except Exception as error:
                failed.append(f"{path}: {type(error).__name__}: {error}")
            converted += 1
print(converted)
print("\\n".join(failed))
"""


def test_every_recorded_body_of_a_built_in_converts_to_a_body_the_sdk_takes() -> None:
    """The built-in providers' recordings (tests/fixtures), converted to MCP sampling: each
    result passes the SDK's types (mcp-types, the example's oracle), whatever was lost."""
    result = _run("-c", _EVERY_BUILT_IN_RECORDING, timeout=300)
    assert result.returncode == 0, result.stderr
    converted, *failed = result.stdout.splitlines()
    assert [line for line in failed if line] == []
    assert int(converted) >= 100


_SERVE = """
import json, sys
import anyio, httpx
from chatcodec.serve import ServeConfig, create_app

upstream, answer = sys.argv[1], json.loads(sys.argv[2])
sent = []


def reply(request: httpx.Request) -> httpx.Response:
    sent.append({"url": str(request.url), "body": json.loads(request.content)})
    return httpx.Response(200, json=answer)


async def main() -> None:
    config = ServeConfig(api="mcp-sampling", upstream=upstream, upstream_url="http://upstream.test",
                         model_map={"claude-3-sonnet": "claude-3-sonnet-20240307"}, allow_anonymous=True)
    async with httpx.AsyncClient(transport=httpx.MockTransport(reply)) as client:
        app = create_app(config, client=client)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://serve") as caller:
                result = await caller.post("/sampling/createMessage", json=json.load(sys.stdin))
    print(json.dumps({"status": result.status_code, "result": result.json(), "sent": sent}))


anyio.run(main)
"""
"""``chatcodec serve``'s app with ``--api mcp-sampling``, in a process that finds the codec by
its entry point only; the upstream is an httpx ``MockTransport`` answering ``argv[2]``."""

_ANSWERS = {
    "anthropic": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-3-sonnet-20240307",
        "content": [{"type": "text", "text": "The capital of France is Paris."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 20, "output_tokens": 8},
    },
    "openai-chat": {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "claude-3-sonnet-20240307",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "The capital of France is Paris."},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28},
    },
}
"""The upstream's answer to the spec's basic request, as each API writes it (Anthropic's
Messages API reference, OpenAI's chat completion object)."""


@pytest.mark.parametrize("upstream", sorted(_ANSWERS))
def test_serve_offers_mcp_sampling_with_no_registration_call(upstream: str) -> None:
    """The spec's basic request posted to ``/sampling/createMessage`` reaches the upstream in
    its API (model from the first hint, via ``model_map``), and the answer comes back as the
    spec's ``CreateMessageResult``."""
    body = (FIXTURES / "request" / "spec_basic_text.json").read_text(encoding="utf-8")
    result = _run("-c", _SERVE, upstream, json.dumps(_ANSWERS[upstream]), stdin=body)
    assert result.returncode == 0, result.stderr
    served = json.loads(result.stdout)
    assert served["status"] == 200, served
    expected = json.loads((FIXTURES / "response" / "spec_text_end_turn.json").read_text(encoding="utf-8"))
    assert served["result"] == expected
    [sent] = served["sent"]
    assert sent["body"]["model"] == "claude-3-sonnet-20240307"
    assert sent["body"]["max_tokens" if upstream == "anthropic" else "max_completion_tokens"] == 100
    if upstream == "anthropic":
        assert sent["url"] == "http://upstream.test/v1/messages"
        assert sent["body"]["system"] == "You are a helpful assistant."
    else:
        assert sent["url"] == "http://upstream.test/chat/completions"
        assert sent["body"]["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}


def test_the_cli_takes_mcp_sampling_as_an_api_and_lists_it() -> None:
    """``serve --api`` takes the installed codec by name, read only then (its ``--help`` lists
    the built-ins, so an installed codec that is slow or broken stops no help: issue 77), and
    ``chatcodec formats`` lists it with its distribution."""
    result = _run("-m", "chatcodec", "serve", "--api", "mcp-sampling", "--upstream", "anthropic")
    assert result.returncode != 0
    assert "--api" not in result.stderr  # taken: what stops the server is the missing upstream URL
    assert "--upstream-url" in result.stderr, result.stderr
    listed = _run("-m", "chatcodec", "formats")
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^mcp-sampling +installed by the distribution chatcodec-mcp-sampling", listed.stdout, re.M)
