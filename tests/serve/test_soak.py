"""The soak of ``bench/soak.py`` (``make soak``: 10,000 requests), run small: 300 Responses
requests over 20 conversations through the gateway with a real Redis store restarted
halfway, plain and streamed. No answer is lost (every request answered 200 with no store
error and its whole history sent upstream, every conversation continued after the
restart, every last answer read back), and the process's resident memory grows by no more
than :data:`MEMORY_BOUND_MB` from the first tenth of the requests to the end."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
MEMORY_BOUND_MB = 16.0
"""What 270 requests may add to the process's resident memory (0.3 MB on the shared
machine; a gateway that held each answer or connection would pass it)."""


def _soak_module() -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("bench.soak")


def test_a_soak_with_a_redis_restart_loses_no_answer_and_stays_flat(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not on PATH: install it (apt-get install redis-server) to run the soak")
    result = _soak_module().soak(300, 20, folder=tmp_path)
    assert result.requests == 300
    assert result.failures == []
    assert result.not_continued == []
    assert result.not_read_back == []
    assert result.memory_at_end - result.memory_after_warm_up <= MEMORY_BOUND_MB
