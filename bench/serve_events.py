"""Serve's cost per streamed event against the in-process stream converter's, without sockets.

``chatcodec serve --api openai-chat --upstream anthropic`` relays an Anthropic stream as
OpenAI chunks. What it costs per event beyond the conversion is the ASGI app (Starlette's
``StreamingResponse`` and its ``send``), httpx's chunk iteration, the serve steps (the
observed converter, the event size check, the write deadline, the log line) around
:class:`~chatcodec.StreamConverter`. This measures both in one process, on the same
upstream bytes (an SSE body of ``N`` deltas, :func:`bench.section_streams._anthropic_sse`,
one event per chunk, as a network delivers a slow model's events):

* *serve*: the app :func:`~chatcodec.serve.create_app` builds, called as an ASGI
  application (its lifespan entered once; the caller's ``receive`` and ``send`` are
  plain coroutines, so no HTTP server and no socket is measured), its upstream client an
  ``httpx.AsyncClient`` on an ``httpx.MockTransport`` streaming the body;
* *converter*: ``StreamConverter("anthropic", "openai-chat")`` fed the same chunks, then
  closed, as serve's stream step feeds its own.

Each is run on a short and a long stream; the cost per event is the difference over the
difference in events, so what a request costs once (routing, the request's conversion,
the response headers) cancels. Two measures:

* instructions (``--instructions``): one process under ``valgrind --tool=callgrind
  --instr-atstart=no`` (:mod:`bench.callgrind`), ``PYTHONHASHSEED=0``; the machine's load
  does not move them;
* CPU time (``time.process_time``), the medians of ``--rounds`` interleaved rounds.

``python bench/serve_events.py [--instructions] [--rounds 15] [--deltas 50 500]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import callgrind  # noqa: E402

TARGET_RATIO = 2.0
"""Issue 47: serve's cost per streamed event at most this many times the converter's."""

OWN_PART = "the app, httpx's iteration and the serve steps"
"""What serve adds to an event: the figure that moves only when serve's own work does (the
ratio above also moves when the converter gets faster or slower)."""
SERVE, CONVERTER = "serve (ASGI app, httpx upstream)", "StreamConverter in process"
_REQUEST = (
    b'{"model": "claude-sonnet-4-5", "max_tokens": 1000, "stream": true, '
    b'"stream_options": {"include_usage": true}, "messages": [{"role": "user", "content": "Find the bug."}]}'
)
"""The caller asks for the usage chunk, as the converter writes it."""


def _chunks(deltas: int) -> list[bytes]:
    """The upstream body, one SSE event per chunk."""
    from bench import section_streams

    body = section_streams._anthropic_sse(deltas)
    return [event + b"\n\n" for event in body.split(b"\n\n") if event]


class Bench:
    """The app and the converter, over the streams of each length."""

    def __init__(self, lengths: Sequence[int]) -> None:
        import httpx

        from chatcodec.serve import ServeConfig
        from chatcodec.serve._app import create_app

        self.streams = {length: _chunks(length) for length in lengths}
        self.playing: list[bytes] = []

        async def body() -> AsyncIterator[bytes]:
            for chunk in self.playing:
                yield chunk

        def upstream(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())

        client = httpx.AsyncClient(transport=httpx.MockTransport(upstream))
        config = ServeConfig(api="openai-chat", upstream="anthropic", upstream_url="http://upstream.invalid")
        self.app: Any = create_app(config, client=client)

    async def serve(self, length: int) -> int:
        """One streamed request through the app; the bytes written to the caller."""
        self.playing = self.streams[length]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},  # what uvicorn sends
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/v1/chat/completions",
            "raw_path": b"/v1/chat/completions",
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"content-type", b"application/json"),
                (b"authorization", b"Bearer bench-key"),
                (b"content-length", str(len(_REQUEST)).encode()),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        given = False
        written = 0
        status = 0

        async def receive() -> dict[str, Any]:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": _REQUEST, "more_body": False}
            await asyncio.Event().wait()  # the caller stays until the answer ends
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal written, status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                written += len(message.get("body", b""))

        await self.app(scope, receive, send)
        if status != 200:
            raise RuntimeError(f"serve answered {status}")
        return written

    def convert(self, length: int) -> int:
        """The same upstream chunks through a converter in process; the bytes it gives."""
        from chatcodec import StreamConverter

        converter = StreamConverter("anthropic", "openai-chat", on_loss="ignore")
        written = sum(len(converter.feed(chunk)) for chunk in self.streams[length])
        return written + len(converter.close())

    def events(self, length: int) -> int:
        return len(self.streams[length])


Run = Callable[[int], Awaitable[object]]


async def _lifespan(bench: Bench, body: Callable[[], Awaitable[None]]) -> None:
    async with bench.app.router.lifespan_context(bench.app):
        await body()


def _runs(bench: Bench) -> dict[str, Run]:
    async def convert(length: int) -> object:
        return bench.convert(length)

    return {SERVE: bench.serve, CONVERTER: convert}


def cpu_times(lengths: Sequence[int], rounds: int) -> dict[str, dict[int, list[float]]]:
    """Per contender and length, the CPU seconds of each round (interleaved)."""
    bench = Bench(lengths)
    runs = _runs(bench)
    found: dict[str, dict[int, list[float]]] = {name: {length: [] for length in lengths} for name in runs}

    async def body() -> None:
        for length in lengths:  # warm-up, and the outputs agree in size
            served, converted = await bench.serve(length), bench.convert(length)
            if abs(served - converted) > 200:  # ids and timestamps may differ in length, not content
                raise RuntimeError(f"serve wrote {served} bytes, the converter {converted}")
        gc.collect()
        gc.freeze()
        for _ in range(rounds):
            for name, run in runs.items():
                for length in lengths:
                    start = time.process_time()
                    await run(length)
                    found[name][length].append(time.process_time() - start)

    asyncio.run(_lifespan(bench, body))
    return found


def per_event_cpu(found: dict[str, dict[int, list[float]]], bench_events: dict[int, int]) -> dict[str, float]:
    lengths = sorted(bench_events)
    short, long = lengths[0], lengths[-1]
    return {
        name: (statistics.median(times[long]) - statistics.median(times[short]))
        / (bench_events[long] - bench_events[short])
        for name, times in found.items()
    }


def child(library: Path, lengths: Sequence[int], calls: int) -> int:
    """Count every (contender, length) region under callgrind; each dumped as ``name|length``."""
    requests = callgrind.Requests(library)
    bench = Bench(lengths)
    runs = _runs(bench)

    async def body() -> None:
        for run in runs.values():
            for length in lengths:
                await run(length)
                await run(length)
        gc.collect()
        gc.freeze()
        for name, run in runs.items():
            for length in lengths:
                requests.start()
                gc.collect()
                requests.zero()
                for _ in range(calls):
                    await run(length)
                requests.dump(f"{name}|{length}")
                requests.stop()

    asyncio.run(_lifespan(bench, body))
    return 0


def instructions(lengths: Sequence[int], calls: int) -> dict[str, dict[int, float]]:
    """Per contender and length, the instructions of one request."""
    with tempfile.TemporaryDirectory(prefix="chatcodec-serve-events-") as temporary:
        directory = Path(temporary)
        library = callgrind.build(directory)
        arguments = [str(Path(__file__).resolve()), "--child", str(library), "--calls", str(calls), "--deltas"]
        callgrind.run([*arguments, *map(str, lengths)], directory)
        found: dict[str, dict[int, float]] = {}
        for dump in callgrind.read_dumps(directory):
            name, _, length = dump.label.rpartition("|")
            found.setdefault(name, {})[int(length)] = dump.instructions / calls
    return found


def table(lengths: Sequence[int], cpu: dict[str, float] | None, counted: dict[str, dict[int, float]] | None) -> str:
    events = {length: len(_chunks(length)) for length in lengths}
    short, long = min(lengths), max(lengths)
    lines = [
        f"| per streamed event (Anthropic SSE -> OpenAI SSE, {events[short]} and {events[long]} events) "
        "| instructions | CPU time |",
        "|---|---|---|",
    ]
    per_count: dict[str, float] = {}
    for name in (SERVE, CONVERTER):
        count = ""
        if counted and name in counted:
            per_count[name] = (counted[name][long] - counted[name][short]) / (events[long] - events[short])
            count = f"{per_count[name] / 1e3:.1f} k"
        time_cell = f"{cpu[name] * 1e6:.1f} µs" if cpu else ""
        lines.append(f"| {name} | {count} | {time_cell} |")
    ratio_count = per_count[SERVE] / per_count[CONVERTER] if len(per_count) == 2 else None
    ratio_cpu = cpu[SERVE] / cpu[CONVERTER] if cpu else None

    def shown(ratio: float | None) -> str:
        if ratio is None:
            return ""
        return f"**{ratio:.2f}x** {'✓' if ratio <= TARGET_RATIO else '✗'}"

    lines.append(f"| serve / converter (target <= {TARGET_RATIO:.0f}x) | {shown(ratio_count)} | {shown(ratio_cpu)} |")
    own_count = f"{(per_count[SERVE] - per_count[CONVERTER]) / 1e3:.1f} k" if len(per_count) == 2 else ""
    own_cpu = f"{(cpu[SERVE] - cpu[CONVERTER]) * 1e6:.1f} µs" if cpu else ""
    lines.append(f"| serve's own part (serve - converter: {OWN_PART}) | {own_count} | {own_cpu} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--deltas", type=int, nargs=2, default=[50, 500], help="the short and the long stream")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved CPU-time rounds (0: none)")
    parser.add_argument("--instructions", action="store_true", help="also count instructions under callgrind")
    parser.add_argument("--calls", type=int, default=2, help="requests per counted region")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child is not None:
        return child(arguments.child, arguments.deltas, arguments.calls)
    counted = instructions(arguments.deltas, arguments.calls) if arguments.instructions else None
    cpu = None
    if arguments.rounds:
        events = {length: len(_chunks(length)) for length in arguments.deltas}
        cpu = per_event_cpu(cpu_times(arguments.deltas, arguments.rounds), events)
    print(
        f"Serve per streamed event against StreamConverter in process, Python {sys.version.split()[0]} "
        f"(CPU time: medians of {arguments.rounds} interleaved rounds; instructions: callgrind, PYTHONHASHSEED=0)."
    )
    print()
    print(table(arguments.deltas, cpu, counted))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
