"""The tests' local Ray node (``tests/local_ray.py``, issue 108): a start that fails is stopped,
its processes killed, and tried again; nothing it began outlives the ``with`` block."""

from __future__ import annotations

import subprocess
import sys

import pytest

import local_ray


def test_a_failed_start_leaves_no_process_and_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[subprocess.Popen[bytes]] = []

    def timing_out(**_: object) -> None:  # as Ray's node does: its processes begun, then a timeout
        started.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"]))
        raise RuntimeError("The current node timed out during startup.")

    monkeypatch.setattr(local_ray.ray, "init", timing_out)
    monkeypatch.setattr(local_ray.time, "sleep", lambda _: None)
    with pytest.raises(RuntimeError, match="timed out during startup"), local_ray.local_ray(num_cpus=1):
        pytest.fail("the block runs only once a node started")
    assert len(started) == local_ray.ATTEMPTS
    assert [process.poll() is not None for process in started] == [True] * local_ray.ATTEMPTS


def test_a_node_that_started_is_stopped_with_what_it_began(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[subprocess.Popen[bytes]] = []
    stopped: list[bool] = []

    def starting(**_: object) -> None:
        started.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"]))

    monkeypatch.setattr(local_ray.ray, "init", starting)
    monkeypatch.setattr(local_ray.ray, "shutdown", lambda: stopped.append(True))
    running: list[bool] = []

    def failing_test() -> None:
        with local_ray.local_ray(num_cpus=1):
            running.append(started[0].poll() is None)
            raise ValueError("a test failed")

    with pytest.raises(ValueError, match="a test failed"):
        failing_test()
    assert running == [True]
    assert stopped == [True]
    assert started[0].poll() is not None
