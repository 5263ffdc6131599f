"""Proxy overhead: ``chatcodec serve`` against a pass-through proxy on the same stack.

Run standalone (``python bench/proxy.py [--quick]``) or as the ``proxy`` section of
``bench/run.py``. Three loopback servers, each uvicorn in a thread: a fake Anthropic
upstream answering a recorded response or stream (tests/fixtures/anthropic), a
pass-through proxy (Starlette + httpx: the body forwarded as it is, the answer streamed
back byte for byte), and ``chatcodec serve --api openai-chat --upstream anthropic``, the
same Starlette + httpx with the conversion in between. An OpenAI-shaped request goes
through each; the ratio is chatcodec's time over the pass-through's, so the stack's own
cost (HTTP, uvicorn, httpx) is in both and the difference is what converting adds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.report import Section
    from bench.timing import RunSettings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "anthropic"
HEADERS = {"authorization": "Bearer k"}
REQUEST = {"model": "claude-sonnet-4-6", "messages": [{"role": "user", "content": "Largest city?"}], "max_tokens": 500}
INTRO = (
    "Time per request through `chatcodec serve --api openai-chat --upstream anthropic` against a pass-through "
    "proxy on the same stack (Starlette, uvicorn, httpx; the body forwarded and the answer streamed back "
    "unchanged), both in front of one fake Anthropic server replaying `thinking_text_tool_use.json` and, "
    "streamed, `thinking_signature_delta.sse` repeated to a long answer. All on loopback in one process; the "
    "client is httpx. The overhead is chatcodec's median minus the pass-through's; the ratio, chatcodec's over it."
)


def _upstream_app(plain: bytes, stream: bytes) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(stream), 512):
            yield stream[start : start + 512]

    async def messages(request: Request) -> Response:
        body = json.loads(await request.body())
        if body.get("stream"):
            return StreamingResponse(chunks(), media_type="text/event-stream")
        return Response(plain, media_type="application/json")

    return Starlette(routes=[Route("/{rest:path}", messages, methods=["POST"])])


def _pass_through_app(upstream: str, client: Any = None) -> Any:
    """The same stack as chatcodec serve, converting nothing (on ``client`` when given:
    :mod:`bench.serve_requests` gives both apps the same mock upstream)."""
    import httpx
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    client = client if client is not None else httpx.AsyncClient(timeout=60)

    async def forward(request: Request) -> Response:
        body = await request.body()
        built = client.build_request("POST", f"{upstream}/v1/messages", content=body, headers={"x-api-key": "k"})
        response = await client.send(built, stream=True)

        async def relay() -> AsyncIterator[bytes]:
            try:
                async for chunk in response.aiter_bytes():
                    yield chunk
            finally:
                await response.aclose()

        if json.loads(body).get("stream"):
            return StreamingResponse(relay(), media_type="text/event-stream")
        content = await response.aread()
        await response.aclose()
        return Response(content, media_type="application/json")

    return Starlette(routes=[Route("/v1/chat/completions", forward, methods=["POST"])])


@contextmanager
def _serving(app: Any) -> Iterator[str]:
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _long_stream(repeats: int) -> tuple[bytes, int]:
    """The recorded stream with each text and thinking delta repeated in place, inside
    its own block (repeating the deltas of every block after the first block's would send
    deltas for a block never started, a stream the converter rightly ends with an error):
    (bytes, number of delta events)."""
    text = (FIXTURES / "stream" / "thinking_signature_delta.sse").read_text()
    body: list[str] = []
    deltas = 0
    for event in text.strip().split("\n\n"):
        repeated = '"text_delta"' in event or '"thinking_delta"' in event
        body.extend([event] * (repeats if repeated else 1))
        deltas += repeats if repeated else int("content_block_delta" in event)
    return ("\n\n".join(body) + "\n\n").encode(), deltas


def _median_time(call: Callable[[], object], rounds: int) -> float:
    call()  # warm: connections open, codecs built
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def measure(rounds: int, repeats: int) -> dict[str, float]:
    """Median seconds per plain request and per stream, through each proxy; events per stream."""
    import httpx

    from chatcodec.serve import ServeConfig
    from chatcodec.serve._app import create_app

    stream, events = _long_stream(repeats)
    plain = (FIXTURES / "response" / "thinking_text_tool_use.json").read_bytes()
    results: dict[str, float] = {"events": float(events)}
    with _serving(_upstream_app(plain, stream)) as upstream:
        config = ServeConfig(api="openai-chat", upstream="anthropic", upstream_url=upstream)
        proxies = {"pass-through": _pass_through_app(upstream), "chatcodec": create_app(config)}
        for name, app in proxies.items():
            with _serving(app) as origin, httpx.Client(base_url=origin, timeout=60) as client:

                def plain_call(client: httpx.Client = client) -> object:
                    return client.post("/v1/chat/completions", json=REQUEST, headers=HEADERS).content

                def stream_call(client: httpx.Client = client) -> object:
                    body = {**REQUEST, "stream": True}
                    with client.stream("POST", "/v1/chat/completions", json=body, headers=HEADERS) as response:
                        return sum(len(chunk) for chunk in response.iter_bytes())

                results[f"{name} plain"] = _median_time(plain_call, rounds)
                results[f"{name} stream"] = _median_time(stream_call, rounds)
    return results


def run(settings: RunSettings) -> Section:
    """The ``proxy`` section of ``bench/run.py``."""
    from bench.report import Section, Table, ratio, seconds

    results = measure(rounds=max(5, settings.rounds * 4), repeats=4 if settings.quick else 40)
    events = results["events"]
    table = Table(["per", "pass-through", "chatcodec serve", "overhead", "ratio"])
    plain_base, plain_ours = results["pass-through plain"], results["chatcodec plain"]
    table.rows.append(
        [
            "request (plain)",
            seconds(plain_base),
            seconds(plain_ours),
            seconds(plain_ours - plain_base),
            ratio(plain_ours / plain_base),
        ]
    )
    stream_base, stream_ours = results["pass-through stream"] / events, results["chatcodec stream"] / events
    table.rows.append(
        [
            f"streamed event ({int(events)} a stream)",
            seconds(stream_base),
            seconds(stream_ours),
            seconds(stream_ours - stream_base),
            ratio(stream_ours / stream_base),
        ]
    )
    from bench import proxy_load

    concurrency = 8
    loaded, left_out = proxy_load.measure(concurrency=concurrency, seconds=2.0 if settings.quick else 10.0)
    notes = [proxy_load.__doc__.split("\n\n")[1].replace("\n", " ")]
    notes += [f"{name} left out: {reason}" for name, reason in left_out.items()]
    return Section(
        "proxy",
        "Proxy overhead (chatcodec serve)",
        INTRO,
        tables=[table, proxy_load.table(loaded, concurrency)],
        footnotes=notes,
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/proxy.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few rounds, a short stream")
    options = parser.parse_args(argv)
    from bench.cli import FULL, QUICK
    from bench.report import render_section

    print(render_section(run(QUICK if options.quick else FULL)))
    return 0


if __name__ == "__main__":
    if Path(sys.path[0]).resolve() == ROOT / "bench":  # as a script: import bench.* from the repository root
        sys.path[0] = str(ROOT)
    raise SystemExit(main(sys.argv[1:]))
