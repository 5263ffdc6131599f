"""The gateway as an ASGI application of one's own: ``chatcodec.serve.create_app`` called
in-process through ``httpx.ASGITransport``, mounted in another Starlette app (whose server
runs only the outer lifespan), and ``uvicorn --factory chatcodec.serve:app_from_environment``
run as several worker processes sharing one SQLite store."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Mount

import chatcodec
from chatcodec import AssistantMessage, ChatResponse, FinishReason, TextPart
from chatcodec._providers.openai_responses.carried_reasoning import seal
from chatcodec.serve import ServeConfig, create_app
from serve.harness import FakeUpstream, fixture_bytes

pytestmark = pytest.mark.usefixtures("fresh_fake")

KEY = {"authorization": "Bearer alice-key"}


def _answer(text: str) -> dict[str, Any]:
    response = ChatResponse(
        id="msg_1",
        model="claude-sonnet-4-5",
        message=AssistantMessage(content=[TextPart(text=text)]),
        finish_reason=FinishReason(unified="stop", raw="end_turn"),
    )
    return chatcodec.encode_response("anthropic", response, on_loss="ignore")


def _chat(text: str) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": text}]}


def test_create_app_serves_health_through_asgi_transport() -> None:
    app = create_app(ServeConfig(api="openai-chat", upstream="anthropic", upstream_url="http://127.0.0.1:9"))

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gateway") as client:
            return await client.get("/health")

    health = anyio.run(run)
    assert (health.status_code, health.json()) == (200, {"status": "ok"})


def test_a_call_through_asgi_transport_inside_the_apps_lifespan(fake: FakeUpstream) -> None:
    """``httpx.ASGITransport`` sends no lifespan events: the test runs the app's own, which
    opens the upstream client and closes it (and the store) at the end."""
    fake.reply(_answer("Paris."))
    app = create_app(ServeConfig(api="openai-chat", upstream="anthropic", upstream_url=fake.base))

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://g") as client,
        ):
            return await client.post("/v1/chat/completions", json=_chat("Capital of France?"), headers=KEY)

    answer = anyio.run(run)
    assert answer.status_code == 200, answer.text
    assert answer.json()["choices"][0]["message"]["content"] == "Paris."
    assert fake.last.path == "/v1/messages"


def test_mounted_in_another_app_the_gateway_answers_under_its_prefix(fake: FakeUpstream) -> None:
    """Starlette (and FastAPI) run a mounted app's lifespan only when the outer one enters it."""
    fake.reply(_answer("Mounted."))
    gateway = create_app(ServeConfig(api="openai-chat", upstream="anthropic", upstream_url=fake.base))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with gateway.router.lifespan_context(gateway):
            yield

    outer = Starlette(routes=[Mount("/llm", app=gateway)], lifespan=lifespan)

    async def run() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=outer)
        async with lifespan(outer), httpx.AsyncClient(transport=transport, base_url="http://outer") as client:
            health = await client.get("/llm/health")
            answer = await client.post("/llm/v1/chat/completions", json=_chat("Say mounted."), headers=KEY)
            return health, answer

    health, answer = anyio.run(run)
    assert health.status_code == 200
    assert answer.status_code == 200, answer.text
    assert answer.json()["choices"][0]["message"]["content"] == "Mounted."


def test_a_responses_front_whose_lifespan_never_ran_still_checks_seals(fake: FakeUpstream) -> None:
    """The seal key is read before the first call that needs it, lifespan or not: a forged
    seal is refused, never taken for one of the server's own."""
    part = {"type": "thinking", "text": "I think.", "signature": "c2ln", "provider": "anthropic"}
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": seal(part)}  # no key
    forged = {"model": "claude-sonnet-4-5", "input": [{"role": "user", "content": "Hi."}, reasoning]}
    config = ServeConfig(api="openai-responses", upstream="anthropic", upstream_url=fake.base, validate=True)

    async def run() -> httpx.Response:
        async with httpx.AsyncClient() as upstream_client:
            outer = Starlette(routes=[Mount("/llm", app=create_app(config, client=upstream_client))])
            transport = httpx.ASGITransport(app=outer)
            async with httpx.AsyncClient(transport=transport, base_url="http://outer") as client:
                return await client.post("/llm/v1/responses", json=forged, headers=KEY)

    refused = anyio.run(run)
    assert refused.status_code == 400, refused.text
    assert "sealed reasoning this server did not write" in refused.json()["error"]["message"]
    assert fake.received == []


# --- uvicorn --factory, several worker processes on one store ------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _listening(socket_path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(str(socket_path))
        except OSError:
            return False
        return True


@contextmanager
def _uvicorn(settings: Path, socket_path: Path, *options: str) -> Iterator[httpx.Client]:
    """``uvicorn --factory chatcodec.serve:app_from_environment`` on a Unix socket of its own
    (no free-port race with other servers on the machine); yields a client of it."""
    environment = {**os.environ, "CHATCODEC_SERVE_CONFIG": str(settings), "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "uvicorn", "--factory", "chatcodec.serve:app_from_environment"]
    process = subprocess.Popen(
        [*command, "--uds", str(socket_path), "--log-level", "warning", *options],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its workers in its process group, so a kill takes them too
    )
    client = httpx.Client(transport=httpx.HTTPTransport(uds=str(socket_path)), base_url="http://gateway", timeout=30)
    try:
        deadline = time.monotonic() + 60
        while not _listening(socket_path):  # probed with a socket closed each time (httpx leaks a refused one)
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn did not start: {process.communicate(timeout=10)[1].decode()}")
            time.sleep(0.1)
        assert client.get("/health").status_code == 200
        try:
            yield client
        except httpx.TransportError as error:  # the server gone: say why, not only that its socket is
            if process.poll() is None:
                raise
            raise RuntimeError(f"uvicorn stopped: {process.communicate(timeout=10)[1].decode()}") from error
    finally:
        client.close()
        process.terminate()
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # workers slow to stop on a loaded machine: not this test's subject,
            os.killpg(process.pid, signal.SIGKILL)  # and a live server left behind would fail the next test for it;
            process.communicate(timeout=30)  # the whole group, or an orphaned worker holds stderr open forever


def test_worker_processes_sharing_one_sqlite_store_continue_each_others_answers(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    settings = tmp_path / "gateway.toml"
    settings.write_text(
        f'api = "openai-responses"\nupstream = "anthropic"\nupstream_url = "{fake.base}"\n'
        f'store = "sqlite:{tmp_path / "answers.db"}"\n'
    )
    turns = 6
    for turn in range(turns):
        fake.reply(_answer(f"answer {turn}"))
    with (
        # uvicorn's supervisor kills a worker that answers its health check late (5 s by default), which
        # resets the request in flight on a loaded machine: the check is not what this test is about
        _uvicorn(
            settings, tmp_path / "two.sock", "--workers", "2", "--timeout-worker-healthcheck", "60"
        ) as two_workers,
        _uvicorn(settings, tmp_path / "one.sock") as another,
    ):
        previous: str | None = None
        for turn in range(turns):
            client = two_workers if turn % 2 == 0 else another
            body: dict[str, Any] = {"model": "claude-sonnet-4-5", "input": f"question {turn}"}
            if previous is not None:
                body["previous_response_id"] = previous
            answer = client.post("/v1/responses", json=body, headers=KEY)
            assert answer.status_code == 200, answer.text
            assert "chatcodec-store-error" not in answer.headers
            previous = answer.json()["id"]
        kept = two_workers.get(f"/v1/responses/{previous}", headers=KEY)
    sent = [[message["content"] for message in received.body["messages"]] for received in fake.received]
    assert len(sent) == turns
    last = sent[-1]  # the whole history, whichever process kept each answer
    assert [text if isinstance(text, str) else text[0]["text"] for text in last] == [
        piece for turn in range(turns - 1) for piece in (f"question {turn}", f"answer {turn}")
    ] + [f"question {turns - 1}"]
    assert kept.status_code == 200
    assert kept.json()["output"][0]["content"][0]["text"] == f"answer {turns - 1}"


def test_the_factory_stops_a_worker_with_one_line_when_a_setting_is_wrong(tmp_path: Path) -> None:
    settings = tmp_path / "gateway.toml"
    settings.write_text('api = "openai-chat"\nupstream = "anthropic"\nupstream_url = "ftp://nowhere"\n')
    environment = {**os.environ, "CHATCODEC_SERVE_CONFIG": str(settings), "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "uvicorn", "--factory", "chatcodec.serve:app_from_environment"]
    finished = subprocess.run(
        [*command, "--port", str(_free_port())],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 3  # uvicorn's startup failure: its supervisor does not restart the worker
    lines = [line for line in finished.stderr.splitlines() if line.startswith("chatcodec serve:")]
    assert lines == ["chatcodec serve: --upstream-url must be an http(s) URL, not 'ftp://nowhere'"]
    assert "Traceback" not in finished.stderr


def test_the_factory_names_its_variable_when_it_is_not_set(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatcodec.serve import app_from_environment

    monkeypatch.delenv("CHATCODEC_SERVE_CONFIG", raising=False)
    with pytest.raises(SystemExit) as stopped:
        app_from_environment()
    assert stopped.value.code == 3


def _streamed_through(fake: FakeUpstream, *, middleware: bool) -> tuple[httpx.Response, list[tuple[str, bytes]]]:
    """A streamed call through the gateway, ``middleware`` one added to it (as an embedding
    application would) that notes every message the gateway sends: the answer, and the notes."""
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    fake.reply(fixture_bytes("anthropic", "stream", "text_basic.sse"), content_type="text/event-stream")
    gateway = create_app(ServeConfig(api="openai-chat", upstream="anthropic", upstream_url=fake.base))
    seen: list[tuple[str, bytes]] = []

    class Noting:
        def __init__(self, app: ASGIApp) -> None:
            self.app = app

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            async def noted(message: Message) -> None:
                seen.append((message["type"], message.get("body", b"")))
                await send(message)

            await self.app(scope, receive, noted)

    if middleware:
        gateway.add_middleware(Noting)
    body = {**_chat("Say hi."), "stream": True}

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=gateway)
        async with (
            gateway.router.lifespan_context(gateway),
            httpx.AsyncClient(transport=transport, base_url="http://g") as client,
        ):
            return await client.post("/v1/chat/completions", json=body, headers=KEY)

    return anyio.run(run), seen


def test_a_middleware_added_to_the_gateway_sees_every_message_of_a_stream(fake: FakeUpstream) -> None:
    """The gateway writes a stream's body past Starlette's own middleware, never past one an
    embedding application added: that one sees the start, every chunk and the end."""
    plain, _ = _streamed_through(fake, middleware=False)
    noted, seen = _streamed_through(fake, middleware=True)
    assert noted.status_code == plain.status_code == 200
    chunks = [line for line in noted.text.split("\n\n") if line]
    assert chunks[-1] == "data: [DONE]"
    assert len(chunks) == len([line for line in plain.text.split("\n\n") if line]) > 2
    assert seen[0][0] == "http.response.start"
    assert [kind for kind, _ in seen[1:]] == ["http.response.body"] * (len(seen) - 1)
    assert b"".join(body for _, body in seen[1:]).decode() == noted.text
