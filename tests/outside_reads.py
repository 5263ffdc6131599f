"""The guard that the suite reads nothing beside the checkout (CONTRIBUTING.md, "Tests").

A test that reads a folder beside the repository (a sibling checkout's fixtures) passes on a developer's
machine and fails, or quietly skips, on a fresh clone, which has nothing beside it. Every
file the test process opens or lists goes through Python's audit events (PEP 578), so one
hook sees the reads of the tests, of the tools and bench modules they import, and of
chatcodec itself: a path under the checkout's parent folder but outside the checkout is
recorded, and ``conftest.py`` fails the test during which it was read (a read at
collection fails the first test after it). The interpreter, its site packages, the temp
folders and the system's own folders are allowed wherever they are, unless one of them
holds the checkout's parent (a clone in ``/tmp`` does not allow all of ``/tmp``).

Reads in a child process (a CLI run by ``subprocess``) are not seen; the static half of
the guard, ``tests/test_self_contained.py``, reads the source of every test, tool and
bench module for paths that climb above the checkout.
"""

from __future__ import annotations

import os
import site
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The checkout this suite belongs to."""

WATCHED = frozenset({"open", "os.listdir", "os.scandir", "glob.glob", "shutil.copyfile", "shutil.copytree"})
"""The audit events that read a path, by their first argument (``open``'s is the file)."""

_SYSTEM = ("/dev", "/proc", "/sys", "/etc", "/usr", "/lib", "/lib64", "/opt", "/var", "/run", "/bin")


class OutsideReads:
    """Records the paths read beside ``root``: under its parent, outside it and the allowed folders."""

    def __init__(self, root: Path, allowed: Iterable[str]) -> None:
        self.root = os.path.normpath(root)
        self.beside = os.path.dirname(self.root)
        parent = self.beside + os.sep
        # an allowed folder that holds the checkout's parent would allow everything beside it
        self.allowed = tuple(
            os.path.normpath(folder) + os.sep
            for folder in {self.root, *allowed}
            if not parent.startswith(os.path.normpath(folder) + os.sep)
        )
        self.found: list[str] = []

    def allow(self, folder: Path) -> None:
        """Allows one more folder (pytest's temp folder, known once the session starts)."""
        self.allowed = (*self.allowed, os.path.normpath(folder) + os.sep)

    def hook(self, event: str, args: tuple[object, ...]) -> None:
        """The audit hook: records a watched event's path when it is beside the checkout."""
        if event in WATCHED and args and isinstance(args[0], str | bytes | os.PathLike):
            self.check(os.fsdecode(args[0]), event)

    def check(self, path: str, event: str) -> None:
        full = os.path.normpath(os.path.abspath(path))
        inside_parent = full == self.beside or full.startswith(self.beside + os.sep)
        if inside_parent and not (full + os.sep).startswith(self.allowed):
            self.found.append(f"{event} {full}")

    def take(self) -> list[str]:
        """The paths recorded since the last call."""
        found, self.found = self.found, []
        return found


def allowed_folders() -> list[str]:
    """Where a test may read outside the checkout: the interpreter, its packages, the temp folder, the system."""
    folders = [sys.prefix, sys.base_prefix, sys.exec_prefix, tempfile.gettempdir(), *_SYSTEM]
    return [*folders, *site.getsitepackages(), site.getusersitepackages(), str(Path.home() / ".cache")]


WATCH = OutsideReads(ROOT, allowed_folders())
"""The session's record (``conftest.py`` installs its hook once: an audit hook cannot be removed)."""
