"""node and js/'s pinned npm packages, for the tests that check chatcodec from JavaScript
(the JSON Schemas with ajv, the Vercel AI SDK's own message schemas)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

JS = Path(__file__).resolve().parents[1] / "js"
NODE_TIMEOUT = 120


def run_in_js(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    """``command`` run in js/, its output captured as text."""
    return subprocess.run(command, cwd=JS, capture_output=True, text=True, timeout=NODE_TIMEOUT, check=False, **options)


def installed_node() -> str:
    """``node``, with js/'s packages installed from the lockfile (``npm ci`` when missing or stale)."""
    node = shutil.which("node")
    npm = shutil.which("npm")
    assert node is not None, "node (20 or later) must be on the PATH for the checks from JavaScript"
    assert npm is not None, "npm must be on the PATH to install js/'s pinned packages"
    installed = JS / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < (JS / "package-lock.json").stat().st_mtime:
        result = run_in_js([npm, "ci", "--no-audit", "--no-fund"])
        assert result.returncode == 0, result.stderr
    return node
