"""The gateway's CPU time per plain request on the bench's agent sessions, by the direct route and
by the canonical route (issue 107): ``chatcodec serve --api SOURCE --upstream TARGET`` with no
store, no ``--record`` and no ``--validate`` converts a request as ``convert_request`` does, by the
pair's direct path (:mod:`chatcodec.serve._steps.validate`'s ``direct_route``); the canonical route
is the same app with the direct paths off (:func:`chatcodec._direct.table.canonical_only`), what
every request cost before.

The app is called as an ASGI application in one process (no socket, :mod:`bench.serve_requests`'
way) on an ``httpx.MockTransport`` answering a recorded answer of the upstream's format. Each
request is ``bench/feature_shapes.py``'s coding agent session (the issue's agent features: signed
thinking, a marked system part, an image in a tool result, parallel calls, long and failed results)
of ``--steps`` steps, sent as a plain request; the CPU time (``time.process_time``) of each is the
median over ``--calls`` calls after ``--calls`` warm-up calls. ``convert_request`` alone on the
same body is given beside it (the conversion's share).

    PYTHONPATH=src python bench/gateway_direct.py [--steps 10 40] [--calls 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import feature_shapes  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
ANSWERS = {
    "anthropic": FIXTURES / "anthropic" / "response" / "thinking_text_tool_use.json",
    "openai-chat": FIXTURES / "openai-chat" / "response" / "finish_length_max_tokens.json",
    "openai-responses": FIXTURES / "openai-responses" / "response" / "function_call_no_reasoning.json",
}
PATHS = {"openai-chat": "/v1/chat/completions", "anthropic": "/v1/messages", "openai-responses": "/v1/responses"}


def _app(source: str, target: str) -> Any:
    import httpx

    from chatcodec.serve import ServeConfig, create_app

    answer = ANSWERS[target].read_bytes()

    def upstream(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "application/json"}, content=answer)

    config = ServeConfig(api=source, upstream=target, upstream_url="http://upstream.invalid")
    return create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(upstream)))


async def _spent(app: Any, path: str, body: dict[str, Any], calls: int) -> float:
    """The median CPU seconds of one request, after ``calls`` warm-up requests (the body encoded
    once, the app called as ASGI: no client's work counted)."""
    from bench.serve_requests import _scope

    raw = json.dumps(body).encode()
    scope = _scope(path)
    scope["headers"] = [header for header in scope["headers"] if header[0] != b"content-length"]
    scope["headers"].append((b"content-length", str(len(raw)).encode()))
    times: list[float] = []
    status: list[int] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    for index in range(2 * calls):
        status.clear()
        started = time.process_time()
        await app(dict(scope), receive, send)
        spent = time.process_time() - started
        if status != [200]:
            raise RuntimeError(f"the gateway answered {status}")
        if index >= calls:
            times.append(spent)
    return statistics.median(times)


def _converted(source: str, target: str, body: dict[str, Any], calls: int) -> float:
    import chatcodec

    times: list[float] = []
    for index in range(2 * calls):
        started = time.process_time()
        chatcodec.convert_request(body, source=source, target=target, on_loss="ignore")
        if index >= calls:
            times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[10, 40])
    parser.add_argument("--calls", type=int, default=30)
    arguments = parser.parse_args()
    from chatcodec._direct.table import canonical_only

    print(f"CPU us per plain request (median of {arguments.calls}), Python {sys.version.split()[0]}")
    print("| pair | steps | canonical route | direct route | ratio | convert_request alone |")
    print("|---|---|---|---|---|---|")
    for source, target in feature_shapes.PAIRS:
        for steps in arguments.steps:
            body = feature_shapes.body(source, target, steps, feature_shapes.AGENT)
            body.pop("stream", None)
            body.pop("stream_options", None)
            app = _app(source, target)
            with canonical_only():
                before = asyncio.run(_spent(app, PATHS[source], body, arguments.calls))
            after = asyncio.run(_spent(app, PATHS[source], body, arguments.calls))
            alone = _converted(source, target, body, arguments.calls)
            print(
                f"| {source} -> {target} | {steps} | {before * 1e6:,.0f} | {after * 1e6:,.0f} | "
                f"{before / after:.2f}x | {alone * 1e6:,.0f} |"
            )


if __name__ == "__main__":
    main()
