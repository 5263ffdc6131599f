"""One local Ray node for a test module, started with the time a busy machine needs and always
stopped, whatever happens in between (issue 108: on a loaded two-core machine ``make test``'s
Ray modules timed out starting, and the half-started node's processes outlived the module and
failed an unrelated test).

- One node at a time on the machine: ``make test`` runs modules on every core (pytest-xdist),
  and two Ray nodes starting together on two cores starve each other's raylet. A lock file in
  the temp folder makes a second module wait for the first to stop its node.
- The waits Ray lets us set are widened (a worker's registration, the GCS's health checks of
  the raylet), and the workers Ray would start ahead of any task are not started, so the start
  leaves the raylet the CPU it needs to register.
- The one wait Ray fixes (``ray._private.node``: 30 s for the raylet to register, not an option in
  Ray 2.60) is met by starting again: a failed start is stopped and tried twice more.
- Stopped means stopped: ``ray.shutdown`` and then every process the start left behind (a start
  that failed half way leaves a GCS and a raylet that ``ray.shutdown`` does not know about).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import ray

ATTEMPTS = 3
"""How many times a node is started before the module's error is the start's."""

SYSTEM_CONFIG = {
    "worker_register_timeout_seconds": 300,
    "health_check_initial_delay_ms": 60_000,
    "health_check_timeout_ms": 60_000,
    "health_check_failure_threshold": 20,
    "enable_worker_prestart": False,
}
"""Ray's waits, widened for a loaded machine (Ray's defaults: 60 s, 5 s, 10 s, 5 failures)."""

LOCK = Path(tempfile.gettempdir()) / "chatcodec-tests-ray.lock"
"""The lock one Ray node at a time holds, shared by every test process on the machine."""


@contextlib.contextmanager
def _one_node_at_a_time() -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: no flock; the modules run one after another there anyway
        yield
        return
    with LOCK.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _children() -> set[int]:
    """This process's descendants now (Ray's own psutil: ``import ray`` puts it on the path)."""
    import psutil

    return {child.pid for child in psutil.Process().children(recursive=True)}


def _stop(before: set[int]) -> None:
    """Stops the node and kills what it left: the descendants this process did not have before."""
    import psutil

    ray.shutdown()
    left = [psutil.Process(pid) for pid in _children() - before if psutil.pid_exists(pid)]
    for process in left:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(left, timeout=30)


@contextlib.contextmanager
def local_ray(num_cpus: int) -> Iterator[None]:
    """A local Ray node with ``num_cpus`` CPUs, no dashboard and no auth token, for the ``with`` block."""
    previous = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"  # otherwise Ray writes a token under ~/.ray
    try:
        with _one_node_at_a_time():
            before = _children()
            try:
                for attempt in range(1, ATTEMPTS + 1):
                    try:
                        ray.init(
                            num_cpus=num_cpus,
                            include_dashboard=False,
                            log_to_driver=False,
                            configure_logging=False,
                            _system_config=SYSTEM_CONFIG,
                        )
                        break
                    except Exception:
                        _stop(before)
                        if attempt == ATTEMPTS:
                            raise
                        time.sleep(1)
                yield
            finally:
                _stop(before)
    finally:
        if previous is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = previous
