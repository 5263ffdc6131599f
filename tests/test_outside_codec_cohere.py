"""The outside codec of ``examples/cohere-chat-codec``, used from its installed wheel.

``make test`` builds the distribution as a wheel and installs it into ``build/examples/site``
(the Makefile's ``$(VENV)/.installed-examples``); each test here runs a fresh process with that
site on its path, so the codec is found only by its ``chatcodec.codecs`` entry point (no
``register_codec`` call) and its law facts only by its ``chatcodec.laws`` one. The bodies are
written from Cohere's Chat v2 documentation, shipped in the wheel's ``fixtures/`` with their
provenance; Cohere's SDK (``cohere`` 7.3.1, ``tests/requirements-no-deps.txt``) is the oracle.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "build" / "examples" / "site"
PACKAGE = ROOT / "examples" / "cohere-chat-codec" / "src" / "chatcodec_cohere_chat"
FIXTURES = PACKAGE / "fixtures"
PUBLIC = ("chatcodec", "chatcodec.contract", "chatcodec.codec_kit", "chatcodec.options", "chatcodec.testing")
"""What the codec may import of chatcodec: the public modules only."""


def _run(*arguments: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    if not (SITE / "chatcodec_cohere_chat").is_dir():
        pytest.fail("the example's wheel is not installed: run `make .venv/.installed-examples` (make test does)")
    path = [str(SITE), str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return subprocess.run(
        [sys.executable, *arguments],
        input=stdin,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(path)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _fixture(kind: str, name: str) -> str:
    return (FIXTURES / kind / name).read_text(encoding="utf-8")


def test_check_codec_runs_every_law_from_the_installed_wheel() -> None:
    result = _run("-m", "chatcodec", "check-codec", "cohere-chat", timeout=900)
    last = result.stdout.strip().splitlines()[-1]
    found = re.fullmatch(r"laws: (\d+) passed, (\d+) failed", last)
    assert found is not None, result.stdout + result.stderr
    assert found.group(2) == "0", result.stdout
    assert int(found.group(1)) >= 75  # 79 law cases on 25 recordings
    assert result.returncode == 0


def test_the_laws_read_the_codec_from_the_wheel_and_its_stated_facts() -> None:
    code = (
        "import chatcodec, chatcodec.testing as t\n"
        "cases = t.codec_law_cases('cohere-chat')\n"
        "print(chatcodec.get_codec('cohere-chat').decode_request.__module__)\n"
        "print(sum('recorded_request_round_trips_exactly' in case.id for case in cases))\n"
        "import chatcodec_cohere_chat; print(chatcodec_cohere_chat.__file__)\n"
    )
    result = _run("-c", code)
    assert result.returncode == 0, result.stderr
    _, recorded, where = result.stdout.splitlines()
    assert int(recorded) == len(list((FIXTURES / "request").iterdir()))  # its own fixtures, stated by entry point
    assert Path(where).is_relative_to(SITE)  # the installed wheel, not the source tree


def test_a_tool_loop_converts_to_anthropic_in_a_fresh_process() -> None:
    """The docs' parallel ``get_weather`` loop: the plan and the documents' marker reported,
    the calls and the documents' data carried."""
    result = _run(
        "-m", "chatcodec", "convert", "-", "--from", "cohere-chat", "--to", "anthropic",
        stdin=_fixture("request", "docs_tool_results_documents.json"),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    converted = json.loads(result.stdout)
    assert converted["model"] == "command-a-03-2025"
    assistant, results = converted["messages"][1:]
    assert [block["input"] for block in assistant["content"]] == [{"location": "Toronto"}, {"location": "New York"}]
    assert [block["tool_use_id"] for block in results["content"]] == [
        "get_weather_1byjy32y4hvq",
        "get_weather_e4bck8p3fdz6",
    ]
    assert results["content"][0]["content"] == [{"type": "text", "text": '{"temperature":"20C"}'}]
    assert "tool_plan" in result.stderr  # the plan has no Anthropic field: reported
    assert "_document" in result.stderr  # the text was a document: reported


def test_an_anthropic_answer_becomes_a_cohere_tool_call_response() -> None:
    answer = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {
                "type": "tool_use",
                "id": "get_weather_1byjy32y4hvq",
                "name": "get_weather",
                "input": {"location": "Toronto"},
            },
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 37, "output_tokens": 28},
    }
    result = _run(
        "-m", "chatcodec", "convert", "-", "--from", "anthropic", "--to", "cohere-chat", "--kind", "response",
        stdin=json.dumps(answer),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "id": "msg_1",
        "finish_reason": "TOOL_CALL",
        "message": {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "get_weather_1byjy32y4hvq",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"location":"Toronto"}'},
                }
            ],
        },
        "usage": {"tokens": {"input_tokens": 37, "output_tokens": 28}},
    }
    assert "Cohere Chat responses name no model" in result.stderr  # reported


def test_a_cohere_error_body_is_the_apis_refusal() -> None:
    code = (
        "import json, sys, chatcodec\n"
        "try:\n"
        "    chatcodec.decode_response('cohere-chat', json.loads(sys.stdin.read()))\n"
        "except chatcodec.ProviderAPIError as error:\n"
        "    print(error.message)\n"
    )
    result = _run("-c", code, stdin=_fixture("response", "error_too_many_requests.json"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "You are using a Trial key, which is limited to 10 API calls / minute."


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
from chatcodec_cohere_chat.laws import check_request, check_response

warnings.simplefilter("ignore")  # each conversion reports what Cohere Chat cannot carry
failed, converted = [], 0
for provider in chatcodec.PROVIDER_NAMES:
    for kind, convert, check in (
        ("request", chatcodec.convert_request, check_request),
        ("response", chatcodec.convert_response, check_response),
    ):
        for path in sorted(pathlib.Path("tests/fixtures", provider, kind).glob("*.json")):
            if path.name.startswith("error_"):
                continue
            try:
                body = convert(json.loads(path.read_text()), source=provider, target="cohere-chat", on_loss="ignore")
                if kind == "request":
                    body.setdefault("model", "command-a-03-2025")  # a request the rules found without one
                check(body)
            except Exception as error:
                failed.append(f"{path}: {type(error).__name__}: {error}")
            converted += 1
print(converted)
print("\\n".join(failed))
"""


def test_every_recorded_body_of_a_built_in_converts_to_a_body_the_sdk_takes() -> None:
    """The built-in providers' recordings (tests/fixtures), converted to Cohere Chat: each
    result passes the SDK's v2 types, whatever was lost."""
    result = _run("-c", _EVERY_BUILT_IN_RECORDING, timeout=300)
    assert result.returncode == 0, result.stderr
    converted, *failed = result.stdout.splitlines()
    assert [line for line in failed if line] == []
    assert int(converted) >= 100


_SERVE = """
import json, os, sys
import anyio, httpx
from chatcodec.serve import ServeConfig, create_app

os.environ["CO_API_KEY"] = "co-key"  # the variable Cohere's SDK reads, which the upstream side names

answer = json.loads(sys.argv[1])
sent = []


def reply(request: httpx.Request) -> httpx.Response:
    auth = request.headers.get("authorization")
    sent.append({"url": str(request.url), "auth": auth, "body": json.loads(request.content)})
    return httpx.Response(200, json=answer)


async def main() -> None:
    config = ServeConfig(api="openai-chat", upstream="cohere-chat", upstream_url="https://api.cohere.com",
                         allow_anonymous=True)
    async with httpx.AsyncClient(transport=httpx.MockTransport(reply)) as client:
        app = create_app(config, client=client)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://serve") as caller:
                result = await caller.post("/v1/chat/completions", json=json.load(sys.stdin))
    print(json.dumps({"status": result.status_code, "result": result.json(), "sent": sent}))


anyio.run(main)
"""
"""``chatcodec serve``'s app with ``--upstream cohere-chat``, in a process that finds the codec
by its entry point only; the upstream is an httpx ``MockTransport`` answering ``argv[1]``."""


def test_serve_calls_cohere_for_an_openai_client_with_no_registration_call() -> None:
    request = {"model": "command-a-03-2025", "messages": [{"role": "user", "content": "Tell me about LLMs"}]}
    answer = _fixture("response", "docs_basic_response.json")
    result = _run("-c", _SERVE, answer, stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    served = json.loads(result.stdout)
    assert served["status"] == 200, served
    [sent] = served["sent"]
    assert sent["url"] == "https://api.cohere.com/v2/chat"
    assert sent["auth"] == "Bearer co-key"
    assert sent["body"] == {
        "model": "command-a-03-2025",
        "messages": [{"role": "user", "content": "Tell me about LLMs"}],
    }
    [choice] = served["result"]["choices"]
    assert choice["message"]["content"].startswith("LLMs, or Large Language Models")
    assert choice["finish_reason"] == "stop"
    assert served["result"]["usage"]["prompt_tokens"] == 205


def test_the_cli_takes_cohere_chat_as_an_upstream_and_lists_it() -> None:
    """``serve --upstream`` takes the installed codec by name, read only then, and ``chatcodec
    formats`` lists it with its distribution."""
    result = _run("-m", "chatcodec", "serve", "--api", "openai-chat", "--upstream", "cohere-chat")
    assert result.returncode != 0
    assert "--upstream must be" not in result.stderr  # taken: what stops the server is the missing upstream URL
    assert "--upstream-url" in result.stderr, result.stderr
    listed = _run("-m", "chatcodec", "formats")
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^cohere-chat +installed by the distribution chatcodec-cohere-chat", listed.stdout, re.M)
