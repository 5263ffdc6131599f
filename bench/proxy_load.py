"""Proxy throughput and latency under load: requests per second per core, p50 and p99.

Each proxy runs in its own process (so its CPU time is its own), in front of one fake
Anthropic upstream in another process; this process drives it with ``concurrency``
clients for a fixed time, plain requests, then streamed ones (a stream's latency is
to its last byte). Throughput per core is requests completed over the CPU seconds the
proxy process used (user + system, from ``/proc``): what one fully used core would
serve, which holds on a shared machine where wall-clock throughput does not. The
proxy's resident memory is read after each load.
Contenders: ``chatcodec serve --api openai-chat --upstream anthropic`` (its one JSON log
line per request included, as it runs), the pass-through proxy of :mod:`bench.proxy`
(Starlette + httpx, converting nothing), and litellm's proxy (``litellm --config``)
when its command is installed beside this Python (``make bench``'s ``.venv-bench``).

Run standalone: ``python bench/proxy_load.py [--quick]``; ``--serve NAME`` is how the
child processes start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.report import Table

ROOT = Path(__file__).resolve().parent.parent
HEADERS = {"authorization": "Bearer k"}
REQUEST = {"model": "claude-sonnet-4-6", "messages": [{"role": "user", "content": "Largest city?"}], "max_tokens": 500}
STREAM_REPEATS = 4
"""The recorded stream's deltas repeated this often (a stream of a few dozen events)."""
LITELLM_CONFIG = """model_list:
  - model_name: claude-sonnet-4-6
    litellm_params:
      model: anthropic/claude-sonnet-4-6
      api_base: {upstream}
      api_key: k
litellm_settings:
  drop_params: true
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _resident_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _wait_ready(origin: str, process: subprocess.Popen[bytes], seconds: float) -> None:
    import httpx

    arguments = process.args
    name = Path(str(arguments[0] if isinstance(arguments, list) else arguments)).name
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}")
        try:
            httpx.get(origin, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{name} did not start in {seconds} s")


@contextmanager
def _process(command: list[str], port: int, start_seconds: float = 60) -> Iterator[tuple[str, int]]:
    """``command`` run until the block ends; yields its origin and pid."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=errors)
        origin = f"http://127.0.0.1:{port}"
        try:
            try:
                _wait_ready(origin, process, start_seconds)
            except RuntimeError as error:
                errors.seek(0)
                last = (errors.read().decode(errors="replace").strip().splitlines() or [""])[-1]
                raise RuntimeError(f"{error}: {last}") from None
            yield origin, process.pid
        finally:
            _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _serve(name: str, port: int, upstream: str) -> None:
    """The child process: the fake upstream or the pass-through proxy, on ``port``."""
    import uvicorn

    from bench.proxy import FIXTURES, _long_stream, _pass_through_app, _upstream_app

    if name == "upstream":
        plain = (FIXTURES / "response" / "thinking_text_tool_use.json").read_bytes()
        app = _upstream_app(plain, _long_stream(STREAM_REPEATS)[0])
    else:
        app = _pass_through_app(upstream)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error", access_log=False)


async def _load(origin: str, *, stream: bool, concurrency: int, seconds: float) -> tuple[list[float], int]:
    """Latencies of the requests ``concurrency`` clients completed in ``seconds``, and
    how many failed (an answer other than 200, or a broken connection)."""
    import httpx

    latencies: list[float] = []
    failures = 0
    body = {**REQUEST, "stream": True} if stream else REQUEST
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=origin, timeout=60, limits=limits) as client:

        async def one() -> None:
            nonlocal failures
            started = time.perf_counter()
            try:
                async with client.stream("POST", "/v1/chat/completions", json=body, headers=HEADERS) as response:
                    async for _ in response.aiter_bytes():
                        pass
            except httpx.HTTPError:
                failures += 1
                return
            if response.status_code != 200:
                failures += 1
                return
            latencies.append(time.perf_counter() - started)

        async def client_loop(deadline: float) -> None:
            while time.perf_counter() < deadline:
                await one()

        for _ in range(concurrency):  # warm: connections open, codecs built
            await one()
        latencies.clear()
        failures = 0
        deadline = time.perf_counter() + seconds
        await asyncio.gather(*(client_loop(deadline) for _ in range(concurrency)))
    return latencies, failures


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure_one(origin: str, pid: int, *, stream: bool, concurrency: int, seconds: float) -> dict[str, float]:
    """Throughput per CPU second of the proxy, wall throughput, p50 and p99 for one contender."""
    cpu_before, wall_before = _cpu_seconds(pid), time.perf_counter()
    latencies, failures = asyncio.run(_load(origin, stream=stream, concurrency=concurrency, seconds=seconds))
    cpu, wall = _cpu_seconds(pid) - cpu_before, time.perf_counter() - wall_before
    if not latencies:
        raise RuntimeError(f"{origin}: no request succeeded ({failures} failed)")
    return {
        "failures": float(failures),
        "per_core": len(latencies) / cpu if cpu else float("nan"),
        "per_second": len(latencies) / wall,
        "p50": statistics.median(latencies),
        "p99": _percentile(latencies, 0.99),
        "rss_mb": _resident_mb(pid),
        "requests": float(len(latencies)),
    }


@contextmanager
def _contender(name: str, upstream: str) -> Iterator[tuple[str, int]]:
    port = _free_port()
    python = sys.executable
    if name == "chatcodec serve":
        command = [python, "-m", "chatcodec", "serve", "--api", "openai-chat", "--upstream", "anthropic"]
        command += ["--upstream-url", upstream, "--port", str(port)]
    elif name == "pass-through":
        command = [python, str(ROOT / "bench" / "proxy_load.py"), "--serve", "pass-through", "--port", str(port)]
        command += ["--upstream", upstream]
    else:
        with tempfile.TemporaryDirectory() as folder:
            config = Path(folder) / "litellm.yaml"
            config.write_text(LITELLM_CONFIG.format(upstream=upstream))
            litellm = [str(_litellm_command()), "--config", str(config), "--port", str(port), "--num_workers", "1"]
            with _process(litellm, port, start_seconds=180) as started:
                yield started
        return
    with _process(command, port) as started:
        yield started


def _litellm_command() -> Path | None:
    """litellm's proxy command beside this Python (``.venv-bench``), if installed with its proxy extra."""
    found = shutil.which("litellm", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return Path(found) if found else None


Results = dict[str, dict[str, dict[str, float]]]
"""``{contender: {"plain" | "stream": measures}}``."""


def measure(*, concurrency: int, seconds: float, with_litellm: bool = True) -> tuple[Results, dict[str, str]]:
    """The measures of each contender, and why each one left out was (it would not start)."""
    results: Results = {}
    left_out: dict[str, str] = {}
    upstream_port = _free_port()
    upstream_command = [sys.executable, str(ROOT / "bench" / "proxy_load.py"), "--serve", "upstream"]
    names = ["pass-through", "chatcodec serve"]
    if with_litellm and _litellm_command() is not None:
        names.append("litellm proxy")
    elif with_litellm:
        left_out["litellm proxy"] = "no litellm command beside this Python"
    with _process([*upstream_command, "--port", str(upstream_port)], upstream_port) as (upstream, _):
        for name in names:
            try:
                with _contender(name, upstream) as (origin, pid):
                    results[name] = {
                        mode: measure_one(
                            origin, pid, stream=mode == "stream", concurrency=concurrency, seconds=seconds
                        )
                        for mode in ("plain", "stream")
                    }
            except RuntimeError as error:
                left_out[name] = str(error)
    return results, left_out


def table(results: Results, concurrency: int) -> Table:
    """The load results as one table: a row per contender and mode."""
    from bench.report import Table, seconds

    rows = Table(
        ["proxy", "mode", "requests / s per core", "requests / s (wall)", "p50", "p99", "failed", "RSS after"],
        caption=f"{concurrency} concurrent clients; a stream is {STREAM_REPEATS}x the recorded deltas, "
        "timed to its last byte",
    )
    for name, modes in results.items():
        for mode, measured in modes.items():
            rows.rows.append(
                [
                    name,
                    mode,
                    f"{measured['per_core']:.0f}",
                    f"{measured['per_second']:.0f}",
                    seconds(measured["p50"]),
                    seconds(measured["p99"]),
                    f"{measured['failures']:.0f} of {measured['requests'] + measured['failures']:.0f}",
                    f"{measured['rss_mb']:.0f} MB",
                ]
            )
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/proxy_load.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two seconds a measurement")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--no-litellm", action="store_true")
    parser.add_argument("--serve", choices=["upstream", "pass-through"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--upstream", default="", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.serve:
        _serve(options.serve, options.port, options.upstream)
        return 0
    from bench.report import Section, render_section

    seconds = 2.0 if options.quick else 10.0
    results, left_out = measure(concurrency=options.concurrency, seconds=seconds, with_litellm=not options.no_litellm)
    print(json.dumps(results, indent=1), file=sys.stderr)
    notes = [f"{name} left out: {reason}" for name, reason in left_out.items()]
    section = Section(
        "proxy-load", "Proxy load", __doc__.split("\n\n")[1], [table(results, options.concurrency)], notes
    )
    print(render_section(section))
    return 0


if __name__ == "__main__":
    if Path(sys.path[0]).resolve() == ROOT / "bench":  # as a script: import bench.* from the repository root
        sys.path[0] = str(ROOT)
    raise SystemExit(main(sys.argv[1:]))
