"""One direction through the gateway: a request passes the named steps of
:mod:`chatcodec.serve._steps` once each, in order, and never climbs back into a module it
came through (the app among them).

Two views of the same rule. The import graph of ``chatcodec.serve`` has no circle (a
``TYPE_CHECKING`` import counts: it is a dependency all the same) and nothing imports the
app but the server that runs it. And a real request, traced with :func:`sys.setprofile` in
the server's thread, enters the app once, enters each step once in the order the steps
name, and never calls into a serve module that is already on its stack below another one
(ASGI's ``receive`` and ``send`` callbacks into the middleware around the app are the
host's, not the walk's: the stack is read up to the app).
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from types import FrameType
from typing import Any

import httpx
import pytest

import chatcodec.serve
from chatcodec.serve import ServeConfig
from chatcodec.serve import _steps as steps
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, kept_records, serving_config
from training.qwen3_tokenizer import qwen3_encoding

pytestmark = pytest.mark.usefixtures("fresh_fake")

SERVE = Path(chatcodec.serve.__file__).parent
APP = "chatcodec.serve._app"
STEP_PREFIX = "chatcodec.serve._steps."
KEY = {"authorization": "Bearer sk-test"}
ALL_STEPS = frozenset((*steps.PLAIN, *steps.STREAMED, *steps.RENDERED))
CHAT = {
    "model": "claude-sonnet-4-5",
    "max_completion_tokens": 2048,
    "reasoning_effort": "low",
    "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SERVE.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _serve_modules() -> dict[str, Path]:
    return {_module_name(path): path for path in SERVE.rglob("*.py")}


def _imports(path: Path, known: set[str]) -> set[str]:
    """The serve modules ``path`` imports (a name imported from a package is its module
    when it is one)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if submodule in known:
                    found.add(submodule)
                elif node.module in known:
                    found.add(node.module)
    return found


def _import_graph() -> dict[str, set[str]]:
    modules = _serve_modules()
    known = set(modules)
    return {name: _imports(path, known) - {name} for name, path in modules.items()}


def test_the_serve_modules_import_each_other_without_a_circle() -> None:
    graph = _import_graph()
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        pytest.fail(f"an import circle in chatcodec.serve: {' -> '.join(error.args[1])}")
    assert set(order) == set(graph)


def test_nothing_imports_the_app_but_what_runs_or_exports_it() -> None:
    """The server and the uvicorn factory run it; the package exports it (lazily)."""
    importers = {name for name, imported in _import_graph().items() if APP in imported}
    assert importers == {"chatcodec.serve", "chatcodec.serve._factory", "chatcodec.serve._server"}


def test_every_step_the_pipeline_names_is_a_module_of_its_own() -> None:
    modules = _serve_modules()
    for step in {*steps.PLAIN, *steps.STREAMED, *steps.RENDERED}:
        assert f"{STEP_PREFIX}{step}" in modules


@dataclass
class Walk:
    """What the server's thread entered while recording: a new frame of a serve module,
    with the serve modules on its stack up to the app (innermost first)."""

    recording: bool = False
    entries: list[tuple[str, tuple[str, ...]]] = field(default_factory=lambda: [])
    _seen: dict[int, FrameType] = field(default_factory=lambda: {})
    _names: dict[str, str | None] = field(default_factory=lambda: {})

    def module(self, frame: FrameType) -> str | None:
        filename = frame.f_code.co_filename
        if filename not in self._names:
            path = Path(filename)
            self._names[filename] = _module_name(path) if path.is_relative_to(SERVE) else None
        return self._names[filename]

    def profile(self, frame: FrameType, event: str, argument: Any) -> None:
        if not self.recording or event != "call":
            return
        name = self.module(frame)
        if name is None or id(frame) in self._seen:  # not serve's, or a coroutine resumed
            return
        self._seen[id(frame)] = frame
        stack: list[str] = []
        outer = frame.f_back
        while outer is not None:
            outer_name = self.module(outer)
            if outer_name is not None:
                if not stack or stack[-1] != outer_name:
                    stack.append(outer_name)
                if outer_name == APP:
                    break
            outer = outer.f_back
        self.entries.append((name, tuple(stack)))

    def climbs(self) -> list[str]:
        """Calls into a module already on the stack below another module."""
        found = []
        for name, stack in self.entries:
            if name in stack[1:]:
                found.append(f"{name} entered from {' < '.join(stack)}")
        return found

    def app_entries(self) -> int:
        return sum(1 for name, stack in self.entries if name == APP and APP not in stack)

    def steps(self) -> list[str]:
        """The steps entered from outside themselves, in order, a step's repeated entries
        with no other step between them counted once."""
        order: list[str] = []
        for name, stack in self.entries:
            if name.startswith(STEP_PREFIX) and (not stack or stack[0] != name):
                step = name.removeprefix(STEP_PREFIX)
                if step in ALL_STEPS and (not order or order[-1] != step):
                    order.append(step)
        return order

    def entered_from_app(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for name, stack in self.entries:
            step = name.removeprefix(STEP_PREFIX)
            if step in ALL_STEPS and stack[:1] == (APP,):
                counts[step] = counts.get(step, 0) + 1
        return counts


@contextmanager
def traced_proxy(fake: FakeUpstream, rendering: bool = False) -> Iterator[tuple[str, Walk]]:
    """The proxy (a memory store, so thinking is kept; or, ``rendering``, chatcodec rendering
    Qwen3 prompts for vLLM's token endpoint) with its thread traced."""
    walk = Walk()
    threading.setprofile(walk.profile)
    settings: dict[str, Any] = {"store": "memory"}
    if rendering:
        settings = {"template": "qwen3", "allow_anonymous": True}
    config = ServeConfig(
        api="openai-chat", upstream="vllm-generate" if rendering else "anthropic", upstream_url=fake.base, **settings
    )
    try:
        with serving_config(config, tokenizer=qwen3_encoding() if rendering else None) as origin:
            threading.setprofile(None)  # type: ignore[arg-type,unused-ignore]
            yield origin, walk
    finally:
        threading.setprofile(None)  # type: ignore[arg-type,unused-ignore]


def _walked(walk: Walk, send: Any) -> httpx.Response:
    """The answer to ``send()``, the server's thread recorded until the request's log line,
    its last step (a stream's after the caller has read its end)."""
    with kept_records("chatcodec.serve") as request_log:
        walk.recording = True
        try:
            answer: httpx.Response = send()
            assert request_log.wait_for(bool), "no request line"
        finally:
            walk.recording = False
    return answer


def test_a_plain_request_walks_each_step_once_in_order(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    with traced_proxy(fake) as (origin, walk):
        answer = _walked(walk, lambda: httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY))
    assert answer.status_code == 200
    assert walk.climbs() == [], "\n".join(walk.climbs())
    assert walk.app_entries() == 1
    assert walk.steps() == list(steps.PLAIN)
    assert walk.entered_from_app() == dict.fromkeys(steps.PLAIN[:-1], 1)


def test_a_streamed_request_walks_each_step_once_in_order(fake: FakeUpstream) -> None:
    fake.reply(fixture_bytes("anthropic", "stream", "thinking_signature_delta.sse"), content_type="text/event-stream")
    body = {**CHAT, "stream": True}
    with traced_proxy(fake) as (origin, walk):
        answer = _walked(walk, lambda: httpx.post(f"{origin}/v1/chat/completions", json=body, headers=KEY))
    assert answer.status_code == 200
    assert "data: [DONE]" in answer.text
    assert walk.climbs() == [], "\n".join(walk.climbs())
    assert walk.app_entries() == 1
    assert walk.steps() == list(steps.STREAMED)
    assert walk.entered_from_app() == dict.fromkeys(steps.STREAMED[:-1], 1)


def test_a_request_chatcodec_renders_walks_its_steps_once_in_order(fake: FakeUpstream) -> None:
    ids = qwen3_encoding().encode("Hello.<|im_end|>", allowed_special="all")
    fake.reply({"choices": [{"index": 0, "token_ids": ids, "finish_reason": "stop"}]})
    with traced_proxy(fake, rendering=True) as (origin, walk):
        answer = _walked(walk, lambda: httpx.post(f"{origin}/v1/chat/completions", json=CHAT, headers=KEY))
    assert answer.status_code == 200
    assert answer.json()["choices"][0]["message"]["content"] == "Hello."
    assert walk.climbs() == [], "\n".join(walk.climbs())
    assert walk.steps() == list(steps.RENDERED)
    assert walk.entered_from_app() == dict.fromkeys(steps.RENDERED[:-1], 1)


def test_the_walk_sees_a_climb_back_into_the_app() -> None:
    """The trace itself: a frame of a module below another on its stack is a climb."""
    walk = Walk(entries=[(APP, ()), (f"{STEP_PREFIX}read", (APP,)), (APP, (f"{STEP_PREFIX}read", APP))])
    assert walk.climbs() == [f"{APP} entered from {STEP_PREFIX}read < {APP}"]
