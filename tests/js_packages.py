"""``node`` with js/'s packages installed at the versions ``js/package-lock.json`` pins, for the
tests that check chatcodec from JavaScript (the JSON Schemas with ajv, the Vercel AI SDK's own
message schemas, the docs site in the pinned browser): ``make test`` installs them (``npm ci``,
``make js``), and a test that needs them installs them itself when they are missing or older
than the lockfile, so running one test file alone works too."""

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


def node_with_packages() -> str:
    """The path of ``node``, once js/'s pinned packages are installed."""
    node = shutil.which("node")
    npm = shutil.which("npm")
    assert node is not None, "node (20 or later) must be on the PATH for the tests that run js/"
    assert npm is not None, "npm must be on the PATH to install js/'s pinned packages"
    installed = JS / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < (JS / "package-lock.json").stat().st_mtime:
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=JS, capture_output=True, text=True, timeout=600, check=False
        )
        assert result.returncode == 0, result.stderr
    return node
